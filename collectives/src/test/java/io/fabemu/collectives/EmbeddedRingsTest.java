package io.fabemu.collectives;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The ring embedding the embedded-ring algorithms run on: which rings each algorithm takes, the lanes of rings that
 * share a hop, the reversed ring's hops, the rings' bandwidth shares, the fragments they cut the vector into, and
 * the checks on its input.
 */
class EmbeddedRingsTest {
  private static final long G = 1_000_000_000L;
  private static final int[] A = {0, 2, 1, 3};
  private static final int[] B = {0, 1, 2, 3};
  private static final int[] C = {3, 1, 0, 2};

  @Test
  void shouldRunEveryRingWhenMultiRingAndRingZeroWhenSingleRingOrLine() {
    EmbeddedRings rings = TestRings.uniform(List.of(A, B, C));
    assertThat(orders(rings.forAlgorithm(Algorithm.MULTI_RING))).containsExactly(A, B, C);
    for (Algorithm a : List.of(Algorithm.SINGLE_RING, Algorithm.LINE, Algorithm.LINE_BOTH_ENDS)) {
      assertThat(orders(rings.forAlgorithm(a))).as(a.configName()).containsExactly(A);
    }
    assertThat(rings.rankCount()).isEqualTo(4);
    assertThat(rings.ringCount()).isEqualTo(3);
  }

  @Test
  void shouldRunRingZeroAndItsReverseWhenBidirectionalRing() {
    EmbeddedRings rings = TestRings.uniform(List.of(A, B, C));
    List<EmbeddedRings.Ring> both = rings.forAlgorithm(Algorithm.BIDIRECTIONAL_RING);
    assertThat(orders(both)).containsExactly(A, new int[] {3, 1, 2, 0});
    // A ring and its reverse use opposite arcs: on p >= 3 they share none, so each has lane 0 everywhere.
    assertThat(both.get(0).lanes()).containsExactly(0, 0, 0, 0);
    assertThat(both.get(1).lanes()).containsExactly(0, 0, 0, 0);
    assertThat(both.get(1).bitsPerSecond()).isEqualTo(both.get(0).bitsPerSecond()).isEqualTo(100.0 * G);
  }

  @Test
  void shouldRejectAlgorithmsThatRunOnNoEmbeddedRing() {
    EmbeddedRings rings = TestRings.uniform(List.of(A));
    for (Algorithm a : Algorithm.values()) {
      if (a.onEmbeddedRings()) continue;
      assertThatThrownBy(() -> rings.forAlgorithm(a)).as(a.configName()).isInstanceOf(IllegalArgumentException.class)
          .hasMessage(a.configName() + " runs on no embedded ring");
    }
  }

  @Test
  void shouldGiveRingsThatShareAHopLanesZeroOneTwoInRingOrder() {
    EmbeddedRings rings = TestRings.uniform(List.of(A, B, A, A));
    List<EmbeddedRings.Ring> all = rings.forAlgorithm(Algorithm.MULTI_RING);
    // A's hops 0->2, 2->1, 1->3, 3->0; B shares 3->0 (its hop 3) with A's copies, and nothing else.
    assertThat(all.get(0).lanes()).containsExactly(0, 0, 0, 0);
    assertThat(all.get(1).lanes()).containsExactly(0, 0, 0, 1);
    assertThat(all.get(2).lanes()).containsExactly(1, 1, 1, 2);
    assertThat(all.get(3).lanes()).containsExactly(2, 2, 2, 3);
  }

  @Test
  void shouldGiveTheTwoDirectionsOfTwoRanksTheirOwnLanesWhenBidirectionalRingOnTwoRanks() {
    // On two ranks the ring 0 -> 1 -> 0 and its reverse 1 -> 0 -> 1 use the same two arcs.
    EmbeddedRings rings = TestRings.uniform(List.<int[]>of(new int[] {0, 1}));
    List<EmbeddedRings.Ring> both = rings.forAlgorithm(Algorithm.BIDIRECTIONAL_RING);
    assertThat(both.get(1).order()).containsExactly(1, 0);
    assertThat(both.get(0).lanes()).containsExactly(0, 0);
    assertThat(both.get(1).lanes()).containsExactly(1, 1);
    // One link under each arc, two rings on it: each gets half.
    assertThat(both.get(0).bitsPerSecond()).isEqualTo(50.0 * G);
    assertThat(both.get(1).bitsPerSecond()).isEqualTo(50.0 * G);
  }

