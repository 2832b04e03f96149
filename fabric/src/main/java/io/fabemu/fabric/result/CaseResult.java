package io.fabemu.fabric.result;

import io.fabemu.collectives.Algorithm;
import io.fabemu.core.inc.IncCodes.FailCause;

/**
 * One (algorithm, size) case over all ranks, as osu_allreduce reports it: each rank averages its measured
 * iterations; avg/min/max are taken over those per-rank averages.
 *
 * @param caseIndex     position in the workload
 * @param algorithm     algorithm run (AUTO already resolved where the workload allows it)
 * @param sizeBytes     message size per rank
 * @param count         elements per rank
 * @param iterations    measured iterations
 * @param avgLatencyPs  mean over ranks of the per-rank mean latency
 * @param minLatencyPs  smallest per-rank mean latency
 * @param maxLatencyPs  largest per-rank mean latency
 * @param wrongElements output elements that differed from the exact answer (all ranks, all iterations); 0 when
 *                      not {@code checked}
 * @param checked       the outputs were checked against the exact answer (false for a synthetic payload, which
 *                      carries sizes only)
 * @param incOutcome    for an in-network algorithm, how its setup ended: {@link FailCause#NONE} when the switches
 *                      aggregated, else why the case ran the host algorithm instead; null for other algorithms
 */
public record CaseResult(int caseIndex, Algorithm algorithm, long sizeBytes, long count, int iterations,
                         double avgLatencyPs, double minLatencyPs, double maxLatencyPs, long wrongElements,
                         boolean checked, FailCause incOutcome) {

  /** A case of an algorithm that is not in-network. */
  public CaseResult(int caseIndex, Algorithm algorithm, long sizeBytes, long count, int iterations,
                    double avgLatencyPs, double minLatencyPs, double maxLatencyPs, long wrongElements,
                    boolean checked) {
    this(caseIndex, algorithm, sizeBytes, count, iterations, avgLatencyPs, minLatencyPs, maxLatencyPs, wrongElements,
        checked, null);
  }

  /** A case whose outputs were checked (real data). */
  public CaseResult(int caseIndex, Algorithm algorithm, long sizeBytes, long count, int iterations,
                    double avgLatencyPs, double minLatencyPs, double maxLatencyPs, long wrongElements) {
    this(caseIndex, algorithm, sizeBytes, count, iterations, avgLatencyPs, minLatencyPs, maxLatencyPs, wrongElements,
        true);
  }
}
