package io.fabemu.nic;

import io.fabemu.core.link.BusyTimeline;
import io.fabemu.core.link.DetourViews;
import io.fabemu.core.link.LinkFaults;
import io.fabemu.core.link.PacketForwarder;
import io.fabemu.core.protocol.DeviceProtocol.Credit;
import io.fabemu.core.protocol.DeviceProtocol.EthernetCarriage;
import io.fabemu.core.protocol.DeviceProtocol.Flit;
import io.fabemu.core.protocol.DeviceProtocol.NicSend;
import io.fabemu.core.protocol.DeviceProtocol.Packet;
import io.fabemu.core.protocol.DeviceProtocol.RouteUpdate;
import io.fabemu.core.protocol.DeviceProtocol.RoutedPacket;
import io.fabemu.core.protocol.DeviceProtocol.RouterCycle;
import io.fabemu.core.protocol.DeviceProtocol.TransportTimer;
import io.fabemu.core.router.FlitTerminal;
import io.fabemu.core.router.RouterSpec;
import io.fabemu.core.routing.DetourTable;
import io.fabemu.core.sim.DeviceReport.LinkCounters;
import io.fabemu.core.sim.Outbox;
import io.fabemu.core.topology.Topology;
import java.util.List;

/**
 * The port of a NIC in a router network (mesh, torus, group-ring): its only link goes to its router, and every segment
 * becomes a packet of flits that the NIC's {@link FlitTerminal} injects, once the segment's DMA read is done; a
 * segment arriving through the terminal goes to the chassis's reassembly as one off a link, its tail time that of its
 * tail flit. It takes the router payload family (flits, credits, cycles).
 *
 * <p>In a run with faults ({@link #withDetours}) the routers route by the detour routing (twice the base classes), the
 * packets carry the via node of the management node's current detours, and flits arriving over a link that died on
 * the way are lost. What the terminal ejects besides segments goes to the extensions that claimed it
 * ({@link NicClaims#routerFrames}, {@link NicClaims#routerTraffic}): Ethernet frames to {@link Frames}, synthetic
 * traffic to {@link Traffic}.
 */
public final class RouterNicPort implements NicPort {
  private final int host;
  private final RouterSpec spec;
  private final PacketForwarder forwarder;
  /** The chassis, which reassembles the segments the terminal ejects and hears of the router link. */
  private final NicPort.Host chassis;
  /** The NIC's header, which every Ethernet frame carried through the network has too. */
  private final int headerBytes;
  /** The NIC's link to its router. */
  private final Topology.Link toRouter;
  private final Ejection ejection = new Ejection();
  private final FlitTerminal terminal;
  /** A run with faults: the routers route by the detour routing, and flits arriving on a dead link are lost. */
  private final boolean faults;
  /** The management node's current detours; none without faults. */
  private final Detours detours;
  /** With detours: a flit's time from its router's switch grant (half a cycle after an edge) to arriving here. */
  private final long routerFlightPs;
  /** Packets this NIC put into its router network, which numbers them. */
  private long nextPacketId;
  /** The outbox of the event being handled, for the terminal's ejection listener. */
  private Outbox currentOutbox;
  /** The device the event being handled came from. */
  private int ingressDevice;
  /** The current message's packets went into the terminal's queue. */
  private boolean messageQueued;
  private long messageStartPs;
  /** What the extensions claimed, bound once they are all built ({@link #bind}); until then, refusals. */
  private NicClaims.Transport transport;
  private Traffic traffic;
  private Frames frames;
  private boolean bound;

  private RouterNicPort(int host, Topology topology, RouterSpec spec, int vcClasses, Detours detours,
                        PacketForwarder forwarder, NicPort.Host chassis, int headerBytes) {
    this.host = host;
    this.spec = spec;
    this.forwarder = forwarder;
    this.chassis = chassis;
    this.headerBytes = headerBytes;
    this.toRouter = topology.ports(host).get(0);
    this.faults = detours != NO_DETOURS;
    this.detours = detours;
    this.terminal = new FlitTerminal(host, toRouter.to(), toRouter.toPort(), spec, faults ? 2 * vcClasses : vcClasses,
        faults, ejection, BusyTimeline.maxPeriodsFor(topology.links().size(), 1));
    long cyclePs = spec.cyclePs();
    this.routerFlightPs = (spec.switchAllocationCycles() + spec.traversalCycles() + spec.linkLatencyCycles())
        * cyclePs - cyclePs / 2;
    Unbound unbound = new Unbound();
    this.transport = unbound;
    this.traffic = unbound;
    this.frames = unbound;
  }

