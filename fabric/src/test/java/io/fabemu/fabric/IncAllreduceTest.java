package io.fabemu.fabric;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabemu.collectives.Algorithm;
import io.fabemu.collectives.Collective;
import io.fabemu.collectives.WorkloadSpec;
import io.fabemu.core.data.DataType;
import io.fabemu.core.data.ReduceOp;
import io.fabemu.core.inc.IncCodes.FailCause;
import io.fabemu.core.link.ForwardingMode;
import io.fabemu.core.link.PacketDropSpec;
import io.fabemu.core.time.Units;
import io.fabemu.core.topology.LeafSpineSpec;
import io.fabemu.core.topology.LinkSpec;
import io.fabemu.core.topology.TopologySpec;
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
 * INC Allreduce end to end on the device model: control plane (query, notify, release), data plane through the TOR
 * and SPINE INC units, Node and Socket modes, every output checked against the exact answer, and each fallback
 * cause when the switches cannot aggregate.
 */
class IncAllreduceTest {

  private static IncSwitchSpec unit(int maxGroups, int slots, Set<ReduceOp> ops) {
    return new IncSwitchSpec(400_000L, 0, slots, maxGroups, 256, 256, ops,
        EnumSet.of(DataType.INT32, DataType.FLOAT32, DataType.INT64));
  }

  private static IncSwitchSpec unit() {
    return unit(8, 64, EnumSet.of(ReduceOp.SUM, ReduceOp.MAX, ReduceOp.MIN));
  }

  static ScenarioSpec scenario(int hosts, int hostsPerTor, int ppn, int sockets, List<Algorithm> algorithms,
                               List<Long> sizes, DataType type, ReduceOp op, IncSpec inc) {
    TopologySpec topology = new LeafSpineSpec(hosts, hostsPerTor, 2,
        new LinkSpec(25 * Units.GBPS, 100_000L), new LinkSpec(100 * Units.GBPS, 100_000L));
    DeviceSpec devices = new DeviceSpec(
        HostSpec.builder().sendOverheadPs(250_000L).recvOverheadPs(250_000L)
            .reduceBitsPerSecond(8 * Units.GBPS).memoryBitsPerSecond(16 * Units.GBPS).memoryLatencyPs(300_000L)
            .pcieBitsPerSecond(64 * Units.GBPS).pcieLatencyPs(300_000L)
            .socketsPerNode(sockets).crossSocketLatencyPs(200_000L).shmMessageOccupancyPs(20_000L).build(),
        new NicSpec(4096, 82, 100_000L, 100_000L),
        new SwitchSpec(500_000L, ForwardingMode.CUT_THROUGH), inc);
    WorkloadSpec workload = WorkloadSpec.builder(Collective.ALLREDUCE, algorithms, sizes).iterations(3).warmup(1)
        .ppn(ppn).dataType(type).op(op).build();
    return ScenarioSpec.builder("inc", "test", 5, topology, devices, workload).build();
  }

  static IncSpec inc(IncSwitchSpec tor, IncSwitchSpec spine, Set<Integer> without) {
    return new IncSpec(tor, spine, without, new IncNicSpec(256, 100_000L, 20_000_000L, 16));
  }

  private static RunResult run(ScenarioSpec spec) {
    return Fabric.build(spec).runOnPlainEngine();
  }

  private static void assertExactWith(RunResult result, FailCause expected) {
    assertThat(result.complete()).isTrue();
    for (CaseResult c : result.cases()) {
      assertThat(c.wrongElements()).as("wrong elements of %s", c).isZero();
      assertThat(c.checked()).isTrue();
      assertThat(c.incOutcome()).as("INC outcome of %s", c).isEqualTo(expected);
    }
  }

  @Test
  void shouldReduceExactlyInTheSwitchesWhenNodeModeSpansTorsAndSpines() {
    RunResult r = run(scenario(8, 2, 4, 2, List.of(Algorithm.INC_NODE), List.of(4L, 64L, 256L), DataType.INT32,
        ReduceOp.SUM, inc(unit(), unit(), Set.of())));
    assertExactWith(r, FailCause.NONE);
  }

  @Test
  void shouldReduceExactlyWhenSocketModeRunsOneRingPerSocket() {
    RunResult r = run(scenario(6, 3, 8, 2, List.of(Algorithm.INC_SOCKET), List.of(4L, 256L), DataType.FLOAT32,
        ReduceOp.MAX, inc(unit(), unit(), Set.of())));
    assertExactWith(r, FailCause.NONE);
  }

  @Test
  void shouldAggregateInTheTorAloneWhenEveryNodeIsUnderOneTor() {
    RunResult r = run(scenario(4, 4, 2, 1, List.of(Algorithm.INC_NODE), List.of(8L, 128L), DataType.INT64,
        ReduceOp.MIN, inc(unit(), unit(), Set.of())));
    assertExactWith(r, FailCause.NONE);
  }

