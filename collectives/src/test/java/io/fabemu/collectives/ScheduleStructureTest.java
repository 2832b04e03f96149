package io.fabemu.collectives;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabemu.core.optical.ConnectionPolicy;
import io.fabemu.core.optical.OpticalSizing;
import io.fabemu.core.optical.TransmissionCosts;
import java.util.HashMap;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;

/**
 * Invariants of the schedules of all ranks of a world, for any collective, algorithm, world size, count and root:
 * every send has exactly one receive with the same (source, destination, channel) and the same element count, and
 * vice versa; no rank posts two receives for one (source, channel); nobody messages itself.
 */
class ScheduleStructureTest {

  record Case(Collective collective, Algorithm algorithm, boolean hierarchical, int ppn) {}

  @Provide
  Arbitrary<Case> cases() {
    // A pipeline iteration needs its pipeline and connection policy: shouldPairEverySendWhenAPipelineIsBuilt.
    Arbitrary<Collective> collectives = Arbitraries.of(Collective.class).filter(c -> c != Collective.PIPELINE);
    return collectives.flatMap(c -> {
      Arbitrary<Algorithm> algorithms = Arbitraries.of(Algorithm.validFor(c))
          .filter(a -> a != Algorithm.AUTO && !a.inNetwork());
      Arbitrary<Boolean> hierarchical = c == Collective.ALLREDUCE ? Arbitraries.of(true, false)
          : Arbitraries.just(false);
      return Combinators.combine(algorithms, hierarchical, Arbitraries.integers().between(1, 6))
          .as((a, h, ppn) -> new Case(c, a, h, ppn));
    });
  }

  @Property(tries = 400)
  void shouldPairEverySendWithExactlyOneReceiveWhenAnyScheduleIsBuilt(@ForAll("cases") Case k,
      @ForAll @IntRange(min = 1, max = 40) int p, @ForAll @IntRange(min = 0, max = 20) int count,
      @ForAll @IntRange(min = 0, max = 39) int rootSeed) {
    int root = rootSeed % p;
    // (source, destination, channel) -> element count; sends add, receives remove.
    Map<String, Integer> sends = new HashMap<>();
    Map<String, Integer> receives = new HashMap<>();
    for (int rank = 0; rank < p; rank++) {
      boolean dimensionRing = k.algorithm() == Algorithm.DIMENSION_RING;
      boolean rings = k.algorithm().onEmbeddedRings();
      boolean tree = k.algorithm() == Algorithm.TREE;
      Schedule s = Schedules.build(k.collective(), k.algorithm(), rank, p, count, root,
          k.hierarchical() && !dimensionRing && !rings && !tree, k.ppn(), WorkloadSpec.DEFAULT_WINDOW,
          new RankLayout(dimensionRing ? gridOf(p) : null, rings ? TestRings.withReverse(p, 2, p) : null));
      collectTransfers(s, rank, p, sends, receives);
    }
    assertThat(receives).as("%s p=%d count=%d root=%d", k, p, count, root).isEqualTo(sends);
  }

  @Property(tries = 200)
  void shouldPairEverySendWithExactlyOneReceiveWhenAPipelineIsBuilt(@ForAll @IntRange(min = 2, max = 7) int servers,
      @ForAll @IntRange(min = 0, max = 2) int extraNpus, @ForAll StageCollective stage,
      @ForAll @IntRange(min = 0, max = 3) int methodIndex, @ForAll @IntRange(min = 1, max = 3) int microBatches,
      @ForAll @IntRange(min = 0, max = 9) int countSeed, @ForAll @IntRange(min = 0, max = 10) int globalCount) {
    int npus = OpticalSizing.minimumNpusPerServer(servers) + extraNpus;
    Algorithm method = Algorithm.TRANSMISSION_METHODS.get(methodIndex);
    if (method == Algorithm.SEND_BROADCAST && !stage.replicated()) method = Algorithm.SWITCH_SEND;
    int count = stage == StageCollective.ALLGATHER ? countSeed % 3 * npus : countSeed;
    ConnectionPolicy policy = ConnectionPolicy.byDefaultFormula(servers, npus);
    PipelineSpec spec = new PipelineSpec(servers, npus, microBatches, stage, 0, new TransmissionCosts(1, 1, 0, 0,
        true));
    int p = servers * npus;
    Map<String, Integer> sends = new HashMap<>();
    Map<String, Integer> receives = new HashMap<>();
    for (int rank = 0; rank < p; rank++) {
      Schedule s = PipelineIteration.build(spec, policy, method, Algorithm.RING, rank, count, globalCount);
      assertThat(s.partCount()).isEqualTo(PipelineIteration.PARTS);
      assertThat(s.partEnd(0)).isLessThanOrEqualTo(s.partEnd(1));
      assertThat(s.partEnd(1)).isLessThanOrEqualTo(s.stepCount());
      collectTransfers(s, rank, p, sends, receives);
    }
    assertThat(receives).as("M=%d N=%d %s %s", servers, npus, stage, method).isEqualTo(sends);
  }

