package io.fabemu.nic;

import io.fabemu.core.data.DataBuffer;
import io.fabemu.core.link.DetourViews;
import io.fabemu.core.link.ForwardingMode;
import io.fabemu.core.link.PacketDropSpec;
import io.fabemu.core.link.PacketForwarder;
import io.fabemu.core.link.PcieSpec;
import io.fabemu.core.protocol.CircuitPayload;
import io.fabemu.core.protocol.DeviceProtocol.IncRetransmitTimer;
import io.fabemu.core.protocol.DeviceProtocol.LocalDelivery;
import io.fabemu.core.protocol.DeviceProtocol.MessageInfo;
import io.fabemu.core.protocol.DeviceProtocol.NicDeliver;
import io.fabemu.core.protocol.DeviceProtocol.NicSend;
import io.fabemu.core.protocol.DeviceProtocol.Packet;
import io.fabemu.core.protocol.DeviceProtocol.RouteUpdate;
import io.fabemu.core.protocol.DeviceProtocol.TransportTimer;
import io.fabemu.core.protocol.EthernetPayload;
import io.fabemu.core.protocol.FaultPayload;
import io.fabemu.core.protocol.HostPayload;
import io.fabemu.core.protocol.LineFraming;
import io.fabemu.core.protocol.LinkPayload;
import io.fabemu.core.protocol.Message;
import io.fabemu.core.protocol.RetransmitPayload;
import io.fabemu.core.protocol.RouterPayload;
import io.fabemu.core.protocol.WorkloadPayload;
import io.fabemu.core.router.RouterSpec;
import io.fabemu.core.routing.RoutingTable;
import io.fabemu.core.sim.DeviceCore;
import io.fabemu.core.sim.DeviceReport;
import io.fabemu.core.sim.Event;
import io.fabemu.core.sim.Outbox;
import io.fabemu.core.time.Units;
import io.fabemu.core.topology.Topology;
import io.fabemu.core.util.IntLongMap;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A host's network interface: the chassis that every NIC is, with its features as {@link NicExtension}s. Sending:
 * per-message work-request processing, then segmentation into packets of at most {@code segmentBytes} of payload
 * (whole elements), each DMA-read from host memory over PCIe (pipelined with the wire) and handed to the port; a
 * segment's data is a view of the message's, not a copy. A message sent by a protocol that frames its payload in lines
 * ({@link LineFraming}: NCCL's LL and LL128) takes its framed size on the bus and the wire, flags and all. A message
 * without data (synthetic payload) is cut by its size alone, into the packets its real counterpart would make, and
 * carries no slices. Receiving: every segment is
 * DMA-written to host memory once its tail is in; reassembly by (source host, message id), by counting packets when
 * there is no data; once the last segment is written, the whole message is delivered to the compute node, a PCIe
 * latency later: the sender's buffer itself when the segments are views of it, else the segments copied into one
 * buffer. In direct topologies (line, ring, full mesh) the NIC also relays transit packets, cut-through.
 *
 * <p>The port is a strategy ({@link NicPort}): a {@link LinkNicPort} on links, a {@link RouterNicPort} whose flit
 * terminal injects segments into the NIC's router. The host-NIC DMA runs on a {@link HostBus}: PCIe
 * ({@link PcieBus}: one FIFO channel per direction, shared by all messages, at the PCIe rate; 0 means free), or the bus
 * an extension claims ({@link GpuDirectExtension}: NVLink between the GPUs of a server).
 *
 * <p>The features reach the chassis only through {@link NicServices}, and take over what they serve through
 * {@link NicClaims} as the NIC is built ({@link NicBuilder#extension}): {@link IncExtension} (messages with an INC
 * request, packets with an INC frame), {@link ReliableTransportExtension} (the message transport and the fault
 * family), {@link EthernetExtension}, {@link TrafficExtension} and {@link CircuitWaitExtension}. What nobody claims
 * keeps the chassis's plain behaviour (each message sent once) or is refused. The services, and what the port asks
 * of the chassis ({@link NicPort.Host}), are a private inner class: whoever holds the device core cannot call them.
 * It is built by a {@link NicBuilder}.
 */
public final class NicCore implements DeviceCore, HostPayload.Handler<Outbox>,
    LinkPayload.Handler<Outbox>, RetransmitPayload.Handler<Outbox> {
  private final int host;
  private final int nodeDevice;
  private final Topology topology;
  private final RoutingTable routing;
  private final NicSpec nic;
  private final long pcieLatencyPs;
  private final PacketForwarder forwarder;
  private final NicPort port;
  /** Element size by which messages without data are segmented. */
  private final int syntheticElementBytes;
  /** Messages partly received, by (source host, message id). */
  private final IntLongMap<Reassembly> reassembly = new IntLongMap<>();
  private long nextMessageId;
  /** The device the event being handled came from (a packet's previous hop). */
  private int ingressDevice;
  /** When the NIC has processed every work request posted so far (one at a time). */
  private long workRequestsFreeAtPs;
  /** What the features and the port may ask of the chassis: not public, as this class is to every device holder. */
  private final Services services = new Services();
  /** The features of this NIC, in registration order; null only while they are built. */
  private final NicExtension[] extensions;
  /** What the extensions claimed, resolved once as the NIC is built ({@link NicHooks}). */
  private final NicHooks hooks;
  private final NicClaims.Transport transport;
  private final NicClaims.Inc inc;
  /** The DMA's bus to host memory: PCIe ({@link PcieBus}) unless an extension claimed another. */
  private final HostBus bus;

  NicCore(NicBuilder b) {
    if (b.syntheticElementBytes < 1) {
      throw new IllegalArgumentException("element size must be at least 1 B, got " + b.syntheticElementBytes);
    }
    this.host = b.host;
    this.nodeDevice = b.nodeDevice;
    this.topology = b.topology;
    this.routing = b.routing;
    this.nic = b.nic;
    this.syntheticElementBytes = b.syntheticElementBytes;
    this.pcieLatencyPs = b.pcie.latencyPs();
    this.forwarder = new PacketForwarder(host, topology, routing, nic.forwardingLatencyPs(),
        ForwardingMode.CUT_THROUGH, b.packetDrops, b.scenarioSeed);
    this.port = b.port.make(forwarder, services);
    NicExtension[] built = new NicExtension[b.factories.size()];
    this.hooks = new NicHooks(services, this);
    for (int i = 0; i < built.length; i++) {
      built[i] = b.factories.get(i).create(services);
      built[i].claim(hooks);
    }
    this.extensions = built;
    this.transport = hooks.transport();
    this.inc = hooks.inc();
    this.bus = hooks.hostBus(b.pcie);
    if (port instanceof RouterNicPort router) {
      router.bind(transport, hooks.routerTraffic(), hooks.routerFrames());
    }
  }

  /**
   * A NIC's builder: the chassis's parts, then its features.
   *
   * @param host                  the host's vertex id, also this device's id
   * @param nodeDevice            device id of the host's compute node
   * @param syntheticElementBytes element size of the workload's data: messages without data (synthetic payload) are
   *                              cut into segments on the same element boundaries as real ones, so both give the
   *                              same packets
   */
  public static NicBuilder builder(int host, int nodeDevice, Topology topology, RoutingTable routing, NicSpec nic,
                                   PcieSpec pcie, int syntheticElementBytes) {
    return new NicBuilder(host, nodeDevice, topology, routing, nic, pcie, syntheticElementBytes);
  }

  /** The chassis as its features and its port see it; tests reach it here. */
  NicServices services() {
    return services;
  }

  /** The port strategy segments leave by; tests reach it here (extensions through {@link NicServices#port}). */
  NicPort port() {
    return port;
  }

  @Override
  public int deviceId() {
    return host;
  }

  @Override
  public String deviceName() {
    return "NIC " + host;
  }

  /** This NIC's extension of type {@code type}, if it has that feature. */
  public <T extends NicExtension> Optional<T> extension(Class<T> type) {
    for (NicExtension e : extensions) {
      if (type.isInstance(e)) return Optional.of(type.cast(e));
    }
    return Optional.empty();
  }

  @Override
  public void onEvent(Event event, Outbox outbox) {
    // The router port reports to its listener while handling any event (an ejection, a packet leaving or lost).
    ingressDevice = event.sourceDevice();
    port.eventStarts(ingressDevice, outbox);
    // A connection-policy change's routes apply to everything from its time on.
    forwarder.routesAt(event.timePs());
    event.payload().handleWith(this, outbox);
  }

  @Override
  public RouterPayload.Handler<Outbox> router(RouterPayload payload) {
    return port;
  }

  @Override
  public FaultPayload.Handler<Outbox> fault(FaultPayload payload) {
    return hooks.faults(payload);
  }

  @Override
  public EthernetPayload.Handler<Outbox> ethernet(EthernetPayload payload) {
    return hooks.ethernet(payload);
  }

  @Override
  public CircuitPayload.Handler<Outbox> circuit(CircuitPayload payload) {
    return hooks.circuits(payload);
  }

  @Override
  public WorkloadPayload.Handler<Outbox> workload(WorkloadPayload payload) {
    return hooks.workload(payload);
  }

  @Override
  public void onPacket(Packet packet, Outbox outbox) {
    if (!transport.arrives(ingressDevice, outbox.nowPs())) {
      return; // lost to a fault on the way in (counted)
    }
    if (packet.destinationHost() != host) {
      forwarder.forward(packet, outbox);
    } else if (packet.corrupted()) {
      return; // the checksum fails: dropped here, counted where the bits flipped
    } else if (packet.ack()) {
      transport.acknowledged(packet, packet.tailTimePs());
    } else if (packet.extension() != null) {
      inc.receive(packet, outbox);
    } else {
      services.receive(packet, outbox);
    }
  }

  @Override
  public void onNicSend(NicSend send, Outbox outbox) {
    // A protocol's line framing marks an ordinary message; any other extension is INC's.
    if (send.message().extension() != null && LineFraming.of(send.message()) == null) {
      inc.send(send, outbox);
    } else {
      transport.send(send, outbox);
    }
  }

  @Override
  public void onIncRetransmitTimer(IncRetransmitTimer timer, Outbox outbox) {
    inc.onTimer(timer, outbox);
  }

  @Override
  public void onTransportTimer(TransportTimer timer, Outbox outbox) {
    transport.onTimer(timer, outbox);
  }

  @Override
  public void onNicDeliver(NicDeliver deliver, Outbox outbox) {
    throw cannotHandle(deliver);
  }

  @Override
  public void onLocalDelivery(LocalDelivery delivery, Outbox outbox) {
    throw cannotHandle(delivery);
  }

  /** The counters of the NIC's port, and what its extensions add ({@link NicReportParts}). */
  @Override
  public DeviceReport report() {
    NicReportParts parts = new NicReportParts();
    for (NicExtension e : extensions) e.report(parts);
    return DeviceReport.builder(host).links(port.counters()).part(parts.traffic()).part(parts.faultReport())
        .part(parts.ethernet()).part(forwarder.ocsReport()).build();
  }

  /**
   * The chassis's services ({@link NicServices}, to its extensions) and what its port asks of it
   * ({@link NicPort.Host}): an inner class, so that they are not public methods of the device core.
   */
  private final class Services implements NicServices, NicPort.Host {
    @Override
    public int host() {
      return host;
    }

    @Override
    public Topology topology() {
      return topology;
    }

    @Override
    public RoutingTable routing() {
      return routing;
    }

    @Override
    public NicSpec nic() {
      return nic;
    }

    @Override
    public PacketForwarder forwarder() {
      return forwarder;
    }

    @Override
    public NicPort port() {
      return port;
    }

    @Override
    public RouterNicPort routerPort(String feature) {
      if (port instanceof RouterNicPort router) return router;
      throw new IllegalArgumentException("NIC " + host + ": " + feature + " needs a router network");
    }

    @Override
    public LinkNicPort linkPort(String feature) {
      if (port instanceof LinkNicPort link) return link;
      throw new IllegalArgumentException("NIC " + host + ": " + feature + " needs links, not a router network");
    }

    @Override
    public long nextMessageId() {
      return nextMessageId++;
    }

    @Override
    public long workRequestDonePs(long nowPs) {
      workRequestsFreeAtPs = Math.max(nowPs, workRequestsFreeAtPs) + nic.perMessageOverheadPs();
      return workRequestsFreeAtPs;
    }

    @Override
    public long dmaReadStartPs(int peerHost, long startPs) {
      return bus.readStartPs(peerHost, startPs);
    }

    @Override
    public long dmaReadReadyPs(int peerHost, long readStartPs, long bytes) {
      return bus.readReadyPs(peerHost, readStartPs, bytes);
    }

    @Override
    public void dmaReadDone(int peerHost, long readyPs) {
      bus.readDone(peerHost, readyPs);
    }

    @Override
    public long dmaWrittenPs(int peerHost, long readyPs, long bytes) {
      return bus.writtenPs(peerHost, readyPs, bytes);
    }

    @Override
    public void deliver(Message message, long writtenPs, Outbox outbox) {
      outbox.send(nodeDevice, writtenPs + pcieLatencyPs, new NicDeliver(message));
    }

    @Override
    public void routesChanged(RouteUpdate update, Outbox outbox) {
      for (NicExtension e : built()) e.routesChanged(update, outbox);
    }

    @Override
    public void routerLinkChanged(boolean up) {
      for (NicExtension e : built()) e.onRouterLink(up);
    }

    /** The extensions, once all are built: one calling back into the chassis while being built is an error. */
    private NicExtension[] built() {
      if (extensions == null) {
        throw new IllegalStateException("NIC " + host + ": an extension called back while the NIC was being built");
      }
      return extensions;
    }

    @Override
    public long transmitMessage(int destinationHost, Message message, long messageId, int transmission,
                                Outbox outbox) {
      DataBuffer data = message.data();
      long totalBytes = message.sizeBytes();
      // Segments end on element boundaries: a synthetic message is cut as the real one of its size would be.
      int elementBytes = data == null ? syntheticElementBytes : data.elementBytes();
      // A protocol that frames its payload in lines (NCCL's LL, LL128) puts its flags on the bus and the wire too: a
      // segment holds as many whole lines as fit the segment size, so it carries less payload.
      LineFraming framing = LineFraming.of(message);
      int segmentPayloadCapacity = framing == null ? nic.segmentBytes()
          : Math.max(1, nic.segmentBytes() / framing.lineBytes()) * framing.payloadBytesPerLine();
      int elementsPerSegment = Math.max(1, segmentPayloadCapacity / elementBytes);
      long segmentPayloadBytes = (long) elementsPerSegment * elementBytes;
      int segments = (int) Math.max(1, (totalBytes + segmentPayloadBytes - 1) / segmentPayloadBytes);
      MessageInfo info = new MessageInfo(message.sourceRank(), message.destinationRank(), message.tag(),
          data == null ? 0 : data.count(), data == null ? null : data.type(), data != null && data.hasLocations(),
          totalBytes);
      long start = workRequestDonePs(outbox.nowPs());
      port.beginMessage(destinationHost, Message.laneOf(message.tag()), start);
      // The DMA read channel is shared: this message's reads start when the work request is done and the channel has
      // read every message sent before it.
      long readStart = dmaReadStartPs(destinationHost, start);
      long payloadSent = 0;
      long dmaBytes = 0;
      long readyPs = readStart;
      for (int s = 0; s < segments; s++) {
        long payloadBytes = Math.min(segmentPayloadBytes, totalBytes - payloadSent);
        int elementOffset = data == null ? 0 : s * elementsPerSegment;
        // A segment is a view of the message's data, not a copy: the data is never written once sent.
        DataBuffer slice = data == null ? null : data.view(elementOffset, (int) (payloadBytes / elementBytes));
        long framedBytes = framing == null ? payloadBytes : framing.wireBytes(payloadBytes);
        payloadSent += payloadBytes;
        dmaBytes += framedBytes;
        // DMA reads are pipelined with the wire: segment s can leave once its bytes are in the NIC. Counted from the
        // message's first read (not summed per segment), so per-segment rounding does not add up.
        readyPs = dmaReadReadyPs(destinationHost, readStart, dmaBytes);
        int wireBytes = wireBytes(framedBytes);
        Packet packet = Packet.builder().sourceHost(host).destinationHost(destinationHost)
            .messageId(messageId).segmentIndex(s).segmentCount(segments).wireBytes(wireBytes).info(info)
            .elementOffset(elementOffset).slice(slice).transmission(transmission).build();
        port.sendSegment(destinationHost, packet, wireBytes, readyPs, outbox);
      }
      dmaReadDone(destinationHost, readyPs);
      return port.endMessage(readyPs, outbox);
    }

    /** Payload plus header, checked to fit the packet's {@code int} size. */
    private int wireBytes(long payloadBytes) {
      long wireBytes = payloadBytes + nic.headerBytes();
      if (wireBytes > Integer.MAX_VALUE) {
        throw new IllegalArgumentException("a packet of " + payloadBytes + " B of payload and " + nic.headerBytes()
            + " B of header (header-bytes) is " + wireBytes + " B, more than " + Integer.MAX_VALUE + " B");
      }
      return (int) wireBytes;
    }

    @Override
    public void receive(Packet packet, Outbox outbox) {
      if (transport.discardsCopy(packet, outbox)) return;
      MessageInfo info = packet.info();
      Reassembly r = null;
      if (packet.segmentCount() > 1) {
        r = reassembly.get(packet.sourceHost(), packet.messageId());
        if (r == null) {
          // A message without data (synthetic) is reassembled by counting its packets.
          r = new Reassembly(info.dataType() == null ? null : new Packet[packet.segmentCount()],
              packet.segmentCount());
          reassembly.put(packet.sourceHost(), packet.messageId(), r);
        }
        if (r.arrived[packet.segmentIndex()]) {
          forwarder.faultTally().duplicateDiscarded(); // a retransmitted copy of a packet that got through
          return;
        }
      }
      long writtenPs = dmaWrittenPs(packet.sourceHost(), packet.tailTimePs(), packet.wireBytes() - nic.headerBytes());
      if (r == null) {
        delivered(packet, info, packet.slice(), writtenPs, outbox);
        return;
      }
      r.arrived[packet.segmentIndex()] = true;
      if (packet.slice() != null) {
        r.parts[packet.segmentIndex()] = packet;
      }
      r.received++;
      r.lastWrittenPs = Math.max(r.lastWrittenPs, writtenPs);
      if (r.received == packet.segmentCount()) {
        reassembly.remove(packet.sourceHost(), packet.messageId());
        delivered(packet, info, r.parts == null ? null : Reassembly.data(info, r.parts), r.lastWrittenPs, outbox);
      }
    }

    /** A whole message is in: deliver it, and tell the transport (which may acknowledge it). */
    private void delivered(Packet last, MessageInfo info, DataBuffer data, long writtenPs, Outbox outbox) {
      deliver(new Message(info.sourceRank(), info.destinationRank(), info.tag(), data, info.totalBytes()), writtenPs,
          outbox);
      transport.delivered(last, writtenPs, outbox);
    }
  }
}
