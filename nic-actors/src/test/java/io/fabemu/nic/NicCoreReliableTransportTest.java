package io.fabemu.nic;

import static io.fabemu.core.sim.RecordingOutbox.ofType;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabemu.core.data.DataBuffer;
import io.fabemu.core.data.DataType;
import io.fabemu.core.fault.FaultPlan;
import io.fabemu.core.fault.FaultReport;
import io.fabemu.core.fault.FaultSettings;
import io.fabemu.core.link.PcieSpec;
import io.fabemu.core.link.RoutingViews;
import io.fabemu.core.protocol.DeviceProtocol.NicDeliver;
import io.fabemu.core.protocol.DeviceProtocol.NicSend;
import io.fabemu.core.protocol.DeviceProtocol.Packet;
import io.fabemu.core.protocol.DeviceProtocol.TransportTimer;
import io.fabemu.core.protocol.Message;
import io.fabemu.core.protocol.Payload;
import io.fabemu.core.routing.RoutingTable;
import io.fabemu.core.sim.Event;
import io.fabemu.core.sim.RecordingOutbox;
import io.fabemu.core.sim.RecordingOutbox.Sent;
import io.fabemu.core.time.Units;
import io.fabemu.core.topology.LinkSpec;
import io.fabemu.core.topology.Topologies;
import io.fabemu.core.topology.Topology;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Two NICs cabled directly with the reliable transport of a run with faults, driven by hand: the receiver
 * acknowledges a message once it is all in, discards and re-acknowledges copies, and the sender resends what was not
 * acknowledged in time.
 */
class NicCoreReliableTransportTest {
  private static final int SENDER = 0;
  private static final int RECEIVER = 1;
  /** Host h's compute node is device 2 + h; the management node is device 4. */
  private static final int MANAGEMENT = 4;
  private static final int SEGMENT_BYTES = 1000;
  private static final int HEADER_BYTES = 64;
  private static final long LINK_LATENCY_PS = 500_000L;
  private static final long PCIE_LATENCY_PS = 250_000L;
  private static final long TIMEOUT_PS = 30_000_000L;
  private static final FaultSettings SETTINGS = new FaultSettings(5_000_000L, 3, 1_000_000L, 100_000L, TIMEOUT_PS,
      10);

  /** A NIC, its outbox and the event numbering of its incoming events. */
  private static final class Nic {
    final NicCore core;
    final RecordingOutbox outbox = new RecordingOutbox();
    long sequence;

    Nic(NicCore core) {
      this.core = core;
    }

    /** Hands {@code payload} from {@code sourceDevice} to the NIC at {@code timePs}; returns what it sent. */
    List<Sent> handle(long timePs, int sourceDevice, Payload payload) {
      outbox.clear();
      outbox.at(timePs);
      core.onEvent(new Event(timePs, sourceDevice, sequence++, core.deviceId(), payload), outbox);
      return outbox.take();
    }

    /** Hands the packets the other NIC sent, at their arrival times; returns everything this NIC sent meanwhile. */
    List<Sent> receive(int fromDevice, List<Sent> packets) {
      List<Sent> out = new ArrayList<>();
      for (Sent p : packets) out.addAll(handle(p.timePs(), fromDevice, p.payload()));
      return out;
    }

    FaultReport faults() {
      return core.report().part(FaultReport.class);
    }
  }

  private static Nic nic(int host) {
    Topology topology = Topologies.line(2, new LinkSpec(25 * Units.GBPS, LINK_LATENCY_PS));
    RoutingTable routing = RoutingTable.compute(topology);
    NicCore core = NicCore.builder(host, 2 + host, topology, routing,
        new NicSpec(SEGMENT_BYTES, HEADER_BYTES, 100_000L, 100_000L), new PcieSpec(64 * Units.GBPS, PCIE_LATENCY_PS),
        8).extension(s -> ReliableTransportExtension.onLinks(s, new FaultPlan(SETTINGS, List.of()),
            new RoutingViews(topology, routing), MANAGEMENT, 11L,
            new PathRoundTrip(host, topology, routing, 0L, PCIE_LATENCY_PS))).build();
    return new Nic(core);
  }

  /** 300 float64 elements: three segments of 125, 125 and 50 elements. */
  private static Message message() {
    DataBuffer data = DataBuffer.allocate(DataType.FLOAT64, 300, false);
    for (int i = 0; i < 300; i++) data.set(i, 3L * i);
    return new Message(0, 1, 42L, data);
  }

  private static List<Sent> acks(List<Sent> sent) {
    return ofType(sent, Packet.class).stream().filter(s -> ((Packet) s.payload()).ack()).toList();
  }

