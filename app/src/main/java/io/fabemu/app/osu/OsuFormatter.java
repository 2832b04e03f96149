package io.fabemu.app.osu;

import io.fabemu.app.PayloadFit;
import io.fabemu.app.output.CNumbers;
import io.fabemu.app.output.ReportFormatter;
import io.fabemu.collectives.Algorithm;
import io.fabemu.collectives.WorkloadSpec;
import io.fabemu.core.data.DataType;
import io.fabemu.core.time.Units;
import io.fabemu.fabric.ScenarioSpec;
import io.fabemu.fabric.result.CaseResult;
import io.fabemu.fabric.result.RunResult;
import java.util.Arrays;
import java.util.List;

/**
 * OSU Micro-Benchmarks 7.5's tables, laid out exactly as its programs print them ({@code print_preamble},
 * {@code print_only_header}, {@code print_stats}, {@code print_stats_validate} of {@code osu_util_mpi.c}, and the
 * rows osu_latency and osu_bw print themselves), so that the harnesses that parse OMB's output parse fabemu's:
 *
 * <pre>
 * (an empty line)
 * # OSU MPI Allreduce Latency Test v7.5
 * # fabemu emulation (virtual time): roce25g-tor-spine-fpga, 4 nodes x 8 ppn, mode host, algorithm auto
 * # Datatype: MPI_FLOAT.
 * # Size       Avg Latency(us)
 * 4                       6.99
 * </pre>
 *
 * <p>The second line is fabemu's: it says the figures are emulated, and of what (the profile or scenario, nodes x
 * processes per node, the mode, host or in-network, and the algorithm). The rest is OMB's, by its widths: the size
 * {@code "%-*d"} in {@value #SIZE_WIDTH} columns, every figure {@code "%*.*f"} with {@code FIELD_WIDTH}
 * {@value #FIELD_WIDTH} and {@code FLOAT_PRECISION} {@value #FLOAT_PRECISION} (osu_barrier, which prints no size,
 * its average in {@value #BARRIER_WIDTH}), the iterations of {@code -f} in {@value #ITERATIONS_WIDTH}, then
 * {@code Validation} ({@code -c}: {@code Pass} or {@code Fail}, right-aligned in {@value #FIELD_WIDTH}), then one
 * column per percentile of {@code -z}, titled {@code P50 Tail Lat(us)} (osu_bw: {@code P50 Tail BW(MB/s)}) after
 * {@code FIELD_WIDTH - 15 - (p > 9 ? 1 : 0)} spaces (osu_bw: 16 for 15), as OMB computes the padding.
 *
 * <p>The figures: the collectives print the average, minimum and maximum over ranks of each rank's mean latency;
 * osu_latency half the round trip of its ping-pong; osu_bw {@code size x window / time of one window} in MB (10^6
 * bytes) per second. A tail percentile is OMB's {@code omb_calculate_tail_lat}: the per-iteration figures (for the
 * collectives the mean over the ranks of each iteration's latency; for osu_latency each round trip halved; for
 * osu_bw each window's bandwidth) sorted ascending, and the one at index {@code iterations x p / 100 - 1} in integer
 * arithmetic, which fabemu clamps to the first and last (OMB reads outside its array there). osu_reduce_scatter
 * prints the whole buffer as its size: the per-rank block times the ranks.
 *
 * <p>Contract: pure functions of their arguments; every line ends with {@code \n}; numbers are rounded as C's
 * {@code printf} rounds them (the exact binary value, ties to even), not as {@link String#format} does (which rounds
 * the shortest decimal form half up, e.g. 2.675 to 2.68 where C prints 2.67).
 */
public final class OsuFormatter {
  /** OMB's width of the size column ({@code fprintf(stdout, "%-*d", 10, size)}). */
  static final int SIZE_WIDTH = 10;
  /** OMB's {@code FIELD_WIDTH}: every figure's column. */
  static final int FIELD_WIDTH = 18;
  /** OMB's {@code FLOAT_PRECISION}: decimals of every figure. */
  static final int FLOAT_PRECISION = 2;
  /** OMB's width of the {@code Iterations} column ({@code -f}). */
  static final int ITERATIONS_WIDTH = 12;
  /** OMB's width of the average when it prints no size (osu_barrier). */
  static final int BARRIER_WIDTH = 17;
  /** OMB's most percentiles of {@code -z} ({@code OMB_STAT_MAX_NUM}). */
  static final int MAX_PERCENTILES = 5;
  /** The percentiles of a plain {@code -z}. */
  static final List<Integer> DEFAULT_PERCENTILES = List.of(50, 90, 99);

  private OsuFormatter() {}

  /**
   * The optional columns: {@code -f} (min, max, iterations), {@code -c} (validation) and {@code -z} (tail
   * percentiles; empty: none).
   */
  public record Columns(boolean full, boolean validation, List<Integer> percentiles) {
    /** What an OSU program prints without options. */
    public static final Columns PLAIN = new Columns(false, false, List.of());

    public Columns {
      percentiles = List.copyOf(percentiles);
    }
  }

