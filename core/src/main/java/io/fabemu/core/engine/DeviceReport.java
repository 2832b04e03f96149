package io.fabemu.core.engine;

import java.util.List;

/**
 * What one device measured during a run: the counters of its outgoing links and, for compute nodes, the
 * per-rank collective results.
 */
public record DeviceReport(int deviceId, List<LinkCounters> links, List<RankResult> ranks) {

  /**
   * Counters of one directed link, kept by its sending port.
   *
   * @param fromDevice device that transmits
   * @param toDevice   device that receives
   * @param bytes      bytes put on the wire, headers included
   * @param packets    packets (segments) sent
   * @param busyPs     time the port spent serializing
   */
  public record LinkCounters(int fromDevice, int toDevice, long bytes, long packets, long busyPs) {}

  /**
   * One rank's figures for one measured case (algorithm and size).
   *
   * @param rank            world rank
   * @param caseIndex       index of the (algorithm, size) case in the workload's order
   * @param iterations      measured iterations (warm-up excluded)
   * @param totalLatencyPs  sum of the measured iterations' latencies
   * @param minLatencyPs    fastest measured iteration
   * @param maxLatencyPs    slowest measured iteration
   * @param wrongElements   output elements that differed from the exact answer, over all iterations
   */
  public record RankResult(int rank, int caseIndex, int iterations, long totalLatencyPs, long minLatencyPs,
                           long maxLatencyPs, long wrongElements) {}
}
