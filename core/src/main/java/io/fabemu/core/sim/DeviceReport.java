package io.fabemu.core.sim;

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
   * @param droppedPackets packets lost on the link by injected loss (they are counted in {@code bytes},
   *                   {@code packets} and {@code busyPs} too: they were sent)
   */
  public record LinkCounters(int fromDevice, int toDevice, long bytes, long packets, long busyPs,
                             long droppedPackets) {

    /** Counters of a link that lost nothing. */
    public LinkCounters(int fromDevice, int toDevice, long bytes, long packets, long busyPs) {
      this(fromDevice, toDevice, bytes, packets, busyPs, 0L);
    }
  }

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
   * @param incOutcome      for an in-network case, how its INC setup ended (an {@code IncCodes.FailCause} code:
   *                        0 = INC used, else why the case fell back to the host algorithm); -1 for other cases
   */
  public record RankResult(int rank, int caseIndex, int iterations, long totalLatencyPs, long minLatencyPs,
                           long maxLatencyPs, long wrongElements, int incOutcome) {

    /** The result of a case that is not in-network. */
    public RankResult(int rank, int caseIndex, int iterations, long totalLatencyPs, long minLatencyPs,
                      long maxLatencyPs, long wrongElements) {
      this(rank, caseIndex, iterations, totalLatencyPs, minLatencyPs, maxLatencyPs, wrongElements, -1);
    }
  }
}
