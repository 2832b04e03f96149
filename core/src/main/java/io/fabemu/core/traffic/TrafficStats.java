package io.fabemu.core.traffic;

import io.fabemu.core.sim.ReportPart;
import java.util.Arrays;

/**
 * Accumulates what one offered load's run of a traffic workload measured, and turns it into a {@link LoadPoint}.
 * Each node's NIC may keep its own and the run {@link #merge}s them; every total is an exact integer, so the result
 * does not depend on the merge order.
 *
 * <p>Definitions (cycles as in {@link TrafficSpec}: measurement window {@code [W, W + M)}, drain end
 * {@code W + M + D}):
 * <ul>
 *   <li>measured packet: one created in the measurement window ({@link #recordCreated});</li>
 *   <li>latency: tail-ejection cycle minus creation cycle, so source queueing counts (BookSim's packet latency);
 *       average and exact p99 (nearest rank: the {@code ceil(0.99 n)}-th smallest) over the measured packets that
 *       arrived ({@link #recordArrived}), late ones included;</li>
 *   <li>accepted throughput: flits of any packet, measured or not, ejected in a cycle of the measurement window
 *       ({@link #recordFlitsEjected}), divided by the sending nodes and by M: BookSim's accepted rate, whose
 *       counters are cleared when measurement starts and which counts every ejected flit;</li>
 *   <li>generated load: flits of the measured packets, divided by the sending nodes and by M;</li>
 *   <li>drain completed: every measured packet created had its tail ejected before cycle {@code W + M + D}.</li>
 * </ul>
 * Not thread-safe.
 */
public final class TrafficStats implements ReportPart {
  private final long measureStartCycle;
  private final long measureEndCycle;
  private final long drainEndCycle;
  private long measuredPacketsCreated;
  private long measuredFlitsCreated;
  private long flitsEjectedInWindow;
  private long measuredPacketsArrivedInTime;
  private long latencySumCycles;
  private long hopsSum;
  private long[] latenciesCycles = new long[64];
  private int latencyCount;

  /** For the wire serializer, which fills every field in (a device's report carries its stats as a part). */
  @SuppressWarnings("unused")
  private TrafficStats() {
    this(0, 1, 1);
  }

  /** Stats for the phases of {@code spec}. */
  public TrafficStats(TrafficSpec spec) {
    this(spec.measureStartCycle(), spec.measureEndCycle(), spec.drainEndCycle());
  }

  /**
   * Stats for a measurement window {@code [measureStartCycle, measureEndCycle)} and a drain ending before
   * {@code drainEndCycle}.
   */
  public TrafficStats(long measureStartCycle, long measureEndCycle, long drainEndCycle) {
    if (measureStartCycle < 0) {
      throw new IllegalArgumentException("traffic measure start cycle must be 0 or more, got " + measureStartCycle);
    }
    if (measureEndCycle <= measureStartCycle) {
      throw new IllegalArgumentException("traffic measure end cycle must be after its start " + measureStartCycle
          + ", got " + measureEndCycle);
    }
    if (drainEndCycle < measureEndCycle) {
      throw new IllegalArgumentException("traffic drain end cycle must be at or after the measure end "
          + measureEndCycle + ", got " + drainEndCycle);
    }
    this.measureStartCycle = measureStartCycle;
    this.measureEndCycle = measureEndCycle;
    this.drainEndCycle = drainEndCycle;
  }

  private boolean inWindow(long cycle) {
    return cycle >= measureStartCycle && cycle < measureEndCycle;
  }

  /** A packet of {@code flits} flits was created at its source in {@code createdCycle}; counts only if measured. */
  public void recordCreated(long createdCycle, int flits) {
    requireFlits(flits);
    if (!inWindow(createdCycle)) return;
    measuredPacketsCreated++;
    measuredFlitsCreated += flits;
  }

  /** {@code flits} flits of any packet were ejected at their destination in {@code ejectedCycle}. */
  public void recordFlitsEjected(long ejectedCycle, int flits) {
    if (flits < 0) throw new IllegalArgumentException("ejected flits must be 0 or more, got " + flits);
    if (inWindow(ejectedCycle)) flitsEjectedInWindow += flits;
  }

