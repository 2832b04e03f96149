package io.fabemu.traces;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import org.junit.jupiter.api.Test;

class TraceExceptionTest {

  @Test
  void shouldNameFileNodeAndReasonOnOneLine() {
    TraceException e = new TraceException("a.0.et", 12, "bad\n  thing");

    assertThat(e).hasMessage("a.0.et: node 12: bad thing");
    assertThat(e.file()).isEqualTo("a.0.et");
    assertThat(e.nodeId()).isEqualTo(12);
    assertThat(e.reason()).isEqualTo("bad thing");
  }

  @Test
  void shouldLeaveOutTheNodeWhenNoneIsAtFaultAndKeepTheCause() {
    IOException cause = new IOException("disk");
    TraceException e = new TraceException("a.1.et", TraceException.NO_NODE, "unreadable", cause);

    assertThat(e).hasMessage("a.1.et: unreadable").hasCause(cause);
  }

  @Test
  void shouldPrintAnUnsignedId() {
    assertThat(new TraceException("f", -2, "x")).hasMessage("f: node 18446744073709551614: x");
  }
}