  /** Adds the schedule's sends and receives, keyed (source, destination, channel), refusing duplicates. */
  private static void collectTransfers(Schedule s, int rank, int p, Map<String, Integer> sends,
                                       Map<String, Integer> receives) {
    for (int i = 0; i < s.stepCount(); i++) {
      Step step = s.step(i);
      for (int j = 0; j < step.sendCount(); j++) {
        Transfer t = step.send(j);
        assertThat(t.peer()).isBetween(0, p - 1).isNotEqualTo(rank);
        String key = rank + ">" + t.peer() + "#" + Integer.toHexString(t.channel());
        assertThat(sends.put(key, t.count())).as("duplicate send %s", key).isNull();
      }
      for (int j = 0; j < step.receiveCount(); j++) {
        Transfer t = step.receive(j);
        assertThat(t.peer()).isBetween(0, p - 1).isNotEqualTo(rank);
        String key = t.peer() + ">" + rank + "#" + Integer.toHexString(t.channel());
        assertThat(receives.put(key, t.count())).as("duplicate receive %s", key).isNull();
      }
    }
  }

  @Property(tries = 50)
  void shouldTakeTwoPMinusOneStepsWhenRingAllreduce(@ForAll @IntRange(min = 2, max = 64) int p,
      @ForAll @IntRange(min = 0, max = 63) int rank) {
    Schedule s = Schedules.build(Collective.ALLREDUCE, Algorithm.RING, rank % p, p, 100, 0, false, 1);
    assertThat(s.totalSends()).isEqualTo(2 * (p - 1));
    assertThat(s.totalReceives()).isEqualTo(2 * (p - 1));
  }

  @Property(tries = 100)
  void shouldStreamTheWindowThenAcknowledgeItOnceWhenWindowedSendRecv(@ForAll @IntRange(min = 1, max = 9) int p,
      @ForAll @IntRange(min = 0, max = 8) int rankSeed, @ForAll @IntRange(min = 1, max = 70) int window,
      @ForAll @IntRange(min = 0, max = 20) int count) {
    int rank = rankSeed % p;
    Schedule s = Schedules.build(Collective.SENDRECV, Algorithm.WINDOW, rank, p, count, 0, false, 1, window);
    boolean idle = rank == p - 1 && p % 2 == 1;
    if (idle) {
      assertThat(s.stepCount()).isZero();
    } else if (rank % 2 == 0) {
      // One step: the whole window of sends, and the acknowledgement's receive (no data) posted with them.
      assertThat(s.stepCount()).isEqualTo(1);
      assertThat(s.totalSends()).isEqualTo(window);
      assertThat(s.step(0).receive(0).count()).isZero();
      assertThat(s.resultBuffer()).isEqualTo(BufferId.INPUT);
      for (int k = 0; k < window; k++) {
        assertThat(s.step(0).send(k).peer()).isEqualTo(rank + 1);
        assertThat(s.step(0).send(k).count()).isEqualTo(count);
      }
    } else {
      // The window's receives, then the acknowledgement once all of them are in.
      assertThat(s.stepCount()).isEqualTo(2);
      assertThat(s.step(0).receiveCount()).isEqualTo(window);
      assertThat(s.step(1).sendCount()).isEqualTo(1);
      assertThat(s.step(1).send(0).count()).isZero();
      assertThat(s.outputCount()).isEqualTo(count);
    }
  }

  @Property(tries = 50)
  void shouldTakeCeilLogPRoundsWhenDisseminationBarrier(@ForAll @IntRange(min = 1, max = 300) int p) {
    Schedule s = Schedules.build(Collective.BARRIER, Algorithm.DISSEMINATION, p - 1, p, 0, 0, false, 1);
    int rounds = p == 1 ? 0 : 32 - Integer.numberOfLeadingZeros(p - 1);
    assertThat(s.stepCount()).isEqualTo(rounds);
    assertThat(s.totalSends()).isEqualTo(rounds);
  }

  /** A 2-D grid of {@code p} ranks when p has a factor, else a ring: the dimension-wise algorithm's layouts. */
  static RankGrid gridOf(int p) {
    for (int f = 2; f * f <= p; f++) {
      if (p % f == 0) return RankGrid.of(f, p / f);
    }
    return RankGrid.of(p);
  }
}
