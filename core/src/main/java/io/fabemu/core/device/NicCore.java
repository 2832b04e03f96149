package io.fabemu.core.device;

import io.fabemu.core.data.DataBuffer;
import io.fabemu.core.device.DeviceProtocol.MessageInfo;
import io.fabemu.core.device.DeviceProtocol.NicDeliver;
import io.fabemu.core.device.DeviceProtocol.NicSend;
import io.fabemu.core.device.DeviceProtocol.Packet;
import io.fabemu.core.engine.DeviceCore;
import io.fabemu.core.engine.DeviceReport;
import io.fabemu.core.engine.Event;
import io.fabemu.core.engine.Outbox;
import io.fabemu.core.routing.RoutingTable;
import io.fabemu.core.spec.HostSpec;
import io.fabemu.core.spec.NicSpec;
import io.fabemu.core.spec.SwitchSpec.ForwardingMode;
import io.fabemu.core.time.Units;
import io.fabemu.core.topology.Topology;
import io.fabemu.core.util.IntLongMap;
import java.util.List;

/**
 * A host's network interface. Sending: per-message work-request processing, then segmentation into packets of
 * at most {@code segmentBytes} of payload (whole elements), each DMA-read from host memory over PCIe (pipelined
 * with the wire) and serialized on the egress port; a message without data (synthetic payload) is cut by its size
 * alone, into the packets its real counterpart would make, and carries no slices. Receiving: reassembly by (source
 * host, message id), by counting packets when there is no data; when the last segment is in and DMA-written, the
 * whole message is delivered to the compute node. In direct topologies (line, ring, full mesh) the NIC also relays
 * transit packets, cut-through.
 */
public final class NicCore implements DeviceCore {
  private final int host;
  private final int nodeDevice;
  private final NicSpec nic;
  private final long pcieBitsPerSecond;
  private final long pcieLatencyPs;
  private final PacketForwarder forwarder;
  /** Element size by which messages without data are segmented. */
  private final int syntheticElementBytes;
  /** Messages partly received, by (source host, message id). */
  private final IntLongMap<Reassembly> reassembly = new IntLongMap<>();
  private long nextMessageId;
  /** When the NIC's send engine finishes its current work request. */
  private long sendEngineFreeAtPs;
  /** When the receive DMA engine finishes writing the previous message to host memory. */
  private long receiveDmaFreeAtPs;

  /**
   * @param host                  the host's vertex id, also this device's id
   * @param nodeDevice            device id of the host's compute node
   * @param syntheticElementBytes element size of the workload's data: messages without data (synthetic payload)
   *                              are cut into segments on the same element boundaries as real ones, so both give
   *                              the same packets
   */
  public NicCore(int host, int nodeDevice, Topology topology, RoutingTable routing, NicSpec nic, HostSpec hostSpec,
                 int syntheticElementBytes) {
    if (syntheticElementBytes < 1) {
      throw new IllegalArgumentException("element size must be at least 1 B, got " + syntheticElementBytes);
    }
    this.host = host;
    this.syntheticElementBytes = syntheticElementBytes;
    this.nodeDevice = nodeDevice;
    this.nic = nic;
    this.pcieBitsPerSecond = hostSpec.pcieBitsPerSecond();
    this.pcieLatencyPs = hostSpec.pcieLatencyPs();
    this.forwarder = new PacketForwarder(host, topology, routing, nic.forwardingLatencyPs(), ForwardingMode.CUT_THROUGH);
  }

  @Override
  public int deviceId() {
    return host;
  }

  @Override
  public void onEvent(Event event, Outbox outbox) {
    Object payload = event.payload();
    if (payload instanceof Packet packet) {
      if (packet.destinationHost() == host) {
        receive(packet, outbox);
      } else {
        forwarder.forward(packet, outbox);
      }
    } else if (payload instanceof NicSend send) {
      send(send, outbox);
    } else {
      throw new IllegalArgumentException("NIC " + host + " cannot handle " + payload);
    }
  }

