package io.fabemu.collectives;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The in-place aliasing of every collective, and which copies of the real schedules it makes free: exactly the
 * INPUT-to-OUTPUT copies of a rank's own data onto its in-place position, never a copy into TEMP or a rotation.
 */
class InPlaceAliasTest {

  @Test
  void shouldAliasWholeBufferAtZeroWhenAllreduceReduceBroadcastOrSendrecv() {
    for (Collective c : List.of(Collective.ALLREDUCE, Collective.REDUCE, Collective.BROADCAST,
        Collective.SENDRECV)) {
      assertThat(InPlaceAlias.of(c, 3, 8, 10)).as(c.configName()).isEqualTo(new InPlaceAlias(0, 0, 10));
    }
  }

  @Test
  void shouldAliasInputWithOwnOutputBlockWhenAllgatherOrGather() {
    assertThat(InPlaceAlias.of(Collective.ALLGATHER, 3, 8, 10)).isEqualTo(new InPlaceAlias(0, 30, 10));
    assertThat(InPlaceAlias.of(Collective.GATHER, 5, 8, 4)).isEqualTo(new InPlaceAlias(0, 20, 4));
  }

  @Test
  void shouldAliasOutputWithOwnInputBlockWhenReduceScatterOrScatter() {
    assertThat(InPlaceAlias.of(Collective.REDUCE_SCATTER, 3, 8, 10)).isEqualTo(new InPlaceAlias(30, 0, 10));
    assertThat(InPlaceAlias.of(Collective.SCATTER, 2, 8, 4)).isEqualTo(new InPlaceAlias(8, 0, 4));
  }

  @Test
  void shouldAliasEveryBlockWhenAlltoallAndNothingWhenBarrier() {
    assertThat(InPlaceAlias.of(Collective.ALLTOALL, 3, 8, 10)).isEqualTo(new InPlaceAlias(0, 0, 80));
    assertThat(InPlaceAlias.of(Collective.BARRIER, 3, 8, 0)).isEqualTo(InPlaceAlias.NONE);
  }

  @Test
  void shouldAliasOnlyCopiesOntoTheSameMemoryWhenCopiesAreChecked() {
    InPlaceAlias gather = new InPlaceAlias(0, 30, 10);
    assertThat(gather.aliases(new LocalCopy(BufferId.INPUT, 0, BufferId.OUTPUT, 30, 10))).isTrue();
    assertThat(gather.aliases(new LocalCopy(BufferId.INPUT, 2, BufferId.OUTPUT, 32, 5))).isTrue();
    assertThat(gather.aliases(new LocalCopy(BufferId.INPUT, 0, BufferId.OUTPUT, 0, 10))).isFalse();
    assertThat(gather.aliases(new LocalCopy(BufferId.INPUT, 0, BufferId.OUTPUT, 30, 11))).isFalse();
    assertThat(gather.aliases(new LocalCopy(BufferId.INPUT, 0, BufferId.TEMP, 30, 10))).isFalse();
    assertThat(gather.aliases(new LocalCopy(BufferId.TEMP, 0, BufferId.OUTPUT, 30, 10))).isFalse();
    assertThat(gather.aliases(new LocalCopy(BufferId.INPUT, 0, BufferId.OUTPUT, 30, 0))).isFalse();
    assertThat(InPlaceAlias.NONE.aliases(new LocalCopy(BufferId.INPUT, 0, BufferId.OUTPUT, 0, 1))).isFalse();
  }

  @Test
  void shouldFreeTheOwnBlockCopyOfEveryRankWhenRingAllgather() {
    int p = 5;
    for (int rank = 0; rank < p; rank++) {
      Schedule s = Schedules.build(Collective.ALLGATHER, Algorithm.RING, rank, p, 3, 0, false, 1);
      List<LocalCopy> free = freeCopies(s, InPlaceAlias.of(Collective.ALLGATHER, rank, p, 3));
      assertThat(free).as("rank %d", rank).containsExactly(new LocalCopy(BufferId.INPUT, 0, BufferId.OUTPUT,
          rank * 3, 3));
    }
  }

  @Test
  void shouldFreeNoCopyWhenBruckAllgatherGoesThroughTemp() {
    int p = 6; // not a power of two: Bruck's algorithm collects in TEMP and rotates into OUTPUT
    for (int rank = 0; rank < p; rank++) {
      Schedule s = Schedules.build(Collective.ALLGATHER, Algorithm.RECURSIVE_DOUBLING, rank, p, 3, 0, false, 1);
      assertThat(freeCopies(s, InPlaceAlias.of(Collective.ALLGATHER, rank, p, 3))).isEmpty();
      assertThat(allCopies(s)).isNotEmpty();
    }
  }

  @Test
  void shouldFreeTheInitialCopyWhenRingAllreduceAndNothingWhenBroadcast() {
    Schedule ring = Schedules.build(Collective.ALLREDUCE, Algorithm.RING, 1, 4, 8, 0, false, 1);
    assertThat(freeCopies(ring, InPlaceAlias.of(Collective.ALLREDUCE, 1, 4, 8)))
        .containsExactly(new LocalCopy(BufferId.INPUT, 0, BufferId.OUTPUT, 0, 8));
    for (int rank = 0; rank < 4; rank++) {
      Schedule bcast = Schedules.build(Collective.BROADCAST, Algorithm.BINOMIAL, rank, 4, 8, 0, false, 1);
      assertThat(allCopies(bcast)).isEmpty();
    }
  }

  @Test
  void shouldFreeOwnBlockWhenPairwiseAlltoallAndLinearScatterRoot() {
    Schedule a2a = Schedules.build(Collective.ALLTOALL, Algorithm.PAIRWISE, 2, 4, 5, 0, false, 1);
    assertThat(freeCopies(a2a, InPlaceAlias.of(Collective.ALLTOALL, 2, 4, 5)))
        .containsExactly(new LocalCopy(BufferId.INPUT, 10, BufferId.OUTPUT, 10, 5));
    Schedule scatter = Schedules.build(Collective.SCATTER, Algorithm.LINEAR, 3, 4, 5, 3, false, 1);
    assertThat(freeCopies(scatter, InPlaceAlias.of(Collective.SCATTER, 3, 4, 5)))
        .containsExactly(new LocalCopy(BufferId.INPUT, 15, BufferId.OUTPUT, 0, 5));
  }

  @Test
  void shouldRefuseRankOutsideWorldOrNegativeRegion() {
    assertThatThrownBy(() -> InPlaceAlias.of(Collective.ALLREDUCE, 4, 4, 1))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("outside a world of 4");
    assertThatThrownBy(() -> new InPlaceAlias(-1, 0, 1)).isInstanceOf(IllegalArgumentException.class);
  }

  private static List<LocalCopy> freeCopies(Schedule s, InPlaceAlias alias) {
    return allCopies(s).stream().filter(alias::aliases).toList();
  }

  private static List<LocalCopy> allCopies(Schedule s) {
    List<LocalCopy> copies = new ArrayList<>();
    for (int i = 0; i < s.stepCount(); i++) {
      for (int j = 0; j < s.step(i).copyCount(); j++) copies.add(s.step(i).copy(j));
    }
    return copies;
  }
}
