package io.fabemu.nic;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** RFC 6298's smoothed round trip and variation, in integer picoseconds. */
class RoundTripEstimatorTest {

  @Test
  void theFirstSampleSetsTheEstimateAndHalfOfItAsTheVariation() {
    RoundTripEstimator e = new RoundTripEstimator();
    assertThat(e.hasSamples()).isFalse();
    assertThat(e.timeoutPs()).isZero();
    e.sample(8_000);
    assertThat(e.hasSamples()).isTrue();
    assertThat(e.smoothedPs()).isEqualTo(8_000);
    assertThat(e.variationPs()).isEqualTo(4_000);
    // R + 4 x R/2 = 3R.
    assertThat(e.timeoutPs()).isEqualTo(24_000);
  }

  @Test
  void laterSamplesMoveTheVariationAQuarterAndTheEstimateAnEighthOfTheWay() {
    RoundTripEstimator e = new RoundTripEstimator();
    e.sample(8_000);
    e.sample(16_000);
    // variation = (3 x 4000 + |8000 - 16000|) / 4 = 5000; smoothed = (7 x 8000 + 16000) / 8 = 9000.
    assertThat(e.variationPs()).isEqualTo(5_000);
    assertThat(e.smoothedPs()).isEqualTo(9_000);
    assertThat(e.timeoutPs()).isEqualTo(29_000);
    assertThat(e.sampleCount()).isEqualTo(2);
  }

  @Test
  void steadyRoundTripsShrinkTheVariationTowardsZero() {
    RoundTripEstimator e = new RoundTripEstimator();
    for (int i = 0; i < 100; i++) e.sample(40_000_000L);
    assertThat(e.smoothedPs()).isEqualTo(40_000_000L);
    assertThat(e.variationPs()).isLessThan(10);
    assertThat(e.timeoutPs()).isBetween(40_000_000L, 40_000_040L);
  }

  @Test
  void refusesANegativeRoundTrip() {
    assertThatThrownBy(() -> new RoundTripEstimator().sample(-1)).isInstanceOf(IllegalArgumentException.class);
  }
}
