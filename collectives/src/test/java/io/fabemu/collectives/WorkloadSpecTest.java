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
    return WorkloadSpec.builder(Collective.ALLREDUCE, List.of(Algorithm.RING, Algorithm.RECURSIVE_DOUBLING),
        List.of(4L, 8L, 16L)).iterations(2).warmup(1).buffers(buffers).build();
  }

  @Test
  void shouldKeepAlgorithmTimesSizeIndicesWhenBuffersAreTheDefault() {
    WorkloadSpec w = WorkloadSpec.builder(Collective.ALLREDUCE, List.of(Algorithm.RING, Algorithm.RECURSIVE_DOUBLING),
        List.of(4L, 8L, 16L)).iterations(2).warmup(1).build();
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
  void shouldTakeOneToSixteenChannelsForAnyWorkload() {
    WorkloadSpec.Builder ring = WorkloadSpec.builder(Collective.ALLREDUCE, List.of(Algorithm.RING), List.of(8L));
    assertThat(ring.channels(16).build().channels()).isEqualTo(16);
    assertThatThrownBy(() -> ring.channels(0).build()).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("channels must be 1 to 16, got 0");
    assertThatThrownBy(() -> ring.channels(17).build()).isInstanceOf(IllegalArgumentException.class);
    // A profile's setting: kept, and ignored, where the flat ring allreduce does not run.
    assertThat(ring.channels(2).hierarchical(true).build().channels()).isEqualTo(2);
    assertThat(WorkloadSpec.builder(Collective.ALLGATHER, List.of(Algorithm.RING), List.of(8L)).channels(2).build()
        .channels()).isEqualTo(2);
  }

  @Test
  void shouldTakeEveryDefaultWhenTheBuilderIsGivenOnlyTheRequiredParts() {
    WorkloadSpec w = WorkloadSpec.builder(Collective.ALLREDUCE, List.of(Algorithm.RING), List.of(8L)).build();
    assertThat(w).isEqualTo(new WorkloadSpec(Collective.ALLREDUCE, List.of(Algorithm.RING), List.of(8L), 1, 0, 1,
        DataType.FLOAT32, ReduceOp.SUM, false, 0, false, WorkloadSpec.DEFAULT_BUFFERS, WorkloadSpec.DEFAULT_WINDOW,
        null, WorkloadSpec.REAL_AT_EVERY_SIZE, 1, ProtocolSpec.SIMPLE_ONLY));
  }

  @Test
  void shouldCopyEveryComponentWhenToBuilderAndChangeOnlyTheOneSet() {
    WorkloadSpec w = new WorkloadSpec(Collective.ALLREDUCE, List.of(Algorithm.RING, Algorithm.RABENSEIFNER),
        List.of(64L, 128L), 7, 3, 2, DataType.INT64, ReduceOp.BXOR, true, 1, true,
        List.of(BufferLayout.IN_PLACE, BufferLayout.OUT_OF_PLACE), 5, null, 128L, 1,
        new ProtocolSpec(List.of(LineProtocol.LL, LineProtocol.SIMPLE), new ProtocolCost(1, 2),
            ProtocolCost.NONE, new ProtocolCost(3, 4), 5));
    assertThat(w.toBuilder().build()).isEqualTo(w);
    WorkloadSpec moreIterations = w.toBuilder().iterations(9).build();
    assertThat(moreIterations.iterations()).isEqualTo(9);
    assertThat(moreIterations.toBuilder().iterations(7).build()).isEqualTo(w);
  }

  @Test
  void shouldCheckTheWorkloadWhenTheBuilderBuildsIt() {
    WorkloadSpec.Builder b = WorkloadSpec.builder(Collective.ALLREDUCE, List.of(Algorithm.RING), List.of(8L));
    assertThatThrownBy(() -> b.window(0).build()).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("window must be at least 1 message, got 0");
    assertThatThrownBy(() -> b.window(1).op(null).build()).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("allreduce needs a reduce op");
    assertThatThrownBy(() -> b.op(ReduceOp.SUM).collective(Collective.PIPELINE).build())
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("a pipeline workload needs its pipeline");
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
    return WorkloadSpec.builder(c, List.of(a), List.of(sizeBytes)).iterations(2).warmup(1).dataType(type).op(op)
        .build();
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
    assertThatThrownBy(() -> WorkloadSpec.builder(Collective.GATHER, List.of(Algorithm.LINEAR), List.of(8L))
        .iterations(2).warmup(1).dataType(DataType.INT32).root(-1).build())
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("root -1");
  }

  @Test
  void shouldRejectAlgorithmWhenInvalidForCollective() {
    assertThatThrownBy(() -> of(Collective.ALLREDUCE, Algorithm.LINEAR, 8, DataType.INT32, ReduceOp.SUM))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("linear");
  }

  @Test
  void shouldRejectHierarchicalWhenCollectiveIsNotAllreduce() {
    assertThatThrownBy(() -> WorkloadSpec.builder(Collective.ALLGATHER, List.of(Algorithm.RING), List.of(8L)).ppn(2)
        .dataType(DataType.INT32).hierarchical(true).build())
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("allgather");
  }

  @Test
  void shouldRejectMissingPartsAndNegativeCounts() {
    assertThatThrownBy(() -> WorkloadSpec.builder(Collective.ALLREDUCE, List.of(), List.of(8L)).dataType(DataType.INT32)
        .build())
        .isInstanceOf(IllegalArgumentException.class).hasMessage("workload needs at least one algorithm and one size");
    assertThatThrownBy(() -> WorkloadSpec.builder(Collective.ALLREDUCE, List.of(Algorithm.RING), List.of(8L))
        .iterations(-1).dataType(DataType.INT32).build())
        .isInstanceOf(IllegalArgumentException.class).hasMessage("iterations (-1) and warmup (0) must not be negative");
    assertThatThrownBy(() -> WorkloadSpec.builder(null, List.of(Algorithm.RING), List.of(8L)).dataType(DataType.INT32)
        .build())
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("needs a collective");
  }

  @Test
  void shouldAcceptAnEmptyMeasurementAndKeepItsListsUnmodifiable() {
    java.util.ArrayList<Long> sizes = new java.util.ArrayList<>(List.of(8L));
    WorkloadSpec w = WorkloadSpec.builder(Collective.ALLREDUCE, List.of(Algorithm.RING), sizes).iterations(0)
        .dataType(DataType.INT32).build();
    sizes.add(16L);
    assertThat(w.sizesBytes()).containsExactly(8L);
    assertThatThrownBy(() -> w.sizesBytes().add(4L)).isInstanceOf(UnsupportedOperationException.class);
  }

  @Test
  void shouldRequireTheRootToBeARankOfTheWorld() {
    WorkloadSpec gather = WorkloadSpec.builder(Collective.GATHER, List.of(Algorithm.LINEAR), List.of(8L)).iterations(2)
        .warmup(1).root(4).build();
    gather.requireFits(5);
    assertThatThrownBy(() -> gather.requireFits(4)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("root 4 of gather is outside a world of 4 ranks");
  }

  @Test
  void shouldRequireOneBlockPerRankToFitAnArray() {
    // 1 GiB of float32 per rank: 268,435,456 elements, times 8 ranks is above what a Java array holds.
    WorkloadSpec allgather = WorkloadSpec.builder(Collective.ALLGATHER, List.of(Algorithm.RING), List.of(1L << 30))
        .build();
    allgather.requireFits(4);
    assertThatThrownBy(() -> allgather.requireFits(8)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("needs buffers of 2147483648 elements on 8 ranks, more than a Java array holds");
  }
}
