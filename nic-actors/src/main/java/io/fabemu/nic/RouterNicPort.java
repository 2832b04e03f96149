package io.fabemu.nic;

import io.fabemu.core.link.BusyTimeline;
import io.fabemu.core.link.DetourViews;
import io.fabemu.core.link.LinkFaults;
import io.fabemu.core.link.PacketForwarder;
import io.fabemu.core.protocol.DeviceProtocol.Credit;
import io.fabemu.core.protocol.DeviceProtocol.EthernetCarriage;
import io.fabemu.core.protocol.DeviceProtocol.Flit;
import io.fabemu.core.protocol.DeviceProtocol.Packet;
import io.fabemu.core.protocol.DeviceProtocol.RouteUpdate;
import io.fabemu.core.protocol.DeviceProtocol.RoutedPacket;
import io.fabemu.core.protocol.DeviceProtocol.RouterCycle;
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
 * <p>In a run with faults ({@link #useDetours}) the routers route by the detour routing (twice the base classes), the
 * packets carry the via node of the management node's current detours, and flits arriving over a link that died on
 * the way are lost. What the terminal ejects besides segments goes to the extensions that put it there: Ethernet
 * frames to {@link Frames}, synthetic traffic to {@link Traffic}.
 */
public final class RouterNicPort implements NicPort {
  private final int host;
  private final Topology topology;
  private final RouterSpec spec;
  private final int vcClasses;
  private final PacketForwarder forwarder;
  /** The NIC's link to its router. */
  private final Topology.Link toRouter;
  private final Ejection ejection = new Ejection();
  private FlitTerminal terminal;
  /** Packets this NIC put into its router network, which numbers them. */
  private long nextPacketId;
  /** The outbox of the event being handled, for the terminal's ejection listener. */
  private Outbox currentOutbox;
  /** The device the event being handled came from. */
  private int ingressDevice;
  /** The current message's packets went into the terminal's queue. */
  private boolean messageQueued;
  private long messageStartPs;
  private NicServices services;
  private NicClaims.Transport transport;
  private Traffic traffic;
  private Frames frames;
  /** A run with faults: every view of the detours, and the current one; null otherwise. */
  private DetourViews detourViews;
  private DetourTable detours;
  /** The fault event whose route update {@link #detours} came with (what a packet without a route is lost to). */
  private int detoursCauseEventId = -1;
  /** With detours: a flit's time from its router's switch grant (half a cycle after an edge) to arriving here. */
  private long routerFlightPs;

  /**
   * @param vcClasses the base routing's virtual-channel classes (a run with faults doubles them)
   */
  public RouterNicPort(int host, Topology topology, RouterSpec spec, int vcClasses, PacketForwarder forwarder) {
    this.host = host;
    this.topology = topology;
    this.spec = spec;
    this.vcClasses = vcClasses;
    this.forwarder = forwarder;
    this.toRouter = topology.ports(host).get(0);
    this.terminal = newTerminal(vcClasses, false);
    this.traffic = new NoTraffic();
    this.frames = (carriage, tailArrivalPs, outbox) -> {
      throw new IllegalStateException("NIC " + host + " got an Ethernet frame from node " + carriage.sourceNode()
          + " in a scenario without I/O nodes");
    };
  }

  private FlitTerminal newTerminal(int classes, boolean faults) {
    return new FlitTerminal(host, toRouter.to(), toRouter.toPort(), spec, classes, faults, ejection,
        BusyTimeline.maxPeriodsFor(topology.links().size(), 1));
  }

  /** Connects the port to its chassis, whose reassembly and transport get what the terminal ejects. */
  void bind(NicServices chassis, NicClaims.Transport messageTransport) {
    this.services = chassis;
    this.transport = messageTransport;
  }

  /** The synthetic traffic this NIC injects gets the cycles and the packets without a segment. */
  public void carryTraffic(Traffic source) {
    this.traffic = source;
  }

  boolean carriesTraffic() {
    return !(traffic instanceof NoTraffic);
  }

  /** The Ethernet frames that come out of the terminal go to {@code sink}. */
  public void carryFrames(Frames sink) {
    this.frames = sink;
  }

  /**
   * Makes the port part of a run with faults: a terminal with twice the base classes (see {@code DetourRouting}),
   * packets with the via node of the current detours, looked up in {@code views}. Called as the NIC is built.
   */
  public void useDetours(DetourViews views) {
    this.terminal = newTerminal(2 * vcClasses, true);
    this.detourViews = views;
    this.detours = views.built();
    long cyclePs = spec.cyclePs();
    this.routerFlightPs = (spec.switchAllocationCycles() + spec.traversalCycles() + spec.linkLatencyCycles())
        * cyclePs - cyclePs / 2;
  }

  /** The management node's new routes: the detours of its view of the dead links. */
  @Override
  public void onRouteUpdate(RouteUpdate update) {
    detours = detourViews.viewFor(update.deadLinks());
    detoursCauseEventId = update.causeEventId();
  }

  /** The via node from {@code from} to {@code to} by the current detours; {@link DetourTable#DIRECT} without. */
  public int via(int from, int to) {
    return detours == null ? DetourTable.DIRECT : detours.via(from, to);
  }

  /** The fault event of the current detours (-1 before any route update). */
  public int detoursCauseEventId() {
    return detoursCauseEventId;
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
    services.routerLinkChanged(!terminal.isLinkDown());
    terminal.scheduleEvaluation(outbox);
  }

  public FlitTerminal terminal() {
    return terminal;
  }

  public RouterSpec spec() {
    return spec;
  }

  /** A new id for a packet this NIC puts into the network. */
  public long nextPacketId() {
    return nextPacketId++;
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
      forwarder.faultTally().packetLost(detoursCauseEventId);
    } else if (via >= 0) {
      forwarder.faultTally().packetDetoured(detoursCauseEventId);
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
    int lostTo = detours == null ? LinkFaults.ARRIVES : flitLossEvent(outbox.nowPs());
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

  /** A port without synthetic traffic: no packet may come out without a segment. */
  private final class NoTraffic implements Traffic {
    @Override
    public void beforeCycle(Outbox outbox) {
      // nothing to queue
    }

    @Override
    public void arrived(RoutedPacket packet, long tailArrivalPs, int hops) {
      throw new IllegalStateException("NIC " + host + " ejected packet " + packet.packetId() + " of host "
          + packet.sourceHost() + ", which carries no segment, in a run without synthetic traffic");
    }

    @Override
    public void flitEjected(long arrivalPs) {
      // counted only with traffic
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
        services.receive(segment.withTailTimePs(tailArrivalPs), currentOutbox);
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
