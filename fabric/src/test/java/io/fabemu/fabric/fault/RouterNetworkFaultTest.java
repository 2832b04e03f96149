package io.fabemu.fabric.fault;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabemu.collectives.Algorithm;
import io.fabemu.collectives.Collective;
import io.fabemu.collectives.WorkloadSpec;
import io.fabemu.core.fault.FaultAction;
import io.fabemu.core.fault.FaultEvent;
import io.fabemu.core.fault.FaultPlan;
import io.fabemu.core.fault.FaultRecord;
import io.fabemu.core.fault.FaultSettings;
import io.fabemu.core.fault.FaultTally;
import io.fabemu.core.link.ForwardingMode;
import io.fabemu.core.router.RouterSpec;
import io.fabemu.core.router.Switching;
import io.fabemu.core.time.Units;
import io.fabemu.core.topology.MeshSpec;
import io.fabemu.core.topology.Topology;
import io.fabemu.core.topology.TopologySpec;
import io.fabemu.core.topology.TorusSpec;
import io.fabemu.fabric.DeviceSpec;
import io.fabemu.fabric.Fabric;
import io.fabemu.fabric.ScenarioSpec;
import io.fabemu.fabric.result.RunResult;
import io.fabemu.nic.NicSpec;
import io.fabemu.node.HostSpec;
import io.fabemu.switching.SwitchSpec;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Faults on router networks, end to end on the plain engine: the router patent's detours through via nodes, the
 * packets a failure loses sent again, exact results, and the detection and reroute times the settings give.
 */
class RouterNetworkFaultTest {
  /** Heartbeat 1 us x 3, management 1 us + 100 ns per update, retransmit after 20 us, at most 10 times. */
  static final FaultSettings SETTINGS = new FaultSettings(1_000_000L, 3, 1_000_000L, 100_000L, 20_000_000L, 10);
  private static final HostSpec HOST = HostSpec.builder().sendOverheadPs(300_000L).recvOverheadPs(300_000L)
      .reduceBitsPerSecond(80 * Units.GBPS).memoryBitsPerSecond(160 * Units.GBPS).memoryLatencyPs(150_000L)
      .pcieBitsPerSecond(128 * Units.GBPS).pcieLatencyPs(250_000L).build();

  /** 1 GHz, 32 B flits, {@code vcs} VCs of 8 flits, 1 cycle per stage, 2 per link. */
  private static RouterSpec router(int vcs, Switching switching, int depth) {
    return new RouterSpec(1_000L, 32, vcs, depth, 1, 1, 1, 1, 2, 1, switching);
  }

  private static ScenarioSpec scenario(TopologySpec topology, RouterSpec router, Algorithm algorithm,
                                       long sizeBytes, int iterations) {
    DeviceSpec devices = new DeviceSpec(HOST, new NicSpec(1024, 32, 100_000L, 120_000L),
        new SwitchSpec(600_000L, ForwardingMode.CUT_THROUGH), null, router, 1_000_000_000L);
    WorkloadSpec workload = WorkloadSpec.builder(Collective.ALLREDUCE, List.of(algorithm), List.of(sizeBytes))
        .iterations(iterations).build();
    return ScenarioSpec.builder("router-faults", "test", 27, topology, devices, workload).build();
  }

  private static ScenarioSpec mesh8x8(int iterations) {
    RouterSpec router = router(2, Switching.WORMHOLE, 8);
    return scenario(new MeshSpec(8, 8, 1, router.channel()), router, Algorithm.RECURSIVE_DOUBLING, 16 * 1024,
        iterations);
  }

  private static RunResult run(ScenarioSpec spec) {
    return Fabric.build(spec).runOnPlainEngine();
  }

  private static void assertExact(RunResult result) {
    assertThat(result.complete()).as(result.incompleteReason()).isTrue();
    assertThat(result.checked()).isTrue();
    assertThat(result.wrongElements()).isZero();
  }

  private static int vertex(Topology topology, String name) {
    return LeafSpineFaultTest.vertex(topology, name);
  }

  /** Node {@code host}'s failure or return: its router, which cuts it off. */
  private static FaultEvent node(long atPs, FaultAction action, Topology topology, String host) {
    return FaultEvent.device(atPs, action, "node " + host, topology.hostCount() + vertex(topology, host), topology);
  }