  /**
   * The port of a run without faults: every packet goes direct.
   *
   * @param vcClasses   the routing's virtual-channel classes
   * @param chassis     the NIC the port belongs to
   * @param headerBytes the NIC's header size (an Ethernet frame's packet has one too)
   */
  static RouterNicPort direct(int host, Topology topology, RouterSpec spec, int vcClasses, PacketForwarder forwarder,
                              NicPort.Host chassis, int headerBytes) {
    return new RouterNicPort(host, topology, spec, vcClasses, NO_DETOURS, forwarder, chassis, headerBytes);
  }

  /**
   * The port of a run with faults: a terminal with twice the base classes (see {@code DetourRouting}), packets with
   * the via node of the management node's current detours, looked up in {@code views}.
   *
   * @param vcClasses the base routing's virtual-channel classes
   */
  static RouterNicPort withDetours(int host, Topology topology, RouterSpec spec, int vcClasses, DetourViews views,
                                   PacketForwarder forwarder, NicPort.Host chassis, int headerBytes) {
    return new RouterNicPort(host, topology, spec, vcClasses, new ViewedDetours(views), forwarder, chassis,
        headerBytes);
  }

  /**
   * Hands the port what the extensions claimed ({@link NicHooks}), once they are all built. Until then the port
   * handles no event (the NIC is not built), and what the terminal would hand them is refused.
   */
  void bind(NicClaims.Transport messageTransport, Traffic claimedTraffic, Frames claimedFrames) {
    if (bound) throw new IllegalStateException("NIC " + host + ": its router port is bound twice");
    this.bound = true;
    this.transport = messageTransport;
    this.traffic = claimedTraffic;
    this.frames = claimedFrames;
  }

  /** Whether the port is part of a run with faults (it takes the management node's detours). */
  public boolean hasDetours() {
    return faults;
  }

  /** The management node's new routes: the detours of its view of the dead links. */
  @Override
  public void onRouteUpdate(RouteUpdate update) {
    detours.update(update);
  }

  /** The via node from {@code from} to {@code to} by the current detours; {@link DetourTable#DIRECT} without. */
  public int via(int from, int to) {
    return detours.via(from, to);
  }

  /** The fault event of the current detours (-1 before any route update). */
  public int detoursCauseEventId() {
    return detours.causeEventId();
  }

  /**
   * The link to the router took a fault event (already applied to the forwarder's link faults): the terminal goes
   * down or up with it, the extensions hear of it, and a packet going out when it died loses its remaining flits.
   */
  @Override
  public void onLinkFaults(Outbox outbox) {
    LinkFaults linkFaults = forwarder.linkFaults();
    int router = toRouter.to();
    if (linkFaults.isDown() || linkFaults.cableDown(router)) {
      terminal.linkDown(linkFaults.lossEventAt(router));
    } else {
      terminal.linkUp();
    }
    chassis.routerLinkChanged(!terminal.isLinkDown());
    terminal.scheduleEvaluation(outbox);
  }

  public FlitTerminal terminal() {
    return terminal;
  }

  public RouterSpec spec() {
    return spec;
  }

  /**
   * Sends an Ethernet frame to node {@code destination} through {@code via} (a host, {@link DetourTable#DIRECT} or
   * {@link DetourTable#CUT_OFF}): one packet into the router network, counted detoured when it goes through a via
   * node; a frame cut off is lost (a datagram), uncounted.
   */
  public void sendFrame(int destination, int via, EthernetCarriage carriage, Outbox outbox) {
    if (via == DetourTable.CUT_OFF) return;
    if (via >= 0) forwarder.faultTally().packetDetoured(detours.causeEventId());
    long createdPs = Math.max(outbox.nowPs(), terminal.lastQueuedCreatedPs());
    terminal.enqueue(new RoutedPacket(nextPacketId++, host, destination,
        spec.flitsOf(carriage.frame().length + (long) headerBytes), createdPs, false, null, via, carriage));
    terminal.scheduleEvaluation(outbox);
  }

