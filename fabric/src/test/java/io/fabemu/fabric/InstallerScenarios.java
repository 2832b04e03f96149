package io.fabemu.fabric;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabemu.collectives.Algorithm;
import io.fabemu.collectives.Collective;
import io.fabemu.collectives.WorkloadSpec;
import io.fabemu.core.data.DataType;
import io.fabemu.core.data.ReduceOp;
import io.fabemu.core.ethernet.EthernetSpec;
import io.fabemu.core.fault.FaultAction;
import io.fabemu.core.fault.FaultEvent;
import io.fabemu.core.fault.FaultPlan;
import io.fabemu.core.fault.FaultSettings;
import io.fabemu.core.link.ForwardingMode;
import io.fabemu.core.optical.ConnectionFormula;
import io.fabemu.core.optical.OcsSpec;
import io.fabemu.core.optical.OcsSpec.PolicyChange;
import io.fabemu.core.router.RouterSpec;
import io.fabemu.core.router.Switching;
import io.fabemu.core.sim.DeviceCore;
import io.fabemu.core.time.Units;
import io.fabemu.core.topology.LinkSpec;
import io.fabemu.core.topology.MeshSpec;
import io.fabemu.core.topology.OpticalSpec;
import io.fabemu.core.topology.OpticalSpec.IntraServer;
import io.fabemu.core.topology.Topology;
import io.fabemu.core.topology.Topology.Tier;
import io.fabemu.core.traffic.TrafficPattern;
import io.fabemu.core.traffic.TrafficSpec;
import io.fabemu.nic.NicSpec;
import io.fabemu.switching.SwitchSpec;
import java.util.List;

/**
 * Small scenarios for the tests of {@link DeviceIdPlan}, {@link FabricContext} and the installers: one per device
 * family and extra device, so that each test builds a context in milliseconds.
 */
final class InstallerScenarios {
  /** 1 GHz, 32 B flits, 2 VCs of 8 flits (enough for detours on a mesh), 2 cycles per link. */
  static final RouterSpec ROUTER = new RouterSpec(1_000L, 32, 2, 8, 1, 1, 1, 1, 2, 1, Switching.WORMHOLE);
  /** Heartbeat 1 us x 3, management 1 us + 100 ns per update, retransmit after 20 us, at most 10 times. */
  static final FaultSettings SETTINGS = new FaultSettings(1_000_000L, 3, 1_000_000L, 100_000L, 20_000_000L, 10);
  static final long FAULT_PS = 5 * Units.PS_PER_US;
  static final long OCS_DELAY_PS = 10 * Units.PS_PER_US;
  private static final LinkSpec INTRA = new LinkSpec(400 * Units.GBPS, 200_000L);
  private static final LinkSpec OPTICAL = new LinkSpec(100 * Units.GBPS, 1_000_000L);

  private InstallerScenarios() {}

  /** 8 hosts, 4 per TOR, 2 spines: 8 NICs, 4 switches, 8 compute nodes, 20 devices. */
  static ScenarioSpec leafSpine() {
    return TestScenarios.leafSpine(8, 4, 2, 1, Collective.ALLREDUCE, Algorithm.RING, DataType.FLOAT32, ReduceOp.SUM,
        false, List.of(1024L), ForwardingMode.CUT_THROUGH);
  }

  /** {@link #leafSpine} with the first TOR's link to the first spine down at {@link #FAULT_PS}. */
  static ScenarioSpec leafSpineWithLinkDown() {
    ScenarioSpec base = leafSpine();
    Topology topology = base.topology().build();
    int tor = firstOfTier(topology, Tier.TOR);
    int spine = firstOfTier(topology, Tier.SPINE);
    return base.withFaults(new FaultPlan(SETTINGS, List.of(
        FaultEvent.link(FAULT_PS, FaultAction.DOWN, "link tor-spine", tor, spine))));
  }

  static int firstOfTier(Topology topology, Tier tier) {
    for (int v = 0; v < topology.vertexCount(); v++) {
      if (topology.tier(v) == tier) return v;
    }
    throw new AssertionError("no " + tier + " in " + topology.description());
  }

  /** A 4 x 4 mesh running an Allreduce: 16 NICs, 16 routers, 16 compute nodes, 48 devices. */
  static ScenarioSpec mesh() {
    return meshBuilder().build();
  }

