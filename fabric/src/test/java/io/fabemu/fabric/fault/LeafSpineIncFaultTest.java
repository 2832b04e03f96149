package io.fabemu.fabric.fault;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.fabemu.collectives.Algorithm;
import io.fabemu.collectives.Collective;
import io.fabemu.collectives.WorkloadSpec;
import io.fabemu.core.data.DataType;
import io.fabemu.core.data.ReduceOp;
import io.fabemu.core.fault.FaultAction;
import io.fabemu.core.fault.FaultEvent;
import io.fabemu.core.fault.FaultPlan;
import io.fabemu.core.fault.FaultSettings;
import io.fabemu.core.inc.IncCodes.FailCause;
import io.fabemu.core.link.ForwardingMode;
import io.fabemu.core.time.Units;
import io.fabemu.core.topology.LeafSpineSpec;
import io.fabemu.core.topology.LinkSpec;
import io.fabemu.core.topology.Topology;
import io.fabemu.fabric.DeviceSpec;
import io.fabemu.fabric.Fabric;
import io.fabemu.fabric.IncSpec;
import io.fabemu.fabric.ScenarioSpec;
import io.fabemu.fabric.result.CaseResult;
import io.fabemu.fabric.result.RunResult;
import io.fabemu.nic.IncNicSpec;
import io.fabemu.nic.NicSpec;
import io.fabemu.node.HostSpec;
import io.fabemu.switching.SwitchSpec;
import io.fabemu.switching.inc.IncSwitchSpec;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * INC Allreduce under faults on a leaf-spine fabric, end to end on the plain engine: 8 hosts, 2 per TOR, 2 spines,
 * 2 ranks per host (Node mode: 8 leaders under 4 TORs), heartbeat 1 us x 3, management 1 us + 100 ns per update.
 */
class LeafSpineIncFaultTest {
  static final FaultSettings SETTINGS = new FaultSettings(1_000_000L, 3, 1_000_000L, 100_000L, 30_000_000L, 10);

  static ScenarioSpec scenario(int iterations, long sizeBytes) {
    LeafSpineSpec topology = new LeafSpineSpec(8, 2, 2, new LinkSpec(25 * Units.GBPS, 100_000L),
        new LinkSpec(100 * Units.GBPS, 100_000L));
    IncSwitchSpec unit = new IncSwitchSpec(400_000L, 0, 64, 8, 256, 4096, EnumSet.of(ReduceOp.SUM),
        EnumSet.of(DataType.INT32, DataType.FLOAT32));
    IncSpec inc = new IncSpec(unit, unit, Set.of(), new IncNicSpec(256, 100_000L, 20_000_000L, 16));
    DeviceSpec devices = new DeviceSpec(
        HostSpec.builder().sendOverheadPs(250_000L).recvOverheadPs(250_000L)
            .reduceBitsPerSecond(8 * Units.GBPS).memoryBitsPerSecond(16 * Units.GBPS).memoryLatencyPs(300_000L)
            .pcieBitsPerSecond(64 * Units.GBPS).pcieLatencyPs(300_000L).socketsPerNode(2).crossSocketLatencyPs(200_000L)
            .shmMessageOccupancyPs(20_000L).build(),
        new NicSpec(4096, 82, 100_000L, 100_000L), new SwitchSpec(500_000L, ForwardingMode.CUT_THROUGH), inc);
    WorkloadSpec workload = WorkloadSpec.builder(Collective.ALLREDUCE, List.of(Algorithm.INC_NODE), List.of(sizeBytes))
        .iterations(iterations).ppn(2).dataType(DataType.INT32).build();
    return ScenarioSpec.builder("inc-faults", "test", 5, topology, devices, workload).build();
  }

  private static RunResult run(ScenarioSpec spec) {
    return Fabric.build(spec).runOnPlainEngine();
  }

  private static void assertExact(RunResult result) {
    assertThat(result.complete()).as(result.incompleteReason()).isTrue();
    assertThat(result.checked()).isTrue();
    assertThat(result.wrongElements()).isZero();
    for (CaseResult c : result.cases()) assertThat(c.incOutcome()).isEqualTo(FailCause.NONE);
  }