  @Override
  public String deviceName() {
    return "NIC " + host;
  }

  @Override
  public void eventStarts(int ingress, Outbox outbox) {
    this.ingressDevice = ingress;
    this.currentOutbox = outbox;
  }

  @Override
  public void beginMessage(int destinationHost, int lane, long startPs) {
    messageQueued = false;
    messageStartPs = startPs;
  }

  @Override
  public void sendSegment(int destinationHost, Packet packet, int wireBytes, long readyPs, Outbox outbox) {
    int via = countedVia(destinationHost);
    if (via == DetourTable.CUT_OFF) return;
    // The segment's tail time is set where its last flit is ejected. DMA reads end in order, so the source queue
    // stays in creation order (the max only guards it).
    terminal.enqueue(new RoutedPacket(nextPacketId++, host, destinationHost, spec.flitsOf(wireBytes),
        Math.max(readyPs, terminal.lastQueuedCreatedPs()), false, packet, via));
    messageQueued = true;
  }

  /**
   * The via node of a packet of this NIC's to {@code destinationHost}, the packet counted lost (cut off) or detoured
   * against the current detours' fault event.
   */
  private int countedVia(int destinationHost) {
    int via = via(host, destinationHost);
    if (via == DetourTable.CUT_OFF) {
      forwarder.faultTally().packetLost(detours.causeEventId());
    } else if (via >= 0) {
      forwarder.faultTally().packetDetoured(detours.causeEventId());
    }
    return via;
  }

  @Override
  public long endMessage(long readyPs, Outbox outbox) {
    terminal.scheduleEvaluation(outbox);
    return messageQueued ? -1 : Math.max(messageStartPs, readyPs);
  }

  @Override
  public void sendAck(int destinationHost, Packet ack, long readyPs, Outbox outbox) {
    int via = countedVia(destinationHost);
    if (via == DetourTable.CUT_OFF) return;
    // Acknowledgements go first, in creation order among themselves.
    long createdPs = Math.max(Math.max(readyPs, outbox.nowPs()), terminal.lastControlCreatedPs());
    terminal.enqueueControl(new RoutedPacket(nextPacketId++, host, destinationHost, spec.flitsOf(ack.wireBytes()),
        createdPs, false, ack, via));
    terminal.scheduleEvaluation(outbox);
  }

  /** On a router network the one channel to the router, counted in flits (bytes = flits x flit width). */
  @Override
  public List<LinkCounters> counters() {
    LinkCounters port = forwarder.counters().get(0);
    return List.of(new LinkCounters(port.fromDevice(), port.toDevice(), terminal.flitsInjected() * spec.flitBytes(),
        terminal.packetsInjected(), terminal.injectedCycles(), 0L));
  }