  private void send(NicSend send, Outbox outbox) {
    Message message = send.message();
    DataBuffer data = message.data();
    long totalBytes = message.sizeBytes();
    // Segments end on element boundaries: a synthetic message is cut as the real one of its size would be.
    int elementBytes = data == null ? syntheticElementBytes : data.elementBytes();
    int elementsPerSegment = Math.max(1, nic.segmentBytes() / elementBytes);
    long segmentPayloadBytes = (long) elementsPerSegment * elementBytes;
    int segments = (int) Math.max(1, (totalBytes + segmentPayloadBytes - 1) / segmentPayloadBytes);
    MessageInfo info = new MessageInfo(message.sourceRank(), message.destinationRank(), message.tag(),
        data == null ? 0 : data.count(), data == null ? null : data.type(), data != null && data.hasLocations(),
        totalBytes);
    long messageId = nextMessageId++;
    long start = Math.max(outbox.nowPs(), sendEngineFreeAtPs) + nic.perMessageOverheadPs();
    sendEngineFreeAtPs = start;
    EgressPort port = forwarder.egressToward(host, send.destinationHost());
    long dmaBytes = 0;
    for (int s = 0; s < segments; s++) {
      long payloadBytes = Math.min(segmentPayloadBytes, totalBytes - dmaBytes);
      int elementOffset = data == null ? 0 : s * elementsPerSegment;
      DataBuffer slice = data == null || segments == 1 ? data
          : data.slice(elementOffset, (int) (payloadBytes / elementBytes));
      dmaBytes += payloadBytes;
      // DMA reads are pipelined with the wire: segment s can leave once its bytes are in the NIC.
      long readyPs = start + Units.transferPs(dmaBytes, pcieBitsPerSecond);
      int wireBytes = (int) payloadBytes + nic.headerBytes();
      port.transmit(readyPs, wireBytes, 0L);
      outbox.send(port.toDevice(), port.lastHeadArrivalPs(), new Packet(host, send.destinationHost(), messageId, s,
          segments, wireBytes, port.lastTailArrivalPs(), info, elementOffset, slice));
    }
  }

  private void receive(Packet packet, Outbox outbox) {
    MessageInfo info = packet.info();
    if (packet.segmentCount() == 1) {
      deliver(info, packet.slice(), packet.tailTimePs(), payloadBytes(packet), outbox);
      return;
    }
    Reassembly r = reassembly.get(packet.sourceHost(), packet.messageId());
    if (r == null) {
      // A message without data (synthetic) is reassembled by counting its packets.
      r = new Reassembly(info.dataType() == null ? null
          : DataBuffer.allocate(info.dataType(), info.totalElements(), info.withLocations()));
      reassembly.put(packet.sourceHost(), packet.messageId(), r);
    }
    if (packet.slice() != null) {
      r.data.copyFrom(packet.elementOffset(), packet.slice());
    }
    r.received++;
    r.lastTailPs = Math.max(r.lastTailPs, packet.tailTimePs());
    if (r.received == packet.segmentCount()) {
      reassembly.remove(packet.sourceHost(), packet.messageId());
      deliver(info, r.data, r.lastTailPs, payloadBytes(packet), outbox);
    }
  }

  private void deliver(MessageInfo info, DataBuffer data, long lastTailPs, long lastSegmentBytes, Outbox outbox) {
    // The last segment is DMA-written to host memory, then the completion reaches the host over PCIe.
    long written = Math.max(lastTailPs, receiveDmaFreeAtPs) + Units.transferPs(lastSegmentBytes, pcieBitsPerSecond);
    receiveDmaFreeAtPs = written;
    Message message = new Message(info.sourceRank(), info.destinationRank(), info.tag(), data, info.totalBytes());
    outbox.send(nodeDevice, written + pcieLatencyPs, new NicDeliver(message));
  }

  private long payloadBytes(Packet packet) {
    return packet.wireBytes() - nic.headerBytes();
  }

  @Override
  public DeviceReport report() {
    return new DeviceReport(host, forwarder.counters(), List.of());
  }

  /** A message being reassembled. */
  private static final class Reassembly {
    final DataBuffer data;
    int received;
    long lastTailPs;

    Reassembly(DataBuffer data) {
      this.data = data;
    }
  }
}