  @Test
  void shouldGiveEveryArcsRingsDistinctLanesWhenRingsAreRandom() {
    for (int p = 2; p <= 17; p++) {
      for (long seed = 0; seed < 4; seed++) {
        for (EmbeddedRings rings : List.of(TestRings.withReverse(p, 3, seed), TestRings.unequal(p, seed))) {
          for (Algorithm a : List.of(Algorithm.MULTI_RING, Algorithm.BIDIRECTIONAL_RING, Algorithm.SINGLE_RING)) {
            Map<Long, List<Integer>> lanesOnArc = new HashMap<>();
            for (EmbeddedRings.Ring ring : rings.forAlgorithm(a)) {
              int[] order = ring.order();
              for (int j = 0; j < p; j++) {
                long arc = (long) order[j] * p + order[(j + 1) % p];
                lanesOnArc.computeIfAbsent(arc, k -> new ArrayList<>()).add(ring.lanes()[j]);
              }
            }
            for (Map.Entry<Long, List<Integer>> e : lanesOnArc.entrySet()) {
              List<Integer> lanes = new ArrayList<>(e.getValue());
              Collections.sort(lanes);
              List<Integer> expected = new ArrayList<>();
              for (int k = 0; k < lanes.size(); k++) expected.add(k);
              assertThat(lanes).as("p=%d seed %d %s arc %d -> %d", p, seed, a, e.getKey() / p, e.getKey() % p)
                  .isEqualTo(expected);
            }
          }
        }
      }
    }
  }

  @Test
  void shouldTakeTheReversedRingsHopFiguresFromTheLinksItCrosses() {
    // Ring 0 = 0 -> 1 -> 2 -> 3 -> 0 with hop rates 40, 100, 100, 100 Gb/s; its reverse 3 -> 2 -> 1 -> 0 -> 3
    // crosses the 40 Gb/s link 0-1 at its hop 2, so it is as slow as the forward ring.
    List<int[]> rings = List.of(B);
    EmbeddedRings e = new EmbeddedRings(rings, List.<long[]>of(new long[] {40 * G, 100 * G, 100 * G, 100 * G}),
        List.<int[]>of(new int[] {1, 1, 1, 1}));
    List<EmbeddedRings.Ring> both = e.forAlgorithm(Algorithm.BIDIRECTIONAL_RING);
    assertThat(both.get(1).order()).containsExactly(3, 2, 1, 0);
    assertThat(both.get(0).bitsPerSecond()).isEqualTo(40.0 * G);
    assertThat(both.get(1).bitsPerSecond()).isEqualTo(40.0 * G);
    // The reversed ring is the same ring as the one listed reversed with the same links, hop for hop.
    EmbeddedRings listed = new EmbeddedRings(List.of(B, new int[] {3, 2, 1, 0}),
        List.<long[]>of(new long[] {40 * G, 100 * G, 100 * G, 100 * G},
            new long[] {100 * G, 100 * G, 40 * G, 100 * G}),
        List.<int[]>of(new int[] {1, 1, 1, 1}, new int[] {1, 1, 1, 1}));
    List<EmbeddedRings.Ring> multi = listed.forAlgorithm(Algorithm.MULTI_RING);
    assertThat(multi.get(1).order()).containsExactly(both.get(1).order());
    assertThat(multi.get(1).lanes()).containsExactly(both.get(1).lanes());
    assertThat(multi.get(1).bitsPerSecond()).isEqualTo(both.get(1).bitsPerSecond());
  }

