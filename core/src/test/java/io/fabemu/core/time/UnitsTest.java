package io.fabemu.core.time;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Exact, rounded-up transfer times, from the smallest to the largest rates. */
class UnitsTest {

  @Test
  void shouldRoundUpWhenTransferDoesNotDivideEvenly() {
    // 1 B at 3 bps: 8/3 s = 2.666... s.
    assertThat(Units.transferPs(1, 3)).isEqualTo(2_666_666_666_667L);
    assertThat(Units.transferPs(1000, 100 * Units.GBPS)).isEqualTo(80_000L);
    assertThat(Units.transferPs(1 << 20, 10 * Units.GBPS)).isEqualTo(838_860_800L);
  }

  @Test
  void shouldCostNothingWhenRateIsZeroOrNothingMoves() {
    assertThat(Units.transferPs(1000, 0)).isZero();
    assertThat(Units.transferPs(0, Units.GBPS)).isZero();
  }

  @Test
  void shouldNotOverflowWhenRateIsNearLongMaxValue() {
    // 8e12 bit-ps over ~9.2e18 bps is a fraction of a picosecond: rounded up to 1, never negative.
    assertThat(Units.transferPs(1, Long.MAX_VALUE)).isEqualTo(1L);
    assertThat(Units.transferPs(999_999, Long.MAX_VALUE)).isEqualTo(1L);
    assertThat(Units.transferPs(999_999, Long.MAX_VALUE - 1)).isEqualTo(1L);
    assertThat(Units.transferPs(2_000_000, Long.MAX_VALUE)).isEqualTo(2L);
    // 8e18 / (8e18 - 1): just above 1.
    assertThat(Units.transferPs(1_000_000 - 1, 8L * (1_000_000 - 1) * Units.PS_PER_S - 1)).isEqualTo(2L);
    assertThat(Units.transferPs(1_000_000 - 1, 8L * (1_000_000 - 1) * Units.PS_PER_S)).isEqualTo(1L);
  }
}
