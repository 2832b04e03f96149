package io.fabemu.core.traffic;

/**
 * The result of one offered load of a traffic sweep: one point of the latency-vs-load curve. Throughputs are flits
 * per sending node ({@link DestinationPicker#sendingNodeCount()}) per cycle over the measurement window; latencies
 * are cycles from a packet's creation (source queueing included) to its tail's ejection, over the measured packets
 * that arrived. Immutable.
 *
 * @param offeredFlitsPerNodeCycle   the nominal offered load of the sweep point
 * @param generatedFlitsPerNodeCycle the load the sources actually created in the measurement window (the Bernoulli
 *                                   draws make it differ from the nominal load by chance)
 * @param acceptedFlitsPerNodeCycle  flits of any packet ejected in the measurement window
 * @param averageLatencyCycles       mean packet latency; NaN when no measured packet arrived
 * @param p99LatencyCycles           99th percentile packet latency, exact (nearest rank, so a whole number of
 *                                   cycles); NaN when no measured packet arrived
 * @param averageHops                mean router-to-router channels a measured packet crossed; NaN when none arrived
 * @param measuredPacketsCreated     packets created in the measurement window
 * @param measuredPacketsArrived     of those, the ones whose tail was ejected (before or after the drain's end)
 * @param drainCompleted             whether every measured packet's tail was ejected before the drain's end
 */
public record LoadPoint(double offeredFlitsPerNodeCycle, double generatedFlitsPerNodeCycle,
                        double acceptedFlitsPerNodeCycle, double averageLatencyCycles, double p99LatencyCycles,
                        double averageHops, long measuredPacketsCreated, long measuredPacketsArrived,
                        boolean drainCompleted) {

  public LoadPoint {
    if (!(offeredFlitsPerNodeCycle > 0.0)) {
      throw new IllegalArgumentException("load point offered load must be positive, got " + offeredFlitsPerNodeCycle);
    }
    if (measuredPacketsCreated < 0 || measuredPacketsArrived < 0) {
      throw new IllegalArgumentException("load point packet counts must be 0 or more, got " + measuredPacketsCreated
          + " created, " + measuredPacketsArrived + " arrived");
    }
  }
}
