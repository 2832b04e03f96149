package io.fabemu.fabric;

import io.fabemu.collectives.EmbeddedRings;
import io.fabemu.core.rings.RingEmbedding;
import io.fabemu.core.router.RouterTiming;
import io.fabemu.core.routing.RoutingTable;
import io.fabemu.core.sim.DeviceCore;
import io.fabemu.core.sim.Event;
import io.fabemu.core.sim.WindowedEngine;
import io.fabemu.core.topology.OpticalSpec;
import io.fabemu.core.topology.Topology;
import io.fabemu.fabric.result.ResultAggregator;
import io.fabemu.fabric.result.RunResult;
import io.fabemu.fabric.result.TrafficResult;
import io.fabemu.switching.router.RouterCore;
import io.fabemu.switching.router.RouterDeadlocks;
import java.util.ArrayList;
import java.util.List;

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
 * <p>{@link #build} is a loop over installers ({@link DeviceInstaller}): one per device family (NICs, routers,
 * switches, compute nodes) and one per extra device (management node, external Ethernet, OCS controller), in that
 * order. Each takes its ids from one {@link DeviceIdPlan} and what it shares with the others from one
 * {@link FabricContext}, derived and checked once before any device exists; {@link #startEvents} asks them, in the
 * same order, for the events that start their devices.
 */
public final class Fabric {

  /** The installers of every fabric, in the order they run and number their start events. */
  private static final List<DeviceInstaller> INSTALLERS = List.of(new NicInstaller(), new RouterInstaller(),
      new SwitchInstaller(), new ComputeNodeInstaller(), new ManagementNodeInstaller(),
      new ExternalEthernetInstaller(), new OcsControllerInstaller());

  private final FabricContext context;
  private final DeviceCore[] devices;
  private final long lookaheadPs;

  private Fabric(FabricContext context, DeviceCore[] devices, long lookaheadPs) {
    this.context = context;
    this.devices = devices;
    this.lookaheadPs = lookaheadPs;
  }

  /** Builds the topology, its routing and one device core per NIC, switch and compute node. */
  public static Fabric build(ScenarioSpec scenario) {
    return build(scenario, scenario.topology().build());
  }

  /**
   * Builds the routing and one device core per NIC, switch and compute node of {@code topology}, which a caller
   * built from {@code scenario.topology()} already (a run builds its topology once). The routing is the topology
   * kind's choice ({@link io.fabemu.core.topology.TopologySpec#routing}), one instance shared by every device. What
   * the devices share is derived and checked once ({@link FabricContext}); then each installer of the list puts its
   * devices at the ids of the {@link DeviceIdPlan}.
   *
   * @throws IllegalArgumentException naming what the fabric cannot run
   */
  public static Fabric build(ScenarioSpec scenario, Topology topology) {
    FabricContext context = FabricContext.create(scenario, topology);
    DeviceCore[] devices = new DeviceCore[context.ids().deviceCount()];
    for (DeviceInstaller installer : INSTALLERS) {
      installer.install(context, devices);
    }
    for (int id = 0; id < devices.length; id++) {
      if (devices[id] == null) {
        throw new IllegalStateException("no installer put a device at id " + id + " of " + context.ids());
      }
    }
    return new Fabric(context, devices, lookaheadPs(scenario, topology));
  }

  /**
   * The number of devices of a fabric of {@code scenario} on {@code topology}, as {@link #build} makes them, without
   * building it: the topology's devices, then a run with faults' management node, the I/O nodes' external Ethernet
   * and an optical cluster's OCS controller, each where the scenario has it ({@link DeviceIdPlan}).
   */
  public static int deviceCount(ScenarioSpec scenario, Topology topology) {
    return DeviceIdPlan.of(scenario, topology).deviceCount();
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
    OpticalSpec ocsCluster = DeviceIdPlan.ocsCluster(scenario);
    if (ocsCluster != null) {
      // The controller's word that a circuit is up crosses to the NPUs' NICs in the reconfiguration delay.
      lookahead = Math.min(lookahead, ocsCluster.ocs().reconfigurationDelayPs());
    }
    if (lookahead <= 0) {
      throw new IllegalArgumentException("every link latency and the PCIe latency must be positive");
    }
    return lookahead;
  }

  /** The OCS controller's device id (the last device) on an optical cluster with a reconfiguration delay; else -1. */
  public int ocsDevice() {
    return context.ids().ocsDevice();
  }

  /**
   * How long after it starts the OCS controller's word reaches the NICs (the reconfiguration delay), the least delay
   * of a message from it to another device; {@link Long#MAX_VALUE} when the run has no controller.
   */
  public long ocsReconfigurationDelayPs() {
    OpticalSpec optical = context.ocsCluster();
    return optical == null ? Long.MAX_VALUE : optical.ocs().reconfigurationDelayPs();
  }

  /** The external Ethernet's device id in a scenario with I/O nodes; -1 without. */
  public int ethernetDevice() {
    return context.ids().ethernetDevice();
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
    RouterDeadlocks.requireDrained(topology(), routers);
  }

  /** Whether the fabric is a router network (mesh, torus, group-ring): a router in every node, flits on links. */
  public boolean routerNetwork() {
    return scenario().topology().networkShape().isPresent();
  }

  /**
   * The events that start a run, as the installers add them in their order, numbered 0, 1, … ({@link StartEvents}):
   * every compute node starts its workload at time 0; in a synthetic-traffic run every NIC starts its traffic
   * instead. The fault plan's events follow (the management node's installer), then, with I/O nodes, the Ethernet
   * traffic sources' first frames at {@code ethernet.start}, and the OCS controller's start at time 0. A new list
   * per call.
   */
  public List<Event> startEvents() {
    StartEvents events = new StartEvents();
    for (DeviceInstaller installer : INSTALLERS) {
      installer.addStartEvents(context, events);
    }
    return events.toList();
  }

  /** The management node's device id in a run with faults; -1 without. */
  public int managementDevice() {
    return context.ids().managementDevice();
  }

  /** The nodes the traffic pattern lets send (throughput is per sending node); 0 without traffic. */
  public int trafficSendingNodes() {
    return context.trafficSendingNodes();
  }

  /**
   * Runs this synthetic-traffic fabric to the end on the plain single-threaded {@link WindowedEngine} (tests,
   * benchmarks). Run a fabric once.
   */
  public TrafficResult runTrafficOnPlainEngine() {
    ScenarioSpec scenario = scenario();
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
    return TrafficResult.aggregate(scenario, trafficSendingNodes(), topology().hostCount(), engine.reports(),
        engine.lastEventTimePs(), engine.windows(), engine.eventsHandled(), wallSeconds);
  }

  public ScenarioSpec scenario() {
    return context.scenario();
  }

  public Topology topology() {
    return context.topology();
  }

  public RoutingTable routing() {
    return context.routing();
  }

  /** The ids of the fabric's devices: the topology's, then the extra devices'. */
  public DeviceIdPlan ids() {
    return context.ids();
  }

  /** Devices indexed by id. */
  public DeviceCore[] devices() {
    return devices;
  }

  public long lookaheadPs() {
    return lookaheadPs;
  }

  public int worldSize() {
    return context.worldSize();
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
    return ResultAggregator.aggregate(scenario(), worldSize(), engine.reports(), engine.lastEventTimePs(),
        engine.windows(), engine.eventsHandled(), wallSeconds);
  }
}
