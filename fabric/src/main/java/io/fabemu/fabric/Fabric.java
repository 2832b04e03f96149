package io.fabemu.fabric;

import io.fabemu.collectives.EmbeddedRings;
import io.fabemu.collectives.ExpectedAnswers;
import io.fabemu.collectives.RankGrid;
import io.fabemu.collectives.RankLayout;
import io.fabemu.collectives.Schedules;
import io.fabemu.collectives.WorkloadSpec;
import io.fabemu.core.ethernet.EthernetSpec;
import io.fabemu.core.fault.DirectedLink;
import io.fabemu.core.fault.FaultAction;
import io.fabemu.core.fault.FaultEvent;
import io.fabemu.core.fault.FaultPlan;
import io.fabemu.core.link.PacketDropSpec;
import io.fabemu.core.link.DetourViews;
import io.fabemu.core.link.RoutingViews;
import io.fabemu.core.optical.ConnectionPolicy;
import io.fabemu.core.optical.OcsSpec;
import io.fabemu.core.protocol.DeviceProtocol.EthernetTimer;
import io.fabemu.core.protocol.DeviceProtocol.FaultCommand;
import io.fabemu.core.protocol.DeviceProtocol.StartWorkload;
import io.fabemu.core.rings.RingEmbedding;
import io.fabemu.core.router.RouterSpec;
import io.fabemu.core.router.RouterTiming;
import io.fabemu.core.routing.DetourRouting;
import io.fabemu.core.routing.RouterRouting;
import io.fabemu.core.routing.RoutingTable;
import io.fabemu.core.sim.DeviceCore;
import io.fabemu.core.sim.Event;
import io.fabemu.core.sim.WindowedEngine;
import io.fabemu.core.topology.OpticalSpec;
import io.fabemu.core.topology.Topology;
import io.fabemu.core.topology.TopologySpec;
import io.fabemu.core.traffic.DestinationPicker;
import io.fabemu.core.traffic.NetworkShape;
import io.fabemu.core.traffic.TrafficSpec;
import io.fabemu.fabric.result.ResultAggregator;
import io.fabemu.fabric.result.RunResult;
import io.fabemu.fabric.result.TrafficResult;
import io.fabemu.nic.ExternalEthernetCore;
import io.fabemu.nic.NicCore;
import io.fabemu.nic.PathRoundTrip;
import io.fabemu.node.ComputeNodeCore;
import io.fabemu.node.management.ManagementCore;
import io.fabemu.node.rank.IncEnvironment;
import io.fabemu.switching.SwitchCore;
import io.fabemu.switching.optical.OcsControllerCore;
import io.fabemu.switching.router.RouterCore;
import io.fabemu.switching.router.RouterDeadlocks;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;