  @Test
  void shouldShareAHopsLinksAmongTheRingsThatUseIt() {
    // A twice and B: A's hops 0->2, 2->1, 1->3 carry A's two copies over one link each (half each); the hop 3->0
    // carries all three rings over two links: lanes 0 and 2 (the two copies of A) wrap onto one link (half each),
    // lane 1 (B) has the other to itself, so B keeps the full rate.
    EmbeddedRings rings = new EmbeddedRings(List.of(A, B, A),
        List.<long[]>of(new long[] {100 * G, 100 * G, 100 * G, 100 * G}, new long[] {100 * G, 100 * G, 100 * G,
            100 * G}, new long[] {100 * G, 100 * G, 100 * G, 100 * G}),
        List.<int[]>of(new int[] {1, 1, 1, 2}, new int[] {1, 1, 1, 2}, new int[] {1, 1, 1, 2}));
    List<EmbeddedRings.Ring> all = rings.forAlgorithm(Algorithm.MULTI_RING);
    assertThat(all.get(0).bitsPerSecond()).isEqualTo(50.0 * G);
    assertThat(all.get(1).bitsPerSecond()).isEqualTo(100.0 * G);
    assertThat(all.get(2).bitsPerSecond()).isEqualTo(50.0 * G);
    // More links than rings on a hop do not raise a ring above its link's rate.
    EmbeddedRings wide = new EmbeddedRings(List.of(A), List.<long[]>of(new long[] {100 * G, 25 * G, 100 * G,
        100 * G}), List.<int[]>of(new int[] {3, 3, 3, 3}));
    assertThat(wide.forAlgorithm(Algorithm.SINGLE_RING).get(0).bitsPerSecond()).isEqualTo(25.0 * G);
  }

  @Test
  void shouldGiveEachRingTheShareOfTheLinkItsLaneTakesWhenRingsOutnumberLinks() {
    // Five copies of A on hops of two links: lanes 0, 2, 4 share one link (a third each), lanes 1 and 3 the other
    // (half each), as the NICs place them.
    EmbeddedRings rings = new EmbeddedRings(List.of(A, A, A, A, A),
        List.<long[]>of(rates4(), rates4(), rates4(), rates4(), rates4()),
        List.<int[]>of(links4(2), links4(2), links4(2), links4(2), links4(2)));
    List<EmbeddedRings.Ring> all = rings.forAlgorithm(Algorithm.MULTI_RING);
    assertThat(all).extracting(EmbeddedRings.Ring::bitsPerSecond)
        .containsExactly(60.0 / 3 * G, 60.0 / 2 * G, 60.0 / 3 * G, 60.0 / 2 * G, 60.0 / 3 * G);
    assertThat(rings.forAlgorithm(Algorithm.MULTI_RING)).isSameAs(all);
    assertThat(rings.lineFragments()).isEqualTo(A.length);
    assertThat(new EmbeddedRings(List.of(A), List.of(rates4()), List.of(links4(1)), 9).lineFragments()).isEqualTo(9);
    assertThatThrownBy(() -> new EmbeddedRings(List.of(A), List.of(rates4()), List.of(links4(1)), -1))
        .hasMessage("line fragments must be in 0..65536, got -1");
  }

  private static long[] rates4() {
    return new long[] {60 * G, 60 * G, 60 * G, 60 * G};
  }

  private static int[] links4(int links) {
    return new int[] {links, links, links, links};
  }

  @Test
  void shouldCutFragmentsInProportionToBandwidthWithTheLeftoversOnTheFirstRings() {
    // 1000 * 100/175 = 571.4, * 50/175 = 285.7, * 25/175 = 142.9: floors 571 + 285 + 142 = 998, two left over.
    assertThat(EmbeddedRings.fragmentCounts(rings(100, 50, 25), 1000)).containsExactly(572, 286, 142);
    assertThat(EmbeddedRings.fragmentCounts(rings(1, 1, 1, 1, 1, 1), 13)).containsExactly(3, 2, 2, 2, 2, 2);
    assertThat(EmbeddedRings.fragmentCounts(rings(1, 1, 1, 1, 1, 1), 4)).containsExactly(1, 1, 1, 1, 0, 0);
    assertThat(EmbeddedRings.fragmentCounts(rings(1, 1, 1), 0)).containsExactly(0, 0, 0);
    assertThat(EmbeddedRings.fragmentCounts(rings(100, 25), 1)).containsExactly(1, 0);
    assertThat(EmbeddedRings.fragmentCounts(rings(7), 12_345)).containsExactly(12_345);
    // 25 : 75 exactly: no leftover.
    assertThat(EmbeddedRings.fragmentCounts(rings(25, 75), 400)).containsExactly(100, 300);
  }