  /**
   * A packet created in {@code createdCycle} had its tail ejected in {@code tailEjectedCycle} after crossing
   * {@code hops} router-to-router channels; a latency sample only if it is measured (others may be passed too).
   */
  public void recordArrived(long createdCycle, long tailEjectedCycle, int hops) {
    if (tailEjectedCycle < createdCycle) {
      throw new IllegalArgumentException("packet tail ejection cycle must not be before its creation "
          + createdCycle + ", got " + tailEjectedCycle);
    }
    if (hops < 0) throw new IllegalArgumentException("packet hops must be 0 or more, got " + hops);
    if (!inWindow(createdCycle)) return;
    long latency = tailEjectedCycle - createdCycle;
    if (latencyCount == latenciesCycles.length) {
      latenciesCycles = Arrays.copyOf(latenciesCycles, latencyCount * 2);
    }
    latenciesCycles[latencyCount++] = latency;
    latencySumCycles += latency;
    hopsSum += hops;
    if (tailEjectedCycle < drainEndCycle) measuredPacketsArrivedInTime++;
  }

  private static void requireFlits(int flits) {
    if (flits < 1) throw new IllegalArgumentException("packet flits must be at least 1, got " + flits);
  }

  /** Adds {@code other}'s records to these; both must have the same phases. */
  public void merge(TrafficStats other) {
    if (other.measureStartCycle != measureStartCycle || other.measureEndCycle != measureEndCycle
        || other.drainEndCycle != drainEndCycle) {
      throw new IllegalArgumentException("traffic stats to merge must share their phases (measure start, measure end,"
          + " drain end), got " + other.measureStartCycle + ", " + other.measureEndCycle + ", " + other.drainEndCycle
          + " against " + measureStartCycle + ", " + measureEndCycle + ", " + drainEndCycle);
    }
    measuredPacketsCreated += other.measuredPacketsCreated;
    measuredFlitsCreated += other.measuredFlitsCreated;
    flitsEjectedInWindow += other.flitsEjectedInWindow;
    measuredPacketsArrivedInTime += other.measuredPacketsArrivedInTime;
    latencySumCycles += other.latencySumCycles;
    hopsSum += other.hopsSum;
    if (latencyCount + other.latencyCount > latenciesCycles.length) {
      latenciesCycles = Arrays.copyOf(latenciesCycles, Math.max(latencyCount + other.latencyCount,
          latenciesCycles.length * 2));
    }
    System.arraycopy(other.latenciesCycles, 0, latenciesCycles, latencyCount, other.latencyCount);
    latencyCount += other.latencyCount;
  }

  public long measuredPacketsCreated() {
    return measuredPacketsCreated;
  }

  /** Measured packets whose tail was ejected, late ones included. */
  public long measuredPacketsArrived() {
    return latencyCount;
  }

  /** The latency of every measured packet (its array may hold up to twice as many slots). */
  @Override
  public long wireBytesEstimate() {
    return 16L * measuredPacketsArrived();
  }

  /** Whether every measured packet created so far had its tail ejected before the drain's end. */
  public boolean drainCompleted() {
    return measuredPacketsArrivedInTime == measuredPacketsCreated;
  }

  /**
   * The load point of these records.
   *
   * @param offeredFlitsPerNodeCycle the nominal offered load of the run
   * @param sendingNodeCount         nodes that created packets ({@link DestinationPicker#sendingNodeCount()})
   */
  public LoadPoint result(double offeredFlitsPerNodeCycle, int sendingNodeCount) {
    if (sendingNodeCount < 1) {
      throw new IllegalArgumentException("traffic sending node count must be at least 1, got " + sendingNodeCount);
    }
    double nodeCycles = (double) sendingNodeCount * (measureEndCycle - measureStartCycle);
    double averageLatency = Double.NaN;
    double p99Latency = Double.NaN;
    double averageHops = Double.NaN;
    if (latencyCount > 0) {
      averageLatency = (double) latencySumCycles / latencyCount;
      averageHops = (double) hopsSum / latencyCount;
      long[] sorted = Arrays.copyOf(latenciesCycles, latencyCount);
      Arrays.sort(sorted);
      int rank = (int) ((99L * latencyCount + 99) / 100);
      p99Latency = sorted[rank - 1];
    }
    return new LoadPoint(offeredFlitsPerNodeCycle, measuredFlitsCreated / nodeCycles,
        flitsEjectedInWindow / nodeCycles, averageLatency, p99Latency, averageHops, measuredPacketsCreated,
        latencyCount, drainCompleted());
  }
}