/**
 * Every device of a scenario, ready to run, numbered as the topology numbers them ({@link Topology#nicDevice},
 * {@link Topology#computeNodeDevice}; a switch or router has its vertex id). The lookahead is the smallest latency
 * between two devices: the smallest link latency or the host-NIC (PCIe) latency; on a router network (mesh, torus,
 * group-ring), whose routers and NICs evaluate mid-cycle, half a cycle less than the shorter of a link and a credit
 * delay ({@code RouterTiming.lookaheadPs}). A router network can also run synthetic traffic instead of its
 * collective workload ({@link ScenarioSpec#traffic}): every NIC starts its traffic source, and
 * {@link #runTrafficOnPlainEngine} (or the cluster runner) merges the NICs' statistics.
 *
 * <p>With in-network computing ({@code devices.inc}), every NIC gets an INC unit and every TOR and SPINE the INC
 * unit of its tier (unless listed without one); INC outputs go over links like any packet, and the NICs'
 * retransmission timers are self-events, so the lookahead is unchanged. Injected loss ({@code packetDrops}) hits
 * only INC task packets, which the NICs retransmit; ordinary traffic has no retransmission in this model, so it is
 * never dropped.
 *
 * <p>With a fault plan ({@link ScenarioSpec#faults}), every NIC and switch takes the plan's events and the
 * management node's routes (one {@code RoutingViews} shared by the fabric's devices), every NIC runs the reliable
 * transport, and one more device, the {@code ManagementCore}, has the id after the topology's devices
 * ({@link #managementDevice}); {@link #startEvents} then also delivers each event to the devices at the ends of the
 * links it changes, at its time, and the lookahead is at most the management network's latency. On a router network
 * the routers route by {@code DetourRouting} and the management node gives the NICs via nodes ({@code DetourViews})
 * instead; with INC the management node also tells every host's NIC of each failure, so that a broken aggregation
 * tree falls back to the host. Faults do not reach synthetic traffic yet (refused here, and by the scenario loader
 * in one line).
 *
 * <p>With I/O nodes ({@link ScenarioSpec#ethernet}, router networks running a workload only), every NIC sends and
 * receives Ethernet frames and an I/O node's NIC runs its Ethernet NIC; one more device, the external Ethernet
 * ({@code ExternalEthernetCore}), has the id after the management node's ({@link #ethernetDevice}, on member 0 like
 * it), {@link #startEvents} starts the frame sources, and the lookahead is at most the Ethernet cables' latency.
 *
 * <p>On an optical cluster with a reconfiguration delay ({@code topology.ocs}, docs/optical.md "The OCS
 * controller"), one more device, the {@code OcsControllerCore}, comes last ({@link #ocsDevice}): {@link #startEvents}
 * starts it at time 0, the NPUs' optical ports hold their traffic until it says their circuit is up, and the
 * lookahead is at most the delay. With policy changes ({@code topology.ocs.reconfigure}) the topology has the
 * circuits of every policy, every NPU's NIC (and server switch) takes each policy's routes at its time, and the
 * controller tears circuits down and sets others up. Not with a fault plan (refused here, and by the scenario loader
 * in one line).
 *
 * <p>Past 500 lines: it wires every device family of a scenario in one pass (what each device needs is decided here,
 * once); a builder per family is the plug-in work.
 */
public final class Fabric {

  private final ScenarioSpec scenario;
  private final Topology topology;
  private final RoutingTable routing;
  private final DeviceCore[] devices;
  private final long lookaheadPs;
  private final int worldSize;
  /** The nodes the traffic pattern lets send; 0 without traffic. */
  private final int trafficSendingNodes;

  private Fabric(ScenarioSpec scenario, Topology topology, RoutingTable routing, DeviceCore[] devices,
                 long lookaheadPs, int worldSize, int trafficSendingNodes) {
    this.scenario = scenario;
    this.topology = topology;
    this.routing = routing;
    this.devices = devices;
    this.lookaheadPs = lookaheadPs;
    this.worldSize = worldSize;
    this.trafficSendingNodes = trafficSendingNodes;
  }

  /** Builds the topology, its routing and one device core per NIC, switch and compute node. */
  public static Fabric build(ScenarioSpec scenario) {
    return build(scenario, scenario.topology().build());
  }

