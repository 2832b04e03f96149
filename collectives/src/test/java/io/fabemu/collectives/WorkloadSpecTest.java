package io.fabemu.collectives;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabemu.core.data.DataType;
import io.fabemu.core.data.ReduceOp;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Case numbering: algorithms outer, then buffer layouts, sizes inner; the default keeps the old indices. */
class WorkloadSpecTest {

  private static WorkloadSpec workload(List<BufferLayout> buffers) {
    return new WorkloadSpec(Collective.ALLREDUCE, List.of(Algorithm.RING, Algorithm.RECURSIVE_DOUBLING),
        List.of(4L, 8L, 16L), 2, 1, 1, DataType.FLOAT32, ReduceOp.SUM, false, 0, false, buffers);
  }

  @Test
  void shouldKeepAlgorithmTimesSizeIndicesWhenBuffersAreTheDefault() {
    WorkloadSpec w = new WorkloadSpec(Collective.ALLREDUCE, List.of(Algorithm.RING, Algorithm.RECURSIVE_DOUBLING),
        List.of(4L, 8L, 16L), 2, 1, 1, DataType.FLOAT32, ReduceOp.SUM, false, 0);
    assertThat(w.buffers()).containsExactly(BufferLayout.OUT_OF_PLACE);
    assertThat(w.caseCount()).isEqualTo(6);
    for (int c = 0; c < 6; c++) {
      assertThat(w.algorithmOfCase(c)).isEqualTo(w.algorithms().get(c / 3));
      assertThat(w.sizeOfCase(c)).isEqualTo(w.sizesBytes().get(c % 3));
      assertThat(w.inPlaceOfCase(c)).isFalse();
      assertThat(w.caseIndex(c / 3, 0, c % 3)).isEqualTo(c);
    }
  }

  @Test
  void shouldOrderAlgorithmsThenBuffersThenSizesWhenBothLayouts() {
    WorkloadSpec w = workload(List.of(BufferLayout.OUT_OF_PLACE, BufferLayout.IN_PLACE));
    assertThat(w.caseCount()).isEqualTo(12);
    assertThat(w.operationsPerRank()).isEqualTo(12 * 3);
    // Case 4: ring, in-place, 8 B. Case 9: recursive doubling, in-place, 4 B.
    assertThat(w.algorithmOfCase(4)).isEqualTo(Algorithm.RING);
    assertThat(w.bufferLayoutOfCase(4)).isEqualTo(BufferLayout.IN_PLACE);
    assertThat(w.sizeOfCase(4)).isEqualTo(8L);
    assertThat(w.algorithmOfCase(9)).isEqualTo(Algorithm.RECURSIVE_DOUBLING);
    assertThat(w.inPlaceOfCase(9)).isTrue();
    assertThat(w.sizeOfCase(9)).isEqualTo(4L);
    for (int a = 0; a < 2; a++) {
      for (int b = 0; b < 2; b++) {
        for (int s = 0; s < 3; s++) {
          int c = w.caseIndex(a, b, s);
          assertThat(w.algorithmIndexOfCase(c)).isEqualTo(a);
          assertThat(w.bufferIndexOfCase(c)).isEqualTo(b);
          assertThat(w.sizeOfCase(c)).isEqualTo(w.sizesBytes().get(s));
        }
      }
    }
  }

  @Test
  void shouldKeepBuffersWhenPayloadChangesAndDefaultWhenNull() {
    WorkloadSpec w = workload(List.of(BufferLayout.IN_PLACE));
    assertThat(w.withSyntheticPayload(true).buffers()).containsExactly(BufferLayout.IN_PLACE);
    assertThat(workload(null).buffers()).isEqualTo(WorkloadSpec.DEFAULT_BUFFERS);
    assertThat(w.withBuffers(List.of(BufferLayout.OUT_OF_PLACE, BufferLayout.IN_PLACE)).caseCount()).isEqualTo(12);
  }

