package io.fabemu.fabric.fault;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabemu.collectives.Algorithm;
import io.fabemu.collectives.Collective;
import io.fabemu.collectives.WorkloadSpec;
import io.fabemu.core.data.DataType;
import io.fabemu.core.data.ReduceOp;
import io.fabemu.core.fault.FaultAction;
import io.fabemu.core.fault.FaultEvent;
import io.fabemu.core.fault.FaultPlan;
import io.fabemu.core.link.ForwardingMode;
import io.fabemu.core.time.Units;
import io.fabemu.core.topology.FatTreeSpec;
import io.fabemu.core.topology.LinkSpec;
import io.fabemu.core.topology.Topology;
import io.fabemu.core.topology.Topology.Tier;
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
 * Faults on a three-tier fat-tree, end to end on the plain engine: a core or an aggregation switch that fails under a
 * ring allreduce's flow between pods; the management node routes around it over the others and the run completes with
 * the exact answer.
 */
class FatTreeFaultTest {

  /** 2 pods x 2 leaves x 4 hosts, 2 aggregations per pod, 4 cores; a ring allreduce of 1 MiB. */
  static ScenarioSpec scenario(int iterations) {
    FatTreeSpec topology = FatTreeSpec.builder().pods(2).leavesPerPod(2).aggregationsPerPod(2).cores(4)
        .hostsPerLeaf(4).hostLink(new LinkSpec(100 * Units.GBPS, 500_000L))
        .leafLink(new LinkSpec(100 * Units.GBPS, 500_000L)).coreLink(new LinkSpec(100 * Units.GBPS, 500_000L))
        .build();
    DeviceSpec devices = new DeviceSpec(
        HostSpec.builder().sendOverheadPs(300_000L).recvOverheadPs(300_000L).reduceBitsPerSecond(80 * Units.GBPS)
            .memoryBitsPerSecond(160 * Units.GBPS).memoryLatencyPs(150_000L).pcieBitsPerSecond(128 * Units.GBPS)
            .pcieLatencyPs(250_000L).build(),
        new NicSpec(4096, 64, 100_000L, 100_000L), new SwitchSpec(500_000L, ForwardingMode.CUT_THROUGH));
    WorkloadSpec workload = WorkloadSpec.builder(Collective.ALLREDUCE, List.of(Algorithm.RING), List.of(1L << 20))
        .iterations(iterations).dataType(DataType.FLOAT32).op(ReduceOp.SUM).build();
    return ScenarioSpec.builder("fat-tree-faults", "test", 11, topology, devices, workload).build();
  }

  private static RunResult run(ScenarioSpec spec) {
    return Fabric.build(spec).runOnPlainEngine();
  }

  private static void assertExact(RunResult result) {
    assertThat(result.complete()).as(result.incompleteReason()).isTrue();
    assertThat(result.checked()).isTrue();
    assertThat(result.wrongElements()).isZero();
  }

  /** The ring's flow from host 7 (last of pod 0) to host 8 (first of pod 1): host, leaf, agg, core, agg, leaf, host. */
  private static List<Integer> pathOfFlow7To8(ScenarioSpec base, Topology topology) {
    return base.topology().routing(topology).path(7, 8);
  }

  @Test
  void aCoreFailsMidAllreduceAndTheRingCompletesExactlyOverTheOthers() {
    ScenarioSpec base = scenario(2);
    Topology topology = base.topology().build();
    int core = pathOfFlow7To8(base, topology).get(3);
    assertThat(topology.tier(core)).isEqualTo(Tier.SPINE);
    RunResult clean = run(base);
    RunResult result = run(base.withFaults(new FaultPlan(LeafSpineFaultTest.SETTINGS, List.of(
        FaultEvent.device(150_000_000L, FaultAction.DOWN, "switch " + topology.vertex(core).name(), core,
            topology)))));

    assertExact(result);
    // Three missed 5 us heartbeats; the routes change and the lost packets are sent again.
    assertThat(result.faults().recordOf(0).detectedPs()).isEqualTo(165_000_000L);
    assertThat(result.faults().recordOf(0).devicesUpdated()).isPositive();
    assertThat(result.faults().tally().lostPackets(0)).isPositive();
    assertThat(result.faults().partition()).isNull();
    assertThat(result.digest()).isNotEqualTo(clean.digest());
  }

  @Test
  void anAggregationFailsMidAllreduceAndTheRingCompletesExactlyOverTheOther() {
    ScenarioSpec base = scenario(2);
    Topology topology = base.topology().build();
    int aggregation = pathOfFlow7To8(base, topology).get(2);
    assertThat(topology.tier(aggregation)).isEqualTo(Tier.AGGREGATION);
    RunResult result = run(base.withFaults(new FaultPlan(LeafSpineFaultTest.SETTINGS, List.of(
        FaultEvent.device(150_000_000L, FaultAction.DOWN, "switch " + topology.vertex(aggregation).name(),
            aggregation, topology)))));

    assertExact(result);
    assertThat(result.faults().recordOf(0).detectedPs()).isEqualTo(165_000_000L);
    assertThat(result.faults().tally().lostPackets(0)).isPositive();
    assertThat(result.faults().partition()).isNull();
    assertThat(run(result.scenario()).digest()).isEqualTo(result.digest());
  }
}