  /**
   * Builds the routing and one device core per NIC, switch and compute node of {@code topology}, which a caller
   * built from {@code scenario.topology()} already (a run builds its topology once). The routing is the topology
   * kind's choice ({@link io.fabemu.core.topology.TopologySpec#routing}), one instance shared by every device.
   */
  public static Fabric build(ScenarioSpec scenario, Topology topology) {
    RoutingTable routing = scenario.topology().routing(topology);
    int hosts = topology.hostCount();
    int vertices = topology.vertexCount();
    int worldSize = hosts * scenario.workload().ppn();
    WorkloadSpec workload = scenario.workload();
    if (scenario.runsTraffic()) {
      // The NICs inject synthetic traffic and the ranks never start: their workload needs no data.
      workload = workload.withSyntheticPayload(true);
    }
    // Sizes only: nothing is checked, so no exact answers are built.
    ExpectedAnswers answers = workload.syntheticPayload() ? null
        : ExpectedAnswers.forWorkload(workload, worldSize, scenario.seed());
    if (answers != null) {
      // Before the run, on all cores: no device waits on an answer mid-run.
      answers.prepare(workload);
    }
    int elementBytes = Schedules.elementBytes(workload.collective(), workload.dataType(), workload.op());
    IncSpec inc = scenario.devices().inc();
    List<PacketDropSpec> drops = scenario.packetDrops();
    checkDrops(topology, drops);
    FaultPlan faults = scenario.faults();
    if (faults.isActive() && scenario.runsTraffic()) {
      throw new IllegalArgumentException("faults do not reach synthetic traffic yet");
    }
    RouterRouting routerRouting = scenario.topology().routerRouting(topology).orElse(null);
    RouterSpec router = routerRouting == null ? null : scenario.devices().router();
    // A run with faults has one more device, the management node, after the topology's. On a router network the
    // routers route by detours (twice the classes) and the management node computes the NICs' via nodes.
    EthernetSpec ethernet = scenario.ethernet();
    if (ethernet != null && (routerRouting == null || scenario.runsTraffic())) {
      throw new IllegalArgumentException("I/O nodes (ethernet) need a router network (mesh, torus, group-ring) "
          + "running a workload");
    }
    // The external Ethernet, when there is one, comes after the management node.
    OpticalSpec ocsCluster = ocsCluster(scenario);
    if (ocsCluster != null && faults.isActive()) {
      throw new IllegalArgumentException("an OCS reconfiguration delay does not combine with faults yet");
    }
    // The OCS controller, when there is one, comes last.
    DeviceCore[] devices = new DeviceCore[deviceCount(scenario, topology)];
    int ocsDevice = ocsCluster == null ? -1 : devices.length - 1;
    // The run's policies (the initial one, then each change's) and, with changes, each one's routes and their times.
    List<ConnectionPolicy> ocsPolicies = ocsCluster == null ? null : ocsCluster.policies();
    List<RoutingTable> laterRoutes = null;
    List<Long> laterRoutesAtPs = null;
    if (ocsCluster != null && ocsCluster.ocs().changesPolicy()) {
      List<RoutingTable> routings = ocsCluster.routings(topology);
      laterRoutes = routings.subList(1, routings.size());
      laterRoutesAtPs = ocsCluster.ocs().changes().stream().map(OcsSpec.PolicyChange::atPs).toList();
    }
    int managementDevice = faults.isActive() ? topology.deviceCount() : -1;
    int ethernetDevice = ethernetDevice(topology, faults, ethernet);
    DetourRouting detourRouting = !faults.isActive() || routerRouting == null ? null : DetourRouting.of(routerRouting);
    if (detourRouting != null && router.virtualChannels() % detourRouting.vcClasses() != 0) {
      throw new IllegalArgumentException("faults on a router network need a multiple of " + detourRouting.vcClasses()
          + " virtual channels (" + routerRouting.vcClasses() + " classes per detour leg), got "
          + router.virtualChannels());
    }
    DetourViews detourViews = detourRouting == null ? null : new DetourViews(topology, routerRouting);
    RoutingViews routingViews = !faults.isActive() || detourViews != null ? null : new RoutingViews(topology, routing);
    // In-network algorithms need TORs; on fabrics without them their cases fall back to the host algorithm.
    IncEnvironment incEnvironment = IncEnvironment.of(topology, workload.ppn(),
        scenario.devices().host().socketsPerNode(), inc != null);
    TrafficSpec traffic = scenario.traffic();
    DestinationPicker destinations = null;
    if (traffic != null) {
      NetworkShape shape = scenario.topology().networkShape().orElseThrow(() -> new IllegalArgumentException(
          "synthetic traffic needs a router network (mesh, torus, group-ring), not "
              + scenario.topology().configName()));
      if (traffic.loadCount() != 1) {
        throw new IllegalArgumentException("a traffic run emulates one offered load, got " + traffic.loadCount()
            + " (run each with TrafficSpec.atLoad)");
      }
      destinations = traffic.destinations(shape);
    }
    for (int v = 0; v < vertices; v++) {
      if (topology.isHost(v)) {
        NicCore nic = new NicCore(v, topology.computeNodeDevice(v), topology, routing, scenario.devices().nic(),
            scenario.devices().host().pcie(), elementBytes, inc == null ? null : inc.nic(), drops, scenario.seed(),
            router, routerRouting == null ? 0 : routerRouting.vcClasses(), traffic, destinations);
        if (routingViews != null) {
          nic.useFaults(faults, routingViews, managementDevice, scenario.seed(), new PathRoundTrip(v, topology,
              routing, scenario.devices().switchSpec().pipelineLatencyPs(), scenario.devices().host().pcieLatencyPs()));
        }
        if (detourViews != null) {
          nic.useFaults(faults, detourViews, managementDevice, scenario.seed(), new PathRoundTrip(v, topology,
              routing, router.routerCycles() * router.cyclePs(), scenario.devices().host().pcieLatencyPs()));
        }
        if (ethernet != null) nic.useEthernet(ethernet, ethernetDevice);
        if (ocsPolicies != null) {
          List<Integer> circuitPeers = circuitPeers(ocsPolicies, v, topology);
          if (!circuitPeers.isEmpty()) nic.awaitCircuits(circuitPeers);
          if (laterRoutes != null) nic.useRouteChanges(laterRoutesAtPs, laterRoutes);
        }
        devices[v] = nic;
      } else if (routerRouting != null) {
        RouterCore routerCore = new RouterCore(v, topology, routerRouting, detourRouting, router,
            scenario.devices().routerStallLimitPs());
        if (detourRouting != null) routerCore.useFaults(faults, managementDevice);
        if (traffic != null) routerCore.measureBetween(traffic.measureStartCycle(), traffic.measureEndCycle());
        devices[v] = routerCore;
      } else {
        SwitchCore switchCore = new SwitchCore(v, topology, routing, scenario.devices().switchSpec(),
            inc == null ? null : inc.unitOf(v, topology.tier(v)),
            scenario.devices().nic().headerBytes(), inc == null ? 1 : inc.nic().fragmentBytes(), drops,
            scenario.seed());
        if (routingViews != null) switchCore.useFaults(faults, routingViews, managementDevice, scenario.seed());
        // An optical cluster's server switch sends another server's traffic to the gateway of the policy in force.
        if (laterRoutes != null) switchCore.useRouteChanges(laterRoutesAtPs, laterRoutes);
        devices[v] = switchCore;
      }
    }
    if (managementDevice >= 0) {
      ManagementCore management = new ManagementCore(managementDevice, topology, faults,
          detourViews != null ? detourViews : routingViews, workload.ppn());
      // INC groups live in the NICs: a failure that cuts a tree must reach them although their routes stay.
      if (inc != null) management.notifyHostsOfFailures();
      if (ethernet != null) management.useEthernet(ethernet, ethernetDevice);
      devices[managementDevice] = management;
    }
    if (ethernet != null) {
      devices[ethernetDevice] = new ExternalEthernetCore(ethernetDevice, ethernet, hosts, scenario.seed());
    }
    if (ocsPolicies != null) {
      devices[ocsDevice] = new OcsControllerCore(ocsDevice, ocsPolicies, topology, ocsCluster.ocs());
    }
    RankLayout layout = new RankLayout(rankGrid(scenario.topology(), workload.ppn()),
        embeddedRings(scenario.rings(), topology),
        scenario.topology() instanceof OpticalSpec optical ? optical.policy() : null);
    for (int h = 0; h < hosts; h++) {
      int node = topology.computeNodeDevice(h);
      devices[node] = new ComputeNodeCore(node, h, topology.nicDevice(h), worldSize, workload, scenario.seed(), answers,
          scenario.devices().host(), incEnvironment, layout);
    }
    long lookahead = lookaheadPs(scenario, topology);
    return new Fabric(scenario, topology, routing, devices, lookahead, worldSize,
        destinations == null ? 0 : destinations.sendingNodeCount());
  }

