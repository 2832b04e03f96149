package io.fabemu.collectives;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabemu.core.data.DataType;
import io.fabemu.core.data.ReduceOp;
import java.util.List;
import org.junit.jupiter.api.Test;

/** AUTO resolution (OpenMPI tuned's fixed rules) and argument checks. */
class SchedulesTest {

  @Test
  void shouldPickRecursiveDoublingWhenAllreduceIsBelowTenThousandBytes() {
    assertThat(Schedules.resolve(Collective.ALLREDUCE, Algorithm.AUTO, 9_996, 2_499, 4))
        .isEqualTo(Algorithm.RECURSIVE_DOUBLING);
  }

  @Test
  void shouldPickRingWhenAllreduceIsLargeAndCountAtLeastP() {
    assertThat(Schedules.resolve(Collective.ALLREDUCE, Algorithm.AUTO, 10_000, 2_500, 4)).isEqualTo(Algorithm.RING);
    assertThat(Schedules.resolve(Collective.ALLREDUCE, Algorithm.AUTO, 10_000, 2_500, 2_500))
        .isEqualTo(Algorithm.RING);
  }

  @Test
  void shouldPickRecursiveDoublingWhenAllreduceIsLargeButCountBelowP() {
    assertThat(Schedules.resolve(Collective.ALLREDUCE, Algorithm.AUTO, 10_000, 2_500, 4_096))
        .isEqualTo(Algorithm.RECURSIVE_DOUBLING);
  }

  @Test
  void shouldPickByTotalSizeWhenAllgather() {
    assertThat(Schedules.resolve(Collective.ALLGATHER, Algorithm.AUTO, 2_000, 500, 4))
        .isEqualTo(Algorithm.RECURSIVE_DOUBLING);
    assertThat(Schedules.resolve(Collective.ALLGATHER, Algorithm.AUTO, 2_500, 625, 4)).isEqualTo(Algorithm.RING);
  }

  @Test
  void shouldPickTheFixedAlgorithmWhenOtherCollectivesUseAuto() {
    for (Collective c : List.of(Collective.REDUCE, Collective.BROADCAST, Collective.GATHER, Collective.SCATTER)) {
      assertThat(Schedules.resolve(c, Algorithm.AUTO, 1 << 20, 1 << 18, 8)).isEqualTo(Algorithm.BINOMIAL);
    }
    assertThat(Schedules.resolve(Collective.REDUCE_SCATTER, Algorithm.AUTO, 8, 2, 8)).isEqualTo(Algorithm.RING);
    assertThat(Schedules.resolve(Collective.ALLTOALL, Algorithm.AUTO, 8, 2, 8)).isEqualTo(Algorithm.PAIRWISE);
    assertThat(Schedules.resolve(Collective.BARRIER, Algorithm.AUTO, 0, 0, 8)).isEqualTo(Algorithm.DISSEMINATION);
    assertThat(Schedules.resolve(Collective.SENDRECV, Algorithm.AUTO, 8, 2, 8)).isEqualTo(Algorithm.PING_PONG);
  }

  @Test
  void shouldKeepConcreteAlgorithmWhenNotAuto() {
    assertThat(Schedules.resolve(Collective.ALLREDUCE, Algorithm.RABENSEIFNER, 4, 1, 1_000))
        .isEqualTo(Algorithm.RABENSEIFNER);
  }

  @Test
  void shouldRejectAlgorithmWhenInvalidForCollective() {
    assertThatThrownBy(() -> Schedules.resolve(Collective.ALLREDUCE, Algorithm.LINEAR, 4, 1, 4))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("linear").hasMessageContaining("allreduce");
  }

  @Test
  void shouldResolveAmongLeadersWhenHierarchical() {
    // 40,000 B of float32 = 10,000 elements; 16,384 ranks with 16 per node = 1,024 leaders.
    WorkloadSpec hierarchical = WorkloadSpec.builder(Collective.ALLREDUCE, List.of(Algorithm.AUTO), List.of(40_000L))
        .ppn(16).hierarchical(true).build();
    WorkloadSpec flat = WorkloadSpec.builder(Collective.ALLREDUCE, List.of(Algorithm.AUTO), List.of(40_000L)).ppn(16)
        .build();
    assertThat(Schedules.resolveForCase(hierarchical, 0, 16_384)).isEqualTo(Algorithm.RING);
    assertThat(Schedules.resolveForCase(flat, 0, 16_384)).isEqualTo(Algorithm.RECURSIVE_DOUBLING);
  }

  @Test
  void shouldCountLocationBytesWhenReducingWithMaxloc() {
    assertThat(Schedules.elementBytes(Collective.ALLREDUCE, DataType.FLOAT32, ReduceOp.MAXLOC)).isEqualTo(8);
    assertThat(Schedules.elementBytes(Collective.ALLREDUCE, DataType.INT16, ReduceOp.SUM)).isEqualTo(2);
    assertThat(Schedules.elementBytes(Collective.BROADCAST, DataType.FLOAT64, ReduceOp.MINLOC)).isEqualTo(8);
  }

  @Test
  void shouldRejectHierarchicalWhenCollectiveIsNotAllreduce() {
    assertThatThrownBy(() -> Schedules.build(Collective.BROADCAST, Algorithm.BINOMIAL, 0, 4, 1, 0, true, 2))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("broadcast");
  }

  @Test
  void shouldRejectAutoWhenBuildingASchedule() {
    assertThatThrownBy(() -> Schedules.build(Collective.ALLREDUCE, Algorithm.AUTO, 0, 4, 1, 0, false, 1))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("AUTO");
  }

  @Test
  void shouldNeverWriteInputWhenAnyScheduleIsBuilt() {
    for (Collective c : Collective.values()) {
      // A pipeline iteration is built by PipelineIteration from its pipeline (PipelineCorrectnessTest).
      if (c == Collective.PIPELINE) continue;
      for (Algorithm a : Algorithm.validFor(c)) {
        // In-network schedules need a rank layout; IncAllreduceTest covers them.
        if (a == Algorithm.AUTO || a.inNetwork()) continue;
        for (int p = 1; p <= 9; p++) {
          for (int rank = 0; rank < p; rank++) {
            Schedule s = Schedules.build(c, a, rank, p, 5, p - 1, false, 1, WorkloadSpec.DEFAULT_WINDOW,
                new RankLayout(a == Algorithm.DIMENSION_RING ? ScheduleStructureTest.gridOf(p) : null,
                    a.onEmbeddedRings() ? TestRings.withReverse(p, 2, p) : null));
            for (int i = 0; i < s.stepCount(); i++) {
              Step step = s.step(i);
              for (int j = 0; j < step.receiveCount(); j++) {
                assertThat(step.receive(j).buffer()).isNotEqualTo(BufferId.INPUT);
              }
              for (int j = 0; j < step.copyCount(); j++) {
                assertThat(step.copy(j).to()).isNotEqualTo(BufferId.INPUT);
              }
            }
          }
        }
      }
    }
  }
}
