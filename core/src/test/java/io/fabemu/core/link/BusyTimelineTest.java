package io.fabemu.core.link;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabemu.core.sim.BusyProfile;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** When a port was busy, in bounded memory: joins, merges of the shortest gaps, totals kept. */
class BusyTimelineTest {

  @Test
  void shouldJoinBackToBackIntervalsIntoOneFullPeriod() {
    BusyTimeline timeline = new BusyTimeline(8);
    timeline.add(100, 50);
    timeline.add(150, 50);
    timeline.add(200, 25);

    BusyProfile profile = timeline.profile();

    assertThat(profile.periods()).isEqualTo(1);
    assertThat(profile.startsPs()).containsExactly(100);
    assertThat(profile.endsPs()).containsExactly(225);
    assertThat(profile.totalPs()).isEqualTo(125);
    assertThat(profile.mergedGapPs()).isZero();
    // a full period cuts exactly anywhere
    assertThat(profile.busyWithinPs(0, 137)).isEqualTo(37);
    assertThat(profile.exactWithin(0, 137)).isTrue();
  }

  @Test
  void shouldKeepIntervalsWithAPauseBetweenThemApart() {
    BusyTimeline timeline = new BusyTimeline(8);
    timeline.add(0, 10);
    timeline.add(20, 10);
    timeline.add(0 + 20 + 10, 0);   // nothing sent: nothing recorded

    BusyProfile profile = timeline.profile();

    assertThat(profile.startsPs()).containsExactly(0, 20);
    assertThat(profile.endsPs()).containsExactly(10, 30);
    assertThat(profile.busyWithinPs(10, 20)).isZero();
    assertThat(profile.busyWithinPs(5, 25)).isEqualTo(10);
  }

  @Test
  void shouldMergeTheShortestGapsWhenFullAndKeepTheLongPausesBetweenCases() {
    // Ten "cases" of ten packets each: 1 ps pauses inside a case, 1,000 ps between cases. Eight periods cannot hold
    // a hundred packets; what must survive are the pauses between cases, the longest.
    BusyTimeline timeline = new BusyTimeline(16);
    long t = 0;
    long[] caseStartsPs = new long[10];
    long[] caseEndsPs = new long[10];
    for (int c = 0; c < 10; c++) {
      caseStartsPs[c] = t;
      for (int p = 0; p < 10; p++) {
        timeline.add(t, 7);
        t += 8;
      }
      caseEndsPs[c] = t;
      t += 1_000;
    }

    BusyProfile profile = timeline.profile();

    assertThat(profile.periods()).isLessThanOrEqualTo(16);
    assertThat(profile.totalPs()).isEqualTo(10 * 10 * 7);
    assertThat(profile.mergedGapPs()).isEqualTo(1);
    for (int c = 0; c < 10; c++) {
      assertThat(profile.busyWithinPs(caseStartsPs[c], caseEndsPs[c])).as("case %d", c).isEqualTo(70);
      assertThat(profile.exactWithin(caseStartsPs[c], caseEndsPs[c])).isTrue();
    }
    // an edge inside a merged period is an estimate, and says so
    assertThat(profile.exactWithin(caseStartsPs[3] + 20, caseEndsPs[3])).isFalse();
  }

  @Test
  void shouldKeepTheTotalWhenAnIntervalOverlapsTheLastPeriod() {
    // a queue cut short by a link going down, then new traffic from an earlier time
    BusyTimeline timeline = new BusyTimeline(4);
    timeline.add(100, 50);
    timeline.add(120, 50);

    BusyProfile profile = timeline.profile();

    assertThat(profile.totalPs()).isEqualTo(100);
    assertThat(profile.startsPs()).containsExactly(100);
    assertThat(profile.endsPs()).containsExactly(200);
  }

  @Test
  void shouldHoldEveryIntervalsBusyTimeWhateverItMerges() {
    SplittableRandom random = new SplittableRandom(42);
    for (int trial = 0; trial < 200; trial++) {
      int max = 4 + random.nextInt(30);
      BusyTimeline timeline = new BusyTimeline(max);
      long t = random.nextLong(1_000);
      long total = 0;
      int n = random.nextInt(500);
      for (int i = 0; i < n; i++) {
        long duration = 1 + random.nextLong(100);
        timeline.add(t, duration);
        total += duration;
        t += duration + (random.nextInt(3) == 0 ? 0 : random.nextLong(1_000));
      }
      BusyProfile profile = timeline.profile();   // the profile's constructor checks its periods
      assertThat(profile.periods()).isLessThanOrEqualTo(max);
      assertThat(profile.totalPs()).isEqualTo(total).isEqualTo(timeline.totalPs());
      assertThat(profile.busyWithinPs(Long.MIN_VALUE / 2, Long.MAX_VALUE / 2)).isEqualTo(total);
    }
  }

  @Test
  void shouldShareAFixedBudgetOverTheFabricsLinksAndTheDevicesPorts() {
    assertThat(BusyTimeline.maxPeriodsFor(10, 2)).isEqualTo(BusyTimeline.MAX_PERIODS);
    assertThat(BusyTimeline.maxPeriodsFor(0, 0)).isEqualTo(BusyTimeline.MAX_PERIODS);
    assertThat(BusyTimeline.maxPeriodsFor(16_384, 2)).isEqualTo(BusyTimeline.FABRIC_PERIODS / 16_384);
    assertThat(BusyTimeline.maxPeriodsFor(100, 64)).isEqualTo(BusyTimeline.DEVICE_PERIODS / 64);
    assertThat(BusyTimeline.maxPeriodsFor(100_000_000, 2)).isEqualTo(BusyTimeline.MIN_PERIODS);
    // a device's periods stay below a message between members
    assertThat(24L * BusyTimeline.DEVICE_PERIODS).isLessThan(1L << 20);
    assertThatThrownBy(() -> new BusyTimeline(1)).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void shouldGiveThePortsBusyTimeInItsCounters() {
    EgressPort port = new EgressPort(0, 1, new io.fabemu.core.topology.LinkSpec(8_000_000_000L, 1_000L));
    port.transmit(0, 1_000, 0);        // 1,000 ns at 8 Gb/s
    port.transmit(0, 1_000, 0);        // queued behind it: back to back
    port.transmit(5_000_000, 500, 0);  // after a pause

    BusyProfile busy = port.counters().busy();

    assertThat(busy.startsPs()).containsExactly(0, 5_000_000);
    assertThat(busy.endsPs()).containsExactly(2_000_000, 5_500_000);
    assertThat(port.counters().busyPs()).isEqualTo(2_500_000);
  }

  @Test
  void shouldSelectTheKthSmallestGapAsASortWould() {
    SplittableRandom random = new SplittableRandom(7);
    for (int trial = 0; trial < 500; trial++) {
      long[] values = new long[1 + random.nextInt(200)];
      for (int i = 0; i < values.length; i++) values[i] = random.nextInt(3) == 0 ? 5 : random.nextLong(50);
      long[] sorted = values.clone();
      java.util.Arrays.sort(sorted);
      int k = random.nextInt(values.length);
      assertThat(BusyTimeline.kthSmallest(values, k)).isEqualTo(sorted[k]);
    }
  }
}
