package io.fabemu.fabric;

import io.fabemu.collectives.ExpectedAnswers;
import io.fabemu.collectives.Schedules;
import io.fabemu.collectives.WorkloadSpec;
import io.fabemu.core.ethernet.EthernetSpec;
import io.fabemu.core.fault.FaultPlan;
import io.fabemu.core.link.DetourViews;
import io.fabemu.core.link.PacketDropSpec;
import io.fabemu.core.link.RoutingViews;
import io.fabemu.core.optical.ConnectionPolicy;
import io.fabemu.core.optical.OcsSpec;
import io.fabemu.core.router.RouterSpec;
import io.fabemu.core.routing.DetourRouting;
import io.fabemu.core.routing.RouterRouting;
import io.fabemu.core.routing.RoutingTable;
import io.fabemu.core.topology.OpticalSpec;
import io.fabemu.core.topology.Topology;
import io.fabemu.core.traffic.DestinationPicker;
import io.fabemu.core.traffic.NetworkShape;
import io.fabemu.core.traffic.TrafficSpec;
import io.fabemu.node.rank.IncEnvironment;
import java.util.List;

/**
 * What the {@link DeviceInstaller}s of one fabric share, derived from the scenario and its topology once and checked
 * once, here: the routing, the device ids ({@link DeviceIdPlan}), the workload as the devices run it and its
 * expected answers, the router network's routing and the detour or routing views of a run with faults, the INC
 * environment, the synthetic traffic's destinations, and an optical cluster's policies and route changes. A scenario
 * the fabric cannot run (a drop on a missing link, faults with synthetic traffic or an OCS delay, I/O nodes off a
 * router network running a workload, too few virtual channels for detours, traffic off a router network or over
 * several loads) is refused by {@link #create} with one {@link IllegalArgumentException}, before any device exists.
 *
 * <p>A final class, not a record: it has no parts a caller chooses, only what {@link #create} derives.
 */
final class FabricContext {

  private final ScenarioSpec scenario;
  private final Topology topology;
  private final RoutingTable routing;
  private final DeviceIdPlan ids;
  private final int worldSize;
  private final WorkloadSpec workload;
  /** Null when the payload is synthetic (nothing is checked). */
  private final ExpectedAnswers answers;
  private final int elementBytes;
  /** Null without in-network computing. */
  private final IncSpec inc;
  /** Null off a router network; so is {@link #router}. */
  private final RouterRouting routerRouting;
  private final RouterSpec router;
  /** Non-null on a router network with faults; then {@link #detourViews} is too and {@link #routingViews} is null. */
  private final DetourRouting detourRouting;
  private final DetourViews detourViews;
  /** Non-null with faults off a router network. */
  private final RoutingViews routingViews;
  private final IncEnvironment incEnvironment;
  /** Null without synthetic traffic. */
  private final DestinationPicker destinations;
  /** Null unless the OCS controller sets circuits up during the run; then so are the policies. */
  private final OpticalSpec ocsCluster;
  /** The run's policies: the initial one, then each change's. */
  private final List<ConnectionPolicy> ocsPolicies;
  /** With policy changes, each later policy's routes and the time it takes effect; else null. */
  private final List<RoutingTable> laterRoutes;
  private final List<Long> laterRoutesAtPs;

