package io.fabemu.node.rank;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabemu.collectives.Algorithm;
import io.fabemu.collectives.Collective;
import io.fabemu.collectives.EmbeddedRings;
import io.fabemu.collectives.InputGenerator;
import io.fabemu.collectives.NaiveReference;
import io.fabemu.collectives.Schedules;
import io.fabemu.collectives.TestRings;
import io.fabemu.collectives.WorkloadSpec;
import io.fabemu.core.data.DataType;
import io.fabemu.core.data.ReduceOp;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * The embedded-ring algorithms (multi-ring, single-ring and bidirectional-ring allreduce, reduce-scatter and
 * all-gather; the line allreduce from one end and from both ends) on random permutation rings of 2 to 17 ranks, on
 * the ideal network: every rank finishes with exactly the naive reference's answer, for every type and op, and for
 * counts no world size divides, below p, and 0. The rings: a random ring, its reverse and two more; a random ring,
 * a copy of it (sharing every hop), its reverse and two more, at unequal rates (so unequal fragments); a random ring
 * and its reverse only.
 */
class EmbeddedRingCorrectnessTest {
  private static final long SEED = 20240917L;
  private static final List<Algorithm> RINGS = List.of(Algorithm.MULTI_RING, Algorithm.SINGLE_RING,
      Algorithm.BIDIRECTIONAL_RING);

  @TestFactory
  Stream<DynamicTest> shouldComputeExactResultsWhenRingAlgorithmsRunOnRandomRings() {
    List<DynamicTest> tests = new ArrayList<>();
    for (int p = 2; p <= 17; p++) {
      int world = p;
      for (Collective c : List.of(Collective.ALLREDUCE, Collective.REDUCE_SCATTER, Collective.ALLGATHER)) {
        for (Algorithm a : RINGS) {
          tests.add(DynamicTest.dynamicTest(c.configName() + " " + a.configName() + " p=" + p,
              () -> runAll(c, a, world)));
        }
      }
      for (Algorithm a : List.of(Algorithm.LINE, Algorithm.LINE_BOTH_ENDS)) {
        tests.add(DynamicTest.dynamicTest("allreduce " + a.configName() + " p=" + p,
            () -> runAll(Collective.ALLREDUCE, a, world)));
      }
    }
    return tests.stream();
  }

  /** Every embedding and count with int32 sum, then every op and type on the unequal rings. */
  private static void runAll(Collective c, Algorithm a, int p) {
    List<EmbeddedRings> embeddings = List.of(TestRings.withReverse(p, 2, p), TestRings.unequal(p, 1_000 + p),
        TestRings.withReverse(p, 0, 77 + p));
    // Allreduce: counts that no p in 2..17 divides (19, 101, 1009: primes), below p, and 0. Reduce-scatter and
    // all-gather: per-rank blocks that the rings' fragments cut unevenly (or leave empty).
    int[] counts = c == Collective.ALLREDUCE ? new int[] {0, 1, p - 1, 19, 101, 1_009}
        : new int[] {0, 1, 2, 5, 19, 101};
    for (EmbeddedRings rings : embeddings) {
      for (int count : Arrays.stream(counts).distinct().toArray()) {
        run(c, a, rings, count, DataType.INT32, ReduceOp.SUM);
      }
    }
    EmbeddedRings unequal = embeddings.get(1);
    if (c.reduces()) {
      for (ReduceOp op : ReduceOp.values()) {
        run(c, a, unequal, c == Collective.ALLREDUCE ? 19 : 3, DataType.INT64, op);
        if (op.isDefinedOn(DataType.FLOAT64)) {
          run(c, a, unequal, c == Collective.ALLREDUCE ? 23 : 7, DataType.FLOAT32, op);
        }
      }
    }
    for (DataType type : DataType.values()) {
      run(c, a, unequal, c == Collective.ALLREDUCE ? 23 : 5, type, ReduceOp.SUM);
    }
  }

