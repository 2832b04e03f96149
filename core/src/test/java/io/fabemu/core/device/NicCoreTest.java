package io.fabemu.core.device;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabemu.core.data.DataBuffer;
import io.fabemu.core.data.DataType;
import io.fabemu.core.device.DeviceProtocol.NicDeliver;
import io.fabemu.core.device.DeviceProtocol.NicSend;
import io.fabemu.core.device.DeviceProtocol.Packet;
import io.fabemu.core.engine.Event;
import io.fabemu.core.engine.Outbox;
import io.fabemu.core.routing.RoutingTable;
import io.fabemu.core.spec.HostSpec;
import io.fabemu.core.spec.LinkSpec;
import io.fabemu.core.spec.NicSpec;
import io.fabemu.core.time.Units;
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

  /** One event a NIC sent. */
  private record Sent(int targetDevice, long timePs, Object payload) {}

  /** Collects what a NIC sends while handling one event. */
  private static final class RecordingOutbox implements Outbox {
    final List<Sent> sent = new ArrayList<>();
    long nowPs;

    @Override
    public long nowPs() {
      return nowPs;
    }

    @Override
    public void send(int targetDevice, long timePs, Object payload) {
      sent.add(new Sent(targetDevice, timePs, payload));
    }
  }

  /** Two hosts cabled directly; host h's compute node is device 2 + h. */
  private static NicCore nic(int host) {
    Topology topology = Topologies.line(2, new LinkSpec(25 * Units.GBPS, 500_000L));
    return new NicCore(host, 2 + host, topology, RoutingTable.compute(topology),
        new NicSpec(SEGMENT_BYTES, HEADER_BYTES, 100_000L, 100_000L),
        new HostSpec(0, 0, 0, 0, 1, 64 * Units.GBPS, 250_000L), ELEMENT_BYTES);
  }

  /** Sends {@code message} from host 0 at time 1000 and returns the packets it put on the wire. */
  private static List<Sent> packetsOf(Message message) {
    RecordingOutbox outbox = new RecordingOutbox();
    outbox.nowPs = 1_000L;
    nic(SENDER).onEvent(new Event(1_000L, 2, 0L, SENDER, new NicSend(RECEIVER, message)), outbox);
    return outbox.sent;
  }

  /** Feeds the packets to host 1's NIC at their arrival times and returns what it delivers to its node. */
  private static List<Sent> deliveredFrom(List<Sent> packets) {
    NicCore receiver = nic(RECEIVER);
    RecordingOutbox outbox = new RecordingOutbox();
    long sequence = 0;
    for (Sent p : packets) {
      outbox.nowPs = p.timePs();
      receiver.onEvent(new Event(p.timePs(), SENDER, sequence++, RECEIVER, p.payload()), outbox);
    }
    return outbox.sent;
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
}
