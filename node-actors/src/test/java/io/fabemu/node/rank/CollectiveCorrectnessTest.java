package io.fabemu.node.rank;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabemu.collectives.Algorithm;
import io.fabemu.collectives.Collective;
import io.fabemu.collectives.InputGenerator;
import io.fabemu.collectives.NaiveReference;
import io.fabemu.collectives.RankGrid;
import io.fabemu.collectives.Schedules;
import io.fabemu.collectives.WorkloadSpec;
import io.fabemu.core.data.DataType;
import io.fabemu.core.data.ReduceOp;
import io.fabemu.core.sim.DeviceReport.RankResult;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * Every collective and algorithm on many world sizes, counts (below p, not divisible by p, ...), types and ops, on
 * the ideal network: the workload's own check finds no wrong element, every rank finishes, and the final buffers
 * match an independent naive reference.
 */
class CollectiveCorrectnessTest {
  private static final int[] WORLDS = {1, 2, 3, 4, 5, 7, 8, 12, 16};
  private static final int[] COUNTS = {1, 5, 13, 48};
  private static final long SEED = 20240917L;

  @TestFactory
  Stream<DynamicTest> shouldComputeExactAllreduceWhenAnyAlgorithmWorldCountTypeOrOp() {
    List<DynamicTest> tests = new ArrayList<>();
    List<Algorithm> algorithms = List.of(Algorithm.RING, Algorithm.RECURSIVE_DOUBLING, Algorithm.RABENSEIFNER,
        Algorithm.BINOMIAL, Algorithm.AUTO);
    for (Algorithm a : algorithms) {
      for (int ppn : new int[] {0, 2, 3, 4}) {
        for (int p : WORLDS) {
          String name = "allreduce " + a.configName() + (ppn > 0 ? " hierarchical ppn " + ppn : "") + " p=" + p;
          tests.add(DynamicTest.dynamicTest(name, () -> {
            for (int count : COUNTS) {
              runReducing(Collective.ALLREDUCE, a, p, count, DataType.INT32, ReduceOp.SUM, ppn);
            }
            for (ReduceOp op : ReduceOp.values()) {
              runReducing(Collective.ALLREDUCE, a, p, 13, DataType.INT64, op, ppn);
              if (op.isDefinedOn(DataType.FLOAT64)) {
                runReducing(Collective.ALLREDUCE, a, p, 7, DataType.FLOAT32, op, ppn);
              }
            }
            for (DataType type : DataType.values()) {
              runReducing(Collective.ALLREDUCE, a, p, 21, type, ReduceOp.SUM, ppn);
            }
          }));
        }
      }
    }
    return tests.stream();
  }

  @TestFactory
  Stream<DynamicTest> shouldComputeExactAllreduceWhenDimensionRingOnAnyGrid() {
    List<DynamicTest> tests = new ArrayList<>();
    int[][] grids = {{1, 2}, {1, 2, 2}, {1, 3, 4}, {1, 4, 4}, {1, 2, 3, 2}, {1, 4, 4, 2}, {2, 2, 2}, {3, 2, 3},
        {1, 5}, {1, 1, 1}};
    for (int[] sizes : grids) {
      RankGrid grid = RankGrid.of(sizes);
      tests.add(DynamicTest.dynamicTest("allreduce dimension-ring grid " + grid, () -> {
        for (int count : new int[] {0, 1, 2, 5, 13, 48, 100}) {
          runOnGrid(grid, count, DataType.INT32, ReduceOp.SUM);
        }
        for (ReduceOp op : ReduceOp.values()) {
          runOnGrid(grid, 13, DataType.INT64, op);
        }
        for (DataType type : DataType.values()) {
          runOnGrid(grid, 21, type, ReduceOp.SUM);
        }
      }));
    }
    return tests.stream();
  }