  @Test
  void shouldSumToTheCountAndStayWithinOneOfTheProportionWhenBandwidthsAreRandom() {
    Random random = new Random(17);
    for (int trial = 0; trial < 2_000; trial++) {
      int n = 1 + random.nextInt(8);
      double[] weights = new double[n];
      double total = 0;
      for (int i = 0; i < n; i++) {
        weights[i] = (1 + random.nextInt(400)) * 0.25;
        total += weights[i];
      }
      int count = trial % 3 == 0 ? random.nextInt(20) : trial % 3 == 1 ? random.nextInt(100_000)
          : Integer.MAX_VALUE - random.nextInt(1000);
      int[] counts = EmbeddedRings.fragmentCounts(rings(weights), count);
      long sum = 0;
      int leftover = count;
      for (int i = 0; i < n; i++) {
        // The same arithmetic as fragmentCounts (bandwidths in bits per second), so the same floor.
        double ideal = count * (weights[i] * G / (total * G));
        assertThat(counts[i]).as("trial %d ring %d", trial, i).isBetween((int) Math.floor(ideal),
            (int) Math.floor(ideal) + 1);
        sum += counts[i];
        leftover -= (int) Math.floor(ideal);
      }
      assertThat(sum).as("trial %d", trial).isEqualTo(count);
      assertThat(leftover).isBetween(0, n);
    }
  }

  @Test
  void shouldRejectEmbeddingsThatAreNotRingsOfTheSameRanks() {
    long[] rates4 = {G, G, G, G};
    int[] links4 = {1, 1, 1, 1};
    assertThatThrownBy(() -> new EmbeddedRings(List.of(), List.of(), List.of()))
        .isInstanceOf(IllegalArgumentException.class).hasMessage("an embedding needs at least one ring");
    assertThatThrownBy(() -> new EmbeddedRings(List.of(A, B), List.of(rates4), List.of(links4, links4)))
        .isInstanceOf(IllegalArgumentException.class).hasMessage("one list of hop figures per ring");
    assertThatThrownBy(() -> new EmbeddedRings(List.of(A, new int[] {0, 1, 2}), List.of(rates4, rates4),
        List.of(links4, links4))).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("ring 1 has 3 ranks, not 4");
    assertThatThrownBy(() -> new EmbeddedRings(List.<int[]>of(new int[] {0, 1, 1, 3}), List.of(rates4),
        List.of(links4))).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("ring 0 is not a permutation of ranks 0..3");
    assertThatThrownBy(() -> new EmbeddedRings(List.<int[]>of(new int[] {0, 1, 4, 3}), List.of(rates4),
        List.of(links4))).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("ring 0 is not a permutation of ranks 0..3");
    assertThatThrownBy(() -> new EmbeddedRings(List.<int[]>of(new int[] {0, 1, -1, 3}), List.of(rates4),
        List.of(links4))).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("ring 0 is not a permutation of ranks 0..3");
    assertThatThrownBy(() -> new EmbeddedRings(List.of(A), List.<long[]>of(new long[] {G, G, G}), List.of(links4)))
        .isInstanceOf(IllegalArgumentException.class).hasMessage("ring 0 needs 4 hop figures");
    assertThatThrownBy(() -> new EmbeddedRings(List.of(A), List.of(rates4), List.<int[]>of(new int[] {1, 1})))
        .isInstanceOf(IllegalArgumentException.class).hasMessage("ring 0 needs 4 hop figures");
    assertThatThrownBy(() -> new EmbeddedRings(List.of(A), List.<long[]>of(new long[] {G, G, 0, G}),
        List.of(links4))).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("ring 0 hop 2 has no positive rate and link count");
    assertThatThrownBy(() -> new EmbeddedRings(List.of(A), List.of(rates4), List.<int[]>of(new int[] {1, 0, 1, 1})))
        .isInstanceOf(IllegalArgumentException.class).hasMessage("ring 0 hop 1 has no positive rate and link count");
  }

