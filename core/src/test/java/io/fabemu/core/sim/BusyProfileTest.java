package io.fabemu.core.sim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** A link's busy periods: checked where built, cut by time, compared by content. */
class BusyProfileTest {

  private static BusyProfile profile(long mergedGapPs, long[] starts, long[] ends, long[] busy) {
    long total = 0;
    for (long b : busy) total += b;
    return new BusyProfile(total, starts, ends, busy, mergedGapPs);
  }

  @Test
  void shouldShareAMergedPeriodInProportionAndSayItIsAnEstimate() {
    // one full period [0, 100) and one merged [200, 400) holding 100 ps of busy time
    BusyProfile p = profile(20, new long[] {0, 200}, new long[] {100, 400}, new long[] {100, 100});

    assertThat(p.busyWithinPs(0, 100)).isEqualTo(100);
    assertThat(p.exactWithin(0, 150)).isTrue();
    assertThat(p.busyWithinPs(0, 300)).isEqualTo(150);
    assertThat(p.exactWithin(0, 300)).isFalse();
    assertThat(p.busyWithinPs(100, 200)).isZero();
    assertThat(p.busyWithinPs(400, 1_000)).isZero();
  }

  @Test
  void shouldRefusePeriodsThatAreNotOneAfterAnother() {
    assertThatThrownBy(() -> profile(0, new long[] {0, 50}, new long[] {100, 150}, new long[] {100, 100}))
        .hasMessageContaining("period 1");
    assertThatThrownBy(() -> profile(0, new long[] {0}, new long[] {10}, new long[] {11}))
        .hasMessageContaining("period 0");
    assertThatThrownBy(() -> new BusyProfile(5, new long[] {0}, new long[] {10}, new long[] {4}, 0))
        .hasMessageContaining("total 5");
    assertThatThrownBy(() -> new BusyProfile(5, new long[] {0}, new long[0], new long[0], 0))
        .hasMessageContaining("1 starts, 0 ends");
  }

  @Test
  void shouldKnowAnUntimedProfileCannotBeCut() {
    BusyProfile untimed = BusyProfile.untimed(10);

    assertThat(untimed.timed()).isFalse();
    assertThat(untimed.exactWithin(0, 5)).isFalse();
    assertThatThrownBy(() -> untimed.busyWithinPs(0, 5)).isInstanceOf(IllegalStateException.class);
    assertThat(BusyProfile.untimed(0)).isSameAs(BusyProfile.IDLE);
    assertThat(BusyProfile.IDLE.timed()).isTrue();
    assertThat(BusyProfile.IDLE.busyWithinPs(0, 5)).isZero();
  }

  @Test
  void shouldCompareByContent() {
    BusyProfile a = profile(0, new long[] {0}, new long[] {10}, new long[] {10});
    BusyProfile b = profile(0, new long[] {0}, new long[] {10}, new long[] {10});
    BusyProfile c = profile(0, new long[] {0}, new long[] {11}, new long[] {11});

    assertThat(a).isEqualTo(b).hasSameHashCodeAs(b).isNotEqualTo(c);
  }
}
