package io.fabemu.node.rank;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabemu.collectives.Algorithm;
import io.fabemu.collectives.BufferLayout;
import io.fabemu.collectives.Collective;
import io.fabemu.collectives.InputGenerator;
import io.fabemu.collectives.NaiveReference;
import io.fabemu.collectives.Schedules;
import io.fabemu.collectives.WorkloadSpec;
import io.fabemu.core.data.DataType;
import io.fabemu.core.data.ReduceOp;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * NCCL's tree Allreduce on the ideal network: exact on every world size, server size (ranks per node, the chain),
 * count (below 2, odd, across several chunks), type and op, out of place and in place, every rank finishing with no
 * message left over.
 */
class TreeAllreduceCorrectnessTest {
  private static final long SEED = 20261203L;

  @TestFactory
  Stream<DynamicTest> shouldComputeExactAllreduceOnAnyWorldServerSizeCountTypeOrOp() {
    List<DynamicTest> tests = new ArrayList<>();
    for (int ppn : new int[] {1, 2, 3, 4, 8}) {
      for (int p : new int[] {1, 2, 3, 4, 5, 6, 7, 8, 12, 16, 17, 24}) {
        if (p % ppn != 0) continue;
        tests.add(DynamicTest.dynamicTest("tree p=" + p + " ppn=" + ppn, () -> {
          for (int count : new int[] {1, 2, 5, 13, 48}) {
            run(p, ppn, count, DataType.INT32, ReduceOp.SUM, BufferLayout.OUT_OF_PLACE);
          }
          run(p, ppn, 13, DataType.INT32, ReduceOp.SUM, BufferLayout.IN_PLACE);
          for (ReduceOp op : ReduceOp.values()) {
            run(p, ppn, 13, DataType.INT64, op, BufferLayout.OUT_OF_PLACE);
          }
          for (DataType type : DataType.values()) {
            run(p, ppn, 21, type, ReduceOp.SUM, BufferLayout.OUT_OF_PLACE);
          }
        }));
      }
    }
    return tests.stream();
  }

  @TestFactory
  Stream<DynamicTest> shouldStreamManyChunksThroughBothTreesExactly() {
    // 3 chunks per tree and a short last one: the pipeline with its window, on a chain only and across servers.
    int count = 2 * (2 * io.fabemu.collectives.DoubleBinaryTree.CHUNK_ELEMENTS + 7);
    return Stream.of(new int[] {8, 8}, new int[] {16, 4}, new int[] {9, 1}).map(shape -> DynamicTest.dynamicTest(
        "tree p=" + shape[0] + " ppn=" + shape[1] + " count=" + count,
        () -> run(shape[0], shape[1], count, DataType.FLOAT32, ReduceOp.SUM, BufferLayout.OUT_OF_PLACE)));
  }

  private static void run(int p, int ppn, int count, DataType type, ReduceOp op, BufferLayout layout) {
    Collective c = Collective.ALLREDUCE;
    long sizeBytes = (long) count * Schedules.elementBytes(c, type, op);
    WorkloadSpec w = WorkloadSpec.builder(c, List.of(Algorithm.TREE), List.of(sizeBytes)).iterations(2).warmup(1)
        .ppn(ppn).dataType(type).op(op).buffers(List.of(layout)).build();
    IdealNetwork net = new IdealNetwork(1_000_000, 100).overheads(50_000, 70_000, 3, 1);
    RankWorkload[] ranks = net.createRanks(w, p, SEED);
    net.run();
    String what = "tree p=" + p + " ppn=" + ppn + " count=" + count + " " + type.configName() + " "
        + op.configName() + " " + layout.configName();
    InputGenerator gen = new InputGenerator(SEED, type, op);
    for (RankWorkload rank : ranks) {
      assertThat(rank.finished()).as(what + ": rank %d finished", rank.rank()).isTrue();
      assertThat(rank.unexpectedMessages()).as(what + ": leftover messages").isZero();
      assertThat(rank.completedOperations()).as(what).isEqualTo(3);
      assertThat(rank.results().get(0).wrongElements()).as(what + ": rank %d wrong elements", rank.rank()).isZero();
      assertThat(NaiveReference.check(c, Algorithm.TREE, p, 0, sizeBytes, count, type, op, gen, rank.rank(),
          rank.resultBuffer())).as(what + ": rank %d against the naive reference", rank.rank()).isNull();
    }
  }
}
