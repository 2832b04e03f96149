package io.fabemu.nic;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabemu.core.data.DataBuffer;
import io.fabemu.core.data.DataType;
import io.fabemu.core.link.PcieSpec;
import io.fabemu.core.protocol.DeviceProtocol.FailureNotice;
import io.fabemu.core.protocol.DeviceProtocol.NicDeliver;
import io.fabemu.core.protocol.DeviceProtocol.NicSend;
import io.fabemu.core.protocol.DeviceProtocol.Packet;
import io.fabemu.core.protocol.LineFraming;
import io.fabemu.core.protocol.Message;
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

/** Segmentation and reassembly of the NIC, for messages with data and for synthetic ones (sizes only). */
class NicCoreTest {
  private static final int SEGMENT_BYTES = 1000;
  private static final int HEADER_BYTES = 64;
  /** float64 MAXLOC: 8 B value + 4 B location; 1000 B segments hold 83 whole elements (996 B). */
  private static final int ELEMENT_BYTES = 12;
  private static final int SENDER = 0;
  private static final int RECEIVER = 1;

  private static final long LINK_BPS = 25 * Units.GBPS;
  private static final long LINK_LATENCY_PS = 500_000L;
  private static final long NIC_OVERHEAD_PS = 100_000L;
  private static final long PCIE_LATENCY_PS = 250_000L;

  /** Two hosts cabled directly; host h's compute node is device 2 + h. */
  private static NicCore nic(int host) {
    return nic(host, 64 * Units.GBPS, HEADER_BYTES);
  }

  private static NicCore nic(int host, long pcieBitsPerSecond, int headerBytes) {
    Topology topology = Topologies.line(2, new LinkSpec(LINK_BPS, LINK_LATENCY_PS));
    return NicCore.builder(host, 2 + host, topology, RoutingTable.compute(topology),
        new NicSpec(SEGMENT_BYTES, headerBytes, NIC_OVERHEAD_PS, 100_000L),
        new PcieSpec(pcieBitsPerSecond, PCIE_LATENCY_PS), ELEMENT_BYTES).build();
  }

  /** Sends {@code message} from host 0 at time 1000 and returns the packets it put on the wire. */
  private static List<Sent> packetsOf(Message message) {
    RecordingOutbox outbox = new RecordingOutbox(1_000L);
    nic(SENDER).onEvent(new Event(1_000L, 2, 0L, SENDER, new NicSend(RECEIVER, message)), outbox);
    return outbox.sent();
  }

  /** Feeds the packets to host 1's NIC at their arrival times and returns what it delivers to its node. */
  private static List<Sent> deliveredFrom(List<Sent> packets) {
    return deliveredFrom(packets, nic(RECEIVER));
  }

  private static List<Sent> deliveredFrom(List<Sent> packets, NicCore receiver) {
    RecordingOutbox outbox = new RecordingOutbox();
    long sequence = 0;
    for (Sent p : packets) {
      outbox.at(p.timePs());
      receiver.onEvent(new Event(p.timePs(), SENDER, sequence++, RECEIVER, p.payload()), outbox);
    }
    return outbox.sent();
  }

  private static Message realMessage(int elements) {
    DataBuffer data = DataBuffer.allocate(DataType.FLOAT64, elements, true);
    for (int i = 0; i < elements; i++) {
      data.set(i, i);
      data.setLocation(i, i % 7);
    }
    return new Message(0, 1, 42L, data);
  }

  private static List<Integer> wireBytes(List<Sent> packets) {
    return packets.stream().map(p -> ((Packet) p.payload()).wireBytes()).toList();
  }

  @Test
  void shouldCutOnElementBoundariesWhenMessageIsSynthetic() {
    List<Sent> packets = packetsOf(Message.synthetic(0, 1, 42L, 200 * ELEMENT_BYTES));

    // 2400 B in segments of 83 elements (996 B): 996 + 996 + 408, never 1000 + 1000 + 400.
    assertThat(wireBytes(packets)).containsExactly(996 + HEADER_BYTES, 996 + HEADER_BYTES, 408 + HEADER_BYTES);
    assertThat(packets).allSatisfy(p -> {
      Packet packet = (Packet) p.payload();
      assertThat(p.targetDevice()).isEqualTo(RECEIVER);
      assertThat(packet.slice()).isNull();
      assertThat(packet.segmentCount()).isEqualTo(3);
      assertThat(packet.info().totalBytes()).isEqualTo(2400L);
      assertThat(packet.info().dataType()).isNull();
    });
  }