  @Test
  void shouldFallBackToTheHostAlgorithmWhenASpineHasNoIncUnit() {
    // 4 hosts, 2 per TOR: vertices 0-3 hosts, 4-5 TORs, 6-7 spines.
    RunResult r = run(scenario(4, 2, 2, 1, List.of(Algorithm.INC_NODE), List.of(16L), DataType.INT32,
        ReduceOp.SUM, inc(unit(), unit(), Set.of(6, 7))));
    assertExactWith(r, FailCause.NO_INC_SWITCH);
  }

  @Test
  void shouldFallBackWhenTheFabricHasNoIncAtAll() {
    RunResult r = run(scenario(4, 2, 2, 1, List.of(Algorithm.INC_NODE), List.of(16L), DataType.INT32,
        ReduceOp.SUM, null));
    assertExactWith(r, FailCause.INC_DISABLED);
  }

  @Test
  void shouldFallBackWhenTheOperationIsNotSupported() {
    RunResult r = run(scenario(4, 2, 2, 1, List.of(Algorithm.INC_NODE), List.of(16L), DataType.INT32,
        ReduceOp.PROD, inc(unit(), unit(), Set.of())));
    assertExactWith(r, FailCause.OP_UNSUPPORTED);
  }

  @Test
  void shouldFallBackWhenTheTypeIsNotSupported() {
    RunResult r = run(scenario(4, 2, 2, 1, List.of(Algorithm.INC_NODE), List.of(16L), DataType.INT16,
        ReduceOp.SUM, inc(unit(), unit(), Set.of())));
    assertExactWith(r, FailCause.TYPE_UNSUPPORTED);
  }

  @Test
  void shouldFallBackWhenTheMessageIsLargerThanTheSwitchesTake() {
    RunResult r = run(scenario(4, 2, 2, 1, List.of(Algorithm.INC_NODE), List.of(1024L), DataType.INT32,
        ReduceOp.SUM, inc(unit(), unit(), Set.of())));
    assertExactWith(r, FailCause.MESSAGE_TOO_LARGE);
  }

  @Test
  void shouldFallBackWhenNoSpineHasAFreeGroup() {
    IncSwitchSpec full = unit(0, 64, EnumSet.of(ReduceOp.SUM));
    RunResult r = run(scenario(4, 2, 2, 1, List.of(Algorithm.INC_NODE), List.of(16L), DataType.INT32,
        ReduceOp.SUM, inc(unit(), full, Set.of())));
    assertExactWith(r, FailCause.NO_FREE_GROUPS);
  }

  @Test
  void shouldFallBackWhenATorHasNoAggregationSlots() {
    IncSwitchSpec noSlots = unit(8, 0, EnumSet.of(ReduceOp.SUM));
    RunResult r = run(scenario(4, 2, 2, 1, List.of(Algorithm.INC_NODE), List.of(16L), DataType.INT32,
        ReduceOp.SUM, inc(noSlots, unit(), Set.of())));
    assertExactWith(r, FailCause.NO_AGGREGATION_SLOTS);
  }

  @Test
  void shouldReuseTheSwitchResourcesOfAReleasedGroupInTheNextCase() {
    // One group per switch: the second case's group only fits once the first case's release freed the first.
    IncSwitchSpec single = unit(1, 1, EnumSet.of(ReduceOp.SUM));
    RunResult r = run(scenario(4, 2, 2, 2, List.of(Algorithm.INC_NODE, Algorithm.INC_SOCKET), List.of(4L, 256L),
        DataType.INT32, ReduceOp.SUM, inc(single, single, Set.of())));
    assertExactWith(r, FailCause.NONE);
    assertThat(r.cases()).hasSize(4);
  }

  @Test
  void shouldGiveIdenticalResultsWhenTheSameScenarioRunsTwice() {
    ScenarioSpec spec = scenario(8, 2, 4, 2, List.of(Algorithm.INC_NODE, Algorithm.INC_SOCKET), List.of(4L, 256L),
        DataType.FLOAT32, ReduceOp.SUM, inc(unit(), unit(), Set.of()));
    assertThat(run(spec).digest()).isEqualTo(run(spec).digest());
  }

  @Test
  void shouldRunOnSizesOnlyWhenThePayloadIsSynthetic() {
    ScenarioSpec real = scenario(8, 2, 4, 2, List.of(Algorithm.INC_NODE), List.of(4L, 256L), DataType.FLOAT32,
        ReduceOp.SUM, inc(unit(), unit(), Set.of()));
    ScenarioSpec synthetic = real.toBuilder().workload(real.workload().withSyntheticPayload(true)).build();
    RunResult a = run(real);
    RunResult b = run(synthetic);
    for (int i = 0; i < a.cases().size(); i++) {
      assertThat(b.cases().get(i).avgLatencyPs()).isEqualTo(a.cases().get(i).avgLatencyPs());
      assertThat(b.cases().get(i).incOutcome()).isEqualTo(FailCause.NONE);
    }
  }