  @Test
  void shouldComputeExactResultsWhenRingsShareEveryHopAndTheNetworkReordersMessages() {
    int mostQueued = 0;
    for (int p : new int[] {2, 3, 7, 12}) {
      // Ring 0 and its copy share every hop: their messages in a step differ only by lane.
      EmbeddedRings rings = TestRings.unequal(p, 5 + p);
      for (Collective c : List.of(Collective.ALLREDUCE, Collective.REDUCE_SCATTER, Collective.ALLGATHER)) {
        for (Algorithm a : List.of(Algorithm.MULTI_RING, Algorithm.BIDIRECTIONAL_RING)) {
          mostQueued = Math.max(mostQueued, check(c, a, rings, 37, DataType.INT32, ReduceOp.MAXLOC, jittered()));
        }
      }
      check(Collective.ALLREDUCE, Algorithm.LINE_BOTH_ENDS, rings, 37, DataType.FLOAT64, ReduceOp.SUM,
          jittered());
      check(Collective.ALLREDUCE, Algorithm.LINE, rings, 37, DataType.INT16, ReduceOp.PROD, jittered());
    }
    assertThat(mostQueued).isGreaterThan(1);
  }

  @Test
  void shouldComputeExactResultsWhenTheLineStreamsFewerOrMoreFragmentsThanRanks() {
    for (int p : new int[] {2, 3, 6, 11}) {
      EmbeddedRings base = TestRings.withReverse(p, 0, 41 + p);
      List<int[]> rings = List.of(base.ring(0), base.ring(1));
      for (int fragments : new int[] {1, 2, p + 3, 64}) {
        EmbeddedRings streamed = TestRings.uniform(rings, fragments);
        assertThat(streamed.lineFragments()).isEqualTo(fragments);
        for (int count : new int[] {0, 1, 19, 1_009}) {
          run(Collective.ALLREDUCE, Algorithm.LINE, streamed, count, DataType.INT32, ReduceOp.SUM);
          run(Collective.ALLREDUCE, Algorithm.LINE_BOTH_ENDS, streamed, count, DataType.FLOAT64, ReduceOp.MAX);
        }
      }
    }
  }

  /** A network whose deterministic jitter of up to 20 alpha makes later messages often overtake earlier ones. */
  private static IdealNetwork jittered() {
    return new IdealNetwork(1_000_000, 10)
        .jitter((m, seq) -> Math.floorMod(InputGenerator.SplitMix.mix(seq * 31 + 7), 20_000_000L));
  }

  private static void run(Collective c, Algorithm a, EmbeddedRings rings, int count, DataType type, ReduceOp op) {
    check(c, a, rings, count, type, op, new IdealNetwork(1_000_000, 100).overheads(50_000, 70_000, 3, 1));
  }

  /**
   * Runs one case (1 warm-up + 2 measured iterations) on {@code net} and checks every rank against the naive
   * reference; returns the most messages a rank held unexpected.
   */
  private static int check(Collective c, Algorithm a, EmbeddedRings rings, int count, DataType type, ReduceOp op,
                           IdealNetwork net) {
    int p = rings.rankCount();
    long sizeBytes = (long) count * Schedules.elementBytes(c, type, op);
    WorkloadSpec w = Workloads.of(c, a, sizeBytes, type, op);
    RankWorkload[] ranks = net.createRanks(w, p, SEED, TestRings.layout(rings));
    net.run();
    String what = c.configName() + " " + a.configName() + " p=" + p + " rings " + describe(rings) + " count="
        + count + " " + type.configName() + " " + op.configName();
    InputGenerator gen = new InputGenerator(SEED, type, c.reduces() ? op : null);
    for (RankWorkload rank : ranks) {
      assertThat(rank.finished()).as(what + ": rank %d finished", rank.rank()).isTrue();
      assertThat(rank.unexpectedMessages()).as(what + ": leftover messages").isZero();
      assertThat(rank.completedOperations()).as(what).isEqualTo(3);
      assertThat(rank.results().get(0).wrongElements()).as(what + ": rank %d wrong elements", rank.rank()).isZero();
      String mismatch = NaiveReference.check(c, a, p, 0, sizeBytes, count, type, op, gen, rank.rank(),
          rank.resultBuffer());
      assertThat(mismatch).as(what + ": rank %d against the naive reference", rank.rank()).isNull();
    }
    return net.maxUnexpected();
  }

  private static String describe(EmbeddedRings rings) {
    StringBuilder s = new StringBuilder();
    for (int r = 0; r < rings.ringCount(); r++) s.append(Arrays.toString(rings.ring(r)));
    return s.toString();
  }
}