  @Test
  void shouldSendTheSamePacketsAtTheSameTimesWhenMessageIsSyntheticOrReal() {
    for (int elements : new int[] {1, 83, 84, 200, 1_000}) {
      Message real = realMessage(elements);
      List<Sent> realPackets = packetsOf(real);
      List<Sent> syntheticPackets = packetsOf(Message.synthetic(0, 1, 42L, real.sizeBytes()));

      assertThat(syntheticPackets).hasSameSizeAs(realPackets);
      for (int i = 0; i < realPackets.size(); i++) {
        Packet r = (Packet) realPackets.get(i).payload();
        Packet s = (Packet) syntheticPackets.get(i).payload();
        assertThat(syntheticPackets.get(i).timePs()).as("head arrival").isEqualTo(realPackets.get(i).timePs());
        assertThat(s.tailTimePs()).isEqualTo(r.tailTimePs());
        assertThat(s.wireBytes()).isEqualTo(r.wireBytes());
        assertThat(s.segmentIndex()).isEqualTo(r.segmentIndex());
        assertThat(s.segmentCount()).isEqualTo(r.segmentCount());
      }
    }
  }

  @Test
  void shouldPutALineProtocolsFlagsOnTheWireAndDeliverThePayloadAlone() {
    Message plain = realMessage(200);
    Message framed = plain.withExtension(new LineFraming("ll", 16, 8));

    List<Sent> packets = packetsOf(framed);

    // A 1,000 B segment holds 62 lines of 16 B, 496 B of payload: 41 elements of 12 B (492 B, 62 lines, 992 B on
    // the wire); 2,400 B are 4 such segments and one of 432 B (54 lines, 864 B).
    assertThat(wireBytes(packets)).containsExactly(992 + HEADER_BYTES, 992 + HEADER_BYTES, 992 + HEADER_BYTES,
        992 + HEADER_BYTES, 864 + HEADER_BYTES);
    List<Sent> delivered = deliveredFrom(packets);
    assertThat(delivered).hasSize(1);
    assertThat(((NicDeliver) delivered.get(0).payload()).message()).isEqualTo(plain);
    // The flags take wire time: the framed message arrives after the plain one would.
    assertThat(delivered.get(0).timePs()).isGreaterThan(deliveredFrom(packetsOf(plain)).get(0).timePs());
  }

  @Test
  void shouldDeliverTheSizeAtTheSameTimeWhenSyntheticMessageIsReassembled() {
    Message real = realMessage(200);
    Message synthetic = Message.synthetic(0, 1, 42L, real.sizeBytes());

    List<Sent> realDelivered = deliveredFrom(packetsOf(real));
    List<Sent> syntheticDelivered = deliveredFrom(packetsOf(synthetic));

    assertThat(realDelivered).hasSize(1);
    assertThat(((NicDeliver) realDelivered.get(0).payload()).message()).isEqualTo(real);
    assertThat(syntheticDelivered).containsExactly(new Sent(2 + RECEIVER, realDelivered.get(0).timePs(),
        new NicDeliver(synthetic)));
  }

  @Test
  void shouldMoveTheDataUncopiedWhenSegmentsAreViewsOfTheMessage() {
    Message real = realMessage(200);
    List<Sent> packets = packetsOf(real);

    assertThat(packets).hasSize(3).allSatisfy(p -> {
      Packet packet = (Packet) p.payload();
      assertThat(packet.slice().valuesArray()).as("a segment is a view").isSameAs(real.data().valuesArray());
      assertThat(packet.slice().arrayOffset()).isEqualTo(packet.elementOffset());
    });
    DataBuffer delivered = ((NicDeliver) deliveredFrom(packets).get(0).payload()).message().data();
    assertThat(delivered.valuesArray()).as("the sender's buffer itself").isSameAs(real.data().valuesArray());
    assertThat(delivered.locationsArray()).isSameAs(real.data().locationsArray());
    assertThat(delivered.arrayOffset()).isZero();
    assertThat(delivered).isEqualTo(real.data());
  }