  /**
   * The NIC devices at the other end of host {@code host}'s circuits in any of {@code policies}, in the order the
   * policies first give them (with one policy, its one circuit, if any).
   */
  private static List<Integer> circuitPeers(List<ConnectionPolicy> policies, int host, Topology topology) {
    List<Integer> peers = new ArrayList<>();
    for (ConnectionPolicy policy : policies) {
      int npus = policy.npusPerServer();
      int peerServer = policy.peerServer(host / npus, host % npus);
      if (peerServer == ConnectionPolicy.NO_CIRCUIT) continue;
      int peer = topology.nicDevice(peerServer * npus + host % npus);
      if (!peers.contains(peer)) peers.add(peer);
    }
    return peers;
  }

  /**
   * The number of devices of a fabric of {@code scenario} on {@code topology}, as {@link #build} makes them, without
   * building it: the topology's devices, then a run with faults' management node, the I/O nodes' external Ethernet
   * and an optical cluster's OCS controller, each where the scenario has it.
   */
  public static int deviceCount(ScenarioSpec scenario, Topology topology) {
    return topology.deviceCount() + (scenario.faults().isActive() ? 1 : 0) + (scenario.ethernet() == null ? 0 : 1)
        + (ocsCluster(scenario) == null ? 0 : 1);
  }

