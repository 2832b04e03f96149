package io.fabemu.nic;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabemu.core.fault.FaultSettings;
import io.fabemu.core.fault.FaultTally;
import io.fabemu.core.fault.RetransmitTimeout;
import io.fabemu.core.protocol.DeviceProtocol.TransportTimer;
import io.fabemu.core.protocol.Message;
import io.fabemu.core.routing.RoutingTable;
import io.fabemu.core.time.Units;
import io.fabemu.core.topology.LinkSpec;
import io.fabemu.core.topology.Topologies;
import io.fabemu.core.topology.Topology;
import org.junit.jupiter.api.Test;

/**
 * The bookkeeping of the NIC's reliable transport: numbering, timers (fixed and adaptive), retransmissions, giving
 * up, deduplication, and telling spurious resends from loss-driven ones.
 */
class ReliableTransportTest {
  private static final long TIMEOUT_PS = 30_000_000L;
  private static final int HOST = 2;
  private static final int DESTINATION = 5;
  private static final Message MESSAGE = Message.synthetic(8, 20, 42L, 4096);
  /** Eight hosts in a line, 1 us and 100 Gb/s per cable: host 2 to host 5 is three cables. */
  private static final Topology LINE = Topologies.line(8, new LinkSpec(100 * Units.GBPS, 1_000_000L));
  private static final long PCIE_LATENCY_PS = 200_000L;
  /** The idle round trip of MESSAGE from HOST to DESTINATION: see {@link PathRoundTripTest}. */
  private static final long MESSAGE_ROUND_TRIP_PS = new PathRoundTrip(HOST, LINE, RoutingTable.compute(LINE), 0L,
      PCIE_LATENCY_PS).roundTripPs(DESTINATION, MESSAGE.sizeBytes());

  /** Events 0..2, and the slot of resends no event explains. */
  private final FaultTally tally = new FaultTally(3);

  private ReliableTransport transport(RetransmitTimeout timeout, int maxRetransmissions) {
    FaultSettings settings = new FaultSettings(5_000_000L, 3, 1_000_000L, 100_000L, timeout, maxRetransmissions,
        true);
    return new ReliableTransport(HOST, settings, tally,
        new PathRoundTrip(HOST, LINE, RoutingTable.compute(LINE), 0L, PCIE_LATENCY_PS));
  }

  private ReliableTransport transport(int maxRetransmissions) {
    return transport(new RetransmitTimeout.Fixed(TIMEOUT_PS), maxRetransmissions);
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
      assertThat(transport.onTimer(timer, 1_000_000L * retransmission, 0)).as("retransmission %d", retransmission)
          .isSameAs(MESSAGE);
      assertThat(transport.transmission(DESTINATION, 0)).isEqualTo(retransmission);
      timer = transport.sent(DESTINATION, 0, MESSAGE);
    }
    assertThat(transport.gaveUp()).isEmpty();
    assertThat(tally.resentMessages(0)).isEqualTo(3);

