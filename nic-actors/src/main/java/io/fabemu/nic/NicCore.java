package io.fabemu.nic;

import io.fabemu.core.data.DataBuffer;
import io.fabemu.core.ethernet.EthernetFormatException;
import io.fabemu.core.ethernet.EthernetFrame;
import io.fabemu.core.ethernet.EthernetReport;
import io.fabemu.core.ethernet.EthernetSpec;
import io.fabemu.core.ethernet.FramePayloads;
import io.fabemu.core.ethernet.MacAddress;
import io.fabemu.core.fault.FaultPlan;
import io.fabemu.core.fault.FaultReport;
import io.fabemu.core.inc.ControlPayload;
import io.fabemu.core.inc.IncFrame;
import io.fabemu.core.inc.IncPacketType;
import io.fabemu.core.inc.IncRequest;
import io.fabemu.core.link.BusyTimeline;
import io.fabemu.core.link.DetourViews;
import io.fabemu.core.link.EgressPort;
import io.fabemu.core.link.ForwardingMode;
import io.fabemu.core.link.LinkFaults;
import io.fabemu.core.link.PacketDropSpec;
import io.fabemu.core.link.PacketForwarder;
import io.fabemu.core.link.PcieSpec;
import io.fabemu.core.link.RoutingViews;
import io.fabemu.core.protocol.CircuitPayload;
import io.fabemu.core.protocol.DeviceProtocol.CableFrame;
import io.fabemu.core.protocol.DeviceProtocol.CircuitDown;
import io.fabemu.core.protocol.DeviceProtocol.CircuitUp;
import io.fabemu.core.protocol.DeviceProtocol.Credit;
import io.fabemu.core.protocol.DeviceProtocol.EthernetCarriage;
import io.fabemu.core.protocol.DeviceProtocol.EthernetControl;
import io.fabemu.core.protocol.DeviceProtocol.EthernetTimer;
import io.fabemu.core.protocol.DeviceProtocol.FaultCommand;
import io.fabemu.core.protocol.DeviceProtocol.FaultDetected;
import io.fabemu.core.protocol.DeviceProtocol.Flit;
import io.fabemu.core.protocol.DeviceProtocol.IncRetransmitTimer;
import io.fabemu.core.protocol.DeviceProtocol.LocalDelivery;
import io.fabemu.core.protocol.DeviceProtocol.MessageInfo;
import io.fabemu.core.protocol.DeviceProtocol.NicDeliver;
import io.fabemu.core.protocol.DeviceProtocol.NicSend;
import io.fabemu.core.protocol.DeviceProtocol.Packet;
import io.fabemu.core.protocol.DeviceProtocol.RouteUpdate;
import io.fabemu.core.protocol.DeviceProtocol.RoutedPacket;
import io.fabemu.core.protocol.DeviceProtocol.RouterCycle;
import io.fabemu.core.protocol.DeviceProtocol.StartWorkload;
import io.fabemu.core.protocol.DeviceProtocol.TransportTimer;
import io.fabemu.core.protocol.EthernetPayload;
import io.fabemu.core.protocol.FaultPayload;
import io.fabemu.core.protocol.HostPayload;
import io.fabemu.core.protocol.LinkPayload;
import io.fabemu.core.protocol.Message;
import io.fabemu.core.protocol.Payload;
import io.fabemu.core.protocol.RetransmitPayload;
import io.fabemu.core.protocol.RouterPayload;
import io.fabemu.core.protocol.WorkloadPayload;
import io.fabemu.core.router.FlitTerminal;
import io.fabemu.core.router.RouterSpec;
import io.fabemu.core.router.RouterTiming;
import io.fabemu.core.routing.DetourTable;
import io.fabemu.core.routing.RoutingTable;
import io.fabemu.core.sim.DeviceCore;
import io.fabemu.core.sim.DeviceReport.LinkCounters;
import io.fabemu.core.sim.DeviceReport;
import io.fabemu.core.sim.Event;
import io.fabemu.core.sim.Outbox;
import io.fabemu.core.time.Units;
import io.fabemu.core.topology.Topology;
import io.fabemu.core.traffic.DestinationPicker;
import io.fabemu.core.traffic.TrafficSource;
import io.fabemu.core.traffic.TrafficSpec;
import io.fabemu.core.traffic.TrafficStats;
import io.fabemu.core.util.IntLongMap;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;

/**
 * A host's network interface. Sending: per-message work-request processing, then segmentation into packets of
 * at most {@code segmentBytes} of payload (whole elements), each DMA-read from host memory over PCIe (pipelined
 * with the wire) and serialized on the egress port; a segment's data is a view of the message's, not a copy. A
 * message without data (synthetic payload) is cut by its size alone, into the packets its real counterpart would
 * make, and carries no slices. Receiving: every segment is DMA-written to host memory once its tail is in;
 * reassembly by (source host, message id), by counting packets when there is no data; once the last segment is
 * written, the whole message is delivered to the compute node, a PCIe latency later: the sender's buffer itself when
 * the segments are views of it, else the segments copied into one buffer. In direct topologies (line, ring, full
 * mesh) the NIC also relays transit packets, cut-through. In a router network (mesh, torus, group-ring) every segment
 * becomes a packet of flits that the NIC's {@link FlitTerminal} injects into its router, once the segment's DMA read
 * is done; a segment arriving through the terminal is DMA-written and reassembled as one off a link, its tail time
 * that of its tail flit.
 *
 * <p>The host-NIC DMA is one FIFO channel per direction, shared by all messages: the read channel reads the segments
 * of the messages sent, message after message in send order (a segment may leave once its bytes are read); the
 * write channel writes the payload of every received segment, in arrival order, at the PCIe rate. A PCIe rate of 0
 * means free: no channel then delays anything.
 *
 * <p>INC (the INC patent's NIC transceiver): a message with an INC request, and a received packet with an INC frame,
 * go to the NIC's {@link NicIncUnit}. A task is cut into fragments addressed to the host's TOR: one work request
 * for the whole task, the DMA read of its data as for any message, then each fragment through the INC unit (a
 * FIFO, {@code engineLatencyPs} each) onto the link; a retransmission timer (a self-event) resends the fragments
 * whose result is still missing. Result fragments go through the INC unit and are DMA-written as they come; once the
 * last is in, the whole result is delivered as one message, a PCIe latency later. Control messages travel as one
 * packet each, through the INC unit both ways.
 *
 * <p>Past 500 lines: the NIC is still one switchboard over its units (reliable transport, INC, Ethernet, OCS circuits,
 * router terminal); splitting it into plug-ins is planned work, and each unit's logic already lives in a class of its
 * own.
 */