  @Test
  void shouldCopySegmentsIntoOneBufferWhenTheyArriveInArraysOfTheirOwn() {
    // As after crossing members: each segment deserialized into its own arrays, and out of order.
    Message real = realMessage(200);
    List<Sent> packets = new ArrayList<>();
    for (Sent p : packetsOf(real)) {
      Packet packet = (Packet) p.payload();
      DataBuffer own = packet.slice().slice(0, packet.slice().count());
      packets.add(0, new Sent(p.targetDevice(), p.timePs(), packet.toBuilder().slice(own).build()));
    }

    DataBuffer delivered = ((NicDeliver) deliveredFrom(packets).get(0).payload()).message().data();
    assertThat(delivered).isNotSameAs(real.data()).isEqualTo(real.data());
  }

  @Test
  void shouldSendOneHeaderOnlyPacketWhenSyntheticMessageIsEmpty() {
    List<Sent> packets = packetsOf(Message.synthetic(0, 1, 7L, 0));

    assertThat(wireBytes(packets)).containsExactly(HEADER_BYTES);
    assertThat(deliveredFrom(packets)).singleElement()
        .satisfies(d -> assertThat(((NicDeliver) d.payload()).message()).isEqualTo(new Message(0, 1, 7L, null)));
  }

  @Test
  void shouldRejectMessageWhenItsSizeContradictsItsData() {
    DataBuffer data = DataBuffer.allocate(DataType.INT32, 3, false);

    assertThatThrownBy(() -> new Message(0, 1, 1L, data, 8L))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("carries 12 B of data");
    assertThatThrownBy(() -> Message.synthetic(0, 1, 1L, -1L))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("negative");
  }

  @Test
  void shouldSerializeDmaReadsWhenMessagesAreSentBackToBack() {
    // PCIe (10 Gbps) slower than the wire (25 Gbps): the DMA read channel is the bottleneck and is shared.
    NicCore sender = nic(SENDER, 10 * Units.GBPS, HEADER_BYTES);
    RecordingOutbox outbox = new RecordingOutbox(1_000L);
    long bytes = 2 * 83 * ELEMENT_BYTES;
    sender.onEvent(new Event(1_000L, 2, 0L, SENDER, new NicSend(RECEIVER, Message.synthetic(0, 1, 1L, bytes))),
        outbox);
    sender.onEvent(new Event(1_000L, 2, 1L, SENDER, new NicSend(RECEIVER, Message.synthetic(0, 1, 2L, bytes))),
        outbox);

    List<Sent> second = outbox.sent().stream().filter(p -> ((Packet) p.payload()).messageId() == 1L).toList();
    assertThat(second).hasSize(2);
    // Two full segments each. The second message's work request is done long before the first message is read:
    // its segments are read only after all of the first message's.
    long firstReadsDone = 1_000L + NIC_OVERHEAD_PS + Units.transferPs(bytes, 10 * Units.GBPS);
    long secondFirstSegmentRead = firstReadsDone + Units.transferPs(83 * ELEMENT_BYTES, 10 * Units.GBPS);
    assertThat(second.get(0).timePs()).isEqualTo(secondFirstSegmentRead + LINK_LATENCY_PS);
    long allRead = 1_000L + NIC_OVERHEAD_PS + 2 * Units.transferPs(bytes, 10 * Units.GBPS);
    assertThat(second.get(1).timePs()).isEqualTo(allRead + LINK_LATENCY_PS);
  }

  @Test
  void shouldKeepSingleMessageTimingWhenPcieIsFasterThanTheWire() {
    List<Sent> packets = packetsOf(Message.synthetic(0, 1, 42L, 200 * ELEMENT_BYTES));

    // Segment s leaves once it is read (pipelined) or once the wire is free, whichever is later.
    long start = 1_000L + NIC_OVERHEAD_PS;
    long wireFree = 0;
    long read = 0;
    long[] payloads = {996, 996, 408};
    for (int s = 0; s < payloads.length; s++) {
      read += payloads[s];
      long leave = Math.max(start + Units.transferPs(read, 64 * Units.GBPS), wireFree);
      wireFree = leave + Units.transferPs(payloads[s] + HEADER_BYTES, LINK_BPS);
      assertThat(packets.get(s).timePs()).isEqualTo(leave + LINK_LATENCY_PS);
      assertThat(((Packet) packets.get(s).payload()).tailTimePs()).isEqualTo(wireFree + LINK_LATENCY_PS);
    }
    List<Sent> delivered = deliveredFrom(packets);
    assertThat(delivered.get(0).timePs())
        .isEqualTo(wireFree + LINK_LATENCY_PS + Units.transferPs(408, 64 * Units.GBPS) + PCIE_LATENCY_PS);
  }