    assertThat(transport.onTimer(timer, 123_456_789L, 0)).isNull();
    assertThat(transport.gaveUp()).containsExactly("host 2 gave up on message 0 to host 5 (rank 8 -> rank 20, tag 42, "
        + "4096 B) after 3 retransmissions, at 123.457 us");
    assertThat(transport.unacknowledged()).isZero();
    // The message is forgotten: its timer firing again changes nothing.
    assertThat(transport.onTimer(timer, 200_000_000L, 0)).isNull();
    assertThat(transport.gaveUp()).hasSize(1);
    assertThat(tally.resentMessages(0)).isEqualTo(3);
  }

  @Test
  void noRetransmissionsAllowedGivesUpOnTheFirstTimeout() {
    ReliableTransport transport = transport(0);
    TransportTimer timer = transport.sent(DESTINATION, 4, MESSAGE);
    assertThat(transport.onTimer(timer, 50_000_000L, -1)).isNull();
    assertThat(transport.gaveUp()).containsExactly("host 2 gave up on message 4 to host 5 (rank 8 -> rank 20, tag 42, "
        + "4096 B) after 0 retransmissions, at 50.000 us");
  }

  @Test
  void aStaleTimerAndTheTimerOfAnAcknowledgedMessageResendNothing() {
    ReliableTransport transport = transport(10);
    TransportTimer first = transport.sent(DESTINATION, 0, MESSAGE);
    TransportTimer rearmed = transport.sent(DESTINATION, 0, MESSAGE);
    assertThat(transport.onTimer(first, 1_000L, -1)).isNull();
    // The stale timer did not count as a retransmission.
    assertThat(transport.armedAt(DESTINATION, 0, 1_000L)).isEqualTo(TIMEOUT_PS);
    assertThat(transport.onTimer(rearmed, 2_000L, -1)).isSameAs(MESSAGE);

    TransportTimer other = transport.sent(DESTINATION, 1, MESSAGE);
    transport.acknowledged(DESTINATION, 1, 0, 3_000L);
    assertThat(transport.onTimer(other, 3_000L, -1)).isNull();
    // A late or repeated acknowledgement of a message no longer pending is ignored.
    transport.acknowledged(DESTINATION, 1, 0, 4_000L);
    transport.acknowledged(DESTINATION, 9, 0, 4_000L);
    assertThat(transport.unacknowledged()).isEqualTo(1);
    assertThat(transport.gaveUp()).isEmpty();
  }

  @Test
  void aFixedWaitDoublesWithEveryRetransmissionUpToSixtyFourTimesTheTimeout() {
    ReliableTransport transport = transport(10);
    TransportTimer timer = transport.sent(DESTINATION, 0, MESSAGE);
    long[] expected = {1, 2, 4, 8, 16, 32, 64, 64, 64, 64};
    for (int retransmissions = 0; retransmissions < expected.length; retransmissions++) {
      assertThat(transport.armedAt(DESTINATION, 0, 0L)).as("after %d retransmissions", retransmissions)
          .isEqualTo(expected[retransmissions] * TIMEOUT_PS);
      assertThat(transport.onTimer(timer, 0L, -1)).isSameAs(MESSAGE);
      timer = transport.sent(DESTINATION, 0, MESSAGE);
    }
    assertThat(transport.armedAt(DESTINATION, 0, 0L)).isEqualTo(64 * TIMEOUT_PS);
  }

  @Test
  void anAdaptiveWaitStartsAtThreeIdleRoundTripsOfTheMessageWithinItsBounds() {
    assertThat(MESSAGE_ROUND_TRIP_PS).isPositive();
    ReliableTransport wide = transport(new RetransmitTimeout.Adaptive(1_000L, 1_000_000_000L), 10);
    wide.sent(DESTINATION, 0, MESSAGE);
    assertThat(wide.armedAt(DESTINATION, 0, 0L)).isEqualTo(3 * MESSAGE_ROUND_TRIP_PS);

    // The minimum lifts it, the maximum caps it.
    ReliableTransport floor = transport(new RetransmitTimeout.Adaptive(10 * MESSAGE_ROUND_TRIP_PS,
        20 * MESSAGE_ROUND_TRIP_PS), 10);
    floor.sent(DESTINATION, 0, MESSAGE);
    assertThat(floor.armedAt(DESTINATION, 0, 0L)).isEqualTo(10 * MESSAGE_ROUND_TRIP_PS);
    ReliableTransport cap = transport(new RetransmitTimeout.Adaptive(1_000L, MESSAGE_ROUND_TRIP_PS), 10);
    cap.sent(DESTINATION, 0, MESSAGE);
    assertThat(cap.armedAt(DESTINATION, 0, 0L)).isEqualTo(MESSAGE_ROUND_TRIP_PS);
  }

  @Test
  void anAdaptiveWaitFollowsTheMeasuredRoundTripsAndDoublesPerExpiryUpToTheMaximum() {
    long maxPs = 1_000_000_000L;
    ReliableTransport transport = transport(new RetransmitTimeout.Adaptive(1_000L, maxPs), 10);
    // A destination whose round trips are long (a congested path): 40 us each, for messages sent once.
    long roundTripPs = 40_000_000L;
    RoundTripEstimator expected = new RoundTripEstimator();
    for (long seq = 0; seq < 5; seq++) {
      transport.sent(DESTINATION, seq, MESSAGE);
      transport.armedAt(DESTINATION, seq, seq * 100_000_000L);
      transport.acknowledged(DESTINATION, seq, 0, seq * 100_000_000L + roundTripPs);
      expected.sample(roundTripPs);
    }
    assertThat(expected.timeoutPs()).isGreaterThan(3 * MESSAGE_ROUND_TRIP_PS);
    TransportTimer timer = transport.sent(DESTINATION, 5, MESSAGE);
    assertThat(transport.armedAt(DESTINATION, 5, 0L)).isEqualTo(expected.timeoutPs());
    // Another destination not measured yet borrows the NIC's estimate over all destinations.
    transport.sent(6, 0, MESSAGE);
    assertThat(transport.armedAt(6, 0, 0L)).isEqualTo(expected.timeoutPs());

    for (int expiry = 1; expiry <= 3; expiry++) {
      assertThat(transport.onTimer(timer, 0L, -1)).isSameAs(MESSAGE);
      timer = transport.sent(DESTINATION, 5, MESSAGE);
      assertThat(transport.armedAt(DESTINATION, 5, 0L)).isEqualTo(expected.timeoutPs() << expiry);
    }
    for (int expiry = 4; expiry <= 10; expiry++) {
      transport.onTimer(timer, 0L, -1);
      timer = transport.sent(DESTINATION, 5, MESSAGE);
    }
    assertThat(transport.armedAt(DESTINATION, 5, 0L)).isEqualTo(maxPs);
  }

  @Test
  void theAcknowledgementOfAResentMessageGivesNoRoundTripSample() {
    ReliableTransport transport = transport(new RetransmitTimeout.Adaptive(1_000L, 1_000_000_000L), 10);
    TransportTimer timer = transport.sent(DESTINATION, 0, MESSAGE);
    transport.armedAt(DESTINATION, 0, 0L);
    transport.onTimer(timer, 1_000_000L, -1);
    transport.sent(DESTINATION, 0, MESSAGE);
    transport.armedAt(DESTINATION, 0, 1_000_000L);
    // Karn: acknowledged 900 us later, but of which copy nobody can tell from the time alone.
    transport.acknowledged(DESTINATION, 0, 1, 901_000_000L);

    transport.sent(DESTINATION, 1, MESSAGE);
    assertThat(transport.armedAt(DESTINATION, 1, 0L)).as("still the path's floor").isEqualTo(3 * MESSAGE_ROUND_TRIP_PS);
  }

  @Test
  void resendsAfterTheCopyAnAcknowledgementAnswersAreSpuriousTheOthersLossDriven() {
    ReliableTransport transport = transport(10);
    // Message 0: sent, resent twice (events 1, 2); the acknowledgement answers copy 0, so both resends were spurious.
    TransportTimer timer = transport.sent(DESTINATION, 0, MESSAGE);
    transport.onTimer(timer, 1_000L, 1);
    timer = transport.sent(DESTINATION, 0, MESSAGE);
    transport.onTimer(timer, 2_000L, 2);
    transport.sent(DESTINATION, 0, MESSAGE);
    transport.acknowledged(DESTINATION, 0, 0, 3_000L);
    // Message 1: sent, resent twice (event 1 both times); copy 1 is answered: resend 1 was needed, resend 2 not.
    timer = transport.sent(DESTINATION, 1, MESSAGE);
    transport.onTimer(timer, 4_000L, 1);
    timer = transport.sent(DESTINATION, 1, MESSAGE);
    transport.onTimer(timer, 5_000L, 1);
    transport.sent(DESTINATION, 1, MESSAGE);
    transport.acknowledged(DESTINATION, 1, 1, 6_000L);
    // Message 2: resent once (no event), the resend answered: loss-driven.
    timer = transport.sent(DESTINATION, 2, MESSAGE);
    transport.onTimer(timer, 7_000L, -1);
    transport.sent(DESTINATION, 2, MESSAGE);
    transport.acknowledged(DESTINATION, 2, 1, 8_000L);

    assertThat(tally.resentMessages(1)).isEqualTo(3);
    assertThat(tally.spuriousResends(1)).isEqualTo(2);
    assertThat(tally.lossDrivenResends(1)).isEqualTo(1);
    assertThat(tally.resentMessages(2)).isEqualTo(1);
    assertThat(tally.spuriousResends(2)).isEqualTo(1);
    assertThat(tally.resentMessages(-1)).isEqualTo(1);
    assertThat(tally.spuriousResends(-1)).isZero();
    assertThat(tally.totalResentMessages()).isEqualTo(5);
    assertThat(tally.totalSpuriousResends()).isEqualTo(3);
    assertThat(tally.totalLossDrivenResends()).isEqualTo(2);
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
