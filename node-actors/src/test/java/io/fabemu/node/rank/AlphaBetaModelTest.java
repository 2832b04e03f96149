package io.fabemu.node.rank;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.fabemu.collectives.Algorithm;
import io.fabemu.collectives.Collective;
import io.fabemu.collectives.WorkloadSpec;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * On the ideal network with zero CPU costs, each allreduce takes exactly its textbook alpha-beta time
 * (Thakur, Rabenseifner and Gropp 2005, section 4.4), n being the message size in bytes.
 */
class AlphaBetaModelTest {
  private static final long ALPHA = 1_000_000; // 1 us
  private static final long BETA = 100;        // ps per byte: 10 GB/s

  @Test
  void shouldTakeTwoPMinusOneAlphaPlusBandwidthTermWhenRingAllreduce() {
    for (int p : new int[] {2, 3, 4, 5, 7, 8, 12, 16}) {
      long n = 4L * p * 256;
      long expected = 2L * (p - 1) * ALPHA + 2L * (p - 1) * (n / p) * BETA;
      assertThat(latency(Algorithm.RING, p, n)).as("p=%d", p).isEqualTo(expected);
    }
  }

  @Test
  void shouldTakeLogPTimesAlphaPlusNBetaWhenRecursiveDoublingOnPowerOfTwo() {
    for (int p : new int[] {2, 4, 8, 16}) {
      long n = 4096;
      long expected = log2(p) * (ALPHA + n * BETA);
      assertThat(latency(Algorithm.RECURSIVE_DOUBLING, p, n)).as("p=%d", p).isEqualTo(expected);
    }
  }

  @Test
  void shouldTakeBetweenLPlusOneAndLPlusTwoHopsWhenRecursiveDoublingOnNonPowerOfTwo() {
    // Run one after another, MPICH's pre-step, core and post-step take L + 2 hops (L = log2 pof2). Core ranks
    // outside the first 2·rem start at once, so on a contention-free network the critical path is shorter when a
    // late rank's partners are on time. Hops worked out by hand: p=3: 2, p=5: 3, p=7: 4, p=12: 4.
    int[][] hopsByWorld = {{3, 2}, {5, 3}, {7, 4}, {12, 4}};
    for (int[] row : hopsByWorld) {
      int p = row[0];
      long n = 4096;
      long hop = ALPHA + n * BETA;
      long levels = log2(Integer.highestOneBit(p));
      assertThat((long) row[1]).isBetween(levels + 1, levels + 2);
      assertThat(latency(Algorithm.RECURSIVE_DOUBLING, p, n)).as("p=%d", p).isEqualTo(row[1] * hop);
    }
  }

  @Test
  void shouldTakeTwoLogPTimesAlphaPlusNBetaWhenBinomialReduceThenBroadcast() {
    for (int p : new int[] {2, 4, 8, 16}) {
      long n = 4096;
      long expected = 2 * log2(p) * (ALPHA + n * BETA);
      assertThat(latency(Algorithm.BINOMIAL, p, n)).as("p=%d", p).isEqualTo(expected);
    }
  }

  @Test
  void shouldTakeTwoLogPAlphaPlusTwoPMinusOneOverPNBetaWhenRabenseifner() {
    for (int p : new int[] {2, 4, 8, 16}) {
      long n = 4L * p * 1024;
      long expected = 2 * log2(p) * ALPHA + 2L * (p - 1) * (n / p) * BETA;
      assertThat(latency(Algorithm.RABENSEIFNER, p, n)).as("p=%d", p).isEqualTo(expected);
    }
  }

  @Test
  void shouldStayWithinTwoPercentOfTheModelWhenCountIsNotDivisible() {
    long n = 4L * 262_147; // 1 MiB + 12 B of float32: divisible by no p below
    for (int p : new int[] {3, 5, 7, 12}) {
      double ring = 2.0 * (p - 1) * ALPHA + 2.0 * (p - 1) / p * n * BETA;
      assertThat((double) latency(Algorithm.RING, p, n)).as("ring p=%d", p).isCloseTo(ring, within(ring * 0.02));
    }
    for (int p : new int[] {8, 16}) {
      double rab = 2.0 * log2(p) * ALPHA + 2.0 * (p - 1) / p * n * BETA;
      assertThat((double) latency(Algorithm.RABENSEIFNER, p, n)).as("rabenseifner p=%d", p)
          .isCloseTo(rab, within(rab * 0.02));
    }
  }

  @Test
  void shouldChargeOverheadsOnceEachWayWhenPingPong() {
    long n = 1000;
    long send = 300_000;
    long recv = 400_000;
    IdealNetwork net = new IdealNetwork(ALPHA, BETA).overheads(send, recv, 7, 3);
    WorkloadSpec w = Workloads.timed(Collective.SENDRECV, Algorithm.PING_PONG, n);
    RankWorkload[] ranks = net.createRanks(w, 2, 1);
    net.run();
    assertThat(ranks[0].results().get(0).totalLatencyPs()).isEqualTo(2 * (send + ALPHA + n * BETA + recv));
    assertThat(ranks[1].results().get(0).totalLatencyPs()).isEqualTo(2 * send + recv + ALPHA + n * BETA);
  }