  /**
   * Everything {@code benchmark} prints before its rows for the cases of {@code algorithm} (as the workload of
   * {@code spec} asks for it): the preamble and the column titles.
   */
  static String head(OsuBenchmark benchmark, ScenarioSpec spec, Algorithm algorithm, Columns columns) {
    return preamble(benchmark, spec, algorithm) + columns(benchmark, columns);
  }

  /**
   * The lines before the column titles: OMB's empty line and title, fabemu's line, the synthetic payload's line when
   * nothing is checked, and OMB's {@code # Datatype:} line (not for osu_barrier).
   */
  static String preamble(OsuBenchmark benchmark, ScenarioSpec spec, Algorithm algorithm) {
    StringBuilder sb = new StringBuilder("\n").append(benchmark.title()).append('\n');
    sb.append(emulationLine(benchmark, spec, algorithm)).append('\n');
    if (spec.workload().syntheticPayload()) sb.append(ReportFormatter.SYNTHETIC_HEADER_LINE);
    sb.append(PayloadFit.headerLine(spec.workload()));
    if (benchmark.printsDatatype()) {
      sb.append("# Datatype: ").append(mpiTypeName(spec.workload().dataType())).append(".\n");
    }
    return sb.toString();
  }

  /**
   * fabemu's line: {@code # fabemu emulation (virtual time): NAME, N nodes x P ppn, mode M, algorithm A}, with
   * {@code , hierarchical} for a hierarchical workload and {@code , window W} for osu_bw. The mode is the in-network
   * algorithm's name or {@code host}.
   */
  static String emulationLine(OsuBenchmark benchmark, ScenarioSpec spec, Algorithm algorithm) {
    WorkloadSpec w = spec.workload();
    StringBuilder sb = new StringBuilder("# fabemu emulation (virtual time): ").append(spec.name()).append(", ")
        .append(spec.topology().hosts()).append(" nodes x ").append(w.ppn()).append(" ppn, mode ")
        .append(algorithm.inNetwork() ? algorithm.configName() : "host").append(", algorithm ")
        .append(algorithm.configName());
    if (w.hierarchical()) sb.append(", hierarchical");
    if (benchmark.bandwidth()) sb.append(", window ").append(w.window());
    return sb.toString();
  }

  /** OMB's column titles for {@code columns}. */
  static String columns(OsuBenchmark benchmark, Columns columns) {
    StringBuilder sb = new StringBuilder();
    if (benchmark.showsSize()) {
      sb.append(padRight("# Size", SIZE_WIDTH))
          .append(padLeft(benchmark.bandwidth() ? "Bandwidth (MB/s)" : "Avg Latency(us)", FIELD_WIDTH));
    } else {
      sb.append("# Avg Latency(us)");
    }
    if (columns.full()) {
      sb.append(padLeft("Min Latency(us)", FIELD_WIDTH)).append(padLeft("Max Latency(us)", FIELD_WIDTH))
          .append(padLeft("Iterations", ITERATIONS_WIDTH));
    }
    if (columns.validation()) sb.append(padLeft("Validation", FIELD_WIDTH));
    String unit = benchmark.bandwidth() ? " Tail BW(MB/s)" : " Tail Lat(us)";
    for (int p : columns.percentiles()) {
      // OMB: "%*sP%d Tail Lat(us)" padded by FIELD_WIDTH - strlen("Px Tail Lat(us)") - (p > 9).
      int pad = FIELD_WIDTH - ("Px" + unit).length() - (p > 9 ? 1 : 0);
      sb.append(" ".repeat(Math.max(0, pad))).append('P').append(p).append(unit);
    }
    return sb.append('\n').toString();
  }

  /**
   * One row of {@code c}, a case of {@code spec}'s workload: the size OMB prints, the figure, and the columns asked
   * for.
   */
  static String row(OsuBenchmark benchmark, CaseResult c, ScenarioSpec spec, Columns columns) {
    StringBuilder sb = new StringBuilder();
    if (benchmark.showsSize()) {
      sb.append(padRight(Long.toString(osuSizeBytes(benchmark, c.sizeBytes(), ranks(spec))), SIZE_WIDTH))
          .append(fixed(figure(benchmark, c.sizeBytes(), c.avgLatencyPs(), spec), FIELD_WIDTH));
    } else {
      sb.append(fixed(figure(benchmark, c.sizeBytes(), c.avgLatencyPs(), spec), BARRIER_WIDTH));
    }
    if (columns.full()) {
      sb.append(fixed(us(c.minLatencyPs()), FIELD_WIDTH)).append(fixed(us(c.maxLatencyPs()), FIELD_WIDTH))
          .append(padLeft(Integer.toString(c.iterations()), ITERATIONS_WIDTH));
    }
    if (columns.validation()) sb.append(padLeft(validation(c), FIELD_WIDTH));
    if (!columns.percentiles().isEmpty()) {
      double[] perIteration = new double[c.iterationLatenciesPs().length];
      for (int i = 0; i < perIteration.length; i++) {
        perIteration[i] = figure(benchmark, c.sizeBytes(), c.iterationLatenciesPs()[i], spec);
      }
      Arrays.sort(perIteration);
      for (int p : columns.percentiles()) {
        sb.append(fixed(tail(perIteration, p), FIELD_WIDTH));
      }
    }
    return sb.append('\n').toString();
  }

