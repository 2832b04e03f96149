package io.fabemu.app;

import io.fabemu.core.time.Units;
import io.fabemu.fabric.result.CaseResult;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.List;

/**
 * The table {@code fabemu osu-allreduce} prints, laid out exactly as OSU Micro-Benchmarks 5.x {@code osu_allreduce}
 * prints it ({@code print_preamble} / {@code print_stats} of {@code osu_util}), so scripts that parse OSU output
 * parse ours:
 *
 * <pre>
 * # OSU MPI Allreduce Latency Test (fabemu emulation, quickstart, 16 nodes x 1 ppn, mode host)
 * # Size       Avg Latency(us)
 * 4                       6.89
 * </pre>
 *
 * <p>Widths as OSU's: the size {@code "%-*d"} with width {@value #SIZE_WIDTH} (the header's {@code "# Size"} as
 * {@code "%-*s"}, width {@value #SIZE_WIDTH}); each latency {@code "%*.*f"} with {@code FIELD_WIDTH}
 * {@value #FIELD_WIDTH} and {@code FLOAT_PRECISION} {@value #FLOAT_PRECISION}; with {@code -f} the column titles and
 * values of min and max latency likewise, then the iterations {@code "%*d"} with width {@value #ITERATIONS_WIDTH}.
 * The first line replaces OSU's {@code # OSU MPI Allreduce Latency Test v5.x} with what was emulated.
 *
 * <p>Contract: pure functions; every line ends with {@code \n}; numbers are rounded as C's {@code printf} rounds
 * them (the exact binary value, ties to even), not as {@link String#format} does (which rounds the shortest decimal
 * form half up, e.g. 2.675 to 2.68 where C prints 2.67). Latencies are the case's avg/min/max over ranks of the
 * per-rank means, as OSU reduces them, in microseconds.
 */
final class OsuFormatter {
  /** OSU's width of the size column ({@code fprintf(stdout, "%-*d", 10, size)}). */
  static final int SIZE_WIDTH = 10;
  /** OSU's {@code FIELD_WIDTH}: every latency column. */
  static final int FIELD_WIDTH = 18;
  /** OSU's {@code FLOAT_PRECISION}: decimals of every latency. */
  static final int FLOAT_PRECISION = 2;
  /** OSU's width of the {@code Iterations} column ({@code -f}). */
  static final int ITERATIONS_WIDTH = 12;

  private OsuFormatter() {}

  /** The first line: {@code # OSU MPI Allreduce Latency Test (fabemu emulation, NAME, N nodes x P ppn, mode M)}. */
  static String title(String profileName, int nodes, int ppn, String mode) {
    return "# OSU MPI Allreduce Latency Test (fabemu emulation, " + profileName + ", " + nodes + " nodes x " + ppn
        + " ppn, mode " + mode + ")\n";
  }

  /** The column titles: size and average latency; with {@code full} also min, max and iterations. */
  static String columns(boolean full) {
    StringBuilder sb = new StringBuilder();
    sb.append(padRight("# Size", SIZE_WIDTH)).append(padLeft("Avg Latency(us)", FIELD_WIDTH));
    if (full) {
      sb.append(padLeft("Min Latency(us)", FIELD_WIDTH)).append(padLeft("Max Latency(us)", FIELD_WIDTH))
          .append(padLeft("Iterations", ITERATIONS_WIDTH));
    }
    return sb.append('\n').toString();
  }

  /** One row: size and average latency; with {@code full} also min, max and the measured iterations. */
  static String row(CaseResult c, boolean full) {
    StringBuilder sb = new StringBuilder();
    sb.append(padRight(Long.toString(c.sizeBytes()), SIZE_WIDTH)).append(fixed(us(c.avgLatencyPs()), FIELD_WIDTH));
    if (full) {
      sb.append(fixed(us(c.minLatencyPs()), FIELD_WIDTH)).append(fixed(us(c.maxLatencyPs()), FIELD_WIDTH))
          .append(padLeft(Integer.toString(c.iterations()), ITERATIONS_WIDTH));
    }
    return sb.append('\n').toString();
  }

  /** The column titles, one row per case in the order given, and a note per INC case that fell back. */
  static String table(List<CaseResult> cases, boolean full) {
    StringBuilder sb = new StringBuilder(columns(full));
    for (CaseResult c : cases) {
      sb.append(row(c, full));
    }
    // An INC mode whose group could not use the switches says so, after the table (comments, as OSU's own).
    sb.append(ReportFormatter.incNotes(cases));
    return sb.toString();
  }

  /** C's {@code "%*.*f"} with {@value #FLOAT_PRECISION} decimals: the exact value rounded half to even, padded. */
  static String fixed(double value, int width) {
    String digits = Double.isFinite(value)
        ? new BigDecimal(value).setScale(FLOAT_PRECISION, RoundingMode.HALF_EVEN).toPlainString()
        : Double.isNaN(value) ? "nan" : value > 0 ? "inf" : "-inf";
    return padLeft(digits, width);
  }

  private static double us(double ps) {
    return ps / Units.PS_PER_US;
  }

  private static String padLeft(String s, int width) {
    return s.length() >= width ? s : " ".repeat(width - s.length()) + s;
  }

  private static String padRight(String s, int width) {
    return s.length() >= width ? s : s + " ".repeat(width - s.length());
  }
}