  /**
   * The lookahead of a fabric of {@code scenario} on {@code topology} ({@link #lookaheadPs()} of the built fabric),
   * without building it: the least delay between an event and one it causes on another device.
   *
   * @throws IllegalArgumentException when it is not positive
   */
  public static long lookaheadPs(ScenarioSpec scenario, Topology topology) {
    // A router network's devices evaluate their cycles half a cycle after the edges flits arrive on, so a flit or
    // credit can follow the event that caused it by less than a link latency (see RouterTiming).
    long linkLookahead = scenario.topology().networkShape().isEmpty() ? topology.minLatencyPs()
        : RouterTiming.lookaheadPs(scenario.devices().router());
    long lookahead = Math.min(linkLookahead, scenario.devices().host().pcieLatencyPs());
    if (scenario.faults().isActive()) {
      // Notices and route updates cross the management network.
      lookahead = Math.min(lookahead, scenario.faults().settings().managementLatencyPs());
    }
    if (scenario.ethernet() != null) {
      // Frames cross the I/O nodes' cables.
      lookahead = Math.min(lookahead, scenario.ethernet().latencyPs());
    }
    OpticalSpec ocsCluster = ocsCluster(scenario);
    if (ocsCluster != null) {
      // The controller's word that a circuit is up crosses to the NPUs' NICs in the reconfiguration delay.
      lookahead = Math.min(lookahead, ocsCluster.ocs().reconfigurationDelayPs());
    }
    if (lookahead <= 0) {
      throw new IllegalArgumentException("every link latency and the PCIe latency must be positive");
    }
    return lookahead;
  }

  /** The external Ethernet's device id: after the topology's devices and the management node; -1 without one. */
  private static int ethernetDevice(Topology topology, FaultPlan faults, EthernetSpec ethernet) {
    return ethernet == null ? -1 : topology.deviceCount() + (faults.isActive() ? 1 : 0);
  }

  /**
   * The optical cluster whose OCS controller sets its circuits up during the run; null for any other scenario, and
   * for a cluster of one server, which has no circuit to set up.
   */
  private static OpticalSpec ocsCluster(ScenarioSpec scenario) {
    return scenario.topology() instanceof OpticalSpec optical && optical.ocs().setsUpDuringRun()
        && optical.servers() > 1 ? optical : null;
  }

  /** The OCS controller's device id (the last device) on an optical cluster with a reconfiguration delay; else -1. */
  public int ocsDevice() {
    return ocsCluster(scenario) == null ? -1 : devices.length - 1;
  }

  /**
   * How long after it starts the OCS controller's word reaches the NICs (the reconfiguration delay), the least delay
   * of a message from it to another device; {@link Long#MAX_VALUE} when the run has no controller.
   */
  public long ocsReconfigurationDelayPs() {
    OpticalSpec optical = ocsCluster(scenario);
    return optical == null ? Long.MAX_VALUE : optical.ocs().reconfigurationDelayPs();
  }

  /** The external Ethernet's device id in a scenario with I/O nodes; -1 without. */
  public int ethernetDevice() {
    return ethernetDevice(topology, scenario.faults(), scenario.ethernet());
  }