  @Test
  void aTimeoutShorterThanTheMeshsRoundTripsResendsSpuriouslyAndTheAdaptiveOneDoesNot() {
    ScenarioSpec base = mesh8x8(1);
    Topology topology = base.topology().build();
    // A node far from the action fails late: before it, every resend is the timeout's alone.
    List<FaultEvent> events = List.of(node(900_000_000L, FaultAction.DOWN, topology, "host63"));
    // 100 ns: less than the PCIe latency (250 ns) of the receiver's write, after which it acknowledges.
    FaultSettings tooShort = new FaultSettings(1_000_000L, 3, 1_000_000L, 100_000L, 100_000L, 10);
    RunResult fixed = run(base.withFaults(new FaultPlan(tooShort, events)));
    RunResult adaptive = run(base.withFaults(new FaultPlan(FaultSettings.DEFAULTS, events)));

    assertExact(fixed);
    assertExact(adaptive);
    // The acknowledgements (the router path's) answer first copies, so the resends were spurious, put down to no
    // event.
    FaultTally tally = fixed.faults().tally();
    assertThat(tally.spuriousResends(-1)).as("resent %d (%d before the event), spurious %d, run end %d ps",
        tally.totalResentMessages(), tally.resentMessages(-1), tally.totalSpuriousResends(), fixed.virtualEndPs())
        .isPositive();
    assertThat(tally.lossDrivenResends(-1)).isZero();
    assertThat(adaptive.faults().tally().totalResentMessages()).isZero();
  }

  @Test
  void aNodeOfAnEightByEightMeshFailsMidAllreduceAndTheDetoursCarryTrafficUntilItReturns() {
    ScenarioSpec base = mesh8x8(2);
    Topology topology = base.topology().build();
    ScenarioSpec faulted = base.withFaults(new FaultPlan(SETTINGS, List.of(
        node(12_000_000L, FaultAction.DOWN, topology, "host27"),
        node(60_000_000L, FaultAction.UP, topology, "host27"))));
    RunResult result = run(faulted);

    assertExact(result);
    FaultRecord down = result.faults().recordOf(0);
    // Three missed 1 us heartbeats.
    assertThat(down.detectedPs()).isEqualTo(15_000_000L);
    // Every NIC's routes change (none reaches host27 any more): 64 updates of 100 ns one after another, 1 us to the
    // management node before them and 1 us to the last NIC after them.
    assertThat(down.devicesUpdated()).isEqualTo(64);
    assertThat(down.rerouteCompletePs()).isEqualTo(15_000_000L + 1_000_000L + 64 * 100_000L + 1_000_000L);
    // host24 (0,3) to host31 (7,3) crossed (3,3): via host16 (0,2), 9 hops, the lowest of the shortest detours.
    assertThat(down.detours()).contains("host24->host31 via host16").doesNotContain("host0->host7 via host8");
    FaultRecord up = result.faults().recordOf(1);
    assertThat(up.detectedPs()).isEqualTo(61_000_000L);
    assertThat(up.detours()).isEmpty();
    FaultTally tally = result.faults().tally();
    assertThat(tally.detouredPackets(0)).isPositive();
    assertThat(tally.lostPackets(0)).isPositive();
    assertThat(tally.totalResentMessages()).isPositive();
    assertThat(result.faults().partition()).isNull();
    assertThat(run(faulted).digest()).isEqualTo(result.digest());
  }

  @Test
  void aDeadCableBetweenRoutersIsDetouredForGoodAndTheAllreduceStaysExact() {
    ScenarioSpec base = mesh8x8(1);
    Topology topology = base.topology().build();
    int a = vertex(topology, "router27");
    int b = vertex(topology, "router28");
    RunResult result = run(base.withFaults(new FaultPlan(SETTINGS, List.of(
        FaultEvent.link(5_000_000L, FaultAction.DOWN, "link router27-router28", a, b)))));

    assertExact(result);
    FaultRecord record = result.faults().recordOf(0);
    assertThat(record.detectedPs()).isEqualTo(8_000_000L);
    // Only the NICs whose routes crossed the cable (the hosts of row 3 west of x = 4, toward the east, and back)
    // get a via node; nobody is cut off.
    assertThat(record.devicesUpdated()).isBetween(1, 63);
    assertThat(record.detours()).isNotEmpty().allMatch(d -> d.contains(" via "));
    assertThat(result.faults().partition()).isNull();
  }