  /** Dimension-wise ring allreduce on {@code grid} (its first size is the ranks per node). */
  private static void runOnGrid(RankGrid grid, int count, DataType type, ReduceOp op) {
    Collective c = Collective.ALLREDUCE;
    Algorithm a = Algorithm.DIMENSION_RING;
    int p = grid.rankCount();
    long sizeBytes = (long) count * Schedules.elementBytes(c, type, op);
    WorkloadSpec w = WorkloadSpec.builder(c, List.of(a), List.of(sizeBytes)).iterations(2).warmup(1).ppn(grid.size(0))
        .dataType(type).op(op).build();
    IdealNetwork net = new IdealNetwork(1_000_000, 100).overheads(50_000, 70_000, 3, 1);
    RankWorkload[] ranks = net.createRanks(w, p, SEED, grid);
    net.run();
    String what = "dimension-ring on " + grid + " count=" + count + " " + type.configName() + " " + op.configName();
    InputGenerator gen = new InputGenerator(SEED, type, op);
    for (RankWorkload rank : ranks) {
      assertThat(rank.finished()).as(what + ": rank %d finished", rank.rank()).isTrue();
      assertThat(rank.unexpectedMessages()).as(what + ": leftover messages").isZero();
      assertThat(rank.results().get(0).wrongElements()).as(what + ": rank %d wrong elements", rank.rank()).isZero();
      assertThat(NaiveReference.check(c, a, p, 0, sizeBytes, count, type, op, gen, rank.rank(), rank.resultBuffer()))
          .as(what + ": rank %d against the naive reference", rank.rank()).isNull();
    }
  }

  @TestFactory
  Stream<DynamicTest> shouldComputeExactReduceScatterWhenAnyAlgorithmWorldCountTypeOrOp() {
    List<DynamicTest> tests = new ArrayList<>();
    for (Algorithm a : List.of(Algorithm.RING, Algorithm.RECURSIVE_HALVING, Algorithm.AUTO)) {
      for (int p : WORLDS) {
        tests.add(DynamicTest.dynamicTest("reduce-scatter " + a.configName() + " p=" + p, () -> {
          for (int count : COUNTS) {
            runReducing(Collective.REDUCE_SCATTER, a, p, count, DataType.INT32, ReduceOp.SUM, 0);
          }
          for (ReduceOp op : ReduceOp.values()) {
            runReducing(Collective.REDUCE_SCATTER, a, p, 3, DataType.INT16, op, 0);
          }
          for (DataType type : DataType.values()) {
            runReducing(Collective.REDUCE_SCATTER, a, p, 5, type, ReduceOp.SUM, 0);
          }
        }));
      }
    }
    return tests.stream();
  }

  @TestFactory
  Stream<DynamicTest> shouldComputeExactReduceWhenAnyAlgorithmRootWorldCountTypeOrOp() {
    List<DynamicTest> tests = new ArrayList<>();
    for (Algorithm a : List.of(Algorithm.BINOMIAL, Algorithm.LINEAR, Algorithm.AUTO)) {
      for (int p : WORLDS) {
        tests.add(DynamicTest.dynamicTest("reduce " + a.configName() + " p=" + p, () -> {
          for (int root : roots(p)) {
            for (int count : COUNTS) {
              run(Collective.REDUCE, a, p, count, DataType.INT32, ReduceOp.SUM, root, 0);
            }
            for (ReduceOp op : ReduceOp.values()) {
              run(Collective.REDUCE, a, p, 6, DataType.INT32, op, root, 0);
            }
            for (DataType type : DataType.values()) {
              run(Collective.REDUCE, a, p, 9, type, ReduceOp.SUM, root, 0);
            }
          }
        }));
      }
    }
    return tests.stream();
  }

  @TestFactory
  Stream<DynamicTest> shouldDeliverExactDataWhenNonReducingCollectiveRunsAnyAlgorithm() {
    List<DynamicTest> tests = new ArrayList<>();
    for (Collective c : List.of(Collective.BROADCAST, Collective.GATHER, Collective.SCATTER, Collective.ALLGATHER,
        Collective.ALLTOALL, Collective.SENDRECV, Collective.BARRIER)) {
      for (Algorithm a : Algorithm.validFor(c)) {
        if (a.onEmbeddedRings()) continue; // needs a ring embedding: EmbeddedRingCorrectnessTest
        for (int p : WORLDS) {
          tests.add(DynamicTest.dynamicTest(c.configName() + " " + a.configName() + " p=" + p, () -> {
            for (int root : c.rooted() ? roots(p) : new int[] {0}) {
              for (int count : COUNTS) {
                run(c, a, p, count, DataType.INT32, ReduceOp.SUM, root, 0);
              }
              for (DataType type : DataType.values()) {
                run(c, a, p, 3, type, ReduceOp.SUM, root, 0);
              }
            }
          }));
        }
      }
    }
    return tests.stream();
  }