  /**
   * The scenario's rings over the world's ranks (one rank per host, so rank = host), with the rate and count of the
   * links under each hop; null without a ring embedding. Reports use it to find the links each algorithm's rings
   * take, as the run does.
   */
  public static EmbeddedRings embeddedRings(RingEmbedding embedding, Topology topology) {
    if (embedding == null) return null;
    List<int[]> orders = new ArrayList<>();
    List<long[]> rates = new ArrayList<>();
    List<int[]> counts = new ArrayList<>();
    for (List<Integer> ring : embedding.rings()) {
      int p = ring.size();
      int[] order = new int[p];
      long[] rate = new long[p];
      int[] count = new int[p];
      for (int j = 0; j < p; j++) {
        order[j] = ring.get(j);
        int to = ring.get((j + 1) % p);
        rate[j] = Long.MAX_VALUE;
        for (Topology.Link link : topology.ports(ring.get(j))) {
          if (link.to() != to) continue;
          count[j]++;
          // Parallel links of one class share a rate; were they to differ, the slowest bounds the ring.
          rate[j] = Math.min(rate[j], link.spec().bandwidthBitsPerSecond());
        }
      }
      orders.add(order);
      rates.add(rate);
      counts.add(count);
    }
    return new EmbeddedRings(orders, rates, counts, embedding.lineFragments());
  }

  /**
   * The world's ranks laid out on a mesh or torus (the ranks of a node first, then x, y, z), for the dimension-wise
   * algorithms; null on other fabrics.
   */
  private static RankGrid rankGrid(TopologySpec topology, int ppn) {
    NetworkShape shape = topology.networkShape().orElse(null);
    if (shape == null || shape.kind() == NetworkShape.Kind.GROUP_RING) return null;
    return shape.sizeZ() == 1 ? RankGrid.ofNodes(ppn, shape.sizeX(), shape.sizeY())
        : RankGrid.ofNodes(ppn, shape.sizeX(), shape.sizeY(), shape.sizeZ());
  }

  /**
   * After a run of this fabric in this process: on a router network, throws a {@code RouterDeadlockException} naming
   * the cycle of channels when routers still hold flits (a deadlocked network schedules nothing, so its run just
   * ends); nothing on other fabrics.
   */
  public void requireRoutersDrained() {
    if (!routerNetwork()) return;
    List<RouterCore> routers = new ArrayList<>();
    for (DeviceCore device : devices) {
      if (device instanceof RouterCore router) routers.add(router);
    }
    RouterDeadlocks.requireDrained(topology, routers);
  }

  /** Whether the fabric is a router network (mesh, torus, group-ring): a router in every node, flits on links. */
  public boolean routerNetwork() {
    return scenario.topology().networkShape().isPresent();
  }

  /** Every drop names an existing link, once. */
  private static void checkDrops(Topology topology, List<PacketDropSpec> drops) {
    for (int i = 0; i < drops.size(); i++) {
      PacketDropSpec d = drops.get(i);
      boolean linked = d.fromVertex() >= 0 && d.fromVertex() < topology.vertexCount()
          && topology.ports(d.fromVertex()).stream().anyMatch(l -> l.to() == d.toVertex());
      if (!linked) {
        throw new IllegalArgumentException("packet drop " + d + ": there is no link from vertex " + d.fromVertex()
            + " to vertex " + d.toVertex() + " in " + topology.description());
      }
      for (int j = 0; j < i; j++) {
        PacketDropSpec e = drops.get(j);
        if (e.fromVertex() == d.fromVertex() && e.toVertex() == d.toVertex()) {
          throw new IllegalArgumentException("packet drops " + e + " and " + d + " name the same link");
        }
      }
    }
  }