  @Test
  void aNodeThatNeverReturnsIsAPartitionNamingItsRanks() {
    RouterSpec router = router(2, Switching.WORMHOLE, 8);
    ScenarioSpec base = scenario(new MeshSpec(4, 4, 1, router.channel()), router, Algorithm.RING, 4096, 1);
    Topology topology = base.topology().build();
    RunResult result = run(base.withFaults(new FaultPlan(
        new FaultSettings(1_000_000L, 3, 1_000_000L, 100_000L, 5_000_000L, 2),
        List.of(node(3_000_000L, FaultAction.DOWN, topology, "host5")))));

    assertThat(result.complete()).isFalse();
    assertThat(result.faults().partition())
        .isEqualTo("partition since 3.000 us (node host5 down): ranks 0-4,6-15 cannot reach rank 5");
    assertThat(result.faults().gaveUp()).isNotEmpty();
  }

  @Test
  void twoDeadCablesLeaveAPairNoSingleViaNodeJoinsAndTheRunSaysWhichRanks() {
    // router1 keeps only its cables to router0 and its NIC: hosts 2 and 3 reach host 1 by no single via node (every
    // route into router1 ends with the x hop from router0), though the network is still one piece.
    RouterSpec router = router(2, Switching.WORMHOLE, 8);
    ScenarioSpec base = scenario(new MeshSpec(4, 4, 1, router.channel()), router, Algorithm.RECURSIVE_DOUBLING, 4096,
        1);
    Topology topology = base.topology().build();
    RunResult result = run(base.withFaults(new FaultPlan(
        new FaultSettings(1_000_000L, 3, 1_000_000L, 100_000L, 5_000_000L, 2), List.of(
            FaultEvent.link(1_000_000L, FaultAction.DOWN, "link router1-router2", vertex(topology, "router1"),
                vertex(topology, "router2")),
            FaultEvent.link(1_000_000L, FaultAction.DOWN, "link router1-router5", vertex(topology, "router1"),
                vertex(topology, "router5"))))));

    assertThat(result.complete()).isFalse();
    assertThat(result.faults().partition()).isEqualTo("partition since 1.000 us (link router1-router5 down): rank 2 "
        + "cannot reach rank 1, rank 3 cannot reach rank 1 (no single via node joins them)");
  }

  @Test
  void aTorusWithDatelinesAndVirtualCutThroughSurvivesAFlappingNodeExactly() {
    RouterSpec router = router(4, Switching.VIRTUAL_CUT_THROUGH, 64);
    ScenarioSpec base = scenario(new TorusSpec(4, 4, 1, router.channel()), router, Algorithm.RING, 32 * 1024, 1);
    Topology topology = base.topology().build();
    FaultEvent down = node(4_000_000L, FaultAction.DOWN, topology, "host6");
    FaultEvent up = node(0, FaultAction.UP, topology, "host6");
    RunResult result = run(base.withFaults(new FaultPlan(SETTINGS,
        FaultPlan.flap(down, up, 15_000_000L, 5_000_000L, 3))));

    assertExact(result);
    for (int e = 0; e < 6; e++) {
      FaultEvent event = result.scenario().faults().event(e);
      long delay = event.action() == FaultAction.DOWN ? 3_000_000L : 1_000_000L;
      assertThat(result.faults().recordOf(e).detectedPs()).as("event %d", e).isEqualTo(event.atPs() + delay);
    }
    assertThat(result.faults().tally().totalLostPackets()).isPositive();
  }

  @Test
  void routersWithoutAVirtualChannelPerDetourLegAreRefused() {
    RouterSpec router = router(1, Switching.WORMHOLE, 8);
    ScenarioSpec base = scenario(new MeshSpec(3, 3, 1, router.channel()), router, Algorithm.RING, 1024, 1);
    Topology topology = base.topology().build();
    ScenarioSpec faulted = base.withFaults(new FaultPlan(SETTINGS, List.of(
        node(1_000_000L, FaultAction.DOWN, topology, "host4"))));

    assertThatThrownBy(() -> Fabric.build(faulted)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("multiple of 2 virtual channels");
  }
}