  @Test
  void theReceiverAcknowledgesAWholeMessageAndTheSenderThenResendsNothing() {
    Nic sender = nic(SENDER);
    Nic receiver = nic(RECEIVER);
    Message message = message();

    List<Sent> sent = sender.handle(1_000L, 2, new NicSend(RECEIVER, message));
    List<Sent> packets = ofType(sent, Packet.class);
    assertThat(packets).hasSize(3).allSatisfy(p -> {
      assertThat(p.targetDevice()).isEqualTo(RECEIVER);
      assertThat(((Packet) p.payload()).messageId()).as("the first message to host 1").isZero();
    });
    // The timer is due a timeout after the last packet's tail left the NIC.
    long lastLeftPs = ((Packet) packets.get(2).payload()).tailTimePs() - LINK_LATENCY_PS;
    assertThat(ofType(sent, TransportTimer.class)).containsExactly(new Sent(SENDER, lastLeftPs + TIMEOUT_PS,
        new TransportTimer(RECEIVER, 0, 0)));

    List<Sent> answer = receiver.receive(SENDER, packets);
    List<Sent> delivered = ofType(answer, NicDeliver.class);
    assertThat(delivered).hasSize(1);
    assertThat(((NicDeliver) delivered.get(0).payload()).message()).isEqualTo(message);
    // The acknowledgement leaves once the last segment is in host memory (the delivery is a PCIe latency later).
    Packet expectedAck = Packet.builder().sourceHost(RECEIVER).destinationHost(SENDER).messageId(0).segmentCount(1)
        .wireBytes(HEADER_BYTES).ack(true).build();
    long ackLeavesPs = delivered.get(0).timePs() - PCIE_LATENCY_PS;
    long ackTailPs = ackLeavesPs + Units.transferPs(HEADER_BYTES, 25 * Units.GBPS) + LINK_LATENCY_PS;
    assertThat(acks(answer)).containsExactly(new Sent(SENDER, ackLeavesPs + LINK_LATENCY_PS,
        expectedAck.withTailTimePs(ackTailPs)));

    assertThat(sender.receive(RECEIVER, acks(answer))).isEmpty();
    assertThat(sender.handle(lastLeftPs + TIMEOUT_PS, SENDER, new TransportTimer(RECEIVER, 0, 0))).isEmpty();
    assertThat(sender.faults().tally().totalResentMessages()).isZero();
    assertThat(sender.faults().gaveUp()).isEmpty();
  }

  @Test
  void aCopyOfADeliveredMessageIsDiscardedAndAcknowledgedAgainButNeverDeliveredTwice() {
    Nic sender = nic(SENDER);
    Nic receiver = nic(RECEIVER);
    List<Sent> packets = ofType(sender.handle(1_000L, 2, new NicSend(RECEIVER, message())), Packet.class);
    receiver.receive(SENDER, packets);

    // The same packets again, 100 us later: a retransmission whose first send got through.
    List<Sent> copies = new ArrayList<>();
    for (Sent p : packets) copies.add(new Sent(p.targetDevice(), p.timePs() + 100_000_000L, p.payload()));
    List<Sent> answer = receiver.receive(SENDER, copies);

    assertThat(ofType(answer, NicDeliver.class)).isEmpty();
    // Acknowledged again on the copy's first and on its last packet, each as it arrives.
    assertThat(acks(answer)).extracting(Sent::timePs).containsExactly(copies.get(0).timePs() + LINK_LATENCY_PS,
        copies.get(2).timePs() + LINK_LATENCY_PS);
    assertThat(acks(answer)).allSatisfy(a -> assertThat(((Packet) a.payload()).messageId()).isZero());
    assertThat(receiver.faults().tally().duplicatesDiscarded()).isEqualTo(3);
  }

