package io.fabemu.fabric.result;

import io.fabemu.collectives.Algorithm;
import io.fabemu.core.inc.IncCodes.FailCause;
import java.util.Arrays;
import java.util.Objects;

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
 * @param rankLatenciesPs      per measuring rank, in rank order, its mean latency (what avg/min/max summarise);
 *                             for sendrecv the ping-pong initiators only
 * @param iterationLatenciesPs per measured iteration, in order, the mean over the measuring ranks of that
 *                             iteration's latency (OSU's per-iteration figure, whose percentiles {@code -z} prints);
 *                             empty when the ranks did not report them
 * @param iterationStartsPs    per measured iteration, in order, the virtual time the first rank started it: with
 *                             {@code iterationEndsPs}, the collective's interval, which a run with faults compares
 *                             with the fault events ({@link FaultImpact}); empty when the ranks did not report it
 * @param iterationEndsPs      per measured iteration, the virtual time the last rank completed it (every rank, the
 *                             responders of a ping-pong included); empty exactly when {@code iterationStartsPs} is
 * @param partEndsPs           for an operation cut into parts (a pipeline iteration: forward, backward; the global
 *                             AllReduce runs to the end), per part the mean over the measured iterations of its end
 *                             on the last rank, after the iteration's start on the first rank (the origin of
 *                             {@link #iterationPs()}); empty for the collectives
 * @param startPs              the virtual time the first rank began the case (its INC setup or its first warm-up
 *                             iteration: warm-up included); -1 when the ranks did not report it
 * @param endPs                the virtual time the last rank finished the case (the barrier after its last
 *                             iteration); -1 exactly when {@code startPs} is. Not in the digest (outputs only)
 */
public record CaseResult(int caseIndex, Algorithm algorithm, long sizeBytes, long count, int iterations,
                         double avgLatencyPs, double minLatencyPs, double maxLatencyPs, long wrongElements,
                         boolean checked, FailCause incOutcome, double[] rankLatenciesPs,
                         double[] iterationLatenciesPs, long[] iterationStartsPs, long[] iterationEndsPs,
                         long[] partEndsPs, long startPs, long endPs) {

  public CaseResult {
    rankLatenciesPs = rankLatenciesPs == null ? new double[0] : rankLatenciesPs;
    iterationLatenciesPs = iterationLatenciesPs == null ? new double[0] : iterationLatenciesPs;
    iterationStartsPs = iterationStartsPs == null ? new long[0] : iterationStartsPs;
    iterationEndsPs = iterationEndsPs == null ? new long[0] : iterationEndsPs;
    partEndsPs = partEndsPs == null ? new long[0] : partEndsPs;
    if ((startPs < 0) != (endPs < 0) || endPs < startPs) {
      throw new IllegalArgumentException("case " + caseIndex + ": interval [" + startPs + ", " + endPs + "] ps is not "
          + "an interval (both -1, or start <= end)");
    }
  }

  /** A case without its interval in virtual time. */
  public CaseResult(int caseIndex, Algorithm algorithm, long sizeBytes, long count, int iterations,
                    double avgLatencyPs, double minLatencyPs, double maxLatencyPs, long wrongElements,
                    boolean checked, FailCause incOutcome, double[] rankLatenciesPs, double[] iterationLatenciesPs,
                    long[] iterationStartsPs, long[] iterationEndsPs, long[] partEndsPs) {
    this(caseIndex, algorithm, sizeBytes, count, iterations, avgLatencyPs, minLatencyPs, maxLatencyPs, wrongElements,
        checked, incOutcome, rankLatenciesPs, iterationLatenciesPs, iterationStartsPs, iterationEndsPs, partEndsPs,
        -1, -1);
  }

  /** A case of an operation in one part (every collective but a pipeline iteration). */
  public CaseResult(int caseIndex, Algorithm algorithm, long sizeBytes, long count, int iterations,
                    double avgLatencyPs, double minLatencyPs, double maxLatencyPs, long wrongElements,
                    boolean checked, FailCause incOutcome, double[] rankLatenciesPs, double[] iterationLatenciesPs,
                    long[] iterationStartsPs, long[] iterationEndsPs) {
    this(caseIndex, algorithm, sizeBytes, count, iterations, avgLatencyPs, minLatencyPs, maxLatencyPs, wrongElements,
        checked, incOutcome, rankLatenciesPs, iterationLatenciesPs, iterationStartsPs, iterationEndsPs, null);
  }

  /** A case without its iterations' intervals. */
  public CaseResult(int caseIndex, Algorithm algorithm, long sizeBytes, long count, int iterations,
                    double avgLatencyPs, double minLatencyPs, double maxLatencyPs, long wrongElements,
                    boolean checked, FailCause incOutcome, double[] rankLatenciesPs, double[] iterationLatenciesPs) {
    this(caseIndex, algorithm, sizeBytes, count, iterations, avgLatencyPs, minLatencyPs, maxLatencyPs, wrongElements,
        checked, incOutcome, rankLatenciesPs, iterationLatenciesPs, null, null);
  }

  /** A case without per-rank and per-iteration figures. */
  public CaseResult(int caseIndex, Algorithm algorithm, long sizeBytes, long count, int iterations,
                    double avgLatencyPs, double minLatencyPs, double maxLatencyPs, long wrongElements,
                    boolean checked, FailCause incOutcome) {
    this(caseIndex, algorithm, sizeBytes, count, iterations, avgLatencyPs, minLatencyPs, maxLatencyPs, wrongElements,
        checked, incOutcome, null, null);
  }

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

  // A record compares arrays by identity; results are values, so compare the latencies' contents.
  @Override
  public boolean equals(Object o) {
    return o instanceof CaseResult c && caseIndex == c.caseIndex && algorithm == c.algorithm
        && sizeBytes == c.sizeBytes && count == c.count && iterations == c.iterations
        && Double.compare(avgLatencyPs, c.avgLatencyPs) == 0 && Double.compare(minLatencyPs, c.minLatencyPs) == 0
        && Double.compare(maxLatencyPs, c.maxLatencyPs) == 0 && wrongElements == c.wrongElements
        && checked == c.checked && incOutcome == c.incOutcome && Arrays.equals(rankLatenciesPs, c.rankLatenciesPs)
        && Arrays.equals(iterationLatenciesPs, c.iterationLatenciesPs)
        && Arrays.equals(iterationStartsPs, c.iterationStartsPs) && Arrays.equals(iterationEndsPs, c.iterationEndsPs)
        && Arrays.equals(partEndsPs, c.partEndsPs) && startPs == c.startPs && endPs == c.endPs;
  }

  @Override
  public int hashCode() {
    return 31 * (31 * Objects.hash(caseIndex, algorithm, sizeBytes, count, iterations, avgLatencyPs, minLatencyPs,
        maxLatencyPs, wrongElements, checked, incOutcome) + Arrays.hashCode(rankLatenciesPs))
        + Arrays.hashCode(iterationLatenciesPs) + 17 * Arrays.hashCode(iterationStartsPs)
        + 13 * Arrays.hashCode(partEndsPs) + 7 * Long.hashCode(startPs) + 11 * Long.hashCode(endPs);
  }

  /**
   * The mean over the measured iterations of the whole operation's interval, first rank's start to last rank's end
   * (the time a pipeline iteration takes); NaN when the case holds no intervals.
   */
  public double iterationPs() {
    if (!timed()) return Double.NaN;
    double sum = 0;
    for (int i = 0; i < iterationStartsPs.length; i++) sum += iterationEndsPs[i] - iterationStartsPs[i];
    return sum / iterationStartsPs.length;
  }

  /** True when the case holds its interval in virtual time ({@link #startPs}, {@link #endPs}). */
  public boolean caseTimed() {
    return startPs >= 0;
  }

  /** True when the case holds its iterations' intervals ({@link #iterationStartsPs}, {@link #iterationEndsPs}). */
  public boolean timed() {
    return iterationStartsPs.length > 0 && iterationStartsPs.length == iterationEndsPs.length;
  }

  @Override
  public String toString() {
    return "CaseResult[caseIndex=" + caseIndex + ", algorithm=" + algorithm + ", sizeBytes=" + sizeBytes
        + ", count=" + count + ", iterations=" + iterations + ", avgLatencyPs=" + avgLatencyPs + ", minLatencyPs="
        + minLatencyPs + ", maxLatencyPs=" + maxLatencyPs + ", wrongElements=" + wrongElements + ", checked="
        + checked + ", incOutcome=" + incOutcome + ", rankLatenciesPs=" + Arrays.toString(rankLatenciesPs)
        + ", iterationLatenciesPs=" + Arrays.toString(iterationLatenciesPs) + ", iterationStartsPs="
        + Arrays.toString(iterationStartsPs) + ", iterationEndsPs=" + Arrays.toString(iterationEndsPs)
        + ", partEndsPs=" + Arrays.toString(partEndsPs) + ", startPs=" + startPs + ", endPs=" + endPs + "]";
  }
}