  private FabricContext(ScenarioSpec scenario, Topology topology) {
    this.scenario = scenario;
    this.topology = topology;
    this.routing = scenario.topology().routing(topology);
    this.worldSize = topology.hostCount() * scenario.workload().ppn();
    // The loader checked these with the file and key at fault; a spec built in code is checked here, once.
    scenario.workload().requireFits(worldSize);
    WorkloadSpec run = scenario.workload();
    if (scenario.runsTraffic()) {
      // The NICs inject synthetic traffic and the ranks never start: their workload needs no data.
      run = run.withSyntheticPayload(true);
    }
    this.workload = run;
    // Sizes only: nothing is checked, so no exact answers are built.
    this.answers = workload.syntheticPayload() ? null
        : ExpectedAnswers.forWorkload(workload, worldSize, scenario.seed());
    if (answers != null) {
      // Before the run, on all cores: no device waits on an answer mid-run.
      answers.prepare(workload);
    }
    this.elementBytes = Schedules.elementBytes(workload.collective(), workload.dataType(), workload.op());
    this.inc = scenario.devices().inc();
    checkDrops(topology, scenario.packetDrops());
    FaultPlan faults = scenario.faults();
    if (faults.isActive() && scenario.runsTraffic()) {
      throw new IllegalArgumentException("faults do not reach synthetic traffic yet");
    }
    this.routerRouting = scenario.topology().routerRouting(topology).orElse(null);
    this.router = routerRouting == null ? null : scenario.devices().router();
    EthernetSpec ethernet = scenario.ethernet();
    if (ethernet != null && (routerRouting == null || scenario.runsTraffic())) {
      throw new IllegalArgumentException("I/O nodes (ethernet) need a router network (mesh, torus, group-ring) "
          + "running a workload");
    }
    this.ocsCluster = DeviceIdPlan.ocsCluster(scenario);
    if (ocsCluster != null && faults.isActive()) {
      throw new IllegalArgumentException("an OCS reconfiguration delay does not combine with faults yet");
    }
    this.ids = DeviceIdPlan.of(scenario, topology);
    this.ocsPolicies = ocsCluster == null ? null : ocsCluster.policies();
    if (ocsCluster != null && ocsCluster.ocs().changesPolicy()) {
      List<RoutingTable> routings = ocsCluster.routings(topology);
      this.laterRoutes = routings.subList(1, routings.size());
      this.laterRoutesAtPs = ocsCluster.ocs().changes().stream().map(OcsSpec.PolicyChange::atPs).toList();
    } else {
      this.laterRoutes = null;
      this.laterRoutesAtPs = null;
    }
    // On a router network with faults the routers route by detours (twice the classes) and the management node
    // computes the NICs' via nodes.
    this.detourRouting = !faults.isActive() || routerRouting == null ? null : DetourRouting.of(routerRouting);
    if (detourRouting != null && router.virtualChannels() % detourRouting.vcClasses() != 0) {
      throw new IllegalArgumentException("faults on a router network need a multiple of " + detourRouting.vcClasses()
          + " virtual channels (" + routerRouting.vcClasses() + " classes per detour leg), got "
          + router.virtualChannels());
    }
    this.detourViews = detourRouting == null ? null : new DetourViews(topology, routerRouting);
    this.routingViews = !faults.isActive() || detourViews != null ? null : new RoutingViews(topology, routing);
    // In-network algorithms need TORs; on fabrics without them their cases fall back to the host algorithm.
    this.incEnvironment = IncEnvironment.of(topology, workload.ppn(), scenario.devices().host().socketsPerNode(),
        inc != null);
    TrafficSpec traffic = scenario.traffic();
    if (traffic != null) {
      NetworkShape shape = scenario.topology().networkShape().orElseThrow(() -> new IllegalArgumentException(
          "synthetic traffic needs a router network (mesh, torus, group-ring), not "
              + scenario.topology().configName()));
      if (traffic.loadCount() != 1) {
        throw new IllegalArgumentException("a traffic run emulates one offered load, got " + traffic.loadCount()
            + " (run each with TrafficSpec.atLoad)");
      }
      this.destinations = traffic.destinations(shape);
    } else {
      this.destinations = null;
    }
  }

  /**
   * Derives and checks what the installers of a fabric of {@code scenario} on {@code topology} (built from
   * {@code scenario.topology()}) share.
   *
   * @throws IllegalArgumentException naming what the fabric cannot run
   */
  static FabricContext create(ScenarioSpec scenario, Topology topology) {
    return new FabricContext(scenario, topology);
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

  ScenarioSpec scenario() {
    return scenario;
  }

  Topology topology() {
    return topology;
  }

  /** The topology kind's routing, one instance shared by every device. */
  RoutingTable routing() {
    return routing;
  }

  DeviceIdPlan ids() {
    return ids;
  }

  /** Hosts × processes per node. */
  int worldSize() {
    return worldSize;
  }

  /** The workload as the ranks run it: with synthetic payload in a traffic run. */
  WorkloadSpec workload() {
    return workload;
  }

  /** The exact answers, prepared; null when the payload is synthetic. */
  ExpectedAnswers answers() {
    return answers;
  }

  /** Bytes of one element of the workload's collective, data type and operation. */
  int elementBytes() {
    return elementBytes;
  }

  /** In-network computing; null without. */
  IncSpec inc() {
    return inc;
  }

  /** The router network's routing; null on other fabrics. */
  RouterRouting routerRouting() {
    return routerRouting;
  }

  /** The routers' spec on a router network; null on other fabrics. */
  RouterSpec router() {
    return router;
  }

  /** The routers' detour routing on a router network with faults; else null. */
  DetourRouting detourRouting() {
    return detourRouting;
  }

  /** The management node's view of the NICs' via nodes on a router network with faults; else null. */
  DetourViews detourViews() {
    return detourViews;
  }

  /** The management node's routes, shared by the devices, with faults off a router network; else null. */
  RoutingViews routingViews() {
    return routingViews;
  }

  IncEnvironment incEnvironment() {
    return incEnvironment;
  }

  /** The synthetic traffic's destinations; null without traffic. */
  DestinationPicker destinations() {
    return destinations;
  }

  /** The optical cluster whose OCS controller sets circuits up during the run; null otherwise. */
  OpticalSpec ocsCluster() {
    return ocsCluster;
  }

  /** The OCS controller's policies (the initial one, then each change's); null without the controller. */
  List<ConnectionPolicy> ocsPolicies() {
    return ocsPolicies;
  }

  /** Each policy change's routes, in order; null without changes. */
  List<RoutingTable> laterRoutes() {
    return laterRoutes;
  }

  /** When each of {@link #laterRoutes} takes effect; null without changes. */
  List<Long> laterRoutesAtPs() {
    return laterRoutesAtPs;
  }

  /** The nodes the traffic pattern lets send; 0 without traffic. */
  int trafficSendingNodes() {
    return destinations == null ? 0 : destinations.sendingNodeCount();
  }
}
