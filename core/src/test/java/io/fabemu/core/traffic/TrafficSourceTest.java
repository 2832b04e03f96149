package io.fabemu.core.traffic;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The geometric skip-ahead makes exactly the per-cycle Bernoulli arrival process, and sources are deterministic
 * functions of their seed. Statistical checks run on fixed seeds, so they give the same verdict every run; their
 * bounds are about 5 standard errors, so a wrong distribution (an off-by-one gap, a wrong probability) fails them.
 */
class TrafficSourceTest {
  private static final NetworkShape MESH_4X4 = NetworkShape.mesh(4, 4, 1);
  private static final DestinationPicker UNIFORM = DestinationPicker.of(TrafficPattern.UNIFORM, MESH_4X4, null);
  private static final long NO_END = Long.MAX_VALUE / 2;

  /** Mean and variance of the gaps between consecutive creation cycles, and the frequency of each small gap. */
  private static double[] gapMoments(TrafficSource source, int gaps, double[] gapFrequencies) {
    long previous = source.nextPacketCycle();
    double sum = 0;
    double sumOfSquares = 0;
    for (int i = 0; i < gaps; i++) {
      source.advance();
      long gap = source.nextPacketCycle() - previous;
      previous = source.nextPacketCycle();
      sum += gap;
      sumOfSquares += (double) gap * gap;
      if (gap < gapFrequencies.length) gapFrequencies[(int) gap] += 1.0 / gaps;
    }
    double mean = sum / gaps;
    return new double[] {mean, sumOfSquares / gaps - mean * mean};
  }

  @Test
  void shouldSpaceArrivalsLikeBernoulliCyclesAtLowProbability() {
    // L = 0.4 flits/node/cycle, 4-flit packets: p = 0.1 per cycle. Inter-arrival gap = 1 + Geometric(p):
    // mean 1/p = 10, variance (1-p)/p^2 = 90. Over 400,000 gaps the standard errors are 0.015 and 0.4.
    TrafficSource source = new TrafficSource(UNIFORM, 3, 0.4, 4, NO_END, 20_240_601L);
    double[] frequencies = new double[4];
    double[] moments = gapMoments(source, 400_000, frequencies);

    assertThat(moments[0]).isCloseTo(10.0, within(0.08));
    assertThat(moments[1]).isCloseTo(90.0, within(2.0));
    // P(gap = k) = (1-p)^(k-1) p; a gap of 0 is impossible (one packet per cycle at most).
    assertThat(frequencies[0]).isZero();
    assertThat(frequencies[1]).isCloseTo(0.1, within(0.0025));
    assertThat(frequencies[2]).isCloseTo(0.09, within(0.0025));
    assertThat(frequencies[3]).isCloseTo(0.081, within(0.0025));
  }

  @Test
  void shouldSpaceArrivalsLikeBernoulliCyclesAtHighProbability() {
    // p = 0.75: mean 4/3, variance 0.25/0.5625 = 4/9.
    TrafficSource source = new TrafficSource(UNIFORM, 0, 0.75, 1, NO_END, 99L);
    double[] frequencies = new double[3];
    double[] moments = gapMoments(source, 400_000, frequencies);

    assertThat(moments[0]).isCloseTo(4.0 / 3.0, within(0.005));
    assertThat(moments[1]).isCloseTo(4.0 / 9.0, within(0.01));
    assertThat(frequencies[1]).isCloseTo(0.75, within(0.004));
    assertThat(frequencies[2]).isCloseTo(0.1875, within(0.004));
  }

  @Test
  void shouldPutBinomiallyManyPacketsInAFixedWindowOfCycles() {
    // Per-cycle Bernoulli(p) means Binomial(100, p) packets in any 100 cycles: p = 0.2, mean 20, variance 16.
    TrafficSource source = new TrafficSource(UNIFORM, 9, 0.6, 3, 2_000_000L, 5L);
    int windows = 20_000;
    int[] counts = new int[windows];
    while (source.hasNext()) {
      counts[(int) (source.nextPacketCycle() / 100)]++;
      source.advance();
    }
    double mean = 0;
    double square = 0;
    for (int count : counts) {
      mean += count;
      square += (double) count * count;
    }
    mean /= windows;
    double variance = square / windows - mean * mean;
    assertThat(mean).isCloseTo(20.0, within(0.15));
    assertThat(variance).isCloseTo(16.0, within(0.8));
  }

  @Test
  void shouldStartTheFirstPacketAtAGeometricCycleFromZero() {
    // The first packet is in cycle k with probability (1-p)^k p: mean (1-p)/p = 3 for p = 0.25.
    double sum = 0;
    int sources = 40_000;
    for (int seed = 0; seed < sources; seed++) {
      sum += new TrafficSource(UNIFORM, 1, 0.5, 2, NO_END, seed).nextPacketCycle();
    }
    assertThat(sum / sources).isCloseTo(3.0, within(0.08));
  }

