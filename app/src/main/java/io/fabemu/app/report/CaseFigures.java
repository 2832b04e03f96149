package io.fabemu.app.report;

import io.fabemu.collectives.BufferLayout;
import java.math.BigDecimal;
import java.math.MathContext;
import java.util.List;
import java.util.Locale;

/**
 * The figures of one case (one algorithm, buffer placement and size) as {@code results.csv} holds them and the
 * report draws them: a row of the results table.
 *
 * @param caseIndex      the case's place in the workload
 * @param scenario       the scenario's name
 * @param topology       the topology's description
 * @param ranks          ranks of the run (nodes x ppn)
 * @param nodes          compute nodes (hosts)
 * @param ppn            ranks per node
 * @param collective     the collective, as the scenario names it
 * @param algorithm      the algorithm that ran (auto resolved; the host algorithm when INC fell back is still the
 *                       in-network algorithm's name, see {@code incUsed})
 * @param algorithmAsked the algorithm the workload asked for
 * @param inNetwork      the algorithm asked for is in-network (inc-node, inc-socket)
 * @param buffers        {@code out-of-place} (separate send and receive buffers) or {@code in-place}
 * @param sizeBytes      message size per rank
 * @param count          elements per rank
 * @param datatype       element type
 * @param op             reduce operation, {@code none} for collectives that do not reduce
 * @param iterations     measured iterations
 * @param avgUs          mean over the measuring ranks of each rank's mean latency, microseconds
 * @param minUs          smallest rank mean, microseconds
 * @param maxUs          largest rank mean, microseconds
 * @param algBwGBps      nccl-tests' algorithm bandwidth, GB/s (10^9 B/s)
 * @param busBwGBps      nccl-tests' bus bandwidth, GB/s
 * @param wrong          output elements that differed from the exact answer (0 when not checked)
 * @param checked        outputs were checked (false for a synthetic payload)
 * @param incUsed        for an in-network algorithm whether the switches aggregated; null for other algorithms
 * @param incReason      for an in-network algorithm how its setup ended ({@code INC in use}, or why the host
 *                       algorithm ran instead); null for other algorithms
 * @param caseStartUs    when the first rank began the case in virtual time (warm-up included), microseconds; NaN
 *                       when the ranks did not report it
 * @param caseEndUs      when the last rank finished the case, microseconds; NaN exactly when {@code caseStartUs} is
 */
public record CaseFigures(int caseIndex, String scenario, String topology, int ranks, int nodes, int ppn,
                          String collective, String algorithm, String algorithmAsked, boolean inNetwork,
                          String buffers, long sizeBytes, long count, String datatype, String op, int iterations,
                          double avgUs, double minUs, double maxUs, double algBwGBps, double busBwGBps, long wrong,
                          boolean checked, Boolean incUsed, String incReason, double caseStartUs, double caseEndUs) {

  /** The figures of a case without its interval in virtual time. */
  public CaseFigures(int caseIndex, String scenario, String topology, int ranks, int nodes, int ppn,
                     String collective, String algorithm, String algorithmAsked, boolean inNetwork,
                     String buffers, long sizeBytes, long count, String datatype, String op, int iterations,
                     double avgUs, double minUs, double maxUs, double algBwGBps, double busBwGBps, long wrong,
                     boolean checked, Boolean incUsed, String incReason) {
    this(caseIndex, scenario, topology, ranks, nodes, ppn, collective, algorithm, algorithmAsked, inNetwork, buffers,
        sizeBytes, count, datatype, op, iterations, avgUs, minUs, maxUs, algBwGBps, busBwGBps, wrong, checked, incUsed,
        incReason, Double.NaN, Double.NaN);
  }

  /** Separate send and receive buffers: nccl-tests' out-of-place half, the default. */
  public static final String OUT_OF_PLACE = BufferLayout.OUT_OF_PLACE.configName();
  /** The send buffer is the receive buffer: nccl-tests' in-place half. */
  public static final String IN_PLACE = BufferLayout.IN_PLACE.configName();

  /** The column names of {@link #csvFields()}, in order. */
  public static final List<String> CSV_HEADER = List.of("scenario", "topology", "ranks", "nodes", "ppn",
      "collective", "algorithm", "algorithm_asked", "buffers", "size_bytes", "count", "datatype", "op", "iterations",
      "avg_us", "min_us", "max_us", "algbw_gbps", "busbw_gbps", "wrong", "checked", "inc_used", "inc_reason",
      "case_start_us", "case_end_us");

  /**
   * The row's fields, unquoted, in {@link #CSV_HEADER} order: latencies with 6 decimals (whole picoseconds),
   * bandwidths with 6 significant digits and no exponent, {@code inc_used} and {@code inc_reason} empty for
   * algorithms that are not in-network; last (added after the others, so earlier columns keep their places) the
   * case's start and end in virtual time with 6 decimals, empty when not reported.
   */
  public List<String> csvFields() {
    return List.of(scenario, topology, Integer.toString(ranks), Integer.toString(nodes), Integer.toString(ppn),
        collective, algorithm, algorithmAsked, buffers, Long.toString(sizeBytes), Long.toString(count), datatype, op,
        Integer.toString(iterations), micros(avgUs), micros(minUs), micros(maxUs), sixDigits(algBwGBps),
        sixDigits(busBwGBps), Long.toString(wrong), Boolean.toString(checked),
        incUsed == null ? "" : incUsed.toString(), incReason == null ? "" : incReason,
        Double.isNaN(caseStartUs) ? "" : micros(caseStartUs), Double.isNaN(caseEndUs) ? "" : micros(caseEndUs));
  }

  private static String micros(double us) {
    return String.format(Locale.ROOT, "%.6f", us);
  }

  /** Six significant digits, plain notation: small bandwidths (4 B messages) keep their digits. */
  static String sixDigits(double v) {
    if (v == 0 || Double.isNaN(v) || Double.isInfinite(v)) return v == 0 ? "0" : String.valueOf(v);
    return new BigDecimal(v).round(new MathContext(6)).stripTrailingZeros().toPlainString();
  }
}