  @Test
  void shouldRejectMoreRingsOnAHopThanLanesWhenMultiRing() {
    List<int[]> sixteen = new ArrayList<>(Collections.nCopies(EmbeddedRings.MAX_RINGS_PER_HOP, B));
    List<EmbeddedRings.Ring> all = TestRings.uniform(sixteen).forAlgorithm(Algorithm.MULTI_RING);
    assertThat(all.get(15).lanes()).containsExactly(15, 15, 15, 15);
    assertThat(all.get(15).bitsPerSecond()).isEqualTo(100.0 * G / 16);
    List<int[]> seventeen = new ArrayList<>(sixteen);
    seventeen.add(B);
    EmbeddedRings tooMany = TestRings.uniform(seventeen);
    assertThatThrownBy(() -> tooMany.forAlgorithm(Algorithm.MULTI_RING)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("more than 16 rings share the hop 0 -> 1");
    // Ring 0 alone is fine.
    assertThat(tooMany.forAlgorithm(Algorithm.SINGLE_RING)).hasSize(1);
  }

  @Test
  void shouldKeepItsRingsWhenTheCallersArraysChange() {
    int[] ring = B.clone();
    long[] rates = {G, G, G, G};
    EmbeddedRings rings = new EmbeddedRings(List.of(ring), List.of(rates), List.<int[]>of(new int[] {1, 1, 1, 1}));
    ring[0] = 3;
    rates[0] = 1;
    rings.ring(0)[1] = 7;
    assertThat(rings.ring(0)).containsExactly(B);
    assertThat(rings.forAlgorithm(Algorithm.SINGLE_RING).get(0).bitsPerSecond()).isEqualTo((double) G);
  }

  @Test
  void shouldFindEachRanksPlaceOnARing() {
    EmbeddedRings.Ring ring = TestRings.uniform(List.of(C)).forAlgorithm(Algorithm.SINGLE_RING).get(0);
    for (int j = 0; j < C.length; j++) assertThat(ring.positionOf(C[j])).isEqualTo(j);
    assertThatThrownBy(() -> ring.positionOf(4)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("rank 4 is not on ring [3, 1, 0, 2]");
  }

  @Test
  void shouldRejectEmbeddedRingAlgorithmsWithoutAMatchingEmbeddingOrHierarchical() {
    RankLayout four = TestRings.layout(TestRings.uniform(List.of(A)));
    for (Algorithm a : List.of(Algorithm.MULTI_RING, Algorithm.SINGLE_RING, Algorithm.BIDIRECTIONAL_RING,
        Algorithm.LINE, Algorithm.LINE_BOTH_ENDS)) {
      assertThatThrownBy(() -> Schedules.build(Collective.ALLREDUCE, a, 0, 4, 8, 0, false, 1,
          WorkloadSpec.DEFAULT_WINDOW, RankLayout.NONE)).isInstanceOf(IllegalArgumentException.class)
          .hasMessage(a.configName() + " needs the fabric's ring embedding: it has none");
      assertThatThrownBy(() -> Schedules.build(Collective.ALLREDUCE, a, 0, 5, 8, 0, false, 1,
          WorkloadSpec.DEFAULT_WINDOW, four)).isInstanceOf(IllegalArgumentException.class)
          .hasMessage(a.configName() + " on rings of 4 ranks cannot run on a world of 5");
      assertThatThrownBy(() -> Schedules.build(Collective.ALLREDUCE, a, 0, 4, 8, 0, true, 2,
          WorkloadSpec.DEFAULT_WINDOW, four)).isInstanceOf(IllegalArgumentException.class)
          .hasMessage(a.configName() + " runs on every rank: it has no hierarchical mode");
    }
  }

  private static List<int[]> orders(List<EmbeddedRings.Ring> rings) {
    return rings.stream().map(EmbeddedRings.Ring::order).toList();
  }

  /** Rings of the given bandwidths (Gb/s), for {@link EmbeddedRings#fragmentCounts}. */
  private static List<EmbeddedRings.Ring> rings(double... gigabits) {
    List<EmbeddedRings.Ring> out = new ArrayList<>();
    for (double g : gigabits) out.add(new EmbeddedRings.Ring(new int[] {0}, new int[] {0}, g * G));
    return out;
  }
}
