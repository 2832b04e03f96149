package io.fabemu.core.protocol;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabemu.core.inc.IncPacketType;
import io.fabemu.core.inc.IncRequest;
import org.junit.jupiter.api.Test;

/** A protocol's line framing: whole lines on the wire, and which messages carry one. */
class LineFramingTest {
  private static final LineFraming LL = new LineFraming("ll", 16, 8);
  private static final LineFraming LL128 = new LineFraming("ll128", 128, 120);

  @Test
  void shouldSendWholeLinesTheLastOnePadded() {
    assertThat(LL.wireBytes(0)).isZero();
    assertThat(LL.wireBytes(1)).isEqualTo(16);
    assertThat(LL.wireBytes(8)).isEqualTo(16);
    assertThat(LL.wireBytes(9)).isEqualTo(32);
    assertThat(LL.wireBytes(1 << 20)).isEqualTo(2L << 20);
    assertThat(LL128.wireBytes(120)).isEqualTo(128);
    assertThat(LL128.wireBytes(121)).isEqualTo(256);
    assertThat(LL128.wireBytes(120L * 1_000_000)).isEqualTo(128L * 1_000_000);
  }

  @Test
  void shouldBeFoundOnlyOnAMessageThatCarriesIt() {
    Message plain = Message.synthetic(0, 1, 7L, 64);
    assertThat(LineFraming.of(plain)).isNull();
    assertThat(LineFraming.of(plain.withExtension(LL))).isEqualTo(LL);
    Message inc = plain.withExtension(new IncRequest(IncPacketType.TASK_UP, null, null, null));
    assertThat(LineFraming.of(inc)).isNull();
    // And the other way: a framed message is not INC's.
    assertThat(IncRequest.of(plain.withExtension(LL))).isNull();
    assertThat(IncRequest.of(inc)).isNotNull();
  }

  @Test
  void shouldRefuseALineWithoutPayloadOrWithMorePayloadThanItHolds() {
    assertThatThrownBy(() -> new LineFraming("x", 16, 0)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("protocol x");
    assertThatThrownBy(() -> new LineFraming("x", 8, 16)).isInstanceOf(IllegalArgumentException.class);
    assertThat(new LineFraming("same", 8, 8).wireBytes(13)).isEqualTo(16);
  }
}
