package io.fabemu.node.rank;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabemu.collectives.Algorithm;
import io.fabemu.collectives.Collective;
import io.fabemu.collectives.ExpectedAnswers;
import io.fabemu.collectives.WorkloadSpec;
import io.fabemu.core.data.DataType;
import io.fabemu.core.data.ReduceOp;
import io.fabemu.core.sim.DeviceReport.RankResult;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The per-rank workload: cases in order, warm-up, barriers, results, and argument checks. */
class RankWorkloadTest {

  @Test
  void shouldReportOneResultPerCaseInOrderWhenSeveralAlgorithmsAndSizes() {
    WorkloadSpec w = WorkloadSpec.builder(Collective.ALLREDUCE, List.of(Algorithm.RING, Algorithm.AUTO),
        List.of(4L, 4_096L, 40_000L)).iterations(3).warmup(2).build();
    IdealNetwork net = new IdealNetwork(1_000_000, 100).overheads(100_000, 100_000, 1, 1);
    RankWorkload[] ranks = net.createRanks(w, 5, 9);
    net.run();
    for (RankWorkload r : ranks) {
      assertThat(r.finished()).isTrue();
      assertThat(r.completedOperations()).isEqualTo(6 * 5);
      List<RankResult> results = r.results();
      assertThat(results).extracting(RankResult::caseIndex).containsExactly(0, 1, 2, 3, 4, 5);
      for (RankResult result : results) {
        assertThat(result.rank()).isEqualTo(r.rank());
        assertThat(result.iterations()).isEqualTo(3);
        assertThat(result.wrongElements()).isZero();
        assertThat(result.minLatencyPs()).isPositive().isLessThanOrEqualTo(result.maxLatencyPs());
        assertThat(result.totalLatencyPs()).isBetween(3 * result.minLatencyPs(), 3 * result.maxLatencyPs());
      }
      // Bigger messages take longer.
      assertThat(results.get(2).minLatencyPs()).isGreaterThan(results.get(0).maxLatencyPs());
    }
  }

  @Test
  void shouldGiveSameResultsWhenRunTwice() {
    WorkloadSpec w = WorkloadSpec.builder(Collective.ALLREDUCE, List.of(Algorithm.RABENSEIFNER, Algorithm.BINOMIAL),
        List.of(64L, 1_000L)).iterations(2).warmup(1).ppn(2).dataType(DataType.INT32).op(ReduceOp.BXOR)
        .hierarchical(true).build();
    assertThat(runAll(w, 7)).isEqualTo(runAll(w, 7));
  }

  @Test
  void shouldReportZeroLatencyWhenRankIdlesInPingPong() {
    WorkloadSpec w = Workloads.of(Collective.SENDRECV, Algorithm.PING_PONG, 64, DataType.INT32, ReduceOp.SUM);
    IdealNetwork net = new IdealNetwork(1_000_000, 100);
    RankWorkload[] ranks = net.createRanks(w, 3, 1);
    net.run();
    RankResult idle = ranks[2].results().get(0);
    assertThat(ranks[2].finished()).isTrue();
    assertThat(idle.iterations()).isEqualTo(2);
    assertThat(idle.totalLatencyPs()).isZero();
    assertThat(idle.maxLatencyPs()).isZero();
    assertThat(ranks[2].completedOperations()).isEqualTo(3);
    assertThat(ranks[0].results().get(0).minLatencyPs()).isEqualTo(2 * (1_000_000 + 64 * 100));
  }

  @Test
  void shouldFinishWithEmptyResultsWhenNoIterations() {
    WorkloadSpec w = WorkloadSpec.builder(Collective.ALLREDUCE, List.of(Algorithm.RING), List.of(16L, 32L))
        .iterations(0).dataType(DataType.INT32).build();
    IdealNetwork net = new IdealNetwork(1, 1);
    RankWorkload[] ranks = net.createRanks(w, 3, 1);
    net.run();
    assertThat(ranks[0].finished()).isTrue();
    // Empty cases begin and end when the rank starts (time 0 here).
    assertThat(ranks[0].results()).containsExactly(
        RankResult.builder(0, 0, 0).totalLatencyPs(0).minLatencyPs(0).maxLatencyPs(0).caseStartPs(0).caseEndPs(0)
            .build(),
        RankResult.builder(0, 1, 0).totalLatencyPs(0).minLatencyPs(0).maxLatencyPs(0).caseStartPs(0).caseEndPs(0)
            .build());
    assertThat(net.messages()).isZero();
  }

  @Test
  void shouldReportEachCaseIntervalWithWarmupWhenCasesFollowEachOther() {
    WorkloadSpec w = WorkloadSpec.builder(Collective.ALLREDUCE, List.of(Algorithm.RING), List.of(64L, 4_096L))
        .iterations(3).warmup(2).dataType(DataType.INT32).build();
    IdealNetwork net = new IdealNetwork(1_000_000, 100);
    RankWorkload[] ranks = net.createRanks(w, 4, 1);
    net.run();
    for (RankWorkload r : ranks) {
      RankResult first = r.results().get(0);
      RankResult second = r.results().get(1);
      assertThat(first.caseStartPs()).isZero();
      // The case holds its two warm-up iterations too: it starts before the first measured one.
      assertThat(first.iterationStartsPs()[0]).isGreaterThan(first.caseStartPs() + first.minLatencyPs());
      long lastEnd = first.iterationStartsPs()[2] + first.iterationLatenciesPs()[2];
      // It ends once the barrier after its last iteration completed, when the next case begins on this rank.
      assertThat(first.caseEndPs()).isGreaterThan(lastEnd).isEqualTo(second.caseStartPs());
      assertThat(second.caseEndPs()).isEqualTo(r.cpuFreePs());
    }
  }

