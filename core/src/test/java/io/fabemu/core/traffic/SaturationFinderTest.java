package io.fabemu.core.traffic;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The saturation point of hand-made latency-vs-load curves, and evenly spaced sweeps. */
class SaturationFinderTest {
  private static final SaturationFinder FINDER = SaturationFinder.standard();

  /** A point whose sources generated exactly the offered load, with a complete drain. */
  private static LoadPoint point(double offered, double accepted, double latency) {
    return new LoadPoint(offered, offered, accepted, latency, latency * 2, 2.5, 1_000, 1_000, true);
  }

  @Test
  void shouldSaturateAtTheFirstLoadAboveThreeTimesTheZeroLoadLatency() {
    List<LoadPoint> curve = List.of(point(0.1, 0.1, 10), point(0.2, 0.2, 12), point(0.3, 0.3, 30),
        point(0.4, 0.4, 31), point(0.5, 0.5, 80));

    Saturation saturation = FINDER.find(curve).orElseThrow();

    // 30 is not above 3 x 10; 31 is.
    assertThat(saturation.saturatedIndex()).isEqualTo(3);
    assertThat(saturation.lastStableLoad()).isEqualTo(0.3);
    assertThat(saturation.saturatedLoad()).isEqualTo(0.4);
    assertThat(saturation.reason()).isEqualTo(Saturation.Reason.LATENCY);
    assertThat(saturation.zeroLoadLatencyCycles()).isEqualTo(10.0);
    assertThat(saturation.hasStableLoad()).isTrue();
  }

  @Test
  void shouldCompareWithASuppliedZeroLoadLatency() {
    List<LoadPoint> curve = List.of(point(0.1, 0.1, 10), point(0.2, 0.2, 16), point(0.3, 0.3, 31));

    Saturation saturation = FINDER.find(curve, 5.0).orElseThrow();

    assertThat(saturation.saturatedIndex()).isEqualTo(1);
    assertThat(saturation.zeroLoadLatencyCycles()).isEqualTo(5.0);
    assertThatThrownBy(() -> FINDER.find(curve, 0.0))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("zero-load latency");
  }

  @Test
  void shouldSaturateWhenAcceptedFallsMoreThanFivePercentBelowGenerated() {
    // 0.29 of 0.3 is 3.3 % short (stable); 0.37 of 0.4 is 7.5 % short.
    List<LoadPoint> curve = List.of(point(0.1, 0.1, 10), point(0.3, 0.29, 20), point(0.4, 0.37, 25));

    Saturation saturation = FINDER.find(curve).orElseThrow();

    assertThat(saturation.saturatedIndex()).isEqualTo(2);
    assertThat(saturation.reason()).isEqualTo(Saturation.Reason.THROUGHPUT);
    assertThat(new SaturationFinder(3.0, 0.10).find(curve)).isEmpty();
  }

  @Test
  void shouldJudgeThroughputAgainstTheGeneratedLoadNotTheNominalOne() {
    // The sources happened to generate 0.37 at a nominal 0.4, and the network carried all of it.
    LoadPoint lucky = new LoadPoint(0.4, 0.37, 0.37, 20, 40, 2.5, 1_000, 1_000, true);
    assertThat(FINDER.find(List.of(point(0.1, 0.1, 10), lucky))).isEmpty();
  }

  @Test
  void shouldSaturateWhenTheDrainDidNotComplete() {
    LoadPoint stuck = new LoadPoint(0.3, 0.3, 0.3, 12, 20, 2.5, 1_000, 990, false);
    List<LoadPoint> curve = List.of(point(0.1, 0.1, 10), point(0.2, 0.2, 11), stuck);

    Saturation saturation = FINDER.find(curve).orElseThrow();
    assertThat(saturation.saturatedIndex()).isEqualTo(2);
    assertThat(saturation.reason()).isEqualTo(Saturation.Reason.DRAIN_INCOMPLETE);

    Saturation atOnce = FINDER.find(List.of(stuck)).orElseThrow();
    assertThat(atOnce.hasStableLoad()).isFalse();
    assertThat(atOnce.lastStableLoad()).isNaN();
  }

  @Test
  void shouldFindNoSaturationOnAFlatCurve() {
    List<LoadPoint> curve = List.of(point(0.1, 0.1, 10), point(0.2, 0.2, 14), point(0.3, 0.3, 29.9));
    assertThat(FINDER.find(curve)).isEqualTo(Optional.empty());
  }

  @Test
  void shouldTakeTheZeroLoadLatencyFromTheFirstPointThatHasOne() {
    LoadPoint empty = new LoadPoint(0.01, 0.0, 0.0, Double.NaN, Double.NaN, Double.NaN, 0, 0, true);
    List<LoadPoint> curve = List.of(empty, point(0.1, 0.1, 10), point(0.2, 0.2, 35));

    Saturation saturation = FINDER.find(curve).orElseThrow();
    assertThat(saturation.saturatedIndex()).isEqualTo(2);
    assertThat(saturation.zeroLoadLatencyCycles()).isEqualTo(10.0);
  }

  @Test
  void shouldRejectCurvesNotInIncreasingLoadAndBadCriteria() {
    assertThatThrownBy(() -> FINDER.find(List.of(point(0.2, 0.2, 10), point(0.1, 0.1, 10))))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("strictly increasing");
    assertThatThrownBy(() -> FINDER.find(List.of()))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("at least one");
    assertThatThrownBy(() -> new SaturationFinder(1.0, 0.05))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("latency factor");
    assertThatThrownBy(() -> new SaturationFinder(3.0, 1.0))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("tolerance");
  }

  @Test
  void shouldSpaceLoadsEvenlyBetweenBothBounds() {
    List<Double> loads = LoadSweep.evenlySpacedLoads(0.1, 0.5, 5);

    assertThat(loads).hasSize(5);
    double[] expected = {0.1, 0.2, 0.3, 0.4, 0.5};
    for (int i = 0; i < 5; i++) assertThat(loads.get(i)).isCloseTo(expected[i], within(1e-12));
    assertThat(loads.get(4)).isEqualTo(0.5);
    // Usable as a spec's loads: in (0, 1], strictly increasing.
    new TrafficSpec(TrafficPattern.UNIFORM, null, 1, LoadSweep.evenlySpacedLoads(0.01, 1.0, 100), 0, 10, 0);
    assertThatThrownBy(() -> LoadSweep.evenlySpacedLoads(0.1, 0.5, 1))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("count");
    assertThatThrownBy(() -> LoadSweep.evenlySpacedLoads(0.5, 0.1, 3))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("last load");
    assertThatThrownBy(() -> LoadSweep.evenlySpacedLoads(0.0, 0.5, 3))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("first load");
  }
}