  @Test
  void shouldCompleteWhenMessagesAreEmpty() {
    for (Collective c : Collective.values()) {
      // A pipeline needs its pipeline and an optical layout: PipelineCorrectnessTest.
      if (c == Collective.PIPELINE) continue;
      for (Algorithm a : Algorithm.validFor(c)) {
        // They need a grid or a ring embedding: count 0 is in their own tests.
        if (a == Algorithm.DIMENSION_RING || a.onEmbeddedRings()) continue;
        for (int p : new int[] {1, 3, 4, 6}) {
          run(c, a, p, 0, DataType.FLOAT64, ReduceOp.SUM, p - 1, 0);
        }
      }
    }
    for (Algorithm a : List.of(Algorithm.RING, Algorithm.RABENSEIFNER, Algorithm.BINOMIAL)) {
      run(Collective.ALLREDUCE, a, 7, 0, DataType.INT16, ReduceOp.MAX, 0, 3);
    }
  }

  @Test
  void shouldComputeExactAllreduceWhenWorldIsLargeAndUneven() {
    for (Algorithm a : List.of(Algorithm.RING, Algorithm.RECURSIVE_DOUBLING, Algorithm.RABENSEIFNER,
        Algorithm.BINOMIAL)) {
      run(Collective.ALLREDUCE, a, 37, 101, DataType.FLOAT32, ReduceOp.SUM, 0, 0);
      run(Collective.ALLREDUCE, a, 37, 101, DataType.INT32, ReduceOp.MINLOC, 0, 5);
    }
    run(Collective.REDUCE_SCATTER, Algorithm.RECURSIVE_HALVING, 29, 3, DataType.INT64, ReduceOp.BXOR, 0, 0);
    run(Collective.ALLGATHER, Algorithm.RECURSIVE_DOUBLING, 29, 3, DataType.INT16, ReduceOp.SUM, 0, 0);
    run(Collective.GATHER, Algorithm.BINOMIAL, 29, 3, DataType.INT16, ReduceOp.SUM, 17, 0);
    run(Collective.SCATTER, Algorithm.BINOMIAL, 29, 3, DataType.INT16, ReduceOp.SUM, 11, 0);
  }

  private static int[] roots(int p) {
    return p == 1 ? new int[] {0} : p == 2 ? new int[] {0, 1} : new int[] {0, p / 2, p - 1};
  }

  private static void runReducing(Collective c, Algorithm a, int p, int count, DataType type, ReduceOp op,
                                  int ppn) {
    run(c, a, p, count, type, op, 0, ppn);
  }

  /** Runs one case (1 warm-up + 2 measured iterations) and checks every rank; ppn 0 means flat. */
  static void run(Collective c, Algorithm a, int p, int count, DataType type, ReduceOp op, int root, int ppn) {
    int elementBytes = Schedules.elementBytes(c, type, op);
    long sizeBytes = (long) count * elementBytes;
    WorkloadSpec w = WorkloadSpec.builder(c, List.of(a), List.of(sizeBytes)).iterations(2).warmup(1)
        .ppn(Math.max(ppn, 1)).dataType(type).op(op).hierarchical(ppn > 0).root(root).build();
    IdealNetwork net = new IdealNetwork(1_000_000, 100).overheads(50_000, 70_000, 3, 1);
    RankWorkload[] ranks = net.createRanks(w, p, SEED);
    net.run();
    String what = c.configName() + " " + a.configName() + (ppn > 0 ? " ppn " + ppn : "") + " p=" + p + " count="
        + count + " " + type.configName() + " " + op.configName() + " root " + root;
    InputGenerator gen = new InputGenerator(SEED, type, c.reduces() ? op : null);
    for (RankWorkload rank : ranks) {
      assertThat(rank.finished()).as(what + ": rank %d finished", rank.rank()).isTrue();
      assertThat(rank.unexpectedMessages()).as(what + ": leftover messages").isZero();
      assertThat(rank.completedOperations()).as(what).isEqualTo(3);
      List<RankResult> results = rank.results();
      assertThat(results).as(what).hasSize(1);
      assertThat(results.get(0).wrongElements()).as(what + ": rank %d wrong elements", rank.rank()).isZero();
      assertThat(results.get(0).iterations()).isEqualTo(2);
      String mismatch = NaiveReference.check(c, a, p, root, sizeBytes, count, type, op, gen, rank.rank(),
          rank.resultBuffer());
      assertThat(mismatch).as(what + ": rank %d against the naive reference", rank.rank()).isNull();
    }
  }
}
