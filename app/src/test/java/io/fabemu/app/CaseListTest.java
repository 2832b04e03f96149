package io.fabemu.app;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabemu.collectives.Algorithm;
import io.fabemu.collectives.BufferLayout;
import io.fabemu.collectives.Collective;
import io.fabemu.collectives.WorkloadSpec;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class CaseListTest {

  private static List<Long> doublings(long min, long max) {
    List<Long> sizes = new ArrayList<>();
    for (long s = min; s <= max; s = s == 0 ? 1 : s * 2) sizes.add(s);
    return sizes;
  }

  private static WorkloadSpec workload(List<Algorithm> algorithms, List<Long> sizes, List<BufferLayout> buffers) {
    return WorkloadSpec.builder(Collective.ALLREDUCE, algorithms, sizes).buffers(buffers).build();
  }

  @Test
  void shouldCollapseDoublingsToTheFirstTwoTheLastTheCountAndTheFactor() {
    assertThat(CaseList.line(workload(List.of(Algorithm.RING), doublings(8, 1 << 20), null)))
        .isEqualTo("cases: allreduce ring: 8 B, 16 B, ..., 1 MiB (18 sizes, x2 each)");
  }

  @Test
  void shouldShowThatAMaxSizeOfOneMegabyteStopsAtTheDoublingBelowIt() {
    // min-size = 1 KiB, max-size = 1MB (10^6 B): the doublings end at 512 KiB, not at 1 MiB.
    assertThat(CaseList.sizes(doublings(1024, 1_000_000)))
        .isEqualTo("1 KiB, 2 KiB, ..., 512 KiB (10 sizes, x2 each)");
  }

  @Test
  void shouldListShortListsInFullWithSizesThatAreNoWholeKibInBytes() {
    assertThat(CaseList.line(workload(List.of(Algorithm.RING, Algorithm.RECURSIVE_DOUBLING),
        List.of(4L, 1_000_000L), List.of(BufferLayout.OUT_OF_PLACE, BufferLayout.IN_PLACE))))
        .isEqualTo("cases: allreduce ring, recursive-doubling (out-of-place, in-place): 4 B, 1000000 B (2 sizes)");
    assertThat(CaseList.sizes(List.of(0L))).isEqualTo("0 B (1 size)");
  }

  @Test
  void shouldNameTheFactorAfterAZeroByteFirstSize() {
    assertThat(CaseList.sizes(doublings(0, 1 << 20))).isEqualTo("0 B, 1 B, ..., 1 MiB (22 sizes, x2 each after 0 B)");
  }

  @Test
  void shouldNameAConstantStepAndNothingForAnIrregularList() {
    assertThat(CaseList.sizes(List.of(8L, 16L, 24L, 32L, 40L, 48L)))
        .isEqualTo("8 B, 16 B, ..., 48 B (6 sizes, +8 B each)");
    assertThat(CaseList.sizes(List.of(8L, 16L, 32L, 40L, 48L, 4096L))).isEqualTo("8 B, 16 B, ..., 4 KiB (6 sizes)");
  }
}