  @Test
  void shouldTakeOneExchangeOnEveryRankWhenSendrecvRing() {
    // nccl-tests' sendrecv: every rank sends to the next and receives from the previous at once.
    long n = 1000;
    long send = 300_000;
    long recv = 400_000;
    IdealNetwork net = new IdealNetwork(ALPHA, BETA).overheads(send, recv, 7, 3);
    WorkloadSpec w = Workloads.timed(Collective.SENDRECV, Algorithm.RING, n);
    RankWorkload[] ranks = net.createRanks(w, 5, 1);
    net.run();
    for (RankWorkload r : ranks) {
      assertThat(r.results().get(0).totalLatencyPs()).isEqualTo(send + ALPHA + n * BETA + recv);
      assertThat(r.results().get(0).wrongElements()).isZero();
    }
  }

  @Test
  void shouldTakeTheWindowsSendsOneMessageTimeAndTheAcknowledgementWhenWindowedSendRecv() {
    long n = 1000;
    for (int window : new int[] {1, 2, 64}) {
      // Sends cost more than receives: the sender's CPU paces the window.
      long send = 400_000;
      long recv = 300_000;
      long expected = (window + 1) * send + 2 * ALPHA + n * BETA + 2 * recv;
      assertThat(windowLatencies(window, n, send, recv)).as("window %d, send-bound", window)
          .containsExactly(expected, window * send + ALPHA + n * BETA + recv + send);
      // Receives cost more: the receiver's CPU paces it once the first message is in.
      send = 300_000;
      recv = 500_000;
      expected = 2 * send + 2 * ALPHA + n * BETA + (window + 1) * recv;
      assertThat(windowLatencies(window, n, send, recv)).as("window %d, receive-bound", window)
          .containsExactly(expected, send + ALPHA + n * BETA + window * recv + send);
    }
  }

  @Test
  void shouldReduceToTwoAlphasAndOneMessageWhenTheWindowCostsNoCpu() {
    // On a network without contention every message of the window flies at once: what osu_bw measures there is
    // one message time plus the acknowledgement, whatever the window.
    for (int window : new int[] {1, 8, 64}) {
      assertThat(windowLatencies(window, 4096, 0, 0)[0]).isEqualTo(2 * ALPHA + 4096 * BETA);
    }
  }

  /** The sender's and the receiver's latency of one windowed operation; both outputs checked. */
  private static long[] windowLatencies(int window, long n, long send, long recv) {
    IdealNetwork net = new IdealNetwork(ALPHA, BETA).overheads(send, recv, 7, 3);
    WorkloadSpec w = Workloads.timed(Collective.SENDRECV, Algorithm.WINDOW, n).withWindow(window);
    RankWorkload[] ranks = net.createRanks(w, 2, 1);
    net.run();
    // The window, its acknowledgement, and one message each way of the (untimed) barrier after the iteration.
    assertThat(net.messages()).isEqualTo(window + 1L + 2);
    assertThat(ranks[0].results().get(0).wrongElements() + ranks[1].results().get(0).wrongElements()).isZero();
    return new long[] {ranks[0].results().get(0).totalLatencyPs(), ranks[1].results().get(0).totalLatencyPs()};
  }

  @Test
  void shouldChargeCopyReduceAndOverheadsWhenTwoRanksAllreduce() {
    long n = 4000;
    long send = 300_000;
    long recv = 400_000;
    long reducePerByte = 7;
    long copyPerByte = 3;
    IdealNetwork net = new IdealNetwork(ALPHA, BETA).overheads(send, recv, reducePerByte, copyPerByte);
    WorkloadSpec w = Workloads.timed(Collective.ALLREDUCE, Algorithm.RECURSIVE_DOUBLING, n);
    RankWorkload[] ranks = net.createRanks(w, 2, 1);
    net.run();
    long expected = n * copyPerByte + send + ALPHA + n * BETA + recv + n * reducePerByte;
    assertThat(ranks[0].results().get(0).totalLatencyPs()).isEqualTo(expected);
    assertThat(ranks[1].results().get(0).totalLatencyPs()).isEqualTo(expected);
  }

  private static long latency(Algorithm algorithm, int p, long sizeBytes) {
    WorkloadSpec w = WorkloadSpec.builder(Collective.ALLREDUCE, List.of(algorithm), List.of(sizeBytes)).build();
    IdealNetwork net = new IdealNetwork(ALPHA, BETA);
    RankWorkload[] ranks = net.createRanks(w, p, 7);
    net.run();
    long max = 0;
    for (RankWorkload r : ranks) {
      assertThat(r.results().get(0).wrongElements()).isZero();
      max = Math.max(max, r.results().get(0).maxLatencyPs());
    }
    return max;
  }

  private static long log2(int p) {
    return Integer.numberOfTrailingZeros(Integer.highestOneBit(p));
  }
}