  @Test
  void shouldMeasureOnlyAfterWarmupWhenWarmupIsSet() {
    WorkloadSpec w = WorkloadSpec.builder(Collective.BROADCAST, List.of(Algorithm.LINEAR), List.of(8L)).iterations(4)
        .warmup(3).dataType(DataType.INT64).root(1).build();
    IdealNetwork net = new IdealNetwork(1_000, 1);
    RankWorkload[] ranks = net.createRanks(w, 4, 1);
    net.run();
    assertThat(ranks[0].results().get(0).iterations()).isEqualTo(4);
    assertThat(ranks[0].completedOperations()).isEqualTo(7);
  }

  @Test
  void shouldRejectAnswersWhenBuiltForAnotherWorld() {
    WorkloadSpec w = Workloads.of(Collective.ALLREDUCE, Algorithm.RING, 8, DataType.INT32, ReduceOp.SUM);
    ExpectedAnswers other = ExpectedAnswers.forWorkload(w, 8, 1);
    assertThatThrownBy(() -> new RankWorkload(0, 4, w, 1, other, new IdealNetwork(1, 1)))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("8 ranks");
    ExpectedAnswers otherSeed = ExpectedAnswers.forWorkload(w, 4, 2);
    assertThatThrownBy(() -> new RankWorkload(0, 4, w, 1, otherSeed, new IdealNetwork(1, 1)))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("seed");
  }

  @Test
  void shouldRunTheSameTimesWithoutBuffersWhenPayloadIsSynthetic() {
    // Every kind of step: local copies (allgather), reducing receives (allreduce), intra-node traffic (ppn 2).
    List<WorkloadSpec> workloads = List.of(
        WorkloadSpec.builder(Collective.ALLREDUCE, List.of(Algorithm.RABENSEIFNER, Algorithm.RING),
            List.of(12L, 4_008L)).iterations(2).warmup(1).ppn(2).dataType(DataType.FLOAT64).op(ReduceOp.MAXLOC)
            .hierarchical(true).build(),
        WorkloadSpec.builder(Collective.ALLGATHER, List.of(Algorithm.RING, Algorithm.RECURSIVE_DOUBLING),
            List.of(4L, 4_000L)).iterations(2).warmup(1).dataType(DataType.INT32).build());
    for (WorkloadSpec real : workloads) {
      WorkloadSpec synthetic = real.withSyntheticPayload(true);
      IdealNetwork realNet = new IdealNetwork(1_000_000, 100).overheads(100_000, 120_000, 3, 2);
      IdealNetwork syntheticNet = new IdealNetwork(1_000_000, 100).overheads(100_000, 120_000, 3, 2);
      RankWorkload[] realRanks = realNet.createRanks(real, 6, 5);
      RankWorkload[] syntheticRanks = syntheticNet.createRanks(synthetic, 6, 5);

      long realEnd = realNet.run();
      long syntheticEnd = syntheticNet.run();

      assertThat(syntheticEnd).isEqualTo(realEnd);
      assertThat(syntheticNet.messages()).isEqualTo(realNet.messages());
      assertThat(syntheticNet.bytes()).isEqualTo(realNet.bytes());
      for (int r = 0; r < realRanks.length; r++) {
        assertThat(syntheticRanks[r].finished()).isTrue();
        assertThat(syntheticRanks[r].results()).isEqualTo(realRanks[r].results());
        assertThat(syntheticRanks[r].resultBuffer()).as("no buffers").isNull();
      }
    }
  }

  @Test
  void shouldRejectAnswersWhenPayloadIsSynthetic() {
    WorkloadSpec w = Workloads.of(Collective.ALLREDUCE, Algorithm.RING, 8, DataType.INT32, ReduceOp.SUM);
    ExpectedAnswers answers = ExpectedAnswers.forWorkload(w, 4, 1);

    assertThatThrownBy(() -> new RankWorkload(0, 4, w.withSyntheticPayload(true), 1, answers,
        new IdealNetwork(1, 1)))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("synthetic");
    assertThatThrownBy(() -> new RankWorkload(0, 4, w, 1, null, new IdealNetwork(1, 1)))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("needs expected answers");
  }


  private static List<List<RankResult>> runAll(WorkloadSpec w, int p) {
    IdealNetwork net = new IdealNetwork(1_000_000, 100).overheads(100_000, 120_000, 2, 1);
    RankWorkload[] ranks = net.createRanks(w, p, 42);
    net.run();
    return java.util.Arrays.stream(ranks).map(RankWorkload::results).toList();
  }
}
