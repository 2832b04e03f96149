package io.fabemu.core.sim;

import java.util.Arrays;

/**
 * When a directed link was busy during a run, as its sending port recorded it ({@code core.link.BusyTimeline}): the
 * total busy time and, in time order, busy periods {@code [startPs, endPs)} holding {@code busyPs} of it each. It is
 * what lets a report give a link's utilisation within one case of a run (the case's interval in virtual time) rather
 * than over the whole run.
 *
 * <p>A period is <b>full</b> when its busy time equals its length: the port sent without a pause from its start to
 * its end. A port keeps a bounded number of periods; past it, it merges the periods separated by the shortest idle
 * gaps (at most {@link #mergedGapPs()} of idle time each) and the merged period holds idle time. The busy time of a
 * period cut by an interval's edge is then shared in proportion to the overlap, which is exact for a full period
 * and an estimate for a merged one ({@link #exactWithin}).
 *
 * <p>Untimed: a profile with a total but no periods ({@link #untimed}) says only how long the link was busy, not
 * when (counters built without a timeline).
 *
 * @param totalPs     busy time over the whole run; for a timed profile, the sum of the periods' busy times
 * @param startsPs    per period, its start, non-decreasing
 * @param endsPs      per period, its end, at least its start and at most the next period's start
 * @param busyPs      per period, its busy time, at most its length
 * @param mergedGapPs the longest idle gap merged into a period (0: none was merged)
 */
public record BusyProfile(long totalPs, long[] startsPs, long[] endsPs, long[] busyPs, long mergedGapPs) {

  /** A link that was never busy. */
  public static final BusyProfile IDLE = new BusyProfile(0, new long[0], new long[0], new long[0], 0);

  public BusyProfile {
    if (startsPs.length != endsPs.length || startsPs.length != busyPs.length) {
      throw new IllegalArgumentException("busy profile: " + startsPs.length + " starts, " + endsPs.length
          + " ends and " + busyPs.length + " busy times");
    }
    if (totalPs < 0 || mergedGapPs < 0) {
      throw new IllegalArgumentException("busy profile: total " + totalPs + " ps, merged gap " + mergedGapPs + " ps");
    }
    long sum = 0;
    for (int i = 0; i < startsPs.length; i++) {
      if (endsPs[i] < startsPs[i] || busyPs[i] < 0 || busyPs[i] > endsPs[i] - startsPs[i]
          || (i > 0 && startsPs[i] < endsPs[i - 1])) {
        throw new IllegalArgumentException("busy profile: period " + i + " [" + startsPs[i] + ", " + endsPs[i]
            + ") ps holding " + busyPs[i] + " ps is not a period after the one before");
      }
      sum += busyPs[i];
    }
    if (startsPs.length > 0 && sum != totalPs) {
      throw new IllegalArgumentException("busy profile: periods hold " + sum + " ps, total " + totalPs + " ps");
    }
  }

  /** A profile that knows only the total busy time, not when. */
  public static BusyProfile untimed(long totalPs) {
    return totalPs == 0 ? IDLE : new BusyProfile(totalPs, new long[0], new long[0], new long[0], 0);
  }

  /** Whether the profile says when the link was busy (an idle link does: never). */
  public boolean timed() {
    return totalPs == 0 || startsPs.length > 0;
  }

  /** Number of busy periods. */
  public int periods() {
    return startsPs.length;
  }

  /**
   * The busy time within {@code [fromPs, toPs)}: the periods inside it whole, a period cut by an edge in proportion
   * to its overlap (rounded down).
   *
   * @throws IllegalStateException for an {@link #untimed} profile
   */
  public long busyWithinPs(long fromPs, long toPs) {
    if (!timed()) throw new IllegalStateException("an untimed busy profile cannot be cut by time");
    long sum = 0;
    for (int i = firstEndingAfter(fromPs); i < startsPs.length && startsPs[i] < toPs; i++) {
      long lengthPs = endsPs[i] - startsPs[i];
      long overlapPs = Math.min(endsPs[i], toPs) - Math.max(startsPs[i], fromPs);
      if (overlapPs >= lengthPs) {
        sum += busyPs[i];
      } else if (overlapPs > 0) {
        sum += busyPs[i] == lengthPs ? overlapPs : (long) ((double) busyPs[i] * overlapPs / lengthPs);
      }
    }
    return sum;
  }

  /**
   * Whether {@link #busyWithinPs} is exact for {@code [fromPs, toPs)}: every period an edge of it cuts is full.
   * Always false for an untimed profile.
   */
  public boolean exactWithin(long fromPs, long toPs) {
    if (!timed()) return false;
    return fullAt(fromPs) && fullAt(toPs);
  }

  private boolean fullAt(long edgePs) {
    int i = firstEndingAfter(edgePs);
    return i >= startsPs.length || startsPs[i] >= edgePs || busyPs[i] == endsPs[i] - startsPs[i];
  }

  /** The first period whose end is after {@code timePs} (binary search: ends are non-decreasing). */
  private int firstEndingAfter(long timePs) {
    int lo = 0;
    int hi = endsPs.length;
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      if (endsPs[mid] <= timePs) lo = mid + 1; else hi = mid;
    }
    return lo;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof BusyProfile p && totalPs == p.totalPs && mergedGapPs == p.mergedGapPs
        && Arrays.equals(startsPs, p.startsPs) && Arrays.equals(endsPs, p.endsPs) && Arrays.equals(busyPs, p.busyPs);
  }

  @Override
  public int hashCode() {
    return 31 * (31 * Long.hashCode(totalPs) + Arrays.hashCode(startsPs)) + Arrays.hashCode(busyPs);
  }

  @Override
  public String toString() {
    return "BusyProfile[" + totalPs + " ps in " + startsPs.length + " periods, merged gaps up to " + mergedGapPs
        + " ps]";
  }
}
