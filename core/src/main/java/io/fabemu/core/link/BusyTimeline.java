package io.fabemu.core.link;

import io.fabemu.core.sim.BusyProfile;
import java.util.Arrays;

/**
 * Records when a sending port was busy, in bounded memory: busy intervals handed over in time order, back-to-back
 * ones joined into one period. When the periods reach the bound, the quarter of the idle gaps that are shortest
 * are merged away (the merged periods then hold idle time), so what stays apart are the longest pauses, which are where a
 * run's cases meet (the barrier after a case's last iteration leaves every link idle for at least a round trip).
 * The bound is set per fabric and device ({@link #maxPeriodsFor}) so that a large fabric keeps at most about 96 MiB
 * of periods in all and a device's report stays below a message between members.
 * The total is always the sum of the intervals handed over, whatever was merged.
 *
 * <p>Used by {@link EgressPort} for packet links and by the router networks' ports for flits; the
 * {@link BusyProfile} it gives is part of the link's counters. Pure bookkeeping on virtual times: the same run records
 * the same periods.
 */
public final class BusyTimeline {
  /**
   * Periods a fabric keeps at most, spread over its directed links: 24 bytes each, so at most about 96 MiB, and only
   * what the ports use (the arrays grow as periods come). A fabric of up to 512 links gives every port the most.
   */
  static final int FABRIC_PERIODS = 1 << 22;
  /**
   * The fewest and the most periods one port keeps: the quickstart's ports (48 links, 38 cases of up to 1,000
   * iterations) need about 8,000 for every case edge to fall between periods.
   */
  static final int MIN_PERIODS = 16;
  static final int MAX_PERIODS = 8192;

  private final int maxPeriods;
  private long[] startsPs = new long[4];
  private long[] endsPs = new long[4];
  private long[] busyPs = new long[4];
  private int count;
  private long totalPs;
  private long mergedGapPs;

  /** A timeline of at most {@code maxPeriods} periods (at least 2). */
  public BusyTimeline(int maxPeriods) {
    if (maxPeriods < 2) throw new IllegalArgumentException("a busy timeline needs at least 2 periods: " + maxPeriods);
    this.maxPeriods = maxPeriods;
  }

  /**
   * Periods one device keeps over all its ports: 768 KiB, so that its report, which carries them, fits one message
   * between members (Artery's frame: 2 MiB; a member's reports are cut into messages of about 1 MiB).
   */
  static final int DEVICE_PERIODS = 1 << 15;

  /**
   * The bound per port of a device of {@code devicePorts} ports on a fabric of {@code directedLinks} links: the port's
   * share of the fabric's periods and of the device's, clamped. A pure function of the topology, so a run keeps the
   * same periods on any number of members.
   */
  public static int maxPeriodsFor(int directedLinks, int devicePorts) {
    int share = Math.min(FABRIC_PERIODS / Math.max(1, directedLinks), DEVICE_PERIODS / Math.max(1, devicePorts));
    return Math.max(MIN_PERIODS, Math.min(MAX_PERIODS, share));
  }

  /**
   * The port was busy for {@code durationPs} from {@code startPs}. Intervals come in the order the port sent them; one
   * that starts before the last period's end (a queue cut short by a link going down, then new traffic) is merged
   * into it.
   */
  public void add(long startPs, long durationPs) {
    if (durationPs <= 0) return;
    totalPs += durationPs;
    long endPs = startPs + durationPs;
    if (count > 0 && startPs <= endsPs[count - 1]) {
      // back to back with the last period (or, after a queue cut short by a link going down, overlapping it: then
      // the period is stretched to hold both, so that the total stays the sum of what the port sent)
      int last = count - 1;
      long floorPs = last > 0 ? endsPs[last - 1] : Long.MIN_VALUE;
      startsPs[last] = Math.max(floorPs, Math.min(startsPs[last], startPs));
      busyPs[last] += durationPs;
      endsPs[last] = Math.max(Math.max(endsPs[last], endPs), startsPs[last] + busyPs[last]);
      return;
    }
    if (count == maxPeriods) mergeShortestGaps();
    if (count == startsPs.length) {
      int grown = Math.min(maxPeriods, count * 2);
      startsPs = Arrays.copyOf(startsPs, grown);
      endsPs = Arrays.copyOf(endsPs, grown);
      busyPs = Arrays.copyOf(busyPs, grown);
    }
    startsPs[count] = startPs;
    endsPs[count] = endPs;
    busyPs[count] = durationPs;
    count++;
  }

  /** Busy time so far. */
  public long totalPs() {
    return totalPs;
  }

  /** What the timeline holds now. */
  public BusyProfile profile() {
    if (count == 0) return BusyProfile.IDLE;
    return new BusyProfile(totalPs, Arrays.copyOf(startsPs, count), Arrays.copyOf(endsPs, count),
        Arrays.copyOf(busyPs, count), mergedGapPs);
  }

  /**
   * Merges the shortest quarter of the gaps between periods (ties: the earlier gap first): a quarter, so that a long
   * pause survives unless three quarters of the gaps are at least as long, and the sort is paid once per quarter of
   * the periods added.
   */
  private void mergeShortestGaps() {
    int gaps = count - 1;
    long[] sorted = new long[gaps];
    for (int i = 0; i < gaps; i++) sorted[i] = startsPs[i + 1] - endsPs[i];
    Arrays.sort(sorted);
    int toMerge = Math.max(1, gaps / 4);
    long threshold = sorted[toMerge - 1];
    int below = 0;
    for (long g : sorted) if (g < threshold) below++;
    int atThreshold = toMerge - below;
    int kept = 0;
    for (int i = 0; i < count; i++) {
      if (kept > 0) {
        long gap = startsPs[i] - endsPs[kept - 1];
        boolean merge = gap < threshold || (gap == threshold && atThreshold-- > 0);
        if (merge) {
          endsPs[kept - 1] = endsPs[i];
          busyPs[kept - 1] += busyPs[i];
          mergedGapPs = Math.max(mergedGapPs, gap);
          continue;
        }
      }
      startsPs[kept] = startsPs[i];
      endsPs[kept] = endsPs[i];
      busyPs[kept] = busyPs[i];
      kept++;
    }
    count = kept;
  }

}