  @Override
  public void onFlit(Flit flit, Outbox outbox) {
    currentOutbox = outbox;
    int lostTo = faults ? flitLossEvent(outbox.nowPs()) : LinkFaults.ARRIVES;
    if (lostTo != LinkFaults.ARRIVES) {
      terminal.dropArriving(flit, lostTo, outbox);
    } else {
      terminal.onFlit(flit, outbox);
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
    terminal.onCredit(credit, outbox);
  }

  @Override
  public void onRouterCycle(RouterCycle cycle, Outbox outbox) {
    traffic.beforeCycle(outbox);
    terminal.onRouterCycle(outbox);
  }

  /** Synthetic traffic on the port: it queues its packets before each cycle and counts what comes out. */
  public interface Traffic {

    /** A router cycle is about to be evaluated. */
    void beforeCycle(Outbox outbox);

    /** A packet without a segment or frame (a traffic packet) came out. */
    void arrived(RoutedPacket packet, long tailArrivalPs, int hops);

    void flitEjected(long arrivalPs);
  }

  /** Ethernet frames carried through the router network. */
  @FunctionalInterface
  public interface Frames {
    void arrived(EthernetCarriage carriage, long tailArrivalPs, Outbox outbox);
  }

  /** What a port takes before its NIC is built: nothing (an extension calling back while being built is an error). */
  private final class Unbound implements NicClaims.Transport, Traffic, Frames {
    private IllegalStateException unbound() {
      return new IllegalStateException("NIC " + host + ": its router port was used before the NIC was built");
    }

    @Override
    public void send(NicSend send, Outbox outbox) {
      throw unbound();
    }

    @Override
    public void onTimer(TransportTimer timer, Outbox outbox) {
      throw unbound();
    }

    @Override
    public boolean arrives(int ingress, long nowPs) {
      throw unbound();
    }

    @Override
    public boolean discardsCopy(Packet packet, Outbox outbox) {
      throw unbound();
    }

    @Override
    public void delivered(Packet last, long writtenPs, Outbox outbox) {
      throw unbound();
    }

    @Override
    public void acknowledged(Packet ack, long tailTimePs) {
      throw unbound();
    }

    @Override
    public void packetLeft(RoutedPacket packet, Outbox outbox) {
      throw unbound();
    }

    @Override
    public void packetLost(RoutedPacket packet, int eventId) {
      throw unbound();
    }

    @Override
    public void beforeCycle(Outbox outbox) {
      throw unbound();
    }

    @Override
    public void arrived(RoutedPacket packet, long tailArrivalPs, int hops) {
      throw unbound();
    }

    @Override
    public void flitEjected(long arrivalPs) {
      throw unbound();
    }

    @Override
    public void arrived(EthernetCarriage carriage, long tailArrivalPs, Outbox outbox) {
      throw unbound();
    }
  }

  /** The detours of a port's packets: none in a run without faults, else the management node's current view. */
  private interface Detours {
    int via(int from, int to);

    /** The fault event whose route update the current detours came with; -1 before any. */
    int causeEventId();

    void update(RouteUpdate update);
  }

  /** A run without faults: every packet goes direct, and no route update comes. */
  private static final Detours NO_DETOURS = new Detours() {
    @Override
    public int via(int from, int to) {
      return DetourTable.DIRECT;
    }

    @Override
    public int causeEventId() {
      return -1;
    }

    @Override
    public void update(RouteUpdate update) {
      throw new IllegalStateException("a route update (fault event " + update.causeEventId()
          + ") reached a router port in a run without faults");
    }
  };

  /** The management node's detours, looked up in every view of them. */
  private static final class ViewedDetours implements Detours {
    private final DetourViews views;
    private DetourTable current;
    /** The fault event whose route update {@link #current} came with (what a packet without a route is lost to). */
    private int causeEventId = -1;

    ViewedDetours(DetourViews views) {
      this.views = views;
      this.current = views.built();
    }

    @Override
    public int via(int from, int to) {
      return current.via(from, to);
    }

    @Override
    public int causeEventId() {
      return causeEventId;
    }

    @Override
    public void update(RouteUpdate update) {
      current = views.viewFor(update.deadLinks());
      causeEventId = update.causeEventId();
    }
  }

  /** What the terminal ejects: a segment goes on to reassembly as if its tail had come off a link. */
  private final class Ejection implements FlitTerminal.EjectionListener {
    @Override
    public void packetEjected(RoutedPacket packet, long tailArrivalPs, int hops) {
      Packet segment = packet.carried();
      if (packet.ethernet() != null) {
        frames.arrived(packet.ethernet(), tailArrivalPs, currentOutbox);
      } else if (segment != null && segment.ack()) {
        transport.acknowledged(segment, tailArrivalPs);
      } else if (segment != null) {
        chassis.receive(segment.withTailTimePs(tailArrivalPs), currentOutbox);
      } else {
        traffic.arrived(packet, tailArrivalPs, hops);
      }
    }

    @Override
    public void packetLeft(RoutedPacket packet) {
      transport.packetLeft(packet, currentOutbox);
    }

    @Override
    public void packetLost(RoutedPacket packet, int eventId) {
      transport.packetLost(packet, eventId);
    }

    @Override
    public void flitEjected(Flit flit, long arrivalPs) {
      traffic.flitEjected(arrivalPs);
    }
  }
}
