package io.fabemu.core.link;

import io.fabemu.core.sim.BusyProfile;
import java.util.Arrays;

/**
 * Records when a sending port was busy, in bounded memory: busy intervals handed over in time order, back-to-back ones
 * joined into one period. When the periods reach the bound, the quarter of the idle gaps that are shortest are merged
 * away (the merged periods then hold idle time), so what stays apart are the longest pauses, which are where a run's
 * cases meet (the barrier after a case's last iteration leaves every link idle for at least a round trip). The bound is
 * set per fabric and device ({@link #maxPeriodsFor}) so that a large fabric keeps at most about 96 MiB of periods in
 * all and a device's report stays below a message between members. The total is always the sum of the intervals handed
 * over, whatever was merged.
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
   * iterations) need about 8,000 for every case edge to fall between periods; the fewest keeps the fabric's budget
   * up to a million links (a port that never sends allocates no periods).
   */
  static final int MIN_PERIODS = 4;
  static final int MAX_PERIODS = 8192;

  private static final long[] NONE = new long[0];

  private final int maxPeriods;
  /** The closed periods, three longs each (start, end, busy), so that writing one touches one cache line. */
  private long[] closed = NONE;
  private int closedCount;
  /**
   * The open period, the last one, in fields: a port adds to it at every back-to-back packet or flit, and fields of
   * the timeline itself cost no array access (a run adds once per packet sent, and ports are many).
   */
  private boolean open;
  private long openStartPs;
  private long openEndPs;
  private long openBusyPs;
  private long totalPs;
  private long mergedGapPs;

  /** A timeline of at most {@code maxPeriods} periods (at least 4). */
  public BusyTimeline(int maxPeriods) {
    if (maxPeriods < 4) throw new IllegalArgumentException("a busy timeline needs at least 4 periods: " + maxPeriods);
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
    if (open && startPs <= openEndPs) {
      // back to back with the open period (or, after a queue cut short by a link going down, overlapping it: then
      // the period is stretched to hold both, so that the total stays the sum of what the port sent)
      long floorPs = closedCount > 0 ? closed[3 * closedCount - 2] : Long.MIN_VALUE;
      openStartPs = Math.max(floorPs, Math.min(openStartPs, startPs));
      openBusyPs += durationPs;
      openEndPs = Math.max(Math.max(openEndPs, endPs), openStartPs + openBusyPs);
      return;
    }
    if (open) close();
    open = true;
    openStartPs = startPs;
    openEndPs = endPs;
    openBusyPs = durationPs;
  }

  /** Moves the open period to the closed ones, merging the shortest gaps first when they are at their bound. */
  private void close() {
    if (closedCount == maxPeriods - 1) mergeShortestGaps();
    if (3 * closedCount == closed.length) {
      closed = Arrays.copyOf(closed, 3 * Math.min(maxPeriods - 1, Math.max(4, 2 * closedCount)));
    }
    closed[3 * closedCount] = openStartPs;
    closed[3 * closedCount + 1] = openEndPs;
    closed[3 * closedCount + 2] = openBusyPs;
    closedCount++;
  }

  /** Busy time so far. */
  public long totalPs() {
    return totalPs;
  }

  /** What the timeline holds now. */
  public BusyProfile profile() {
    int n = closedCount + (open ? 1 : 0);
    if (n == 0) return BusyProfile.IDLE;
    long[] starts = new long[n];
    long[] ends = new long[n];
    long[] busy = new long[n];
    for (int i = 0; i < closedCount; i++) {
      starts[i] = closed[3 * i];
      ends[i] = closed[3 * i + 1];
      busy[i] = closed[3 * i + 2];
    }
    if (open) {
      starts[n - 1] = openStartPs;
      ends[n - 1] = openEndPs;
      busy[n - 1] = openBusyPs;
    }
    return new BusyProfile(totalPs, starts, ends, busy, mergedGapPs);
  }

  /**
   * Merges the shortest quarter of the gaps between the closed periods (ties: the earlier gap first): a quarter, so
   * that a long pause survives unless three quarters of the gaps are at least as long, and the selection is paid
   * once per quarter of the periods added.
   */
  private void mergeShortestGaps() {
    int gaps = closedCount - 1;
    long[] scratch = new long[gaps];
    for (int i = 0; i < gaps; i++) scratch[i] = closed[3 * (i + 1)] - closed[3 * i + 1];
    int toMerge = Math.max(1, gaps / 4);
    long threshold = kthSmallest(scratch, toMerge - 1);
    int below = 0;
    for (int i = 0; i < gaps; i++) if (closed[3 * (i + 1)] - closed[3 * i + 1] < threshold) below++;
    int atThreshold = toMerge - below;
    int kept = 0;
    for (int i = 0; i < closedCount; i++) {
      if (kept > 0) {
        long gap = closed[3 * i] - closed[3 * kept - 2];
        boolean merge = gap < threshold || (gap == threshold && atThreshold-- > 0);
        if (merge) {
          closed[3 * kept - 2] = closed[3 * i + 1];
          closed[3 * kept - 1] += closed[3 * i + 2];
          mergedGapPs = Math.max(mergedGapPs, gap);
          continue;
        }
      }
      closed[3 * kept] = closed[3 * i];
      closed[3 * kept + 1] = closed[3 * i + 1];
      closed[3 * kept + 2] = closed[3 * i + 2];
      kept++;
    }
    closedCount = kept;
  }

  /**
   * The {@code k}-th smallest value of {@code values} (from 0), which it reorders: Hoare's selection, linear on
   * average, so that a full port pays a few comparisons per period added rather than a sort.
   */
  static long kthSmallest(long[] values, int k) {
    int lo = 0;
    int hi = values.length - 1;
    while (lo < hi) {
      long pivot = values[(lo + hi) >>> 1];
      int i = lo;
      int j = hi;
      while (i <= j) {
        while (values[i] < pivot) i++;
        while (values[j] > pivot) j--;
        if (i <= j) {
          long t = values[i];
          values[i] = values[j];
          values[j] = t;
          i++;
          j--;
        }
      }
      if (k <= j) {
        hi = j;
      } else if (k >= i) {
        lo = i;
      } else {
        return values[k];
      }
    }
    return values[k];
  }
}