  /** The rows of {@code cases} in the order given, then a comment line per in-network case that fell back. */
  static String rows(OsuBenchmark benchmark, List<CaseResult> cases, ScenarioSpec spec, Columns columns) {
    StringBuilder sb = new StringBuilder();
    for (CaseResult c : cases) {
      sb.append(row(benchmark, c, spec, columns));
    }
    // An in-network case whose group could not use the switches says so, after the table (comments, as OMB's own).
    sb.append(ReportFormatter.incNotes(cases));
    return sb.toString();
  }

  /** The whole table of the cases of the workload's algorithm {@code algorithm}: {@link #head} and {@link #rows}. */
  static String table(RunResult result, Algorithm algorithm, Columns columns) {
    ScenarioSpec spec = result.scenario();
    OsuBenchmark benchmark = OsuBenchmark.of(spec.workload().collective(), algorithm);
    return head(benchmark, spec, algorithm, columns) + rows(benchmark, casesOf(result, algorithm), spec, columns);
  }

  /**
   * The finished cases of the workload's algorithm {@code algorithm} and primary buffer layout
   * ({@link WorkloadSpec#primaryBufferIndex}: out of place unless the workload lists only in-place), in run order:
   * one row per size, as OMB measures one layout per run.
   */
  static List<CaseResult> casesOf(RunResult result, Algorithm algorithm) {
    WorkloadSpec w = result.scenario().workload();
    return result.cases().stream().filter(c -> w.algorithmOfCase(c.caseIndex()) == algorithm
        && w.bufferIndexOfCase(c.caseIndex()) == w.primaryBufferIndex()).toList();
  }

  /** The size OMB prints for a case of {@code caseSizeBytes} per rank: osu_reduce_scatter's is the whole buffer. */
  static long osuSizeBytes(OsuBenchmark benchmark, long caseSizeBytes, int ranks) {
    return benchmark == OsuBenchmark.REDUCE_SCATTER ? caseSizeBytes * ranks : caseSizeBytes;
  }

  /**
   * The figure of one latency {@code latencyPs} of a case of {@code sizeBytes}: microseconds (osu_latency: half the
   * round trip), or for osu_bw the window's bandwidth in MB/s.
   */
  static double figure(OsuBenchmark benchmark, long sizeBytes, double latencyPs, ScenarioSpec spec) {
    if (benchmark == OsuBenchmark.LATENCY) return us(latencyPs) / 2;
    if (benchmark.bandwidth()) {
      // OMB: size / 1e6 * window / seconds; seconds = ps / 1e12.
      return sizeBytes / 1e6 * spec.workload().window() / (latencyPs / Units.PS_PER_S);
    }
    return us(latencyPs);
  }

  /**
   * OMB's tail percentile {@code p} of {@code sortedAscending}: the value at index {@code n * p / 100 - 1} in integer
   * arithmetic, clamped to the array (NaN when it is empty).
   */
  static double tail(double[] sortedAscending, int p) {
    int n = sortedAscending.length;
    if (n == 0) return Double.NaN;
    long index = (long) n * p / 100 - 1;
    return sortedAscending[(int) Math.max(0, Math.min(n - 1, index))];
  }

  /** The validation column of a case whose outputs were not checked (a synthetic payload: sizes only). */
  static final String NOT_CHECKED = "n/a";

  /** {@code Pass} or {@code Fail} as OMB's {@code VALIDATION_STATUS}; {@value #NOT_CHECKED} when not checked. */
  static String validation(CaseResult c) {
    if (!c.checked()) return NOT_CHECKED;
    return c.wrongElements() > 0 ? "Fail" : "Pass";
  }

  /** The name {@code MPI_Type_get_name} gives the MPI type of {@code type}. */
  static String mpiTypeName(DataType type) {
    return switch (type) {
      case INT8 -> "MPI_CHAR";
      case INT16 -> "MPI_SHORT";
      case INT32 -> "MPI_INT";
      case INT64 -> "MPI_INT64_T";
      case FLOAT32 -> "MPI_FLOAT";
      case FLOAT64 -> "MPI_DOUBLE";
    };
  }

  /** C's {@code "%*.*f"} with {@value #FLOAT_PRECISION} decimals: the exact value rounded half to even, padded. */
  public static String fixed(double value, int width) {
    String digits = Double.isFinite(value) ? CNumbers.fixed(value, FLOAT_PRECISION)
        : Double.isNaN(value) ? "nan" : value > 0 ? "inf" : "-inf";
    return padLeft(digits, width);
  }

  private static int ranks(ScenarioSpec spec) {
    return ReportFormatter.ranks(spec);
  }

  private static double us(double ps) {
    return ps / Units.PS_PER_US;
  }

  private static String padLeft(String s, int width) {
    return CNumbers.padLeft(s, width);
  }

  private static String padRight(String s, int width) {
    return CNumbers.padRight(s, width);
  }
}