public final class NicCore implements DeviceCore, WorkloadPayload.Handler<Outbox>, HostPayload.Handler<Outbox>,
    LinkPayload.Handler<Outbox>, RetransmitPayload.Handler<Outbox>, RouterPayload.Handler<Outbox>,
    FaultPayload.Handler<Outbox>, EthernetPayload.Handler<Outbox>, CircuitPayload.Handler<Outbox> {
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
  /** When the NIC has processed every work request posted so far (one at a time). */
  private long workRequestsFreeAtPs;
  /** When the DMA read channel (host memory to NIC, all messages sent) has read everything queued so far. */
  private long dmaReadFreeAtPs;
  /** When the DMA write channel (NIC to host memory, all segments received) has written everything so far. */
  private long dmaWriteFreeAtPs;
  /** The INC unit; null when the fabric has no INC. */
  private final NicIncUnit incUnit;
  /** The port to the host's TOR, which every INC packet takes; null when INC is off or there is no TOR. */
  private final EgressPort incPort;
  /**
   * The NIC's side of its router in a router network (mesh, torus, group-ring): segments leave as flits through it
   * instead of the egress port, and arrive through it; null on the other fabrics.
   */
  private FlitTerminal terminal;
  /** The router network's routers and channels; null on the other fabrics. */
  private final RouterSpec routerSpec;
  /** Packets this NIC put into its router network, which numbers them. */
  private long nextRoutedPacketId;
  /** The outbox of the event being handled, for the terminal's ejection listener. */
  private Outbox currentOutbox;
  /** The synthetic traffic this NIC injects (one offered load); null when the run is a collective workload. */
  private final TrafficSpec traffic;
  /** Where the traffic's packets go; null without traffic. */
  private final DestinationPicker destinations;
  private final long scenarioSeed;
  /** The traffic source, from the workload's start on; null before and without traffic. */
  private TrafficSource source;
  /** What the traffic measured; null without traffic. */
  private final TrafficStats trafficStats;
  /** The creation cycle of the last traffic packet queued in the terminal; -1 before the first. */
  private long lastQueuedTrafficCycle = -1;
  /** The reliable transport of a run with faults; null otherwise. */
  private ReliableTransport transport;
  private FaultPlan faultPlan;
  /** A router network NIC's link to its router (null on the other fabrics). */
  private final Topology.Link toRouter;
  /** The base routing's virtual-channel classes of a router network (a run with faults doubles them). */
  private final int vcClasses;
  /** A router network's detours of a run with faults, and every view of them; null otherwise. */
  private DetourViews detourViews;
  private DetourTable detours;
  /** With detours: a flit's time from its router's switch grant (half a cycle after an edge) to arriving here. */
  private long routerFlightPs;
  /** The fault event whose route update {@link #detours} came with (what a packet without a route is lost to). */
  private int detoursCauseEventId = -1;
  /** The device the event being handled came from (a packet's previous hop). */
  private int ingressDevice;
  private final Topology topology;
  /** INC tasks given up on (a run with faults), one line each. */
  private final List<String> incGaveUp = new ArrayList<>();
  /** INC groups a fault broke whose notifies this NIC sent (it hosts their MRRs), one line each. */
  private final List<String> incFallbacks = new ArrayList<>();
  /** The groups whose notifies this NIC sent: it records their fallback. */
  private final Set<Long> mrrGroups = new TreeSet<>();
  /** The routing, for the hops to the I/O nodes. */
  private final RoutingTable routing;
  /** The scenario's I/O nodes and external Ethernet; null without an {@code ethernet} section. */
  private EthernetSpec ethernet;
  /** The external Ethernet's device id (with {@link #ethernet}). */
  private int ethernetDevice = -1;
  /** This node's Ethernet NIC when it is an I/O node; null otherwise. */
  private EthernetNicUnit ethernetUnit;
  /** The I/O nodes whose Ethernet NIC is enabled, as the management node last said, ascending. */
  private List<Integer> enabledIoNodes = List.of();
  /** Frames this NIC put into the router network (or handed its own Ethernet NIC), and those that came out here. */
  private long ethernetRoutedSent;
  private long ethernetRoutedArrived;
  /** Frames for this node kept (payload checked), kept but wrong, and discarded (another node's MAC). */
  private long ethernetKept;
  private long ethernetWrong;
  private long ethernetDiscarded;

  /**
   * @param host                  the host's vertex id, also this device's id
   * @param nodeDevice            device id of the host's compute node
   * @param syntheticElementBytes element size of the workload's data: messages without data (synthetic payload)
   *                              are cut into segments on the same element boundaries as real ones, so both give
   *                              the same packets
   */
  public NicCore(int host, int nodeDevice, Topology topology, RoutingTable routing, NicSpec nic, PcieSpec pcie,
                 int syntheticElementBytes) {
    this(host, nodeDevice, topology, routing, nic, pcie, syntheticElementBytes, null, List.of(), 0L);
  }

  /**
   * @param incNic       the NIC's INC unit settings, or null when the fabric has no INC
   * @param packetDrops  the scenario's injected loss (the entry for this host's link, if any, applies)
   * @param scenarioSeed seeds the loss decisions
   */
  public NicCore(int host, int nodeDevice, Topology topology, RoutingTable routing, NicSpec nic, PcieSpec pcie,
                 int syntheticElementBytes, IncNicSpec incNic, List<PacketDropSpec> packetDrops, long scenarioSeed) {
    this(host, nodeDevice, topology, routing, nic, pcie, syntheticElementBytes, incNic, packetDrops, scenarioSeed,
        null, 0);
  }

  /**
   * A NIC of a router network when {@code routerSpec} is given: its only port goes to its router, and its segments
   * travel as flits.
   *
   * @param routerSpec the network's routers and channels; null on the other fabrics
   * @param vcClasses  the routing's virtual-channel classes (ignored without {@code routerSpec})
   */
  public NicCore(int host, int nodeDevice, Topology topology, RoutingTable routing, NicSpec nic, PcieSpec pcie,
                 int syntheticElementBytes, IncNicSpec incNic, List<PacketDropSpec> packetDrops, long scenarioSeed,
                 RouterSpec routerSpec, int vcClasses) {
    this(host, nodeDevice, topology, routing, nic, pcie, syntheticElementBytes, incNic, packetDrops, scenarioSeed,
        routerSpec, vcClasses, null, null);
  }

  /**
   * A NIC of a router network that injects synthetic traffic, from its {@link StartWorkload} on, when
   * {@code traffic} is given.
   *
   * @param traffic      the traffic of one offered load ({@link TrafficSpec#atLoad}); null for a collective workload
   * @param destinations the traffic pattern on the network (shared by every NIC); null without traffic
   */
  public NicCore(int host, int nodeDevice, Topology topology, RoutingTable routing, NicSpec nic, PcieSpec pcie,
                 int syntheticElementBytes, IncNicSpec incNic, List<PacketDropSpec> packetDrops, long scenarioSeed,
                 RouterSpec routerSpec, int vcClasses, TrafficSpec traffic, DestinationPicker destinations) {
    if (traffic != null && (routerSpec == null || destinations == null || traffic.loadCount() != 1)) {
      throw new IllegalArgumentException("NIC " + host + ": synthetic traffic needs a router network, its "
          + "destinations and one offered load");
    }
    this.traffic = traffic;
    this.destinations = destinations;
    this.scenarioSeed = scenarioSeed;
    this.trafficStats = traffic == null ? null : new TrafficStats(traffic);
    if (syntheticElementBytes < 1) {
      throw new IllegalArgumentException("element size must be at least 1 B, got " + syntheticElementBytes);
    }
    this.host = host;
    this.topology = topology;
    this.routing = routing;
    this.syntheticElementBytes = syntheticElementBytes;
    this.nodeDevice = nodeDevice;
    this.nic = nic;
    this.pcieBitsPerSecond = pcie.bitsPerSecond();
    this.pcieLatencyPs = pcie.latencyPs();
    this.forwarder = new PacketForwarder(host, topology, routing, nic.forwardingLatencyPs(), ForwardingMode.CUT_THROUGH,
        packetDrops, scenarioSeed);
    int tor = topology.torOf(host);
    this.incPort = incNic == null || tor < 0 ? null : forwarder.portTo(tor);
    this.incUnit = incPort == null ? null : new NicIncUnit(host, tor, incNic, nic.headerBytes());
    this.routerSpec = routerSpec;
    this.vcClasses = vcClasses;
    this.toRouter = routerSpec == null ? null : topology.ports(host).get(0);
    if (routerSpec == null) {
      this.terminal = null;
    } else {
      this.terminal = new FlitTerminal(host, toRouter.to(), toRouter.toPort(), routerSpec, vcClasses, false,
          new Ejection(), BusyTimeline.maxPeriodsFor(topology.links().size(), 1));
    }
  }

  @Override
  public int deviceId() {
    return host;
  }

  /**
   * Makes this NIC part of a run with faults: its port takes the plan's events and the management node's routes
   * ({@link PacketForwarder#enableFaults}), and its messages go through the reliable transport
   * ({@link ReliableTransport}): numbered per destination, acknowledged, resent on a timeout, never delivered twice.
   * With an INC unit, the management node's views break the INC groups whose tree they cut
   * ({@link NicIncUnit#onDeadLinks}): their leaders here are told, and the MRRs' NIC records why; an INC task
   * resent {@code maxRetransmits} times is given up on with a line instead of failing the run.
   *
   * @param paths the idle round trips of this NIC's messages, for the adaptive retransmit timeout
   * @throws IllegalArgumentException on a router network (whose NICs take the detours instead:
   *                                  {@link #useFaults(FaultPlan, DetourViews, int, long, PathRoundTrip)})
   */
  public void useFaults(FaultPlan plan, RoutingViews routingViews, int managementDevice, long scenarioSeed,
                        PathRoundTrip paths) {
    if (terminal != null) {
      throw new IllegalArgumentException("NIC " + host + ": a router network's NIC takes detours, not routing views");
    }
    forwarder.enableFaults(plan, routingViews, managementDevice, scenarioSeed);
    this.faultPlan = plan;
    this.transport = new ReliableTransport(host, plan.settings(), forwarder.faultTally(), paths);
  }

  /**
   * Makes this router-network NIC part of a run with faults: its routers route by the detour routing (twice the
   * base classes, see {@code DetourRouting}), its packets carry the via node the management node's detours give
   * ({@link #onRouteUpdate}, looked up in {@code detourViews}), its link to the router takes the plan's events, and
   * its messages go through the reliable transport. Call it before the run starts.
   *
   * @throws IllegalArgumentException when the NIC is not on a router network, or runs synthetic traffic
   */
  public void useFaults(FaultPlan plan, DetourViews detourViews, int managementDevice, long scenarioSeed,
                        PathRoundTrip paths) {
    if (terminal == null || traffic != null) {
      throw new IllegalArgumentException("NIC " + host + ": detours need a router network running a workload");
    }
    forwarder.enableFaults(plan, null, managementDevice, scenarioSeed);
    this.terminal = new FlitTerminal(host, toRouter.to(), toRouter.toPort(), routerSpec, 2 * vcClasses, true,
        new Ejection(), BusyTimeline.maxPeriodsFor(topology.links().size(), 1));
    this.detourViews = detourViews;
    this.detours = detourViews.built();
    long cyclePs = routerSpec.cyclePs();
    this.routerFlightPs = (routerSpec.switchAllocationCycles() + routerSpec.traversalCycles()
        + routerSpec.linkLatencyCycles()) * cyclePs - cyclePs / 2;
    this.faultPlan = plan;
    this.transport = new ReliableTransport(host, plan.settings(), forwarder.faultTally(), paths);
  }

  /**
   * Makes this NPU's NIC wait for its optical circuits (docs/optical.md, "The OCS controller"): the ports toward
   * {@code circuitPeers} hold what they are handed until the OCS controller's {@link CircuitUp} for that peer. Call
   * it before the run starts.
   *
   * @throws IllegalArgumentException when the NIC is on a router network, or has no link to one of the peers
   */
  public void awaitCircuits(List<Integer> circuitPeers) {
    if (terminal != null) throw new IllegalArgumentException("host " + host + ": optical circuits on a router network");
    forwarder.awaitCircuitsTo(circuitPeers);
  }

  /**
   * Makes this NPU's NIC follow the connection-policy changes of the run (docs/optical.md, "The OCS controller"): from
   * {@code atPs.get(i)} on it routes by {@code tables.get(i)}. The OCS controller's {@link CircuitDown} and
   * {@link CircuitUp} words tear down and set up its circuits. Call it before the run starts.
   *
   * @throws IllegalArgumentException when the NIC is on a router network, or the lists do not match
   */
  public void useRouteChanges(List<Long> atPs, List<RoutingTable> tables) {
    if (terminal != null) throw new IllegalArgumentException("host " + host + ": route changes on a router network");
    forwarder.useRouteChanges(atPs, tables);
  }

  /**
   * Makes this router-network NIC part of a scenario with I/O nodes: it sends {@code spec.outboundFrames()} frames
   * to the external hosts (its {@link EthernetTimer}s, which the run injects at {@code spec.startPs()}) through the
   * nearest enabled I/O node, keeps the frames for its MAC and discards the others; when it is an I/O node it also
   * runs that node's Ethernet NIC ({@link EthernetNicUnit}), cabled to {@code ethernetDevice}. Call it before the run
   * starts (after {@code useFaults}, if any).
   *
   * @throws IllegalArgumentException when the NIC is not on a router network, or runs synthetic traffic
   */
  public void useEthernet(EthernetSpec spec, int ethernetDevice) {
    if (terminal == null || traffic != null) {
      throw new IllegalArgumentException("NIC " + host + ": I/O nodes need a router network running a workload");
    }
    this.ethernet = spec;
    this.ethernetDevice = ethernetDevice;
    this.enabledIoNodes = spec.initiallyEnabled();
    if (spec.ioNodes().contains(host)) {
      this.ethernetUnit = new EthernetNicUnit(host, spec, enabledIoNodes.contains(host));
    }
  }

  @Override
  public void onEvent(Event event, Outbox outbox) {
    ingressDevice = event.sourceDevice();
    // The terminal reports to its listener while handling any event (an ejection, a packet leaving or lost).
    currentOutbox = outbox;
    // A connection-policy change's routes apply to everything from its time on.
    forwarder.routesAt(event.timePs());
    event.payload().handleWith(this, outbox);
  }

  @Override
  public String deviceName() {
    return "NIC " + host;
  }

  @Override
  public void onPacket(Packet packet, Outbox outbox) {
    if (transport != null && !forwarder.arrives(ingressDevice, outbox.nowPs())) {
      return; // lost to a fault on the way in (counted)
    }
    if (packet.destinationHost() != host) {
      forwarder.forward(packet, outbox);
    } else if (packet.corrupted()) {
      return; // the checksum fails: dropped here, counted where the bits flipped
    } else if (packet.ack()) {
      transport.acknowledged(packet.sourceHost(), packet.messageId(), packet.transmission(), packet.tailTimePs());
    } else if (packet.inc() != null) {
      incReceive(packet, outbox);
    } else {
      receive(packet, outbox);
    }
  }

  @Override
  public void onNicSend(NicSend send, Outbox outbox) {
    if (send.message().inc() != null) {
      incSend(send, outbox);
    } else {
      send(send, outbox);
    }
  }

  @Override
  public void onIncRetransmitTimer(IncRetransmitTimer timer, Outbox outbox) {
    incTimer(timer, outbox);
  }

  /** The start of a synthetic-traffic run: the source starts creating packets at cycle 0. */
  @Override
  public void onStartWorkload(StartWorkload start, Outbox outbox) {
    if (traffic == null || source != null) throw cannotHandle(start);
    source = TrafficSource.forLoad(traffic, 0, destinations, host, scenarioSeed);
    queueTraffic(RouterTiming.cycleOfEdge(outbox.nowPs(), routerSpec.cyclePs()));
    terminal.scheduleEvaluation(outbox);
  }

  @Override
  public void onNicDeliver(NicDeliver deliver, Outbox outbox) {
    throw cannotHandle(deliver);
  }

  @Override
  public void onLocalDelivery(LocalDelivery delivery, Outbox outbox) {
    throw cannotHandle(delivery);
  }

  @Override
  public void onFlit(Flit flit, Outbox outbox) {
    currentOutbox = outbox;
    FlitTerminal t = requireTerminal(flit);
    int lostTo = detours == null ? LinkFaults.ARRIVES : flitLossEvent(outbox.nowPs());
    if (lostTo != LinkFaults.ARRIVES) {
      t.dropArriving(flit, lostTo, outbox);
    } else {
      t.onFlit(flit, outbox);
    }
    currentOutbox = null;
  }

  /**
   * The fault event a flit arriving now from the router is lost to (the link is down, or was while the flit was on
   * it, from the router's switch grant to its arrival), or {@link LinkFaults#ARRIVES}.
   */
  private int flitLossEvent(long nowPs) {
    if (terminal.isLinkDown()) return forwarder.linkFaults().lossEventAt(ingressDevice);
    return forwarder.linkFaults().lossEventOnArrival(ingressDevice, nowPs, routerFlightPs);
  }

  @Override
  public void onCredit(Credit credit, Outbox outbox) {
    requireTerminal(credit).onCredit(credit, outbox);
  }

  @Override
  public void onRouterCycle(RouterCycle cycle, Outbox outbox) {
    if (source != null) {
      long now = RouterTiming.cycleOfEvaluation(outbox.nowPs(), routerSpec.cyclePs());
      if (now < traffic.drainEndCycle()) {
        queueTraffic(now);
      } else {
        // The sources stop with the drain: what has not left by then is never measured (a measured packet still
        // queued makes the drain incomplete, which is the saturation verdict), so its backlog is not emulated.
        terminal.dropQueued();
      }
    }
    requireTerminal(cycle).onRouterCycle(outbox);
  }

  private FlitTerminal requireTerminal(Payload payload) {
    if (terminal == null) throw cannotHandle(payload);
    return terminal;
  }

  private void send(NicSend send, Outbox outbox) {
    if (transport == null) {
      transmitMessage(send.destinationHost(), send.message(), nextMessageId++, 0, outbox);
      return;
    }
    long sequence = transport.nextSequence(send.destinationHost());
    // Registered before it goes: on a router network the terminal arms the timer when the last packet has left.
    TransportTimer timer = transport.sent(send.destinationHost(), sequence, send.message());
    long leftPs = transmitMessage(send.destinationHost(), send.message(), sequence, 0, outbox);
    if (leftPs >= 0) armTransportTimer(timer, leftPs, outbox);
  }

  /** Schedules a message's retransmission timer, due the transport's wait after its last packet left. */
  private void armTransportTimer(TransportTimer timer, long leftPs, Outbox outbox) {
    long fromPs = Math.max(outbox.nowPs(), leftPs);
    outbox.send(host, fromPs + transport.armedAt(timer.destinationHost(), timer.sequence(), fromPs), timer);
  }

  /** A message was not acknowledged in time: send it again (a new work request and DMA read), or give up. */
  @Override
  public void onTransportTimer(TransportTimer timer, Outbox outbox) {
    if (transport == null) throw cannotHandle(timer);
    Message message = transport.onTimer(timer, outbox.nowPs(),
        faultPlan.latestImpairingEventAtOrBefore(outbox.nowPs()));
    if (message == null) return;
    TransportTimer next = transport.sent(timer.destinationHost(), timer.sequence(), message);
    long leftPs = transmitMessage(timer.destinationHost(), message, timer.sequence(),
        transport.transmission(timer.destinationHost(), timer.sequence()), outbox);
    if (leftPs >= 0) armTransportTimer(next, leftPs, outbox);
  }

  /**
   * On a router network: the last packet of this NIC's message {@code packet} left (its tail was injected, or it was
   * lost at the NIC), so its retransmission timer starts now. A packet waits in the terminal's queue for as long as
   * the network makes it, which must not count against the message's timeout.
   */
  private void lastPacketLeft(RoutedPacket packet, Outbox outbox) {
    Packet segment = packet.carried();
    if (transport == null || segment == null || segment.ack() || packet.sourceHost() != host
        || segment.segmentIndex() != segment.segmentCount() - 1) {
      return;
    }
    TransportTimer timer = transport.rearm(packet.destinationHost(), segment.messageId());
    if (timer != null) armTransportTimer(timer, outbox.nowPs(), outbox);
  }

  /**
   * Sends {@code message} to {@code destinationHost}'s NIC as message {@code messageId}: its work request, the DMA
   * read of its segments and their packets, which carry {@code transmission} (the reliable transport's copy).
   *
   * @return when its last packet left the NIC (for the retransmission timer); -1 on a router network when its last
   *         packet was queued in the terminal, which reports when it leaves ({@link #lastPacketLeft})
   */
  private long transmitMessage(int destinationHost, Message message, long messageId, int transmission,
                               Outbox outbox) {
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
    long start = Math.max(outbox.nowPs(), workRequestsFreeAtPs) + nic.perMessageOverheadPs();
    workRequestsFreeAtPs = start;
    // Null only in a run with faults, when the management node's routes cut the destination off.
    EgressPort port = terminal != null ? null
        : forwarder.egressToward(host, destinationHost, Message.laneOf(message.tag()));
    long leftPs = start;
    // The DMA read channel is shared: this message's reads start when the work request is done and the channel has
    // read every message sent before it.
    long readStart = Math.max(start, dmaReadFreeAtPs);
    long dmaBytes = 0;
    long readyPs = readStart;
    boolean queuedInTerminal = false;
    for (int s = 0; s < segments; s++) {
      long payloadBytes = Math.min(segmentPayloadBytes, totalBytes - dmaBytes);
      int elementOffset = data == null ? 0 : s * elementsPerSegment;
      // A segment is a view of the message's data, not a copy: the data is never written once sent.
      DataBuffer slice = data == null ? null : data.view(elementOffset, (int) (payloadBytes / elementBytes));
      dmaBytes += payloadBytes;
      // DMA reads are pipelined with the wire: segment s can leave once its bytes are in the NIC. Counted from the
      // message's first read (not summed per segment), so per-segment rounding does not add up.
      readyPs = readStart + Units.transferPs(dmaBytes, pcieBitsPerSecond);
      int wireBytes = wireBytes(payloadBytes);
      Packet packet = Packet.builder().sourceHost(host).destinationHost(destinationHost)
          .messageId(messageId).segmentIndex(s).segmentCount(segments).wireBytes(wireBytes).info(info)
          .elementOffset(elementOffset).slice(slice).transmission(transmission).build();
      if (terminal != null) {
        int via = detours == null ? DetourTable.DIRECT : detours.via(host, destinationHost);
        if (via == DetourTable.CUT_OFF) {
          forwarder.faultTally().packetLost(detoursCauseEventId);
          continue;
        }
        if (via >= 0) forwarder.faultTally().packetDetoured(detoursCauseEventId);
        // The segment's tail time is set where its last flit is ejected. DMA reads end in order, so the source
        // queue stays in creation order (the max only guards it).
        terminal.enqueue(new RoutedPacket(nextRoutedPacketId++, host, destinationHost,
            routerSpec.flitsOf(wireBytes), Math.max(readyPs, terminal.lastQueuedCreatedPs()), false, packet, via));
        queuedInTerminal = true;
      } else if (port == null) {
        forwarder.countUnroutable();
      } else {
        PacketForwarder.transmit(port, readyPs, packet, outbox);
        leftPs = Math.max(leftPs, port.lastTailArrivalPs() - port.latencyPs());
      }
    }
    dmaReadFreeAtPs = readyPs;
    if (terminal != null) terminal.scheduleEvaluation(outbox);
    return queuedInTerminal ? -1 : Math.max(leftPs, readyPs);
  }

  /**
   * Acknowledges message {@code sequence} of {@code sourceHost}, once its last packet is in host memory, answering
   * copy {@code answeredTransmission} of it (the one whose packet made it whole, or a later duplicate).
   */
  private void acknowledge(int sourceHost, long sequence, int answeredTransmission, long readyPs, Outbox outbox) {
    Packet ack = Packet.builder().sourceHost(host).destinationHost(sourceHost).messageId(sequence).segmentCount(1)
        .wireBytes(nic.headerBytes()).ack(true).transmission(answeredTransmission).build();
    if (terminal != null) {
      int via = detours.via(host, sourceHost);
      if (via == DetourTable.CUT_OFF) {
        forwarder.faultTally().packetLost(detoursCauseEventId);
        return;
      }
      if (via >= 0) forwarder.faultTally().packetDetoured(detoursCauseEventId);
      // Acknowledgements go first, in creation order among themselves.
      long createdPs = Math.max(Math.max(readyPs, outbox.nowPs()), terminal.lastControlCreatedPs());
      terminal.enqueueControl(new RoutedPacket(nextRoutedPacketId++, host, sourceHost,
          routerSpec.flitsOf(nic.headerBytes()), createdPs, false, ack, via));
      terminal.scheduleEvaluation(outbox);
      return;
    }
    EgressPort port = forwarder.egressToward(host, sourceHost);
    if (port == null) {
      forwarder.countUnroutable();
    } else {
      PacketForwarder.transmit(port, Math.max(readyPs, outbox.nowPs()), ack, outbox);
    }
  }

  /** This node's next frame to the external hosts: through the nearest enabled I/O node. */
  @Override
  public void onEthernetTimer(EthernetTimer timer, Outbox outbox) {
    if (ethernet == null) throw cannotHandle(timer);
    int round = timer.round();
    long source = MacAddress.ofNode(host);
    long destination = MacAddress.ofExternalHost(Math.floorMod(host + round, ethernet.externalHosts()));
    byte[] frame = new EthernetFrame(destination, source, EthernetFrame.ETHER_TYPE,
        FramePayloads.of(source, round, ethernet.frameBytes(), scenarioSeed)).encode();
    int io = nearestEnabledIoNode();
    if (io < 0) {
      ethernetRoutedSent++; // no Ethernet NIC is enabled: the frame is lost
    } else {
      // The send command carries the detour from the I/O node back here (external=>internal), for its table.
      int back = io == host || detours == null ? DetourTable.DIRECT : detours.via(io, host);
      sendEthernet(io, new EthernetCarriage(frame, host, back, true), outbox);
    }
    if (round + 1 < ethernet.outboundFrames()) {
      outbox.send(host, outbox.nowPs() + ethernet.intervalPs(), new EthernetTimer(round + 1));
    }
  }

  /** The enabled I/O node with the fewest hops from here (the lowest-numbered of equals); -1 when none is. */
  private int nearestEnabledIoNode() {
    int best = -1;
    int bestHops = Integer.MAX_VALUE;
    for (int io : enabledIoNodes) {
      int hops = io == host ? 0 : routing.distance(host, io);
      if (hops < bestHops) {
        best = io;
        bestHops = hops;
      }
    }
    return best;
  }

  /** A frame from the external Ethernet on this I/O node's cable: through its Ethernet NIC to the node(s). */
  @Override
  public void onCableFrame(CableFrame frame, Outbox outbox) {
    if (ethernetUnit == null || frame.ioHost() != host) throw cannotHandle(frame);
    List<int[]> targets = ethernetUnit.fromCable(frame.frame(), topology.hostCount(),
        node -> node == host || detours == null ? DetourTable.DIRECT : detours.via(host, node));
    for (int[] target : targets) {
      sendEthernet(target[0], target[1], new EthernetCarriage(frame.frame(), host, -1, false), outbox);
    }
  }

  /** The management node enabled and disabled Ethernet NICs: pick I/O nodes among the enabled ones from now on. */
  @Override
  public void onEthernetControl(EthernetControl control, Outbox outbox) {
    if (ethernet == null) throw cannotHandle(control);
    enabledIoNodes = control.enabledIoHosts();
    if (ethernetUnit != null) ethernetUnit.setEnabled(enabledIoNodes.contains(host));
  }

  @Override
  public void onCircuitUp(CircuitUp up, Outbox outbox) {
    forwarder.onCircuitUp(up, outbox);
  }

  @Override
  public void onCircuitDown(CircuitDown down, Outbox outbox) {
    forwarder.onCircuitDown(down, outbox);
  }

  /** Sends a frame to node {@code destination} by this NIC's current route to it. */
  private void sendEthernet(int destination, EthernetCarriage carriage, Outbox outbox) {
    int via = destination == host || detours == null ? DetourTable.DIRECT : detours.via(host, destination);
    sendEthernet(destination, via, carriage, outbox);
  }

  /**
   * Sends a frame to node {@code destination} through {@code via}: into the router network as one packet (a
   * datagram: no acknowledgement, lost if a failure hits it), or straight to this node's own Ethernet NIC or host
   * when it is this node.
   */
  private void sendEthernet(int destination, int via, EthernetCarriage carriage, Outbox outbox) {
    ethernetRoutedSent++;
    if (destination == host) {
      // Inside the node, but through its router's Ethernet NIC: lost while the router is down.
      if (terminal.isLinkDown()) return;
      ethernetRoutedArrived++;
      ethernetArrived(carriage, outbox.nowPs(), outbox);
      return;
    }
    if (via == DetourTable.CUT_OFF) return; // no route reaches it: lost
    if (via >= 0 && forwarder.faultTally() != null) forwarder.faultTally().packetDetoured(detoursCauseEventId);
    long createdPs = Math.max(outbox.nowPs(), terminal.lastQueuedCreatedPs());
    terminal.enqueue(new RoutedPacket(nextRoutedPacketId++, host, destination,
        routerSpec.flitsOf(carriage.frame().length + (long) nic.headerBytes()), createdPs, false, null, via,
        carriage));
    terminal.scheduleEvaluation(outbox);
  }

  /**
   * A frame came out of the router network here (or was handed over inside this node): an outbound one goes to
   * this I/O node's Ethernet NIC and out on its cable; an inbound one is kept when it is for this node's MAC (its
   * payload checked), else discarded.
   */
  private void ethernetArrived(EthernetCarriage carriage, long nowPs, Outbox outbox) {
    if (carriage.outbound()) {
      if (ethernetUnit == null) {
        throw new IllegalStateException("NIC " + host + " got a frame for the external Ethernet from node "
            + carriage.sourceNode() + ", but is not an I/O node");
      }
      // The table's detour back to the sender comes from this I/O node's own view, which the management node keeps
      // current (the sender's may be older: it gets no update when only the way back to it changed).
      int back = carriage.sourceNode() == host || detours == null ? DetourTable.DIRECT
          : detours.via(host, carriage.sourceNode());
      if (ethernetUnit.fromNode(new EthernetCarriage(carriage.frame(), carriage.sourceNode(), back, true))) {
        long arrivalPs = ethernetUnit.cableArrivalPs(nowPs, carriage.frame().length);
        outbox.send(ethernetDevice, arrivalPs, new CableFrame(host, carriage.frame()));
      }
      return;
    }
    EthernetFrame frame;
    try {
      frame = EthernetFrame.decode(carriage.frame());
    } catch (EthernetFormatException e) {
      ethernetWrong++; // the I/O NIC checked the FCS: never so
      return;
    }
    if (frame.destination() != MacAddress.ofNode(host)) {
      ethernetDiscarded++;
    } else if (FramePayloads.verify(frame.source(), frame.payload(), scenarioSeed)) {
      ethernetKept++;
    } else {
      ethernetWrong++;
    }
  }

  /**
   * What the terminal ejects: a segment goes on to reassembly as if its tail had come off a link; a traffic packet
   * is counted.
   */
  private final class Ejection implements FlitTerminal.EjectionListener {
    @Override
    public void packetEjected(RoutedPacket packet, long tailArrivalPs, int hops) {
      Packet segment = packet.carried();
      if (packet.ethernet() != null) {
        ethernetRoutedArrived++;
        ethernetArrived(packet.ethernet(), tailArrivalPs, currentOutbox);
      } else if (segment != null && segment.ack()) {
        transport.acknowledged(segment.sourceHost(), segment.messageId(), segment.transmission(), tailArrivalPs);
      } else if (segment != null) {
        receive(segment.withTailTimePs(tailArrivalPs), currentOutbox);
      } else if (trafficStats != null) {
        long cyclePs = routerSpec.cyclePs();
        trafficStats.recordArrived(packet.createdPs() / cyclePs, RouterTiming.cycleOfEdge(tailArrivalPs, cyclePs),
            hops);
      } else {
        throw new IllegalStateException("NIC " + host + " ejected packet " + packet.packetId() + " of host "
            + packet.sourceHost() + ", which carries no segment, in a run without synthetic traffic");
      }
    }

    @Override
    public void packetLeft(RoutedPacket packet) {
      lastPacketLeft(packet, currentOutbox);
    }

    @Override
    public void packetLost(RoutedPacket packet, int eventId) {
      if (transport == null) FlitTerminal.EjectionListener.super.packetLost(packet, eventId);
      forwarder.faultTally().packetLost(eventId);
    }

    @Override
    public void flitEjected(Flit flit, long arrivalPs) {
      if (trafficStats != null) {
        trafficStats.recordFlitsEjected(RouterTiming.cycleOfEdge(arrivalPs, routerSpec.cyclePs()), 1);
      }
    }
  }

  /**
   * Queues in the terminal every traffic packet created up to cycle {@code cycle}, and the first one after it, so
   * that the terminal's next evaluation is due when that packet exists: packets are made as time goes, never all
   * at once.
   */
  private void queueTraffic(long cycle) {
    long cyclePs = routerSpec.cyclePs();
    while (source.hasNext() && lastQueuedTrafficCycle <= cycle) {
      long created = source.nextPacketCycle();
      int flits = traffic.packetFlits();
      trafficStats.recordCreated(created, flits);
      terminal.enqueue(new RoutedPacket(source.nextPacketNumber(), host, source.nextDestination(), flits,
          created * cyclePs, traffic.isMeasured(created), null));
      lastQueuedTrafficCycle = created;
      source.advance();
    }
  }

  /**
   * An INC message: one work request, the DMA read of its data (a task's) or control payload, then every packet
   * through the INC unit onto the link to the TOR. A task's retransmission timer starts when its last fragment
   * has left.
   */
  private void incSend(NicSend send, Outbox outbox) {
    Message message = send.message();
    IncRequest request = IncRequest.of(message);
    NicIncUnit unit = requireIncUnit(request.type().name() + " message");
    long messageId = nextMessageId++;
    long start = Math.max(outbox.nowPs(), workRequestsFreeAtPs) + nic.perMessageOverheadPs();
    workRequestsFreeAtPs = start;
    long readStart = Math.max(start, dmaReadFreeAtPs);
    if (request.type() != IncPacketType.TASK_UP) {
      ControlPayload control = request.control();
      if (request.type() == IncPacketType.TREE_DOWN && control.failCause() == 0 && control.spineIp() != 0) {
        mrrGroups.add(control.trueCommId());
      }
      Packet packet = unit.controlPacket(message, send.destinationHost(), messageId);
      long readyPs = readStart + Units.transferPs(ControlPayload.WIRE_BYTES, pcieBitsPerSecond);
      dmaReadFreeAtPs = readyPs;
      PacketForwarder.transmit(incPort, unit.process(readyPs), packet, outbox);
      return;
    }
    if (request.task() != null && unit.isBroken(request.task().groupId())) {
      return; // the tree is broken: the leader, told so, recovers the task on the host
    }
    Packet[] fragments = unit.startTask(message, send.destinationHost(), messageId);
    transmitTask(unit, message.sourceRank(), fragments, readStart, outbox);
  }

  /**
   * Reads a task's fragments by DMA from {@code readStart} on and sends them through the INC unit, then arms the
   * retransmission timer of each task among them (a streamed task's chunks each have their own).
   */
  private void transmitTask(NicIncUnit unit, int leaderRank, Packet[] fragments, long readStart, Outbox outbox) {
    if (fragments.length == 0) {
      return; // queued behind the leader's task of the group in flight
    }
    long dmaBytes = 0;
    long readyPs = readStart;
    for (Packet fragment : fragments) {
      // As for ordinary segments, reads are pipelined with the wire and counted from the task's first read.
      dmaBytes += IncFrame.of(fragment).header2().fragmentBytes();
      readyPs = readStart + Units.transferPs(dmaBytes, pcieBitsPerSecond);
      PacketForwarder.transmit(incPort, unit.process(readyPs), fragment, outbox);
    }
    dmaReadFreeAtPs = readyPs;
    long armed = -1;
    for (Packet fragment : fragments) {
      long key = NicIncUnit.taskKey(IncFrame.of(fragment));
      if (key != armed) armRetransmitTimer(unit, leaderRank, key, outbox);
      armed = key;
    }
  }

  /**
   * A task's retransmission timer fired: resend the fragments whose result is missing (kept in the NIC, so no DMA
   * read; each goes through the INC unit again) and re-arm.
   */
  private void incTimer(IncRetransmitTimer timer, Outbox outbox) {
    NicIncUnit unit = requireIncUnit("retransmission timer");
    if (transport != null && unit.retransmitsExhausted(timer)) {
      // A leader cut off by a partition never contributes: give up as the transport does, the run ends incomplete.
      incGaveUp.add(unit.abandon(timer, outbox.nowPs()));
      return;
    }
    Packet[] resend = unit.onTimer(timer);
    if (resend == null) {
      return; // the task completed, or the timer was re-armed since
    }
    for (Packet fragment : resend) {
      PacketForwarder.transmit(incPort, unit.process(outbox.nowPs()), fragment, outbox);
    }
    armRetransmitTimer(unit, timer.leaderRank(), timer.taskId(), outbox);
  }

  /**
   * Arms the timer to fire the task's timeout (with backoff, see {@link NicIncUnit#timeoutPs}) after the last
   * packet sent to the TOR has left the NIC.
   */
  private void armRetransmitTimer(NicIncUnit unit, int leaderRank, long taskId, Outbox outbox) {
    long leftPs = incPort.lastTailArrivalPs() - incPort.latencyPs();
    outbox.send(host, Math.max(outbox.nowPs(), leftPs) + unit.timeoutPs(leaderRank, taskId),
        unit.armTimer(leaderRank, taskId));
  }

  /**
   * A received INC packet, through the INC unit: a result fragment is merged (a new one DMA-written to host
   * memory) and the result delivered once complete; a control packet is written and delivered at once.
   */
  private void incReceive(Packet packet, Outbox outbox) {
    IncFrame frame = IncFrame.of(packet);
    NicIncUnit unit = requireIncUnit(frame.type() + " packet");
    long processedPs = unit.process(packet.tailTimePs());
    switch (frame.type()) {
      case TASK_DOWN -> {
        if (unit.acceptResultFragment(packet)) {
          long writtenPs = dmaWrite(processedPs, frame.header2().fragmentBytes());
          Message result = unit.takeCompletedResult(packet.info().destinationRank(), NicIncUnit.taskKey(frame));
          if (result != null) {
            // The write channel is FIFO in arrival order: the last fragment accepted is the last one written.
            outbox.send(nodeDevice, writtenPs + pcieLatencyPs, new NicDeliver(result));
          }
          // A streamed task's chunk done: the next chunk of its window position is read and sent.
          for (NicIncUnit.ReadyChunk chunk : unit.takeReadyChunks()) {
            transmitTask(unit, chunk.leaderRank(), chunk.fragments(), Math.max(processedPs, dmaReadFreeAtPs),
                outbox);
          }
        }
      }
      case TREE_UP, TREE_DOWN, RELEASE -> {
        long writtenPs = dmaWrite(processedPs, ControlPayload.WIRE_BYTES);
        outbox.send(nodeDevice, writtenPs + pcieLatencyPs, new NicDeliver(unit.onControlPacket(packet)));
      }
      case TASK_UP -> throw new IllegalStateException("NIC of host " + host + " got an INC task fragment (task "
          + frame.header2().taskId() + ") addressed to it: fragments go to a TOR's INC unit");
    }
  }

  private NicIncUnit requireIncUnit(String what) {
    if (incUnit == null) {
      throw new IllegalStateException("NIC of host " + host + " got an INC " + what + ", but has no INC unit "
          + "(the scenario has no INC, or the host hangs off no TOR)");
    }
    return incUnit;
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

  private void receive(Packet packet, Outbox outbox) {
    MessageInfo info = packet.info();
    if (transport != null && transport.isDelivered(packet.sourceHost(), packet.messageId())) {
      // A copy of a message delivered already: its acknowledgement was lost (or is late), so acknowledge it again, on
      // the copy's first and last packets (whichever of them arrive; one may be lost too).
      forwarder.faultTally().duplicateDiscarded();
      if (packet.segmentIndex() == 0 || packet.segmentIndex() == packet.segmentCount() - 1) {
        acknowledge(packet.sourceHost(), packet.messageId(), packet.transmission(), outbox.nowPs(), outbox);
      }
      return;
    }
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
    long writtenPs = dmaWrite(packet);
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
      delivered(packet, info, r.parts == null ? null : reassembled(info, r.parts), r.lastWrittenPs, outbox);
    }
  }

  /** A whole message is in: deliver it, and with the reliable transport remember and acknowledge it. */
  private void delivered(Packet last, MessageInfo info, DataBuffer data, long writtenPs, Outbox outbox) {
    deliver(info, data, writtenPs, outbox);
    if (transport != null) {
      transport.markDelivered(last.sourceHost(), last.messageId());
      acknowledge(last.sourceHost(), last.messageId(), last.transmission(), writtenPs, outbox);
    }
  }

  /**
   * The data of a message whose segments are all in: when every segment is a view of one buffer at its place (the
   * sender's NIC cut them from the message in this JVM), that buffer, uncopied; otherwise (segments that crossed
   * members arrive in arrays of their own) a buffer the segments are copied into.
   */
  private static DataBuffer reassembled(MessageInfo info, Packet[] parts) {
    DataBuffer whole = DataBuffer.enclosing(parts[0].slice(), parts[0].elementOffset(), info.totalElements());
    boolean views = whole != null;
    for (int i = 1; i < parts.length && views; i++) {
      views = whole.isViewAt(parts[i].elementOffset(), parts[i].slice());
    }
    if (views) {
      return whole;
    }
    DataBuffer data = DataBuffer.allocate(info.dataType(), info.totalElements(), info.withLocations());
    for (Packet part : parts) {
      data.copyFrom(part.elementOffset(), part.slice());
    }
    return data;
  }

  /**
   * DMA-writes a received segment's payload to host memory: the write channel takes segments in the order they
   * arrive (their heads; on one ingress link that is also their tails' order), each once its tail is in.
   *
   * @return when the segment is in host memory
   */
  private long dmaWrite(Packet packet) {
    return dmaWrite(packet.tailTimePs(), payloadBytes(packet));
  }

  /** DMA-writes {@code bytes} that are ready at {@code readyPs}; returns when they are in host memory. */
  private long dmaWrite(long readyPs, long bytes) {
    if (pcieBitsPerSecond == 0) {
      return readyPs; // free PCIe: no channel to wait for
    }
    long written = Math.max(readyPs, dmaWriteFreeAtPs) + Units.transferPs(bytes, pcieBitsPerSecond);
    dmaWriteFreeAtPs = written;
    return written;
  }

  /** Delivers a message whose last segment was written at {@code writtenPs}; the completion takes a PCIe latency. */
  private void deliver(MessageInfo info, DataBuffer data, long writtenPs, Outbox outbox) {
    Message message = new Message(info.sourceRank(), info.destinationRank(), info.tag(), data, info.totalBytes());
    outbox.send(nodeDevice, writtenPs + pcieLatencyPs, new NicDeliver(message));
  }

  private long payloadBytes(Packet packet) {
    return packet.wireBytes() - nic.headerBytes();
  }

  /** The INC unit, or null when the NIC has none. */
  public NicIncUnit incUnit() {
    return incUnit;
  }

  /**
   * The counters of the NIC's links: on a router network its one channel to the router, counted in flits (bytes =
   * flits x flit width, busy = one cycle per flit).
   */
  @Override
  public DeviceReport report() {
    if (source != null) {
      // Packets created while the terminal could not inject were never queued (the sources make packets as the
      // terminal evaluates): count them as created, so that a measured one that never left makes the drain
      // incomplete and the generated load is the sources'.
      while (source.hasNext()) {
        trafficStats.recordCreated(source.nextPacketCycle(), traffic.packetFlits());
        source.advance();
      }
    }
    if (terminal == null) {
      List<String> gaveUp = new ArrayList<>(transport == null ? List.of() : transport.gaveUp());
      gaveUp.addAll(incGaveUp);
      FaultReport faults = transport == null ? null
          : new FaultReport(forwarder.faultTally().copy(), List.of(), null, gaveUp, incFallbacks);
      return DeviceReport.builder(host).links(forwarder.counters()).part(faults).part(forwarder.ocsReport()).build();
    }
    LinkCounters port = forwarder.counters().get(0);
    FaultReport faults = transport == null ? null
        : new FaultReport(forwarder.faultTally().copy(), List.of(), null, transport.gaveUp());
    EthernetReport ethernetReport = ethernet == null ? null
        : new EthernetReport(ethernetUnit == null ? List.of() : List.of(ethernetUnit.counters()), List.of(),
            ethernetKept, ethernetDiscarded, ethernetWrong, ethernetRoutedSent, ethernetRoutedArrived, 0, 0,
            List.of());
    return DeviceReport.builder(host).links(List.of(new LinkCounters(port.fromDevice(), port.toDevice(),
        terminal.flitsInjected() * routerSpec.flitBytes(), terminal.packetsInjected(), terminal.injectedCycles(), 0L)))
        .part(trafficStats).part(faults).part(ethernetReport).build();
  }

  /** A message being reassembled. */
  private static final class Reassembly {
    /** The segments received so far, by index; null for a message without data. */
    final Packet[] parts;
    /** Which segments arrived (a retransmitted copy of one that did is discarded). */
    final boolean[] arrived;
    int received;
    /** When the latest-written segment so far is in host memory. */
    long lastWrittenPs;

    Reassembly(Packet[] parts, int segments) {
      this.parts = parts;
      this.arrived = new boolean[segments];
    }
  }

  @Override
  public void onFaultCommand(FaultCommand command, Outbox outbox) {
    if (transport == null) throw cannotHandle(command);
    forwarder.onFaultCommand(command, outbox);
    if (terminal == null) return;
    LinkFaults linkFaults = forwarder.linkFaults();
    int router = toRouter.to();
    if (linkFaults.isDown() || linkFaults.cableDown(router)) {
      terminal.linkDown(linkFaults.lossEventAt(router));
    } else {
      terminal.linkUp();
    }
    // An I/O node's Ethernet NIC sits on its router: cut off with it.
    if (ethernetUnit != null) ethernetUnit.setRouterUp(!terminal.isLinkDown());
    // A packet going out when the link died loses its remaining flits one per cycle.
    terminal.scheduleEvaluation(outbox);
  }

  @Override
  public void onFaultDetected(FaultDetected detected, Outbox outbox) {
    if (transport == null) throw cannotHandle(detected);
    forwarder.onFaultDetected(detected, outbox);
  }

  @Override
  public void onRouteUpdate(RouteUpdate update, Outbox outbox) {
    if (transport == null) throw cannotHandle(update);
    if (detourViews != null) {
      detours = detourViews.viewFor(update.deadLinks());
      detoursCauseEventId = update.causeEventId();
      // The patent's management node updating the I/O NIC's table: every entry's detour from the new view.
      if (ethernetUnit != null) ethernetUnit.refresh(node -> detours.via(host, node));
    } else {
      forwarder.onRouteUpdate(update);
    }
    if (incUnit != null) breakIncGroups(update, outbox);
  }

  /**
   * The INC groups the update's dead links break: each of their leaders here gets a notice (through the PCIe, as
   * a delivery), and for the groups whose MRRs are here one line says what broke and when.
   */
  private void breakIncGroups(RouteUpdate update, Outbox outbox) {
    for (NicIncUnit.BrokenGroup broken : incUnit.onDeadLinks(update.deadLinks())) {
      for (int leader : broken.leaders()) {
        outbox.send(nodeDevice, outbox.nowPs() + pcieLatencyPs,
            new NicDeliver(NicIncUnit.breakNotice(broken.groupId(), leader)));
      }
      if (mrrGroups.contains(broken.groupId())) {
        String cause = update.causeEventId() < 0 ? "a fault"
            : faultPlan.event(update.causeEventId()).describe() + " (event " + update.causeEventId() + ")";
        incFallbacks.add(String.format(Locale.ROOT, "INC group %d over %s broken by %s: its leaders finish the case "
            + "with a host reduce and broadcast at their lowest rank, from the notice at %.3f us", broken.groupId(),
            topology.vertex(broken.spineVertex()).name(), cause, outbox.nowPs() / 1e6));
      }
    }
  }
}