  @Test
  void aLostSegmentIsResentAfterTheTimeoutAndTheMessageDeliveredOnce() {
    Nic sender = nic(SENDER);
    Nic receiver = nic(RECEIVER);
    Message message = message();
    List<Sent> sent = sender.handle(1_000L, 2, new NicSend(RECEIVER, message));
    List<Sent> packets = ofType(sent, Packet.class);
    Sent timer = ofType(sent, TransportTimer.class).get(0);

    // Segment 1 is lost on the way: the message stays incomplete, nothing is delivered nor acknowledged.
    assertThat(receiver.receive(SENDER, List.of(packets.get(0), packets.get(2)))).isEmpty();

    List<Sent> resent = sender.handle(timer.timePs(), SENDER, timer.payload());
    List<Sent> again = ofType(resent, Packet.class);
    assertThat(again).hasSize(3).allSatisfy(p -> assertThat(((Packet) p.payload()).messageId()).isZero());
    assertThat(again).extracting(p -> ((Packet) p.payload()).segmentIndex()).containsExactly(0, 1, 2);
    // The second wait is twice the timeout.
    long lastLeftPs = ((Packet) again.get(2).payload()).tailTimePs() - LINK_LATENCY_PS;
    assertThat(ofType(resent, TransportTimer.class)).containsExactly(new Sent(SENDER, lastLeftPs + 2 * TIMEOUT_PS,
        new TransportTimer(RECEIVER, 0, 1)));
    assertThat(sender.faults().tally().totalResentMessages()).isEqualTo(1);

    List<Sent> answer = receiver.receive(SENDER, again);
    List<Sent> delivered = ofType(answer, NicDeliver.class);
    assertThat(delivered).hasSize(1);
    assertThat(((NicDeliver) delivered.get(0).payload()).message()).isEqualTo(message);
    // Segment 1 completes the message, which is acknowledged; segment 2 of the same resend then arrives as a copy of
    // a delivered message and is acknowledged again, right behind the first acknowledgement on the port.
    List<Sent> acks = acks(answer);
    assertThat(acks).hasSize(2).allSatisfy(a -> assertThat(((Packet) a.payload()).messageId()).isZero());
    assertThat(acks.get(0).timePs()).isEqualTo(delivered.get(0).timePs() - PCIE_LATENCY_PS + LINK_LATENCY_PS);
    assertThat(acks.get(1).timePs()).isEqualTo(((Packet) acks.get(0).payload()).tailTimePs());
    // Segments 0 and 2 of the resend had arrived already.
    assertThat(receiver.faults().tally().duplicatesDiscarded()).isEqualTo(2);

    assertThat(sender.receive(RECEIVER, acks)).isEmpty();
    // Neither the old timer nor the re-armed one resends the acknowledged message.
    assertThat(sender.handle(lastLeftPs + 2 * TIMEOUT_PS, SENDER, new TransportTimer(RECEIVER, 0, 1))).isEmpty();
    assertThat(sender.handle(lastLeftPs + 2 * TIMEOUT_PS, SENDER, timer.payload())).isEmpty();
    assertThat(sender.faults().tally().totalResentMessages()).isEqualTo(1);
    // Its acknowledgement answers copy 1: the resend was needed.
    assertThat(acks).allSatisfy(a -> assertThat(((Packet) a.payload()).transmission()).isEqualTo(1));
    assertThat(sender.faults().tally().totalSpuriousResends()).isZero();
  }

  @Test
  void aResendWhoseFirstCopyHadArrivedIsCountedSpuriousByTheCopyItsAcknowledgementAnswers() {
    Nic sender = nic(SENDER);
    Nic receiver = nic(RECEIVER);
    List<Sent> sent = sender.handle(1_000L, 2, new NicSend(RECEIVER, message()));
    List<Sent> packets = ofType(sent, Packet.class);
    Sent timer = ofType(sent, TransportTimer.class).get(0);
    List<Sent> firstAcks = acks(receiver.receive(SENDER, packets));
    assertThat(firstAcks).singleElement().satisfies(a -> assertThat(((Packet) a.payload()).transmission())
        .as("answers the first copy").isZero());

    // The timer fires before the acknowledgement is in: copy 1 leaves, numbered so.
    List<Sent> again = ofType(sender.handle(timer.timePs(), SENDER, timer.payload()), Packet.class);
    assertThat(again).hasSize(3).allSatisfy(p -> assertThat(((Packet) p.payload()).transmission()).isEqualTo(1));
    // The receiver discards the copy and acknowledges it as copy 1.
    List<Sent> copyAcks = acks(receiver.receive(SENDER, again));
    assertThat(copyAcks).isNotEmpty().allSatisfy(a -> assertThat(((Packet) a.payload()).transmission())
        .isEqualTo(1));

    // The first copy's acknowledgement arrives first: the resend was not needed.
    assertThat(sender.receive(RECEIVER, firstAcks)).isEmpty();
    assertThat(sender.receive(RECEIVER, copyAcks)).isEmpty();
    assertThat(sender.faults().tally().totalResentMessages()).isEqualTo(1);
    assertThat(sender.faults().tally().totalSpuriousResends()).isEqualTo(1);
    assertThat(sender.faults().tally().totalLossDrivenResends()).isZero();
  }

  @Test
  void messagesToOneDestinationAreNumberedOneAfterAnother() {
    Nic sender = nic(SENDER);
    List<Long> ids = new ArrayList<>();
    for (int m = 0; m < 3; m++) {
      for (Sent s : ofType(sender.handle(1_000L + m, 2, new NicSend(RECEIVER, Message.synthetic(0, 1, m, 100))),
          Packet.class)) {
        ids.add(((Packet) s.payload()).messageId());
      }
    }
    assertThat(ids).containsExactly(0L, 1L, 2L);
  }
}
