package io.fabemu.app;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabemu.engine.EngineFailedException;
import org.junit.jupiter.api.Test;

/** The one line an error gets on stderr. */
class ErrorLinesTest {

  @Test
  void shouldJoinLinesIntoOneWhenOneLine() {
    assertThat(ErrorLines.oneLine("  first\n   second \r\n\nthird  ")).isEqualTo("first second third");
    assertThat(ErrorLines.oneLine("already one line")).isEqualTo("already one line");
    assertThat(ErrorLines.oneLine(null)).isEmpty();
  }

  @Test
  void shouldKeepEngineMessageAndNameOtherClassesWhenFailure() {
    assertThat(ErrorLines.failure(new EngineFailedException("member 2: device s0 failed", null)))
        .isEqualTo("member 2: device s0 failed");
    assertThat(ErrorLines.failure(new IllegalStateException("bad state"))).isEqualTo("IllegalStateException: bad state");
    assertThat(ErrorLines.failure(new NullPointerException())).isEqualTo("java.lang.NullPointerException");
  }
}