  @Test
  void shouldDmaWriteEverySegmentWhenPcieIsSlowerThanTheWire() {
    // Sent over a fast PCIe at 25 Gbps, received over a 10 Gbps PCIe: every segment's bytes are written.
    long bytes = 1_000 * ELEMENT_BYTES;
    List<Sent> packets = packetsOf(Message.synthetic(0, 1, 42L, bytes));
    long firstTail = ((Packet) packets.get(0).payload()).tailTimePs();

    List<Sent> delivered = deliveredFrom(packets, nic(RECEIVER, 10 * Units.GBPS, HEADER_BYTES));

    assertThat(delivered).hasSize(1);
    long written = firstTail + Units.transferPs(bytes, 10 * Units.GBPS);
    assertThat(delivered.get(0).timePs()).isBetween(written + PCIE_LATENCY_PS, written + PCIE_LATENCY_PS + 20L);
  }

  @Test
  void shouldShareTheDmaWriteChannelWhenMessagesFromTwoSendersInterleave() {
    // Two messages whose packets arrive interleaved: the DMA write channel takes all of their bytes in turn.
    long bytes = 300 * ELEMENT_BYTES;
    List<Sent> first = packetsOf(Message.synthetic(0, 1, 1L, bytes));
    List<Sent> second = new ArrayList<>();
    for (Sent p : first) {
      Packet packet = (Packet) p.payload();
      second.add(new Sent(p.targetDevice(), p.timePs(), packet.toBuilder().messageId(packet.messageId() + 1).build()));
    }
    List<Sent> interleaved = new ArrayList<>();
    for (int i = 0; i < first.size(); i++) {
      interleaved.add(first.get(i));
      interleaved.add(second.get(i));
    }
    long firstTail = ((Packet) first.get(0).payload()).tailTimePs();

    List<Sent> delivered = deliveredFrom(interleaved, nic(RECEIVER, 10 * Units.GBPS, HEADER_BYTES));

    assertThat(delivered).hasSize(2);
    long allWritten = firstTail + Units.transferPs(2 * bytes, 10 * Units.GBPS);
    assertThat(delivered.get(1).timePs()).isBetween(allWritten + PCIE_LATENCY_PS, allWritten + PCIE_LATENCY_PS + 20L);
  }

  @Test
  void shouldRejectPacketWhenItsWireSizeExceedsAnInt() {
    NicCore sender = nic(SENDER, 64 * Units.GBPS, Integer.MAX_VALUE - 100);
    RecordingOutbox outbox = new RecordingOutbox();

    assertThatThrownBy(() -> sender.onEvent(new Event(0L, 2, 0L, SENDER,
        new NicSend(RECEIVER, Message.synthetic(0, 1, 1L, 100 * ELEMENT_BYTES))), outbox))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("header");
  }

  @Test
  void shouldRefuseAFamilyItDoesNotAcceptAndARecordOfItsOwnFamiliesThatOnlyANodeTakes() {
    NicCore receiver = nic(RECEIVER);
    RecordingOutbox outbox = new RecordingOutbox();
    FailureNotice notice = new FailureNotice(0, RECEIVER, 5L);
    NicDeliver deliver = new NicDeliver(Message.synthetic(0, 1, 1L, 8L));

    assertThatThrownBy(() -> receiver.onEvent(new Event(0L, SENDER, 0L, RECEIVER, notice), outbox))
        .isInstanceOf(IllegalArgumentException.class).hasMessage("NIC 1 cannot handle " + notice);
    assertThatThrownBy(() -> receiver.onEvent(new Event(0L, SENDER, 1L, RECEIVER, deliver), outbox))
        .isInstanceOf(IllegalArgumentException.class).hasMessage("NIC 1 cannot handle " + deliver);
    assertThat(outbox.sent()).isEmpty();
  }
}
