package io.fabemu.core.traffic;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The OSU-style text table of a sweep. */
class TrafficTableTest {
  private static final List<LoadPoint> SWEEP = List.of(
      new LoadPoint(0.05, 0.0502, 0.0499, 14.2, 25, 2.6667, 12_345, 12_345, true),
      new LoadPoint(0.25, 0.2497, 0.2488, 19.125, 41, 2.6667, 61_002, 61_002, true),
      new LoadPoint(0.45, 0.4501, 0.3312, 161.0, 1_203, 2.5, 99_870, 98_000, false));

  @Test
  void shouldRightAlignEveryColumnAndMarkTheSaturatedRow() {
    Saturation saturation = SaturationFinder.standard().find(SWEEP).orElseThrow();

    String table = TrafficTable.format(SWEEP, Optional.of(saturation));

    assertThat(table).isEqualTo(
        "# Synthetic traffic: loads in flits/node/cycle, latencies in cycles from creation to tail ejection\n"
        + "# Offered  Accepted  Avg latency  P99 latency  Avg hops  Packets\n"
        + "   0.0500    0.0499        14.20           25      2.67    12345\n"
        + "   0.2500    0.2488        19.13           41      2.67    61002\n"
        + "   0.4500    0.3312       161.00         1203      2.50    98000  <- saturated (drain incomplete)\n"
        + "# saturation between 0.2500 and 0.4500 flits/node/cycle (drain incomplete)\n");
  }

  @Test
  void shouldShowMissingLatenciesAsDashesAndSayWhenNothingSaturated() {
    List<LoadPoint> points = List.of(
        new LoadPoint(0.001, 0.0, 0.0, Double.NaN, Double.NaN, Double.NaN, 0, 0, true),
        new LoadPoint(0.1, 0.1, 0.1, 1_234_567.891, 2_000_000, 12.25, 7, 7, true));

    String[] lines = TrafficTable.format(points, Optional.empty()).split("\n");

    assertThat(lines).hasSize(5);
    assertThat(lines[2]).isEqualTo("   0.0010    0.0000            -            -         -        0");
    assertThat(lines[3]).isEqualTo("   0.1000    0.1000   1234567.89      2000000     12.25        7");
    assertThat(lines[1]).hasSameSizeAs(lines[2]);
    assertThat(lines[4]).isEqualTo("# no saturation within the sweep");
  }

  @Test
  void shouldRejectASaturationOutsideThePoints() {
    Saturation beyond = new Saturation(3, 0.45, 0.5, Saturation.Reason.LATENCY, 10);
    assertThatThrownBy(() -> TrafficTable.format(SWEEP, Optional.of(beyond)))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("got 3");
  }
}
