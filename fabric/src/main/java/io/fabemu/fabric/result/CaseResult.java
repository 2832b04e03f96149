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
 * @see #builder
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

  /**
   * A builder of case {@code caseIndex} of {@code algorithm} at {@code sizeBytes} ({@code count} elements per rank)
   * over {@code iterations} measured iterations, every other component at its default until set: latencies 0, no
   * wrong element, checked, no INC outcome, no per-rank or per-iteration figures, no part ends, no interval (-1).
   */
  public static Builder builder(int caseIndex, Algorithm algorithm, long sizeBytes, long count, int iterations) {
    return new Builder(caseIndex, algorithm, sizeBytes, count, iterations);
  }

  /** A builder holding every component of this case result, to build a copy with some of them changed. */
  public Builder toBuilder() {
    return new Builder(caseIndex, algorithm, sizeBytes, count, iterations).avgLatencyPs(avgLatencyPs)
        .minLatencyPs(minLatencyPs).maxLatencyPs(maxLatencyPs).wrongElements(wrongElements).checked(checked)
        .incOutcome(incOutcome).rankLatenciesPs(rankLatenciesPs).iterationLatenciesPs(iterationLatenciesPs)
        .iterationStartsPs(iterationStartsPs).iterationEndsPs(iterationEndsPs).partEndsPs(partEndsPs).startPs(startPs)
        .endPs(endPs);
  }

  /**
   * Names the components of a {@link CaseResult}, one setter each (named as the component, see the record for
   * their meaning). Not thread-safe; {@link #build()} may be called more than once.
   */
  public static final class Builder {
    private int caseIndex;
    private Algorithm algorithm;
    private long sizeBytes;
    private long count;
    private int iterations;
    private double avgLatencyPs;
    private double minLatencyPs;
    private double maxLatencyPs;
    private long wrongElements;
    private boolean checked = true;
    private FailCause incOutcome;
    private double[] rankLatenciesPs;
    private double[] iterationLatenciesPs;
    private long[] iterationStartsPs;
    private long[] iterationEndsPs;
    private long[] partEndsPs;
    private long startPs = -1;
    private long endPs = -1;

    private Builder(int caseIndex, Algorithm algorithm, long sizeBytes, long count, int iterations) {
      this.caseIndex = caseIndex;
      this.algorithm = algorithm;
      this.sizeBytes = sizeBytes;
      this.count = count;
      this.iterations = iterations;
    }

    /** Sets {@link CaseResult#caseIndex()}. */
    public Builder caseIndex(int caseIndex) {
      this.caseIndex = caseIndex;
      return this;
    }

    /** Sets {@link CaseResult#algorithm()}. */
    public Builder algorithm(Algorithm algorithm) {
      this.algorithm = algorithm;
      return this;
    }

    /** Sets {@link CaseResult#sizeBytes()}. */
    public Builder sizeBytes(long sizeBytes) {
      this.sizeBytes = sizeBytes;
      return this;
    }

    /** Sets {@link CaseResult#count()}. */
    public Builder count(long count) {
      this.count = count;
      return this;
    }

    /** Sets {@link CaseResult#iterations()}. */
    public Builder iterations(int iterations) {
      this.iterations = iterations;
      return this;
    }

    /** Sets {@link CaseResult#avgLatencyPs()}. */
    public Builder avgLatencyPs(double avgLatencyPs) {
      this.avgLatencyPs = avgLatencyPs;
      return this;
    }

    /** Sets {@link CaseResult#minLatencyPs()}. */
    public Builder minLatencyPs(double minLatencyPs) {
      this.minLatencyPs = minLatencyPs;
      return this;
    }

    /** Sets {@link CaseResult#maxLatencyPs()}. */
    public Builder maxLatencyPs(double maxLatencyPs) {
      this.maxLatencyPs = maxLatencyPs;
      return this;
    }

    /** Sets {@link CaseResult#wrongElements()}. */
    public Builder wrongElements(long wrongElements) {
      this.wrongElements = wrongElements;
      return this;
    }

    /** Sets {@link CaseResult#checked()}. */
    public Builder checked(boolean checked) {
      this.checked = checked;
      return this;
    }

    /** Sets {@link CaseResult#incOutcome()}. */
    public Builder incOutcome(FailCause incOutcome) {
      this.incOutcome = incOutcome;
      return this;
    }

    /** Sets {@link CaseResult#rankLatenciesPs()}. */
    public Builder rankLatenciesPs(double[] rankLatenciesPs) {
      this.rankLatenciesPs = rankLatenciesPs;
      return this;
    }

    /** Sets {@link CaseResult#iterationLatenciesPs()}. */
    public Builder iterationLatenciesPs(double[] iterationLatenciesPs) {
      this.iterationLatenciesPs = iterationLatenciesPs;
      return this;
    }

    /** Sets {@link CaseResult#iterationStartsPs()}. */
    public Builder iterationStartsPs(long[] iterationStartsPs) {
      this.iterationStartsPs = iterationStartsPs;
      return this;
    }

    /** Sets {@link CaseResult#iterationEndsPs()}. */
    public Builder iterationEndsPs(long[] iterationEndsPs) {
      this.iterationEndsPs = iterationEndsPs;
      return this;
    }

    /** Sets {@link CaseResult#partEndsPs()}. */
    public Builder partEndsPs(long[] partEndsPs) {
      this.partEndsPs = partEndsPs;
      return this;
    }

    /** Sets {@link CaseResult#startPs()}. */
    public Builder startPs(long startPs) {
      this.startPs = startPs;
      return this;
    }

    /** Sets {@link CaseResult#endPs()}. */
    public Builder endPs(long endPs) {
      this.endPs = endPs;
      return this;
    }

    /** A case result of the components set so far, through the canonical constructor. */
    public CaseResult build() {
      return new CaseResult(caseIndex, algorithm, sizeBytes, count, iterations, avgLatencyPs, minLatencyPs,
          maxLatencyPs, wrongElements, checked, incOutcome, rankLatenciesPs, iterationLatenciesPs, iterationStartsPs,
          iterationEndsPs, partEndsPs, startPs, endPs);
    }
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
