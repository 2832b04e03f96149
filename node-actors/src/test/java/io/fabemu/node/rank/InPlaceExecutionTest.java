package io.fabemu.node.rank;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabemu.collectives.Algorithm;
import io.fabemu.collectives.BufferLayout;
import io.fabemu.collectives.Collective;
import io.fabemu.collectives.WorkloadSpec;
import io.fabemu.core.data.DataBuffer;
import io.fabemu.core.data.DataType;
import io.fabemu.core.protocol.Message;
import io.fabemu.core.sim.DeviceReport.RankResult;
import java.util.List;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;

/**
 * A case run in place is measured, not copied: it skips exactly the copies of a rank's own input onto itself, so it
 * is faster by their cost where the out-of-place schedule pays one, equal where it pays none, and its outputs are
 * checked exactly as out of place (a corrupted delivery still shows up).
 */
class InPlaceExecutionTest {
  private static final long ALPHA = 1_000_000;
  private static final long BETA = 100;
  private static final long COPY_PS_PER_BYTE = 50;
  private static final List<BufferLayout> BOTH = List.of(BufferLayout.OUT_OF_PLACE, BufferLayout.IN_PLACE);

  @Test
  void shouldSaveExactlyTheInitialCopyWhenRingAllreduceRunsInPlace() {
    long sizeBytes = 4L * 4 * 64;
    RankWorkload[] ranks = run(workload(Collective.ALLREDUCE, Algorithm.RING, sizeBytes, false), 4, null);
    for (RankWorkload r : ranks) {
      RankResult outOfPlace = r.results().get(0);
      RankResult inPlace = r.results().get(1);
      // Every rank copies its input to its output once before the ring starts; in place that copy is skipped.
      assertThat(outOfPlace.totalLatencyPs() - inPlace.totalLatencyPs())
          .isEqualTo(2 * sizeBytes * COPY_PS_PER_BYTE);
      assertThat(outOfPlace.wrongElements()).isZero();
      assertThat(inPlace.wrongElements()).isZero();
    }
  }

  @Test
  void shouldBeFasterInPlaceWhenTheScheduleCopiesOwnDataIntoOutput() {
    // (A binomial reduce's root copies while it waits for its children anyway: there the copy is off the critical
    // path and in place saves nothing; here every rank's copy delays its first send.)
    for (Collective c : List.of(Collective.ALLGATHER, Collective.ALLTOALL)) {
      Algorithm a = c == Collective.ALLGATHER ? Algorithm.RING : Algorithm.AUTO;
      RankWorkload[] ranks = run(workload(c, a, 4L * 32, false), 4, null);
      long outOfPlace = 0;
      long inPlace = 0;
      for (RankWorkload r : ranks) {
        outOfPlace += r.results().get(0).totalLatencyPs();
        inPlace += r.results().get(1).totalLatencyPs();
        assertThat(r.results().get(1).wrongElements()).as(c.configName()).isZero();
      }
      assertThat(inPlace).as(c.configName()).isLessThan(outOfPlace);
    }
  }

  @Test
  void shouldTakeTheSameTimeWhenTheScheduleHasNoCopyItCouldSkip() {
    // Binomial broadcast copies nothing; Bruck's allgather (6 ranks) copies only into and out of TEMP.
    assertEqualLayouts(workload(Collective.BROADCAST, Algorithm.BINOMIAL, 4L * 32, false), 5);
    assertEqualLayouts(workload(Collective.ALLGATHER, Algorithm.RECURSIVE_DOUBLING, 4L * 8, false), 6);
  }

  @Test
  void shouldMatchRealTimesWhenSyntheticPayloadRunsInPlace() {
    WorkloadSpec real = workload(Collective.ALLREDUCE, Algorithm.RING, 4L * 4 * 16, false);
    RankWorkload[] realRanks = run(real, 4, null);
    RankWorkload[] syntheticRanks = run(real.withSyntheticPayload(true), 4, null);
    for (int r = 0; r < 4; r++) {
      for (int c = 0; c < 2; c++) {
        assertThat(syntheticRanks[r].results().get(c).totalLatencyPs())
            .isEqualTo(realRanks[r].results().get(c).totalLatencyPs());
      }
    }
  }

  @Test
  void shouldCountWrongElementsWhenAnInPlaceDeliveryIsCorrupted() {
    WorkloadSpec inPlaceOnly = workload(Collective.ALLREDUCE, Algorithm.RING, 4L * 16, false)
        .withBuffers(List.of(BufferLayout.IN_PLACE));
    RankWorkload[] ranks = run(inPlaceOnly, 4, flipFirstElementOnce());
    long wrong = 0;
    for (RankWorkload r : ranks) wrong += r.results().get(0).wrongElements();
    assertThat(wrong).isPositive();
  }

  private static void assertEqualLayouts(WorkloadSpec w, int worldSize) {
    for (RankWorkload r : run(w, worldSize, null)) {
      assertThat(r.results().get(1).totalLatencyPs()).as("%s rank %d", w.collective(), r.rank())
          .isEqualTo(r.results().get(0).totalLatencyPs());
      assertThat(r.results().get(1).wrongElements()).isZero();
    }
  }

  private static WorkloadSpec workload(Collective c, Algorithm a, long sizeBytes, boolean synthetic) {
    return WorkloadSpec.builder(c, List.of(a), List.of(sizeBytes)).iterations(2).warmup(1).dataType(DataType.INT32)
        .syntheticPayload(synthetic).buffers(BOTH).build();
  }

  private static RankWorkload[] run(WorkloadSpec w, int worldSize, UnaryOperator<Message> tamper) {
    IdealNetwork net = new IdealNetwork(ALPHA, BETA).overheads(0, 0, 0, COPY_PS_PER_BYTE);
    if (tamper != null) net.tamper(tamper);
    RankWorkload[] ranks = net.createRanks(w, worldSize, 11);
    net.run();
    for (RankWorkload r : ranks) assertThat(r.finished()).isTrue();
    return ranks;
  }

  private static UnaryOperator<Message> flipFirstElementOnce() {
    return new UnaryOperator<>() {
      boolean done;

      @Override
      public Message apply(Message m) {
        if (done || m.data() == null || m.data().count() == 0) return m;
        done = true;
        DataBuffer copy = m.data().slice(0, m.data().count());
        copy.set(0, (long) copy.get(0) ^ 0x40);
        return new Message(m.sourceRank(), m.destinationRank(), m.tag(), copy);
      }
    };
  }
}
