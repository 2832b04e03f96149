package io.fabemu.core.traffic;

import java.util.List;

/**
 * A synthetic traffic workload as cycle-accurate network simulators run it: one pattern, fixed-size packets, and a
 * sweep of offered loads, each run through the same three phases. Immutable.
 *
 * <p>Phases, in router clock cycles counted from 0 when the load's run starts: warm-up {@code [0, W)}, measurement
 * {@code [W, W + M)}, drain {@code [W + M, W + M + D)}. Sources create packets through all three, so the network
 * stays loaded while the measured packets finish (as BookSim does); only packets created during the measurement
 * window are measured, and the drain is complete when all of them had their tail ejected before the drain's end.
 *
 * @param pattern                  who sends to whom
 * @param hotSpot                  the hot-spot parameters: required for {@link TrafficPattern#HOT_SPOT}, null for
 *                                 every other pattern
 * @param packetFlits              flits per packet, at least 1
 * @param offeredFlitsPerNodeCycle the offered loads of the sweep, flits per sending node per cycle, each in (0, 1],
 *                                 strictly increasing, at least one
 * @param warmupCycles             cycles before measurement starts, 0 or more
 * @param measureCycles            cycles of the measurement window, at least 1
 * @param drainCycles              the most cycles to wait after the measurement window for the measured packets
 *                                 to arrive, 0 or more
 */
public record TrafficSpec(TrafficPattern pattern, HotSpot hotSpot, int packetFlits,
                          List<Double> offeredFlitsPerNodeCycle, long warmupCycles, long measureCycles,
                          long drainCycles) {

  public TrafficSpec {
    if (pattern == null) throw new IllegalArgumentException("traffic pattern must be given, got none");
    if (pattern == TrafficPattern.HOT_SPOT && hotSpot == null) {
      throw new IllegalArgumentException("traffic pattern hot-spot needs its hot nodes and fraction, got none");
    }
    if (pattern != TrafficPattern.HOT_SPOT && hotSpot != null) {
      throw new IllegalArgumentException("traffic pattern " + pattern.configName()
          + " takes no hot-spot parameters, got " + hotSpot);
    }
    if (packetFlits < 1) {
      throw new IllegalArgumentException("traffic packet-flits must be at least 1, got " + packetFlits);
    }
    if (offeredFlitsPerNodeCycle == null || offeredFlitsPerNodeCycle.isEmpty()) {
      throw new IllegalArgumentException("traffic offered loads must list at least one load, got "
          + offeredFlitsPerNodeCycle);
    }
    double previous = 0.0;
    for (Double load : offeredFlitsPerNodeCycle) {
      if (load == null || !(load > 0.0 && load <= 1.0)) {
        throw new IllegalArgumentException("traffic offered load must be in (0, 1] flits/node/cycle, got " + load);
      }
      if (load <= previous) {
        throw new IllegalArgumentException("traffic offered loads must be strictly increasing, got " + load
            + " after " + previous);
      }
      previous = load;
    }
    offeredFlitsPerNodeCycle = List.copyOf(offeredFlitsPerNodeCycle);
    if (warmupCycles < 0) {
      throw new IllegalArgumentException("traffic warmup-cycles must be 0 or more, got " + warmupCycles);
    }
    if (measureCycles < 1) {
      throw new IllegalArgumentException("traffic measure-cycles must be at least 1, got " + measureCycles);
    }
    if (drainCycles < 0) {
      throw new IllegalArgumentException("traffic drain-cycles must be 0 or more, got " + drainCycles);
    }
    try {
      Math.addExact(Math.addExact(warmupCycles, measureCycles), drainCycles);
    } catch (ArithmeticException overflow) {
      throw new IllegalArgumentException("traffic warmup + measure + drain cycles overflow a long: " + warmupCycles
          + " + " + measureCycles + " + " + drainCycles);
    }
  }

  /** This workload's destinations on {@code shape} (which checks that the pattern applies to it). */
  public DestinationPicker destinations(NetworkShape shape) {
    return DestinationPicker.of(pattern, shape, hotSpot);
  }

  /** The number of offered loads in the sweep. */
  public int loadCount() {
    return offeredFlitsPerNodeCycle.size();
  }

  /** The offered load of sweep point {@code loadIndex}, flits per sending node per cycle. */
  public double offeredLoad(int loadIndex) {
    if (loadIndex < 0 || loadIndex >= loadCount()) {
      throw new IllegalArgumentException("traffic load index must be in 0.." + (loadCount() - 1) + ", got "
          + loadIndex);
    }
    return offeredFlitsPerNodeCycle.get(loadIndex);
  }

  /**
   * This workload with offered load {@code loadIndex} alone: what one emulation of a sweep runs. Every load runs
   * with the scenario's seed, so the points of a sweep differ by their load only.
   */
  public TrafficSpec atLoad(int loadIndex) {
    return new TrafficSpec(pattern, hotSpot, packetFlits, List.of(offeredLoad(loadIndex)), warmupCycles,
        measureCycles, drainCycles);
  }

  /** First cycle of the measurement window. */
  public long measureStartCycle() {
    return warmupCycles;
  }

  /** First cycle after the measurement window. */
  public long measureEndCycle() {
    return warmupCycles + measureCycles;
  }

  /** First cycle after the drain: measured packets must have their tail ejected before it; sources stop here. */
  public long drainEndCycle() {
    return measureEndCycle() + drainCycles;
  }

  /** Whether a packet created in cycle {@code createdCycle} is measured. */
  public boolean isMeasured(long createdCycle) {
    return createdCycle >= measureStartCycle() && createdCycle < measureEndCycle();
  }
}