  @Test
  void shouldCarrySizesOnlyFromTheCutWhenRealDataStopsAtASize() {
    WorkloadSpec real = workload(null);
    WorkloadSpec cut = real.withSyntheticFrom(16);

    assertThat(real.mixedPayload()).isFalse();
    assertThat(real.payloadName()).isEqualTo("real");
    assertThat(cut.mixedPayload()).isTrue();
    assertThat(cut.payloadName()).isEqualTo("real below 16 B");
    // Sizes 4, 8, 16 per algorithm: only the 16 B cases carry sizes only.
    assertThat(java.util.stream.IntStream.range(0, cut.caseCount()).mapToObj(cut::syntheticOfCase))
        .containsExactly(false, false, true, false, false, true);
    assertThat(cut.withBuffers(List.of(BufferLayout.IN_PLACE)).syntheticFromBytes()).isEqualTo(16);
    assertThat(cut.withSyntheticPayload(true).syntheticOfCase(0)).isTrue();
    assertThat(cut.withSyntheticPayload(true).mixedPayload()).isFalse();
    assertThat(real.withSyntheticFrom(32).mixedPayload()).as("a cut above every size cuts nothing").isFalse();
    assertThatThrownBy(() -> real.withSyntheticFrom(0)).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void shouldNameLayoutsAsScenariosWriteThem() {
    assertThat(BufferLayout.OUT_OF_PLACE.configName()).isEqualTo("out-of-place");
    assertThat(BufferLayout.fromConfigName("in-place")).isEqualTo(BufferLayout.IN_PLACE);
    assertThat(BufferLayout.fromConfigName("In-place")).isNull();
  }

  // The workload's own rules, checked once where it is built (the ranks no longer check them).

  /** A one-algorithm, one-size workload of 2 iterations after 1 warm-up, ppn 1, root 0, not hierarchical. */
  private static WorkloadSpec of(Collective c, Algorithm a, long sizeBytes, DataType type, ReduceOp op) {
    return new WorkloadSpec(c, List.of(a), List.of(sizeBytes), 2, 1, 1, type, op, false, 0);
  }

  @Test
  void shouldRejectSizeWhenNotAMultipleOfTheElementSize() {
    assertThatThrownBy(() -> of(Collective.ALLREDUCE, Algorithm.RING, 6, DataType.INT32, ReduceOp.SUM))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("not a multiple");
    // float32 + 4-byte location = 8 bytes per element
    assertThatThrownBy(() -> of(Collective.ALLREDUCE, Algorithm.RING, 12, DataType.FLOAT32, ReduceOp.MAXLOC))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("location");
    assertThatThrownBy(() -> of(Collective.ALLREDUCE, Algorithm.RING, -4, DataType.INT32, ReduceOp.SUM))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("non-negative");
  }

  @Test
  void shouldRejectOpWhenUndefinedOnType() {
    assertThatThrownBy(() -> of(Collective.ALLREDUCE, Algorithm.RING, 8, DataType.FLOAT32, ReduceOp.BAND))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("band");
    assertThatThrownBy(() -> of(Collective.ALLREDUCE, Algorithm.RING, 8, DataType.FLOAT32, null))
        .isInstanceOf(IllegalArgumentException.class).hasMessage("allreduce needs a reduce op");
  }

  @Test
  void shouldRejectRootWhenNegative() {
    assertThatThrownBy(() -> new WorkloadSpec(Collective.GATHER, List.of(Algorithm.LINEAR), List.of(8L), 2, 1, 1,
        DataType.INT32, ReduceOp.SUM, false, -1))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("root -1");
  }

  @Test
  void shouldRejectAlgorithmWhenInvalidForCollective() {
    assertThatThrownBy(() -> of(Collective.ALLREDUCE, Algorithm.LINEAR, 8, DataType.INT32, ReduceOp.SUM))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("linear");
  }

  @Test
  void shouldRejectHierarchicalWhenCollectiveIsNotAllreduce() {
    assertThatThrownBy(() -> new WorkloadSpec(Collective.ALLGATHER, List.of(Algorithm.RING), List.of(8L), 1, 0, 2,
        DataType.INT32, ReduceOp.SUM, true, 0))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("allgather");
  }

  @Test
  void shouldRejectMissingPartsAndNegativeCounts() {
    assertThatThrownBy(() -> new WorkloadSpec(Collective.ALLREDUCE, List.of(), List.of(8L), 1, 0, 1,
        DataType.INT32, ReduceOp.SUM, false, 0))
        .isInstanceOf(IllegalArgumentException.class).hasMessage("workload needs at least one algorithm and one size");
    assertThatThrownBy(() -> new WorkloadSpec(Collective.ALLREDUCE, List.of(Algorithm.RING), List.of(8L), -1, 0, 1,
        DataType.INT32, ReduceOp.SUM, false, 0))
        .isInstanceOf(IllegalArgumentException.class).hasMessage("iterations (-1) and warmup (0) must not be negative");
    assertThatThrownBy(() -> new WorkloadSpec(null, List.of(Algorithm.RING), List.of(8L), 1, 0, 1,
        DataType.INT32, ReduceOp.SUM, false, 0))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("needs a collective");
  }

  @Test
  void shouldAcceptAnEmptyMeasurementAndKeepItsListsUnmodifiable() {
    java.util.ArrayList<Long> sizes = new java.util.ArrayList<>(List.of(8L));
    WorkloadSpec w = new WorkloadSpec(Collective.ALLREDUCE, List.of(Algorithm.RING), sizes, 0, 0, 1,
        DataType.INT32, ReduceOp.SUM, false, 0);
    sizes.add(16L);
    assertThat(w.sizesBytes()).containsExactly(8L);
    assertThatThrownBy(() -> w.sizesBytes().add(4L)).isInstanceOf(UnsupportedOperationException.class);
  }

  @Test
  void shouldRequireTheRootToBeARankOfTheWorld() {
    WorkloadSpec gather = new WorkloadSpec(Collective.GATHER, List.of(Algorithm.LINEAR), List.of(8L), 2, 1, 1,
        DataType.FLOAT32, ReduceOp.SUM, false, 4);
    gather.requireFits(5);
    assertThatThrownBy(() -> gather.requireFits(4)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("root 4 of gather is outside a world of 4 ranks");
  }

  @Test
  void shouldRequireOneBlockPerRankToFitAnArray() {
    // 1 GiB of float32 per rank: 268,435,456 elements, times 8 ranks is above what a Java array holds.
    WorkloadSpec allgather = new WorkloadSpec(Collective.ALLGATHER, List.of(Algorithm.RING), List.of(1L << 30), 1, 0,
        1, DataType.FLOAT32, ReduceOp.SUM, false, 0);
    allgather.requireFits(4);
    assertThatThrownBy(() -> allgather.requireFits(8)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("needs buffers of 2147483648 elements on 8 ranks, more than a Java array holds");
  }
}