  /**
   * The events that start a run: every compute node starts its workload at time 0; in a synthetic-traffic run every
   * NIC starts its traffic instead. The fault plan's events follow, then, with I/O nodes, the Ethernet traffic
   * sources' first frames at {@code ethernet.start}, and the OCS controller's start at time 0.
   */
  public List<Event> startEvents() {
    List<Event> events = new ArrayList<>();
    int hosts = topology.hostCount();
    for (int h = 0; h < hosts; h++) {
      int device = scenario.runsTraffic() ? topology.nicDevice(h) : topology.computeNodeDevice(h);
      events.add(new Event(0L, Event.EXTERNAL_SOURCE, h, device, StartWorkload.INSTANCE));
    }
    long sequence = hosts;
    for (FaultEvent fault : scenario.faults().events()) {
      for (int device : faultedDevices(fault)) {
        events.add(new Event(fault.atPs(), Event.EXTERNAL_SOURCE, sequence++, device, new FaultCommand(fault)));
      }
    }
    EthernetSpec ethernet = scenario.ethernet();
    if (ethernet != null) {
      // The Ethernet traffic sources: every node's NIC (outbound) and the external hosts (inbound).
      if (ethernet.outboundFrames() > 0) {
        for (int h = 0; h < hosts; h++) {
          events.add(new Event(ethernet.startPs(), Event.EXTERNAL_SOURCE, sequence++, topology.nicDevice(h),
              new EthernetTimer(0)));
        }
      }
      if (ethernet.inboundFrames() > 0) {
        events.add(new Event(ethernet.startPs(), Event.EXTERNAL_SOURCE, sequence++, ethernetDevice(),
            new EthernetTimer(0)));
      }
    }
    if (ocsDevice() >= 0) {
      // The OCS controller gets the connection policy at time 0 and starts setting the circuits up.
      events.add(new Event(0L, Event.EXTERNAL_SOURCE, sequence++, ocsDevice(), StartWorkload.INSTANCE));
    }
    return events;
  }

  /**
   * The devices a fault event reaches: the sending ends of the links it changes (for a device that goes down or up,
   * the device and every neighbour; for a cable, both ends); a straggler's compute node.
   */
  private List<Integer> faultedDevices(FaultEvent fault) {
    if (fault.action() == FaultAction.STRAGGLER) return List.of(topology.computeNodeDevice(fault.vertex()));
    TreeSet<Integer> ends = new TreeSet<>();
    for (DirectedLink link : fault.links()) ends.add(link.from());
    return List.copyOf(ends);
  }

  /** The management node's device id in a run with faults; -1 without. */
  public int managementDevice() {
    return scenario.faults().isActive() ? topology.deviceCount() : -1;
  }

  /** The nodes the traffic pattern lets send (throughput is per sending node); 0 without traffic. */
  public int trafficSendingNodes() {
    return trafficSendingNodes;
  }

  /**
   * Runs this synthetic-traffic fabric to the end on the plain single-threaded {@link WindowedEngine} (tests,
   * benchmarks). Run a fabric once.
   */
  public TrafficResult runTrafficOnPlainEngine() {
    if (!scenario.runsTraffic()) {
      throw new IllegalStateException("scenario " + scenario.name() + " runs no synthetic traffic");
    }
    // Wall time is only reported (emulator speed); it never feeds the emulation.
    long wallStartNs = System.nanoTime();
    WindowedEngine engine = new WindowedEngine(devices, lookaheadPs);
    startEvents().forEach(engine::inject);
    engine.run();
    requireRoutersDrained();
    double wallSeconds = (System.nanoTime() - wallStartNs) / 1e9;
    return TrafficResult.aggregate(scenario, trafficSendingNodes(), topology.hostCount(), engine.reports(),
        engine.lastEventTimePs(), engine.windows(), engine.eventsHandled(), wallSeconds);
  }

  public ScenarioSpec scenario() {
    return scenario;
  }

  public Topology topology() {
    return topology;
  }

  public RoutingTable routing() {
    return routing;
  }

  /** Devices indexed by id. */
  public DeviceCore[] devices() {
    return devices;
  }

  public long lookaheadPs() {
    return lookaheadPs;
  }

  public int worldSize() {
    return worldSize;
  }

  /**
   * Runs this fabric to the end on the plain single-threaded {@link WindowedEngine} (unit tests, benchmarks,
   * comparisons with the actor engine). Device cores keep their state: run a fabric once.
   */
  public RunResult runOnPlainEngine() {
    // Wall time is only reported (emulator speed); it never feeds the emulation.
    long wallStartNs = System.nanoTime();
    WindowedEngine engine = new WindowedEngine(devices, lookaheadPs);
    startEvents().forEach(engine::inject);
    engine.run();
    requireRoutersDrained();
    double wallSeconds = (System.nanoTime() - wallStartNs) / 1e9;
    return ResultAggregator.aggregate(scenario, worldSize, engine.reports(), engine.lastEventTimePs(),
        engine.windows(), engine.eventsHandled(), wallSeconds);
  }
}