  @Test
  void shouldBeatTheHostAlgorithmWhenManyNodesReduceSmallMessages() {
    // 16 nodes, 1 rank each: INC crosses the fabric once up and once down; recursive doubling crosses it 4 times.
    ScenarioSpec spec = scenario(16, 4, 1, 1, List.of(Algorithm.RECURSIVE_DOUBLING, Algorithm.INC_NODE), List.of(8L),
        DataType.FLOAT32, ReduceOp.SUM, inc(unit(), unit(), Set.of()));
    RunResult r = run(spec);
    assertThat(r.cases().get(1).incOutcome()).isEqualTo(FailCause.NONE);
    assertThat(r.cases().get(1).avgLatencyPs()).isLessThan(r.cases().get(0).avgLatencyPs());
  }

  @Test
  void shouldStayExactAndRepeatableWhenIncPacketsAreDroppedOnEveryTier() {
    // 8 hosts, 2 per TOR: host0-7, tor0-3 = vertices 8-11, spine0-1 = 12-13. Loss up and down at each tier.
    ScenarioSpec clean = scenario(8, 2, 2, 1, List.of(Algorithm.INC_NODE), List.of(4L, 256L), DataType.INT32,
        ReduceOp.SUM, inc(unit(), unit(), Set.of()));
    List<PacketDropSpec> drops = List.of(new PacketDropSpec(0, 8, 0.2), new PacketDropSpec(8, 0, 0.2),
        new PacketDropSpec(8, 12, 0.2), new PacketDropSpec(12, 8, 0.2), new PacketDropSpec(8, 13, 0.2),
        new PacketDropSpec(13, 9, 0.2), new PacketDropSpec(9, 3, 0.2));
    ScenarioSpec lossy = clean.toBuilder().packetDrops(drops).build();
    RunResult r = run(lossy);
    assertExactWith(r, FailCause.NONE);
    long dropped = r.links().stream().mapToLong(l -> l.droppedPackets()).sum();
    assertThat(dropped).as("INC packets dropped").isPositive();
    // Loss costs retransmission timeouts, never correctness.
    RunResult reference = run(clean);
    assertThat(r.cases().get(0).avgLatencyPs()).isGreaterThanOrEqualTo(reference.cases().get(0).avgLatencyPs());
    assertThat(run(lossy).digest()).isEqualTo(r.digest());
  }

  @Test
  void shouldStillUseIncWhenOnlyOneOfTheSpinesLacksAUnit() {
    // 8 hosts, 2 per TOR: spine0 = vertex 12, spine1 = 13. The notify goes through the SPINE chosen among those
    // with a unit that the queries crossed, so spine1 without one does not matter.
    RunResult r = run(scenario(8, 2, 1, 1, List.of(Algorithm.INC_NODE), List.of(16L), DataType.INT32,
        ReduceOp.SUM, inc(unit(), unit(), Set.of(13))));
    assertExactWith(r, FailCause.NONE);
  }

  @Test
  void shouldFallBackWhenEveryLeaderIsOnOneNode() {
    RunResult r = run(scenario(1, 1, 8, 2, List.of(Algorithm.INC_SOCKET), List.of(16L), DataType.INT32,
        ReduceOp.SUM, inc(unit(), unit(), Set.of())));
    assertExactWith(r, FailCause.SINGLE_NODE);
  }

  @Test
  void shouldFallBackWhenTheRanksBreakTheSocketModeRules() {
    // Built in code, not loaded (the loader refuses it): 3 ranks per node on 2 sockets.
    RunResult r = run(scenario(4, 2, 3, 2, List.of(Algorithm.INC_SOCKET), List.of(16L), DataType.INT32,
        ReduceOp.SUM, inc(unit(), unit(), Set.of())));
    assertExactWith(r, FailCause.LAYOUT);
  }

  @Test
  void shouldFinishWithoutLossWhenAGroupSpansHundredsOfNodes() {
    // 256 leaders under 128 TORs: leaders learn the setup's outcome far apart, and a SPINE serves 128 TORs per
    // fragment; neither may turn into retransmissions that exhaust the NICs' budget.
    RunResult r = run(scenario(256, 2, 1, 1, List.of(Algorithm.INC_NODE), List.of(4L, 256L), DataType.INT32,
        ReduceOp.SUM, inc(unit(), unit(), Set.of())));
    assertExactWith(r, FailCause.NONE);
  }

  @Test
  void shouldReserveSlotsByTheNicFragmentsWhenFragmentsAreSmallerThanAPacket() {
    // 1 KiB of int32 in 128-byte fragments needs 8 slots, although a packet could carry 256 B.
    IncSwitchSpec big = new IncSwitchSpec(400_000L, 0, 64, 8, 256, 1024, EnumSet.of(ReduceOp.SUM),
        EnumSet.of(DataType.INT32));
    IncSpec inc = new IncSpec(big, big, Set.of(), new IncNicSpec(128, 100_000L, 20_000_000L, 16));
    RunResult r = run(scenario(4, 2, 1, 1, List.of(Algorithm.INC_NODE), List.of(1024L), DataType.INT32,
        ReduceOp.SUM, inc));
    assertExactWith(r, FailCause.NONE);
  }
}