  private static ScenarioSpec.Builder meshBuilder() {
    DeviceSpec devices = new DeviceSpec(TestScenarios.SERVER_HOST, new NicSpec(1024, 32, 100_000L, 120_000L),
        new SwitchSpec(600_000L, ForwardingMode.CUT_THROUGH), null, ROUTER, 1_000_000_000L);
    WorkloadSpec workload = WorkloadSpec.builder(Collective.ALLREDUCE, List.of(Algorithm.RECURSIVE_DOUBLING),
        List.of(16L * 1024)).build();
    return ScenarioSpec.builder("mesh", "test", 27, new MeshSpec(4, 4, 1, ROUTER.channel()), devices, workload);
  }

  /** {@link #mesh} with node 5 (its router) down at {@link #FAULT_PS}. */
  static ScenarioSpec meshWithNodeDown() {
    ScenarioSpec base = mesh();
    return base.withFaults(nodeDown(base.topology().build()));
  }

  private static FaultPlan nodeDown(Topology topology) {
    return new FaultPlan(SETTINGS, List.of(FaultEvent.device(FAULT_PS, FaultAction.DOWN, "node host5",
        topology.hostCount() + 5, topology)));
  }

  /** I/O nodes 0 and 15: 10 frames in, 2 out per node, from 3 us; 10 Gb/s cables of 2 us. */
  static EthernetSpec ethernet(int inbound, int outbound) {
    return new EthernetSpec(List.of(0, 15), List.of(), 10 * Units.GBPS, 2_000_000L, 2, 0.0, inbound, outbound, 5,
        200, 5_000_000L, 3 * Units.PS_PER_US);
  }

  /** {@link #mesh} with I/O nodes ({@link #ethernet}). */
  static ScenarioSpec meshWithEthernet(int inbound, int outbound) {
    return meshBuilder().ethernet(ethernet(inbound, outbound)).build();
  }

  /** {@link #mesh} with I/O nodes and node 5 down: the management node, then the external Ethernet. */
  static ScenarioSpec meshWithEthernetAndNodeDown() {
    ScenarioSpec base = meshWithEthernet(10, 2);
    return base.withFaults(nodeDown(base.topology().build()));
  }

  /** {@link #mesh} running uniform synthetic traffic at one load instead of its workload. */
  static ScenarioSpec meshTraffic(List<Double> loads) {
    return mesh().withTraffic(new TrafficSpec(TrafficPattern.UNIFORM, null, 4, loads, 500, 4000, 4000));
  }

  /** Two servers of two NPUs whose circuits come up {@link #OCS_DELAY_PS} after time 0. */
  static ScenarioSpec opticalWithOcs(long delayPs) {
    return optical(new OpticalSpec(2, 2, IntraServer.FULL_MESH, INTRA, OPTICAL, ConnectionFormula.defaultFor(2),
        new OcsSpec(delayPs)));
  }

  /** Four servers of four NPUs: formula 3, formula 1 at 15 us, formula 3 again at 30 us. */
  static ScenarioSpec opticalReconfigured() {
    return optical(new OpticalSpec(4, 4, IntraServer.SWITCH, INTRA, OPTICAL, ConnectionFormula.FORMULA_3,
        new OcsSpec(OCS_DELAY_PS, List.of(new PolicyChange(15 * Units.PS_PER_US, ConnectionFormula.FORMULA_1),
            new PolicyChange(30 * Units.PS_PER_US, ConnectionFormula.FORMULA_3)))));
  }

  private static ScenarioSpec optical(OpticalSpec topology) {
    return TestScenarios.optical("ocs", topology, Collective.ALLREDUCE, List.of(4_004L), 1, 0);
  }

  /** A fresh, empty device array sized by {@code context}'s ids. */
  static DeviceCore[] slots(FabricContext context) {
    return new DeviceCore[context.ids().deviceCount()];
  }

  /** Asserts that {@code installer} puts no device at any id of {@code scenario}'s fabric and adds no start event. */
  static void assertInstallsAndStartsNothing(DeviceInstaller installer, ScenarioSpec scenario) {
    FabricContext c = context(scenario);
    DeviceCore[] devices = slots(c);
    installer.install(c, devices);
    assertThat(devices).containsOnlyNulls();
    StartEvents events = new StartEvents();
    installer.addStartEvents(c, events);
    assertThat(events.toList()).isEmpty();
  }

  /** The context of {@code scenario} on its own topology. */
  static FabricContext context(ScenarioSpec scenario) {
    return FabricContext.create(scenario, scenario.topology().build());
  }
}
