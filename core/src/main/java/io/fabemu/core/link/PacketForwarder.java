package io.fabemu.core.link;

import io.fabemu.core.fault.FaultEvent;
import io.fabemu.core.fault.FaultPlan;
import io.fabemu.core.fault.FaultTally;
import io.fabemu.core.optical.OcsReport;
import io.fabemu.core.protocol.DeviceProtocol.CircuitDown;
import io.fabemu.core.protocol.DeviceProtocol.CircuitUp;
import io.fabemu.core.protocol.DeviceProtocol.FailureNotice;
import io.fabemu.core.protocol.DeviceProtocol.FaultCommand;
import io.fabemu.core.protocol.DeviceProtocol.FaultDetected;
import io.fabemu.core.protocol.DeviceProtocol.Packet;
import io.fabemu.core.protocol.DeviceProtocol.RouteUpdate;
import io.fabemu.core.protocol.Message;
import io.fabemu.core.routing.RoutingTable;
import io.fabemu.core.sim.DeviceReport.LinkCounters;
import io.fabemu.core.sim.Outbox;
import io.fabemu.core.topology.Topology;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Forwarding shared by switches and by NICs that relay transit traffic in direct topologies: look up the egress
 * port (shortest path, per-flow ECMP), wait out the pipeline, and serialize on the port's FIFO.
 *
 * <p>Store-and-forward starts the egress when the whole packet is in ({@code tail + pipeline}); cut-through
 * starts it {@code pipeline} after the head arrives, and cannot finish before the tail has arrived.
 *
 * <p>The ports also carry the injected loss of their links ({@link PacketDropSpec}): a packet a port loses is
 * transmitted (it occupies the link) but never delivered.
 *
 * <p>Faults ({@link #enableFaults}, a run with a fault plan): the forwarder applies the plan's events to its ports
 * ({@link #onFaultCommand}: down, up, degrade, lossy), drops what arrives while its device or the cable is down
 * ({@link #arrives}), and notices what went down or up next to it after the heartbeats say so
 * ({@link #onFaultDetected}, which reports to the management node). It routes by the table of the management
 * node's latest view ({@link #onRouteUpdate}); until that comes it knows nothing of a failure and keeps sending
 * into it. A packet with no route (its destination cut off) is lost, and so is a corrupted packet at a
 * store-and-forward hop, which checks the checksum before it forwards.
 *
 * <p>Optical circuits set up during the run ({@link #awaitCircuitsTo}, docs/optical.md "The OCS controller"): the
 * ports toward the circuits' far ends hold what they are handed until the OCS controller's {@link CircuitUp}
 * ({@link #onCircuitUp}), which sends it then. A connection-policy change switches the routes at its time
 * ({@link #useRouteChanges}, {@link #routesAt}) and tears circuits down ({@link #onCircuitDown}): a torn-down port
 * still sends what it had taken (it drains) and then holds again; the NPU has one optical port in the machine, so a
 * new circuit's {@code CircuitUp} takes effect only once every torn-down port of this device has drained.
 */
public final class PacketForwarder {
  private final int vertex;
  /** The routes in use: the fabric's own, or those of the management node's latest view of what is down. */
  private RoutingTable routing;
  private final EgressPort[] ports;
  private final long pipelineLatencyPs;
  /** Ports by the vertex they lead to (the first port when parallel links join the two). */
  private java.util.Map<Integer, EgressPort> portByNeighbour;
  private final boolean cutThrough;
  /** The device's faults; null when the run has no fault plan. */
  private LinkFaults faults;
  private FaultPlan plan;
  private RoutingViews routingViews;
  private int managementDevice;
  /** The event whose notice made the routes in use (what a packet without a route is lost to); -1 for the built. */
  private int routesCauseEventId = -1;
  private Map<Integer, List<EgressPort>> portsByNeighbour;
  /** Whether some ports were built waiting for an optical circuit ({@link #awaitCircuitsTo}). */
  private boolean opticalCircuits;
  /** Per port, whether it is an optical circuit's ({@link #awaitCircuitsTo}); null without circuits. */
  private boolean[] opticalPort;
  /** Per port, when a policy change last tore its circuit down ({@link Long#MIN_VALUE}: never). */
  private long[] tornDownAtPs;
  /** When each later policy's routes take over, and those routes ({@link #useRouteChanges}); null without. */
  private long[] routeChangeAtPs;
  private RoutingTable[] routeChangeTables;
  private int nextRouteChange;
  /** The time of the next route change; {@link Long#MAX_VALUE} when none is to come. */
  private long nextRouteChangePs = Long.MAX_VALUE;
  /**
   * What waited for this device's circuits, by the request that set them up (0: the initial set-up, else the policy
   * change's time): {@code [last up time, packets that waited, waits summed, worst wait]}.
   */
  private final TreeMap<Long, long[]> circuitWaits = new TreeMap<>();

  public PacketForwarder(int vertex, Topology topology, RoutingTable routing, long pipelineLatencyPs,
                         ForwardingMode mode) {
    this(vertex, topology, routing, pipelineLatencyPs, mode, List.of(), 0L);
  }

  /**
   * @param packetDrops  the scenario's injected loss; the entries whose link starts at {@code vertex} apply here
   * @param scenarioSeed seeds the ports' loss decisions
   */
  public PacketForwarder(int vertex, Topology topology, RoutingTable routing, long pipelineLatencyPs,
                         ForwardingMode mode, List<PacketDropSpec> packetDrops, long scenarioSeed) {
    this.vertex = vertex;
    this.routing = routing;
    List<Topology.Link> links = topology.ports(vertex);
    this.ports = new EgressPort[links.size()];
    int busyPeriods = BusyTimeline.maxPeriodsFor(topology.links().size(), links.size());
    for (int p = 0; p < ports.length; p++) {
      Topology.Link link = links.get(p);
      double dropProbability = 0.0;
      for (PacketDropSpec drop : packetDrops) {
        if (drop.fromVertex() == link.from() && drop.toVertex() == link.to()) dropProbability = drop.probability();
      }
      ports[p] = new EgressPort(link.from(), link.to(), link.spec(), dropProbability, scenarioSeed,
          busyPeriods);
    }
    this.pipelineLatencyPs = pipelineLatencyPs;
    this.cutThrough = mode == ForwardingMode.CUT_THROUGH;
  }

  /**
   * Lets the fault plan reach a router-network NIC's link: its events and what it notices, as
   * {@link #enableFaults(FaultPlan, RoutingViews, int, long)}; its routes are its port's detours, so a route update
   * reaching this forwarder is an error.
   */
  public void enableFaultsOnRouters(FaultPlan plan, int managementDevice, long scenarioSeed) {
    enableFaults(plan, null, managementDevice, scenarioSeed);
  }

  /**
   * Lets the fault plan reach this device: its events ({@link #onFaultCommand}), what the device notices
   * ({@link #onFaultDetected}, reported to {@code managementDevice}) and the management node's routes
   * ({@link #onRouteUpdate}, looked up in {@code routingViews}).
   *
   * @param scenarioSeed seeds the ports' lossy-fault decisions
   */
  public void enableFaults(FaultPlan plan, RoutingViews routingViews, int managementDevice, long scenarioSeed) {
    FaultTally tally = new FaultTally(plan.eventCount());
    this.faults = new LinkFaults(vertex, plan, tally);
    this.plan = plan;
    this.routingViews = routingViews;
    this.managementDevice = managementDevice;
    portsByNeighbour = new HashMap<>();
    for (EgressPort port : ports) {
      port.enableFaults(tally, scenarioSeed);
      portsByNeighbour.computeIfAbsent(port.toDevice(), n -> new ArrayList<>()).add(port);
    }
  }

  /**
   * The circuits from this device to {@code peerVertices} are not set up yet: the ports toward them hold what they are
   * handed until {@link #onCircuitUp}. Call it before the run starts, with every circuit the device takes part in
   * during the run (with policy changes, those of every policy).
   *
   * @throws IllegalArgumentException when no port leads to one of them
   */
  public void awaitCircuitsTo(List<Integer> peerVertices) {
    if (opticalPort == null) {
      opticalPort = new boolean[ports.length];
      tornDownAtPs = new long[ports.length];
      Arrays.fill(tornDownAtPs, Long.MIN_VALUE);
    }
    for (int peer : peerVertices) {
      boolean found = false;
      for (int p = 0; p < ports.length; p++) {
        if (ports[p].toDevice() == peer) {
          ports[p].awaitCircuit();
          opticalPort[p] = true;
          found = true;
        }
      }
      if (!found) throw new IllegalArgumentException("vertex " + vertex + " has no link to vertex " + peer);
    }
    opticalCircuits = true;
  }

  /**
   * The connection policy changes during the run: from {@code atPs.get(i)} on, the device routes by
   * {@code tables.get(i)} (each change's policy's routes, on the topology of every policy's circuits). The device
   * calls {@link #routesAt} before it handles each event. Call it before the run starts.
   *
   * @throws IllegalArgumentException when the lists differ in length or the times do not increase
   */
  public void useRouteChanges(List<Long> atPs, List<RoutingTable> tables) {
    if (atPs.size() != tables.size()) {
      throw new IllegalArgumentException(atPs.size() + " route change times for " + tables.size() + " tables");
    }
    for (int i = 1; i < atPs.size(); i++) {
      if (atPs.get(i) <= atPs.get(i - 1)) {
        throw new IllegalArgumentException("route change times must increase, got " + atPs);
      }
    }
    routeChangeAtPs = atPs.stream().mapToLong(Long::longValue).toArray();
    routeChangeTables = tables.toArray(new RoutingTable[0]);
    nextRouteChange = 0;
    nextRouteChangePs = routeChangeAtPs.length == 0 ? Long.MAX_VALUE : routeChangeAtPs[0];
  }

  /**
   * Takes the routes of every policy change due by {@code nowPs}: an event at a change's time or later is handled
   * by the new policy's routes, whatever order the events of that time come in.
   */
  public void routesAt(long nowPs) {
    if (nowPs < nextRouteChangePs) return;
    while (nextRouteChange < routeChangeAtPs.length && routeChangeAtPs[nextRouteChange] <= nowPs) {
      routing = routeChangeTables[nextRouteChange++];
    }
    nextRouteChangePs = nextRouteChange < routeChangeAtPs.length ? routeChangeAtPs[nextRouteChange] : Long.MAX_VALUE;
  }

  /**
   * The OCS controller says the circuit to {@code up.peerHost()} is up now: the packets held for it leave. When
   * another optical port of this device still drains a torn-down circuit, the circuit takes effect only once that
   * drain is over (the device sends itself the same word for then): one optical port sends one circuit's light at a
   * time. A word for a circuit torn down since it was requested changes nothing.
   */
  public void onCircuitUp(CircuitUp up, Outbox outbox) {
    int p = opticalPortTo(up.peerHost(), up);
    long now = outbox.nowPs();
    routesAt(now);
    if (up.requestedAtPs() < tornDownAtPs[p]) {
      return; // torn down before it came up: what it held went by the new routes then
    }
    EgressPort port = ports[p];
    if (!port.awaitsCircuit()) {
      throw new IllegalStateException("vertex " + vertex + " got " + up + " but that circuit is up already");
    }
    long drainedPs = now;
    for (int q = 0; q < ports.length; q++) {
      if (q != p && opticalPort[q] && ports[q].awaitsCircuit()) drainedPs = Math.max(drainedPs, ports[q].freeAtPs());
    }
    if (drainedPs > now) {
      outbox.send(vertex, drainedPs, up);
      return;
    }
    long[] waits = circuitWaits.computeIfAbsent(up.requestedAtPs(), k -> new long[4]);
    waits[0] = Math.max(waits[0], now);
    for (EgressPort.HeldPacket h : port.circuitUp()) {
      long waitPs = now - h.readyPs();
      // A packet handed over early but ready only after the circuit came up (a DMA read still going) lost nothing.
      if (waitPs > 0) {
        waits[1]++;
        waits[2] += waitPs;
        waits[3] = Math.max(waits[3], waitPs);
      }
      // Never before now: what was ready earlier leaves as the circuit comes up.
      port.transmit(Math.max(h.readyPs(), now), h.packet().wireBytes(), h.minEndPs());
      deliverUnlessLost(port, h.packet(), outbox);
    }
  }

  /**
   * The OCS controller tears down the circuit to {@code down.peerHost()} now (a policy change; the routes have
   * switched to the new policy's, which do not use it): the port sends what it had taken already, up to its
   * {@link EgressPort#freeAtPs}, and holds from now on. A circuit torn down before it came up hands what it held to
   * the new routes.
   */
  public void onCircuitDown(CircuitDown down, Outbox outbox) {
    int p = opticalPortTo(down.peerHost(), down);
    long now = outbox.nowPs();
    routesAt(now);
    tornDownAtPs[p] = now;
    EgressPort port = ports[p];
    if (!port.awaitsCircuit()) {
      port.awaitCircuit();
      return;
    }
    for (EgressPort.HeldPacket h : port.takeHeld()) {
      Packet packet = h.packet();
      int lane = packet.info() == null ? 0 : Message.laneOf(packet.info().tag());
      EgressPort to = egressToward(packet.sourceHost(), packet.destinationHost(), lane);
      if (to == null) {
        countUnroutable();
      } else if (to.awaitsCircuit()) {
        to.hold(packet, h.readyPs(), h.minEndPs());
      } else {
        to.transmit(Math.max(h.readyPs(), now), packet.wireBytes(), h.minEndPs());
        deliverUnlessLost(to, packet, outbox);
      }
    }
  }

  /** The optical port toward {@code peer}, for the controller's {@code word}; fails loudly when there is none. */
  private int opticalPortTo(int peer, Object word) {
    if (!opticalCircuits) {
      throw new IllegalStateException("vertex " + vertex + " got " + word + " but awaits no circuit");
    }
    // An NPU's NIC device is its host number (Topology.nicDevice of a direct network), as the peer is given.
    for (int p = 0; p < ports.length; p++) {
      if (opticalPort[p] && ports[p].toDevice() == peer) return p;
    }
    // A circuit this NPU has no port for: whatever it holds would wait forever, so fail loudly instead.
    throw new IllegalStateException("vertex " + vertex + " got " + word + " but no port leads to that peer");
  }

  /**
   * What waited at this device's optical ports (circuits set up or torn down: 0, the controller counts them): the
   * initial set-up's waits, and each policy change's with when its circuits came up here; null without circuits.
   */
  public OcsReport ocsReport() {
    if (!opticalCircuits) return null;
    long[] initial = circuitWaits.getOrDefault(0L, new long[4]);
    List<OcsReport.ChangeCost> changes = new ArrayList<>();
    for (Map.Entry<Long, long[]> e : circuitWaits.tailMap(0L, false).entrySet()) {
      long[] w = e.getValue();
      changes.add(new OcsReport.ChangeCost(e.getKey(), 0, 0, w[0], w[1], w[2], w[3]));
    }
    return new OcsReport(0, 0L, initial[1], initial[2], initial[3], changes);
  }

  /** The device's link faults (a router network's NIC reads its cable's state there); null without a fault plan. */
  public LinkFaults linkFaults() {
    return faults;
  }

  /** The device's fault counters; null when the run has no fault plan. */
  public FaultTally faultTally() {
    return faults == null ? null : faults.tally();
  }

  /** Applies a fault event to this device's ports; when the device is to notice it, schedules that. */
  public void onFaultCommand(FaultCommand command, Outbox outbox) {
    FaultEvent event = FaultEvent.of(command);
    long noticePs = requireFaults(command).apply(event, outbox.nowPs(),
        n -> portsByNeighbour.getOrDefault(n, List.of()));
    if (noticePs >= 0) outbox.send(vertex, noticePs, new FaultDetected(event.id()));
  }

  /**
   * The heartbeats say the event's change happened: tell the management node, if this device reports it
   * ({@link LinkFaults#reports}).
   */
  public void onFaultDetected(FaultDetected detected, Outbox outbox) {
    for (int eventId : requireFaults(detected).reports(plan.event(detected.eventId()))) {
      outbox.send(managementDevice, outbox.nowPs() + plan.settings().managementLatencyPs(),
          new FailureNotice(eventId, vertex, outbox.nowPs()));
    }
  }

  /** The management node's routes around what it knows to be down. */
  public void onRouteUpdate(RouteUpdate update) {
    requireFaults(update);
    if (routingViews == null) {
      throw new IllegalStateException("vertex " + vertex + " takes a router network's detours, not routing views: "
          + "route update of fault event " + update.causeEventId());
    }
    routing = routingViews.tableFor(update.deadLinks());
    routesCauseEventId = update.causeEventId();
  }

  /**
   * Whether a packet arriving now from neighbour {@code fromDevice} gets here: always without faults; else not
   * when this device is down or the cable was down while the packet was on it (counted as lost).
   */
  public boolean arrives(int fromDevice, long nowPs) {
    if (faults == null) return true;
    List<EgressPort> back = portsByNeighbour.get(fromDevice);
    long latencyPs = back == null ? 0 : back.get(0).latencyPs();
    return faults.lossOnArrival(fromDevice, nowPs, latencyPs) == LinkFaults.ARRIVES;
  }

  private LinkFaults requireFaults(Object payload) {
    if (faults == null) {
      throw new IllegalStateException("vertex " + vertex + " got " + payload + " in a run without a fault plan");
    }
    return faults;
  }

  /**
   * The port toward {@code destinationHost} for this flow; null when the routes in use have none (the destination
   * is cut off by a fault).
   */
  public EgressPort egressToward(int sourceHost, int destinationHost) {
    return egressToward(sourceHost, destinationHost, 0);
  }

  /**
   * The port toward {@code destinationHost} for this flow's lane {@code lane} ({@link
   * io.fabemu.core.protocol.Message#laneOf}: the lane-th equal-cost port after the flow's own); null when the routes
   * in use have none.
   */
  public EgressPort egressToward(int sourceHost, int destinationHost, int lane) {
    // Only a fault's routes leave a destination without a route; without faults the lookup is done once.
    if (faults != null && !routing.reachable(vertex, destinationHost)) return null;
    return ports[routing.laneEgressPort(vertex, sourceHost, destinationHost, lane)];
  }

  /** Counts a packet lost for want of a route (its destination cut off by a fault). */
  public void countUnroutable() {
    requireFaults("a packet without a route").tally().packetLost(routesCauseEventId);
  }

  /** The (first) port whose link leads to the neighbour {@code neighbourVertex}, or null when none does. */
  public EgressPort portTo(int neighbourVertex) {
    if (portByNeighbour == null) {
      // Built on first use (only INC units address neighbours): a SPINE sends to thousands of TORs per result.
      portByNeighbour = new java.util.HashMap<>();
      for (EgressPort port : ports) portByNeighbour.putIfAbsent(port.toDevice(), port);
    }
    return portByNeighbour.get(neighbourVertex);
  }

  public long pipelineLatencyPs() {
    return pipelineLatencyPs;
  }

  /** Forwards {@code packet}, whose head arrived now, toward its destination (lost when it has no route). */
  public void forward(Packet packet, Outbox outbox) {
    int lane = packet.info() == null ? 0 : Message.laneOf(packet.info().tag());
    EgressPort port = egressToward(packet.sourceHost(), packet.destinationHost(), lane);
    if (port == null) {
      if (!packet.corrupted()) countUnroutable(); // a corrupted one was counted where its bits flipped
      return;
    }
    forward(packet, port, outbox);
  }

  /** Forwards {@code packet}, whose head arrived now, on {@code port}. */
  public void forward(Packet packet, EgressPort port, Outbox outbox) {
    if (packet.corrupted() && (!cutThrough || port.isDown())) {
      return; // its checksum fails here (or it goes nowhere); the loss was counted where the bits flipped
    }
    if (port.isDown()) {
      port.countLostWhileDown();
      return;
    }
    long now = outbox.nowPs();
    long readyPs = cutThrough ? now + pipelineLatencyPs : packet.tailTimePs() + pipelineLatencyPs;
    long minEndPs = cutThrough ? packet.tailTimePs() + pipelineLatencyPs : 0L;
    if (port.awaitsCircuit()) {
      port.hold(packet, readyPs, minEndPs);
      return;
    }
    port.transmit(readyPs, packet.wireBytes(), minEndPs);
    deliverUnlessLost(port, packet, outbox);
  }

  /**
   * Serializes a packet the device created (or rebuilt) on {@code port}, starting no earlier than {@code readyPs},
   * and sends it to the far end unless the link loses it; a port whose circuit is not up yet holds it.
   */
  public static void transmit(EgressPort port, long readyPs, Packet packet, Outbox outbox) {
    if (port.isDown()) {
      port.countLostWhileDown();
      return;
    }
    if (port.awaitsCircuit()) {
      port.hold(packet, readyPs, 0L);
      return;
    }
    port.transmit(readyPs, packet.wireBytes(), 0L);
    deliverUnlessLost(port, packet, outbox);
  }

  private static void deliverUnlessLost(EgressPort port, Packet packet, Outbox outbox) {
    switch (port.fate(packet)) {
      case DELIVERED -> outbox.send(port.toDevice(), port.lastHeadArrivalPs(),
          packet.withTailTimePs(port.lastTailArrivalPs()));
      case CORRUPTED -> outbox.send(port.toDevice(), port.lastHeadArrivalPs(),
          packet.asCorrupted().withTailTimePs(port.lastTailArrivalPs()));
      case LOST -> { }
    }
  }

  public List<LinkCounters> counters() {
    List<LinkCounters> out = new ArrayList<>(ports.length);
    for (EgressPort port : ports) out.add(port.counters());
    return out;
  }
}