  @Test
  void spineFailsMidIncAllreduceAndTheLeadersFinishTheCaseOnTheHostExactly() {
    ScenarioSpec base = scenario(6, 1024);
    RunResult clean = run(base);
    Topology topology = base.topology().build();
    // The MRR picks the SPINE with the most free groups, ties the lowest address: spine0.
    int spine0 = LeafSpineFaultTest.vertex(topology, "spine0");
    // The first iteration starts after the setup and its barrier, at about 25 us: 30 us is mid-Allreduce.
    ScenarioSpec faulted = base.withFaults(new FaultPlan(SETTINGS, List.of(FaultEvent.device(30_000_000L,
        FaultAction.DOWN, "switch spine0", spine0, topology))));
    RunResult result = run(faulted);

    assertExact(result);
    // Three missed 1 us heartbeats; 1 us to the management node; the hosts' notices on their own channel beside the
    // four TOR updates (host 0, whose NIC holds the MRR, first: 100 ns), 1 us to the NIC.
    assertThat(result.faults().recordOf(0).detectedPs()).isEqualTo(33_000_000L);
    assertThat(result.faults().recordOf(0).rerouteCompletePs()).isEqualTo(35_400_000L);
    assertThat(result.faults().incFallbacks()).hasSize(1);
    assertThat(result.faults().incFallbacks().get(0)).matches("INC group \\d+ over spine0 broken by 30\\.000 us "
        + "switch spine0 down \\(event 0\\): its leaders finish the case with a host reduce and broadcast at their "
        + "lowest rank, from the notice at 35\\.100 us");
    assertThat(result.faults().gaveUp()).isEmpty();
    assertThat(result.faults().partition()).isNull();
    double[] cleanIterations = clean.cases().get(0).iterationLatenciesPs();
    double[] iterations = result.cases().get(0).iterationLatenciesPs();
    // The interrupted iteration waited for the detection and the notice; the later ones run on the host, slower
    // than in the switches but all alike.
    assertThat(iterations[0] - cleanIterations[0]).isGreaterThan(5e6);
    assertThat(iterations[0]).isGreaterThan(iterations[1]);
    assertThat(iterations[1]).isGreaterThan(cleanIterations[1]);
    for (int i = 2; i < iterations.length; i++) assertThat(iterations[i]).isEqualTo(iterations[1]);
    RunResult again = run(faulted);
    assertThat(again.digest()).isEqualTo(result.digest());
    assertThat(again.faults().incFallbacks()).isEqualTo(result.faults().incFallbacks());
    assertThat(result.digest()).isNotEqualTo(clean.digest());
  }

  @Test
  void aCutTorSpineLinkBreaksTheGroupAndTheNextCaseBuildsItsTreeOverTheOtherSpine() {
    ScenarioSpec base = scenario(3, 1024);
    ScenarioSpec twoCases = base.toBuilder().workload(
        WorkloadSpec.builder(Collective.ALLREDUCE, List.of(Algorithm.INC_NODE), List.of(1024L, 4096L)).iterations(3)
            .ppn(2).dataType(DataType.INT32).build()).build();
    RunResult clean = run(twoCases);
    Topology topology = twoCases.topology().build();
    int spine0 = LeafSpineFaultTest.vertex(topology, "spine0");
    int tor2 = LeafSpineFaultTest.vertex(topology, "tor2");
    RunResult result = run(twoCases.withFaults(new FaultPlan(SETTINGS, List.of(FaultEvent.link(30_000_000L,
        FaultAction.DOWN, "link tor2-spine0", tor2, spine0)))));

    assertExact(result);
    // Only the first case's group broke: spine0 offers no group while a link of it is dead, so the second case's
    // tree goes through spine1, in the switches: within 100 ns of the second case's through spine0 without the
    // fault (the fabric is symmetric; the acknowledgements of a faulted run share the links).
    assertThat(result.faults().incFallbacks()).singleElement().asString()
        .contains(" over spine0 broken by 30.000 us link tor2-spine0 down (event 0)");
    double[] cleanIterations = clean.cases().get(1).iterationLatenciesPs();
    double[] iterations = result.cases().get(1).iterationLatenciesPs();
    for (int i = 0; i < iterations.length; i++) assertThat(iterations[i]).isCloseTo(cleanIterations[i], within(1e5));
  }

  @Test
  void aHostCutOffFromAnIncGroupEndsTheRunWithThePartitionNotAnError() {
    ScenarioSpec base = scenario(3, 1024);
    Topology topology = base.topology().build();
    int host5 = LeafSpineFaultTest.vertex(topology, "host5");
    int tor2 = LeafSpineFaultTest.vertex(topology, "tor2");
    RunResult result = run(base.withFaults(new FaultPlan(SETTINGS, List.of(FaultEvent.link(30_000_000L,
        FaultAction.DOWN, "link host5-tor2", host5, tor2)))));

    assertThat(result.complete()).isFalse();
    assertThat(result.incompleteReason())
        .isEqualTo("partition since 30.000 us (link host5-tor2 down): ranks 0-9,12-15 cannot reach ranks 10-11");
    // The leaders' INC tasks waited for host 5's contribution, which never came: given up on, not a crash.
    assertThat(result.faults().gaveUp()).anyMatch(line -> line.contains("gave up on INC task"));
  }

  @Test
  void aFailureDuringTheSetupIsNamedAsNotRecovered() {
    ScenarioSpec base = scenario(3, 1024);
    Topology topology = base.topology().build();
    int spine0 = LeafSpineFaultTest.vertex(topology, "spine0");
    // At 12.6 us the queries and notifies of the setup cross spine0 (control packets are not resent).
    RunResult result = run(base.withFaults(new FaultPlan(SETTINGS, List.of(FaultEvent.device(12_600_000L,
        FaultAction.DOWN, "switch spine0", spine0, topology)))));

    assertThat(result.complete()).isFalse();
    assertThat(result.incompleteReason()).startsWith("16 of 16 ranks did not finish case 0 (inc-node, 1024 B)")
        .endsWith("(a failure that hits an INC case's setup or release, whose control packets are not resent, or "
            + "the tree of a pipelined INC case of 64 KiB or more, is not recovered yet)");
  }
}
