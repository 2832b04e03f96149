package io.fabemu.nic;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabemu.core.fault.FaultSettings;
import io.fabemu.core.protocol.DeviceProtocol.TransportTimer;
import io.fabemu.core.protocol.Message;
import org.junit.jupiter.api.Test;

/** The bookkeeping of the NIC's reliable transport: numbering, timers, retransmissions, giving up, deduplication. */
class ReliableTransportTest {
  private static final long TIMEOUT_PS = 30_000_000L;
  private static final int HOST = 2;
  private static final int DESTINATION = 5;
  private static final Message MESSAGE = Message.synthetic(8, 20, 42L, 4096);

  private static ReliableTransport transport(int maxRetransmissions) {
    return new ReliableTransport(HOST, new FaultSettings(5_000_000L, 3, 1_000_000L, 100_000L, TIMEOUT_PS,
        maxRetransmissions));
  }

  @Test
  void messagesAreNumberedPerDestinationFromZero() {
    ReliableTransport transport = transport(10);
    assertThat(transport.nextSequence(DESTINATION)).isZero();
    assertThat(transport.nextSequence(DESTINATION)).isEqualTo(1);
    assertThat(transport.nextSequence(6)).isZero();
    assertThat(transport.nextSequence(DESTINATION)).isEqualTo(2);
    assertThat(transport.nextSequence(6)).isEqualTo(1);
  }

  @Test
  void everySendArmsATimerWithANewSerial() {
    ReliableTransport transport = transport(10);
    assertThat(transport.sent(DESTINATION, 0, MESSAGE)).isEqualTo(new TransportTimer(DESTINATION, 0, 0));
    assertThat(transport.sent(DESTINATION, 1, MESSAGE)).isEqualTo(new TransportTimer(DESTINATION, 1, 1));
    assertThat(transport.sent(6, 0, MESSAGE)).isEqualTo(new TransportTimer(6, 0, 2));
    // A resend of message 0 re-arms its timer with the next serial.
    assertThat(transport.sent(DESTINATION, 0, MESSAGE)).isEqualTo(new TransportTimer(DESTINATION, 0, 3));
    assertThat(transport.unacknowledged()).isEqualTo(3);
  }

  @Test
  void aTimerReturnsTheMessageUntilTheLastRetransmissionAndThenGivesUpWithItsLine() {
    ReliableTransport transport = transport(3);
    TransportTimer timer = transport.sent(DESTINATION, 0, MESSAGE);
    for (int retransmission = 1; retransmission <= 3; retransmission++) {
      assertThat(transport.onTimer(timer, 1_000_000L * retransmission)).as("retransmission %d", retransmission)
          .isSameAs(MESSAGE);
      timer = transport.sent(DESTINATION, 0, MESSAGE);
    }
    assertThat(transport.gaveUp()).isEmpty();

    assertThat(transport.onTimer(timer, 123_456_789L)).isNull();
    assertThat(transport.gaveUp()).containsExactly("host 2 gave up on message 0 to host 5 (rank 8 -> rank 20, tag 42, "
        + "4096 B) after 3 retransmissions, at 123.457 us");
    assertThat(transport.unacknowledged()).isZero();
    // The message is forgotten: its timer firing again changes nothing.
    assertThat(transport.onTimer(timer, 200_000_000L)).isNull();
    assertThat(transport.gaveUp()).hasSize(1);
  }

  @Test
  void noRetransmissionsAllowedGivesUpOnTheFirstTimeout() {
    ReliableTransport transport = transport(0);
    TransportTimer timer = transport.sent(DESTINATION, 4, MESSAGE);
    assertThat(transport.onTimer(timer, 50_000_000L)).isNull();
    assertThat(transport.gaveUp()).containsExactly("host 2 gave up on message 4 to host 5 (rank 8 -> rank 20, tag 42, "
        + "4096 B) after 0 retransmissions, at 50.000 us");
  }

  @Test
  void aStaleTimerAndTheTimerOfAnAcknowledgedMessageResendNothing() {
    ReliableTransport transport = transport(10);
    TransportTimer first = transport.sent(DESTINATION, 0, MESSAGE);
    TransportTimer rearmed = transport.sent(DESTINATION, 0, MESSAGE);
    assertThat(transport.onTimer(first, 1_000L)).isNull();
    // The stale timer did not count as a retransmission.
    assertThat(transport.waitPs(DESTINATION, 0)).isEqualTo(TIMEOUT_PS);
    assertThat(transport.onTimer(rearmed, 2_000L)).isSameAs(MESSAGE);

    TransportTimer other = transport.sent(DESTINATION, 1, MESSAGE);
    transport.acknowledged(DESTINATION, 1);
    assertThat(transport.onTimer(other, 3_000L)).isNull();
    // A late or repeated acknowledgement of a message no longer pending is ignored.
    transport.acknowledged(DESTINATION, 1);
    transport.acknowledged(DESTINATION, 9);
    assertThat(transport.unacknowledged()).isEqualTo(1);
    assertThat(transport.gaveUp()).isEmpty();
  }

  @Test
  void theWaitDoublesWithEveryRetransmissionUpToSixtyFourTimesTheTimeout() {
    ReliableTransport transport = transport(10);
    // Before the first send there is nothing pending: the plain timeout.
    assertThat(transport.waitPs(DESTINATION, 0)).isEqualTo(TIMEOUT_PS);
    TransportTimer timer = transport.sent(DESTINATION, 0, MESSAGE);
    long[] expected = {1, 2, 4, 8, 16, 32, 64, 64, 64, 64};
    for (int retransmissions = 0; retransmissions < expected.length; retransmissions++) {
      assertThat(transport.waitPs(DESTINATION, 0)).as("after %d retransmissions", retransmissions)
          .isEqualTo(expected[retransmissions] * TIMEOUT_PS);
      assertThat(transport.onTimer(timer, 0L)).isSameAs(MESSAGE);
      timer = transport.sent(DESTINATION, 0, MESSAGE);
    }
    assertThat(transport.waitPs(DESTINATION, 0)).isEqualTo(64 * TIMEOUT_PS);
  }

  @Test
  void deliveredMessagesAreRememberedPerSourceWhateverTheirOrder() {
    ReliableTransport transport = transport(10);
    transport.markDelivered(3, 0);
    transport.markDelivered(3, 2);
    assertThat(transport.isDelivered(3, 0)).isTrue();
    assertThat(transport.isDelivered(3, 1)).isFalse();
    assertThat(transport.isDelivered(3, 2)).isTrue();

    transport.markDelivered(3, 1);
    assertThat(transport.isDelivered(3, 0)).isTrue();
    assertThat(transport.isDelivered(3, 1)).isTrue();
    assertThat(transport.isDelivered(3, 2)).isTrue();
    assertThat(transport.isDelivered(3, 3)).isFalse();
    assertThat(transport.isDelivered(4, 0)).as("another source").isFalse();

    transport.markDelivered(3, 3);
    assertThat(transport.isDelivered(3, 3)).isTrue();
    assertThat(transport.isDelivered(3, 4)).isFalse();
  }
}
