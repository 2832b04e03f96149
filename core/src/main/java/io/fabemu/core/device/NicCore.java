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
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A host's network interface. Sending: per-message work-request processing, then segmentation into packets of
 * at most {@code segmentBytes} of payload, each DMA-read from host memory over PCIe (pipelined with the wire)
 * and serialized on the egress port. Receiving: reassembly by (source host, message id); when the last segment
 * is in and DMA-written, the whole message is delivered to the compute node. In direct topologies (line, ring,
 * full mesh) the NIC also relays transit packets, cut-through.
 */
public final class NicCore implements DeviceCore {
  private final int host;
  private final int nodeDevice;
  private final NicSpec nic;
  private final long pcieBitsPerSecond;
  private final long pcieLatencyPs;
  private final PacketForwarder forwarder;
  /** Messages partly received, by {@link #reassemblyKey}. */
  private final Map<Long, Reassembly> reassembly = new HashMap<>();
  private long nextMessageId;
  /** When the NIC's send engine finishes its current work request. */
  private long sendEngineFreeAtPs;
  /** When the receive DMA engine finishes writing the previous message to host memory. */
  private long receiveDmaFreeAtPs;

  public NicCore(int host, int nodeDevice, Topology topology, RoutingTable routing, NicSpec nic, HostSpec hostSpec) {
    this.host = host;
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
    DataBuffer data = send.message().data();
    int totalElements = data == null ? 0 : data.count();
    int elementBytes = data == null ? 1 : data.elementBytes();
    int elementsPerSegment = Math.max(1, nic.segmentBytes() / elementBytes);
    int segments = Math.max(1, (totalElements + elementsPerSegment - 1) / elementsPerSegment);
    MessageInfo info = new MessageInfo(send.message().sourceRank(), send.message().destinationRank(),
        send.message().tag(), totalElements, data == null ? null : data.type(), data != null && data.hasLocations());
    long messageId = nextMessageId++;
    long start = Math.max(outbox.nowPs(), sendEngineFreeAtPs) + nic.perMessageOverheadPs();
    sendEngineFreeAtPs = start;
    EgressPort port = forwarder.egressToward(host, send.destinationHost());
    long dmaBytes = 0;
    for (int s = 0; s < segments; s++) {
      int offset = s * elementsPerSegment;
      int elements = Math.min(elementsPerSegment, totalElements - offset);
      DataBuffer slice = data == null ? null : (segments == 1 ? data : data.slice(offset, elements));
      long payloadBytes = (long) elements * elementBytes;
      dmaBytes += payloadBytes;
      // DMA reads are pipelined with the wire: segment s can leave once its bytes are in the NIC.
      long readyPs = start + Units.transferPs(dmaBytes, pcieBitsPerSecond);
      int wireBytes = (int) payloadBytes + nic.headerBytes();
      port.transmit(readyPs, wireBytes, 0L);
      outbox.send(port.toDevice(), port.lastHeadArrivalPs(), new Packet(host, send.destinationHost(), messageId, s,
          segments, wireBytes, port.lastTailArrivalPs(), info, offset, slice));
    }
  }

  private void receive(Packet packet, Outbox outbox) {
    MessageInfo info = packet.info();
    if (packet.segmentCount() == 1) {
      deliver(info, packet.slice(), packet.tailTimePs(), payloadBytes(packet), outbox);
      return;
    }
    long key = reassemblyKey(packet.sourceHost(), packet.messageId());
    Reassembly r = reassembly.get(key);
    if (r == null) {
      r = new Reassembly(info.dataType() == null ? null
          : DataBuffer.allocate(info.dataType(), info.totalElements(), info.withLocations()));
      reassembly.put(key, r);
    }
    if (packet.slice() != null) {
      r.data.copyFrom(packet.elementOffset(), packet.slice());
    }
    r.received++;
    r.lastTailPs = Math.max(r.lastTailPs, packet.tailTimePs());
    if (r.received == packet.segmentCount()) {
      reassembly.remove(key);
      deliver(info, r.data, r.lastTailPs, payloadBytes(packet), outbox);
    }
  }

  private void deliver(MessageInfo info, DataBuffer data, long lastTailPs, long lastSegmentBytes, Outbox outbox) {
    // The last segment is DMA-written to host memory, then the completion reaches the host over PCIe.
    long written = Math.max(lastTailPs, receiveDmaFreeAtPs) + Units.transferPs(lastSegmentBytes, pcieBitsPerSecond);
    receiveDmaFreeAtPs = written;
    Message message = new Message(info.sourceRank(), info.destinationRank(), info.tag(), data);
    outbox.send(nodeDevice, written + pcieLatencyPs, new NicDeliver(message));
  }

  private long payloadBytes(Packet packet) {
    return packet.wireBytes() - nic.headerBytes();
  }

  private static long reassemblyKey(int sourceHost, long messageId) {
    return ((long) sourceHost << 40) ^ messageId;
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
