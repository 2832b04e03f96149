package io.fabemu.node.rank;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabemu.collectives.Algorithm;
import io.fabemu.collectives.BufferLayout;
import io.fabemu.collectives.ChannelRingAllreduce;
import io.fabemu.collectives.Collective;
import io.fabemu.collectives.InputGenerator;
import io.fabemu.collectives.NaiveReference;
import io.fabemu.collectives.Schedules;
import io.fabemu.collectives.WorkloadSpec;
import io.fabemu.core.data.DataType;
import io.fabemu.core.data.ReduceOp;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * The ring allreduce on channels, on the ideal network: exact on worlds with servers of several ranks (each channel
 * entering a server at another rank) and without, counts no rank or channel count divides, out of place and in
 * place, every rank finishing with no message left over. The sizes give each channel at least
 * {@link ChannelRingAllreduce#MIN_CHUNK_BYTES} per rank, so that every channel asked for runs.
 */
class ChannelRingAllreduceCorrectnessTest {
  private static final long SEED = 20261203L;

  @TestFactory
  Stream<DynamicTest> shouldComputeExactAllreduceOnEveryChannel() {
    // {ranks, ranks per server, channels}
    return Stream.of(new int[] {8, 4, 3}, new int[] {12, 4, 4}, new int[] {6, 1, 2}, new int[] {16, 8, 8})
        .map(shape -> DynamicTest.dynamicTest("p=" + shape[0] + " ppn=" + shape[1] + " channels=" + shape[2], () -> {
          int count = (int) (shape[2] * ChannelRingAllreduce.MIN_CHUNK_BYTES * shape[0] / 4) + 13;
          run(shape[0], shape[1], shape[2], count, DataType.INT32, BufferLayout.OUT_OF_PLACE);
          run(shape[0], shape[1], shape[2], count, DataType.FLOAT32, BufferLayout.IN_PLACE);
        }));
  }

  private static void run(int p, int ppn, int channels, int count, DataType type, BufferLayout layout) {
    Collective c = Collective.ALLREDUCE;
    ReduceOp op = ReduceOp.SUM;
    long sizeBytes = (long) count * Schedules.elementBytes(c, type, op);
    assertThat(ChannelRingAllreduce.channelsFor(sizeBytes, count, p, channels)).isEqualTo(channels);
    WorkloadSpec w = WorkloadSpec.builder(c, List.of(Algorithm.RING), List.of(sizeBytes)).iterations(1).warmup(1)
        .ppn(ppn).dataType(type).op(op).buffers(List.of(layout)).channels(channels).build();
    IdealNetwork net = new IdealNetwork(1_000_000, 100).overheads(50_000, 70_000, 3, 1);
    RankWorkload[] ranks = net.createRanks(w, p, SEED);
    net.run();
    String what = "p=" + p + " ppn=" + ppn + " channels=" + channels + " count=" + count + " "
        + type.configName() + " " + layout.configName();
    InputGenerator gen = new InputGenerator(SEED, type, op);
    for (RankWorkload rank : ranks) {
      assertThat(rank.finished()).as(what + ": rank %d finished", rank.rank()).isTrue();
      assertThat(rank.unexpectedMessages()).as(what + ": leftover messages").isZero();
      assertThat(rank.results().get(0).wrongElements()).as(what + ": rank %d wrong elements", rank.rank()).isZero();
      assertThat(NaiveReference.check(c, Algorithm.RING, p, 0, sizeBytes, count, type, op, gen, rank.rank(),
          rank.resultBuffer())).as(what + ": rank %d against the naive reference", rank.rank()).isNull();
    }
  }
}
