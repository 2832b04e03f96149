package io.fabemu.fabric;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabemu.collectives.Algorithm;
import io.fabemu.collectives.Collective;
import io.fabemu.collectives.WorkloadSpec;
import io.fabemu.core.data.DataType;
import io.fabemu.core.data.ReduceOp;
import io.fabemu.core.link.ForwardingMode;
import io.fabemu.core.time.Units;
import io.fabemu.core.topology.FatTreeSpec;
import io.fabemu.core.topology.LinkSpec;
import io.fabemu.fabric.result.RunResult;
import io.fabemu.nic.NicSpec;
import io.fabemu.switching.SwitchSpec;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Every collective through a three-tier fat-tree's NICs, leaves, aggregations and cores, on the plain window engine:
 * exact answers for every algorithm a switched fabric runs (the embedded-ring, dimension, in-network and pipeline
 * algorithms need other fabrics).
 */
class FatTreeFabricTest {

  /** 2 pods x 2 leaves x 2 hosts, 2 aggregations per pod, 4 cores: every tier crossed by most collectives. */
  static FatTreeSpec fatTree() {
    return FatTreeSpec.builder().pods(2).leavesPerPod(2).aggregationsPerPod(2).cores(4).hostsPerLeaf(2)
        .hostLink(new LinkSpec(100 * Units.GBPS, 300_000L)).leafLink(new LinkSpec(200 * Units.GBPS, 500_000L))
        .coreLink(new LinkSpec(400 * Units.GBPS, 700_000L)).build();
  }

  static ScenarioSpec scenario(Collective collective, Algorithm algorithm, int ppn, boolean hierarchical,
                               List<Long> sizes) {
    DeviceSpec devices = new DeviceSpec(TestScenarios.SERVER_HOST, new NicSpec(1024, 64, 100_000L, 100_000L),
        new SwitchSpec(600_000L, ForwardingMode.CUT_THROUGH));
    WorkloadSpec workload = WorkloadSpec.builder(collective, List.of(algorithm), sizes).iterations(2).warmup(1)
        .ppn(ppn).dataType(DataType.INT32).op(ReduceOp.SUM).hierarchical(hierarchical).build();
    return ScenarioSpec.builder("fat-tree", "test", 13, fatTree(), devices, workload).build();
  }

  private static void assertExact(ScenarioSpec spec, int cases) {
    RunResult result = Fabric.build(spec).runOnPlainEngine();
    assertThat(result.complete()).as(result.incompleteReason()).isTrue();
    assertThat(result.checked()).isTrue();
    assertThat(result.cases()).hasSize(cases).allSatisfy(c -> assertThat(c.wrongElements()).as(c.toString())
        .isZero());
  }

  /** Whether a switched fabric runs {@code algorithm}: not on embedded rings, a grid, in the network or a pipeline. */
  private static boolean runsOnASwitchedFabric(Algorithm algorithm) {
    return !algorithm.onEmbeddedRings() && !algorithm.inNetwork() && algorithm != Algorithm.DIMENSION_RING
        && algorithm.transmissionMethod() == null;
  }

  @ParameterizedTest
  @EnumSource(value = Collective.class, names = "PIPELINE", mode = EnumSource.Mode.EXCLUDE)
  void shouldGiveExactResultsForEveryAlgorithmOfEveryCollective(Collective collective) {
    int algorithms = 0;
    for (Algorithm algorithm : Algorithm.validFor(collective)) {
      if (!runsOnASwitchedFabric(algorithm)) continue;
      assertExact(scenario(collective, algorithm, 1, false, List.of(4L, 4000L, 40_000L)), 3);
      algorithms++;
    }
    assertThat(algorithms).isPositive();
    // Several ranks per host: the ranks of a node share its NIC and its leaf's ports.
    assertExact(scenario(collective, Algorithm.AUTO, 3, false, List.of(4L, 40_000L)), 2);
  }

  @ParameterizedTest
  @EnumSource(value = Algorithm.class, names = {"RING", "RECURSIVE_DOUBLING", "RABENSEIFNER", "BINOMIAL"})
  void shouldGiveExactResultsWhenAllreduceIsHierarchical(Algorithm algorithm) {
    assertExact(scenario(Collective.ALLREDUCE, algorithm, 4, true, List.of(8L, 100_000L)), 2);
  }

  @Test
  void shouldCarryTrafficBetweenPodsOverTheCoresOnly() {
    ScenarioSpec spec = scenario(Collective.ALLREDUCE, Algorithm.RING, 1, false, List.of(65_536L));
    RunResult result = Fabric.build(spec).runOnPlainEngine();
    // Vertices: hosts 0..7, leaves 8..11, aggregations 12..15, cores 16..19. The ring crosses pods at 3->4 and 7->0.
    long coreBytes = result.links().stream().filter(l -> l.fromDevice() >= 16 && l.fromDevice() < 20)
        .mapToLong(l -> l.bytes()).sum();
    long hostBytes = result.links().stream().filter(l -> l.fromDevice() < 8).mapToLong(l -> l.bytes()).sum();
    assertThat(coreBytes).isPositive().isLessThan(hostBytes);
    assertThat(Fabric.build(spec).runOnPlainEngine().digest()).isEqualTo(result.digest());
  }
}