  @Test
  void shouldCreateAPacketEveryCycleAtFullLoad() {
    TrafficSource source = new TrafficSource(UNIFORM, 2, 1.0, 1, 50L, 1L);
    for (long cycle = 0; cycle < 50; cycle++) {
      assertThat(source.nextPacketCycle()).isEqualTo(cycle);
      assertThat(source.nextPacketNumber()).isEqualTo(cycle);
      assertThat(source.nextDestination()).isNotEqualTo(2).isBetween(0, 15);
      source.advance();
    }
    assertThat(source.hasNext()).isFalse();
    assertThat(source.nextPacketCycle()).isEqualTo(Long.MAX_VALUE);
    assertThatThrownBy(source::nextDestination).isInstanceOf(IllegalStateException.class);
    assertThatThrownBy(source::advance).isInstanceOf(IllegalStateException.class);
  }

  @Test
  void shouldCreatePacketsUntilTheEndOfTheDrain() {
    TrafficSpec spec = new TrafficSpec(TrafficPattern.UNIFORM, null, 5, List.of(0.1, 0.5), 100, 1_000, 400);
    TrafficSource source = TrafficSource.forLoad(spec, 1, UNIFORM, 6, 77L);
    TrafficSource same = new TrafficSource(UNIFORM, 6, 0.5, 5, 1_500L, TrafficSource.seed(77L, 6, 1));
    long last = -1;
    int packets = 0;
    while (source.hasNext()) {
      assertThat(source.nextPacketCycle()).isGreaterThan(last).isEqualTo(same.nextPacketCycle());
      assertThat(source.nextDestination()).isEqualTo(same.nextDestination());
      last = source.nextPacketCycle();
      packets++;
      source.advance();
      same.advance();
    }
    assertThat(same.hasNext()).isFalse();
    assertThat(last).isLessThan(1_500L).isGreaterThan(1_400L);
    // p = 0.1 over 1,500 cycles: 150 expected, sd 11.6.
    assertThat(packets).isBetween(100, 200);
  }

  @Test
  void shouldRepeatTheSameSequenceForTheSameSeed() {
    assertThat(sequence(0, 1)).isEqualTo(sequence(0, 1));
  }

  @Test
  void shouldGiveOtherNodesAndLoadsUnrelatedSequences() {
    List<Long> node0 = cycles(0, 0);
    List<Long> node1 = cycles(1, 0);
    List<Long> otherLoad = cycles(0, 1);
    assertThat(node1).isNotEqualTo(node0);
    assertThat(otherLoad).isNotEqualTo(node0);
    // Neither is a shifted copy of the other (what linearly combined SplittableRandom seeds would give).
    for (int shift = 1; shift <= 4; shift++) {
      assertThat(gaps(node1).subList(shift, 36 + shift)).isNotEqualTo(gaps(node0).subList(0, 36));
      assertThat(gaps(node0).subList(shift, 36 + shift)).isNotEqualTo(gaps(node1).subList(0, 36));
    }
    assertThat(TrafficSource.seed(1L, 0, 0)).isNotEqualTo(TrafficSource.seed(2L, 0, 0));
  }

  private static List<String> sequence(int node, long scenarioSeed) {
    TrafficSource source = new TrafficSource(UNIFORM, node, 0.3, 2, NO_END, TrafficSource.seed(scenarioSeed, node, 0));
    List<String> packets = new ArrayList<>();
    for (int i = 0; i < 1_000; i++) {
      packets.add(source.nextPacketCycle() + "->" + source.nextDestination());
      source.advance();
    }
    return packets;
  }

  private static List<Long> cycles(int node, int loadIndex) {
    TrafficSource source =
        new TrafficSource(UNIFORM, node, 0.3, 1, NO_END, TrafficSource.seed(2024L, node, loadIndex));
    List<Long> cycles = new ArrayList<>();
    for (int i = 0; i < 41; i++) {
      cycles.add(source.nextPacketCycle());
      source.advance();
    }
    return cycles;
  }

  private static List<Long> gaps(List<Long> cycles) {
    List<Long> gaps = new ArrayList<>();
    for (int i = 1; i < cycles.size(); i++) gaps.add(cycles.get(i) - cycles.get(i - 1));
    return gaps;
  }

  @Test
  void shouldCreateNothingAtANodeThePatternSilences() {
    DestinationPicker transpose = DestinationPicker.of(TrafficPattern.TRANSPOSE, MESH_4X4, null);
    TrafficSource diagonal = new TrafficSource(transpose, 5, 1.0, 1, 1_000L, 1L);
    TrafficSource offDiagonal = new TrafficSource(transpose, 6, 1.0, 1, 1_000L, 1L);

    assertThat(diagonal.hasNext()).isFalse();
    assertThat(offDiagonal.nextDestination()).isEqualTo(9);
  }

  @Test
  void shouldRejectAPacketProbabilityAboveOne() {
    assertThatThrownBy(() -> new TrafficSource(UNIFORM, 0, 2.0, 1, 10L, 1L))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("(0, 1]").hasMessageContaining("2.0 / 1");
    assertThatThrownBy(() -> new TrafficSource(UNIFORM, 0, 0.0, 4, 10L, 1L))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("0.0 / 4");
    assertThatThrownBy(() -> new TrafficSource(UNIFORM, 16, 0.5, 1, 10L, 1L))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("got 16");
  }
}
