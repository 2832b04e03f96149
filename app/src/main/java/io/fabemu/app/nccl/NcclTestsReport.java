package io.fabemu.app.nccl;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import io.fabemu.app.RunSupport;
import io.fabemu.app.output.CNumbers;
import io.fabemu.app.output.ReportFormatter;
import io.fabemu.app.report.ProtocolNote;
import io.fabemu.cluster.scenario.RealDataBudget;
import io.fabemu.collectives.Algorithm;
import io.fabemu.collectives.BufferLayout;
import io.fabemu.collectives.Collective;
import io.fabemu.collectives.WorkloadSpec;
import io.fabemu.core.time.Units;
import io.fabemu.core.topology.Topology;
import io.fabemu.fabric.ScenarioSpec;
import io.fabemu.fabric.result.CaseResult;
import io.fabemu.fabric.result.RunResult;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A run as nccl-tests reports it: the layout of nccl-tests 2.17.9 ({@code src/util.cu}: {@code writeDeviceReport},
 * {@code writeResultHeader}, {@code writeBenchmarkLine*}, {@code writeResultFooter}; {@code src/common.cu}: the closing
 * lines), on stdout and in the {@code -J} JSON file, so that the harnesses that parse nccl-tests parse fabemu.
 *
 * <p>The document, in order: {@link #preamble} (version, program, a {@code # fabemu ...} line saying what was
 * emulated, the {@code # nThread ...} line, {@code # Using devices} and one {@code #  Rank ...} line per emulated rank
 * naming its emulated host and the device {@value #DEVICE_NAME}); {@link #columnHeader} (the two header lines with
 * {@code root}, out-of-place and in-place halves, and the units line); {@link #rows} (13 fields per row:
 * {@code size count type redop root time algbw busbw #wrong time algbw busbw #wrong}); {@link #footer}
 * ({@code # Out of bounds values : N OK|FAILED}, {@code # Avg bus bandwidth    : x }); {@link #closing}.
 *
 * <p>Figures. {@code size} is nccl-tests' (the whole buffer for the collectives with one block per rank, see
 * {@link ReportFormatter#ncclBlocks}), {@code count} its per-rank (per-block) element count, {@code type} the nccl
 * type name, {@code redop} the op for reducing collectives and send/recv (as nccl-tests prints it) and {@code none}
 * otherwise, {@code root} the root of rooted collectives and -1 otherwise. {@code time} is the case's mean latency
 * over ranks in microseconds (nccl-tests' default {@code -a 1}), {@code algbw = size / time}, {@code busbw = algbw x}
 * {@link ReportFormatter#busBandwidthFactor}; {@code #wrong} the case's wrong output elements, {@value #NOT_CHECKED}
 * when its outputs were not checked (synthetic payload, nccl-tests' {@code -c 0}). The out-of-place half is the case
 * run with {@link BufferLayout#OUT_OF_PLACE}, the in-place half the one run with {@link BufferLayout#IN_PLACE}
 * (measured, not copied); a half the workload did not measure is left out as nccl-tests leaves one out (an
 * out-of-place half as 32 blanks, an in-place half by ending the row). Numbers are C's: nccl-tests'
 * {@code getFloatStr} widths and decimals ({@link #floatStr}), {@code %6g} for {@code #wrong}, {@code %g} for the
 * average. {@code Out of bounds
 * values} counts the halves with wrong elements (nccl-tests counts them per process and half); {@code Avg bus
 * bandwidth} is the mean bus bandwidth over every half printed, both layouts, as nccl-tests computes it.
 * With {@code -a} another time over ranks can be reported ({@link TimeOverRanks}).
 *
 * <p>Contract: pure functions of their arguments (no clock: the JSON's times are given), every line ends with
 * {@code \n}. The text names no GPU vendor and says it is an emulation.
 *
 * <p>Past 500 lines: it reproduces nccl-tests' output byte for byte (header, table, footer, JSON), one format kept
 * in one place.
 */
public final class NcclTestsReport {

  /** The nccl-tests version whose layout this is. */
  static final String LAYOUT_VERSION = "2.17.9";
  /** The name of every emulated device in the {@code #  Rank} lines (nccl-tests prints the GPU's name there). */
  static final String DEVICE_NAME = "fabemu emulated endpoint";
  /** The {@code #wrong} field of a half whose outputs were not checked. */
  static final String NOT_CHECKED = "N/A";
  /** nccl-tests' JSON format version ({@code JSON_FILE_VERSION} of 2.17.9). */
  static final int JSON_FILE_VERSION = 1;
  /** Where {@code run --out} puts the nccl-tests files, inside the output folder. */
  static final String FOLDER = "nccl-tests";

  /** The run parameters the preamble states, as nccl-tests' flags give them. */
  record Params(int threads, int gpusPerThread, long minBytes, long maxBytes, long stepFactor, long stepBytes,
                int warmupIters, int iters, int validation) {

    /** nccl-tests' defaults for {@code -i}: 1 MiB, printed when the sizes step by bytes and none is given. */
    static final long DEFAULT_STEP_BYTES = 1L << 20;

    /**
     * The parameters of the {@code *-perf} command that runs {@code spec}'s workload with {@code -t 1 -g 1}: minimum
     * and maximum nccl-tests size, the step (a factor when the sizes multiply by the same whole number, bytes when
     * they grow by the same amount, nccl-tests' default 1 MiB for a single size, {@code 0(bytes)} for a list that is
     * neither, which no nccl-tests sweep makes), warm-up and iterations, and validation 1 (0 for a synthetic payload).
     */
    static Params of(ScenarioSpec spec) {
      WorkloadSpec w = spec.workload();
      int blocks = ReportFormatter.ncclBlocks(w.collective(), ReportFormatter.ranks(spec));
      List<Long> sizes = w.sizesBytes().stream().map(s -> s * blocks).toList();
      long first = sizes.get(0);
      long last = sizes.get(sizes.size() - 1);
      long factor = 1;
      long step = sizes.size() == 1 ? DEFAULT_STEP_BYTES : 0;
      if (sizes.size() > 1 && first > 0 && sizes.get(1) % first == 0 && sizes.get(1) / first >= 2
          && isGeometric(sizes, sizes.get(1) / first)) {
        factor = sizes.get(1) / first;
      } else if (sizes.size() > 1 && sizes.get(1) > first && isArithmetic(sizes, sizes.get(1) - first)) {
        step = sizes.get(1) - first;
      }
      return new Params(1, 1, first, last, factor, step, w.warmup(), w.iterations(), w.syntheticPayload() ? 0 : 1);
    }

    private static boolean isGeometric(List<Long> sizes, long factor) {
      for (int i = 1; i < sizes.size(); i++) {
        if (sizes.get(i) != sizes.get(i - 1) * factor) return false;
      }
      return true;
    }

    private static boolean isArithmetic(List<Long> sizes, long step) {
      for (int i = 1; i < sizes.size(); i++) {
        if (sizes.get(i) != sizes.get(i - 1) + step) return false;
      }
      return true;
    }
  }

  /**
   * Which time over ranks a row reports, as nccl-tests' {@code -a}: each rank's mean over the measured iterations,
   * then rank 0's, the mean, the smallest or the largest of those.
   */
  enum TimeOverRanks {
    RANK0, MEAN, MIN, MAX;

    /** nccl-tests' {@code -a} value (0 to 3). */
    static TimeOverRanks of(int average) {
      return values()[average];
    }

    double timePs(CaseResult c) {
      return switch (this) {
        case RANK0 -> c.rankLatenciesPs().length > 0 ? c.rankLatenciesPs()[0] : c.avgLatencyPs();
        case MEAN -> c.avgLatencyPs();
        case MIN -> c.minLatencyPs();
        case MAX -> c.maxLatencyPs();
      };
    }
  }

  /** One half of a row: the case's time, bandwidths and wrong elements. */
  record Half(double timeUs, double algBwGBps, double busBwGBps, boolean checked, long wrongElements) {}

  /** One row; a half is null when the workload did not measure it. */
  record Row(long sizeBytes, long count, String type, String redop, int root, Half outOfPlace, Half inPlace) {}

  /** A table: its rows and the footer's figures ({@code avgBusBwGBps} is NaN when no half was measured). */
  public record Table(List<Row> rows, int outOfBounds, double avgBusBwGBps) {}

  /** One emulated device of the preamble. */
  record Device(int rank, int pid, String host, int device) {
    /** The bracketed PCI-style id nccl-tests prints ({@code domain:bus:device}); here the device index as the bus. */
    String hex() {
      return String.format(Locale.ROOT, "%04x:%02x:%02x", 0, device & 0xff, 0);
    }
  }

  private NcclTestsReport() {}

  /**
   * The nccl-tests program that measures {@code collective} (e.g. {@code all_reduce_perf}); null for the barrier and
   * a pipeline iteration, which nccl-tests does not measure.
   */
  public static String program(Collective collective) {
    return switch (collective) {
      case ALLREDUCE -> "all_reduce_perf";
      case ALLGATHER -> "all_gather_perf";
      case REDUCE_SCATTER -> "reduce_scatter_perf";
      case BROADCAST -> "broadcast_perf";
      case REDUCE -> "reduce_perf";
      case ALLTOALL -> "alltoall_perf";
      case SENDRECV -> "sendrecv_perf";
      case GATHER -> "gather_perf";
      case SCATTER -> "scatter_perf";
      case BARRIER, PIPELINE -> null;
    };
  }

  /** The table of the workload's {@code algorithmIndex}-th algorithm: one row per size, both halves, mean times. */
  public static Table table(RunResult result, int algorithmIndex) {
    return table(result, algorithmIndex, TimeOverRanks.MEAN);
  }

  /** Like {@link #table(RunResult, int)}, reporting {@code time} over ranks. */
  public static Table table(RunResult result, int algorithmIndex, TimeOverRanks time) {
    ScenarioSpec spec = result.scenario();
    WorkloadSpec w = spec.workload();
    int ranks = ReportFormatter.ranks(spec);
    Collective c = w.collective();
    int blocks = ReportFormatter.ncclBlocks(c, ranks);
    double factor = ReportFormatter.busBandwidthFactor(c, ranks);
    String type = w.dataType().ncclName();
    String redop = c.reduces() || c == Collective.SENDRECV ? w.op().configName() : "none";
    int root = c.rooted() ? w.root() : -1;
    int outIndex = w.buffers().indexOf(BufferLayout.OUT_OF_PLACE);
    int inIndex = w.buffers().indexOf(BufferLayout.IN_PLACE);
    CaseResult[] byIndex = new CaseResult[w.caseCount()];
    for (CaseResult cr : result.cases()) byIndex[cr.caseIndex()] = cr;

    List<Row> rows = new ArrayList<>();
    int outOfBounds = 0;
    double busSum = 0;
    int halves = 0;
    for (int s = 0; s < w.sizesBytes().size(); s++) {
      CaseResult out = outIndex < 0 ? null : byIndex[w.caseIndex(algorithmIndex, outIndex, s)];
      CaseResult in = inIndex < 0 ? null : byIndex[w.caseIndex(algorithmIndex, inIndex, s)];
      CaseResult any = out != null ? out : in;
      if (any == null) continue;
      long size = any.sizeBytes() * blocks;
      Half outHalf = out == null ? null : half(out, size, factor, time);
      Half inHalf = in == null ? null : half(in, size, factor, time);
      for (Half h : new Half[] {outHalf, inHalf}) {
        if (h == null) continue;
        busSum += h.busBwGBps();
        halves++;
        if (h.checked() && h.wrongElements() > 0) outOfBounds++;
      }
      rows.add(new Row(size, any.count(), type, redop, root, outHalf, inHalf));
    }
    return new Table(rows, outOfBounds, halves == 0 ? Double.NaN : busSum / halves);
  }

  private static Half half(CaseResult c, long ncclSizeBytes, double factor, TimeOverRanks time) {
    double timePs = time.timePs(c);
    double algBw = ReportFormatter.algBandwidthGBps(ncclSizeBytes, timePs);
    return new Half(timePs / Units.PS_PER_US, algBw, algBw * factor, c.checked(), c.wrongElements());
  }

  /**
   * The lines before the table: nccl-tests' version line (with {@code nccl-headers=0 nccl-library=0}: no NCCL ran),
   * {@code # Collective test starting: PROGRAM}, {@code emulation} (a {@code # fabemu ...} line, and any further
   * {@code notes}, each a comment line), the {@code # nThread ...} line, the blocking line (fabemu waits for every
   * collective and runs a barrier after it: nccl-tests' {@code -z 1}), {@code #}, {@code # Using devices} and one line
   * per device.
   */
  static String preamble(String program, Params p, String emulation, List<String> notes, List<Device> devices) {
    StringBuilder sb = new StringBuilder();
    sb.append("# nccl-tests version ").append(LAYOUT_VERSION).append(" nccl-headers=0 nccl-library=0\n");
    sb.append("# Collective test starting: ").append(program).append('\n');
    sb.append("# ").append(emulation).append('\n');
    for (String note : notes) sb.append("# ").append(note).append('\n');
    sb.append(String.format(Locale.ROOT, "# nThread %d nGpus %d minBytes %d maxBytes %d step: %d(%s) warmup iters: %d "
        + "iters: %d agg iters: %d validation: %d graph: %d", p.threads(), p.gpusPerThread(), p.minBytes(),
        p.maxBytes(), p.stepFactor() > 1 ? p.stepFactor() : p.stepBytes(), p.stepFactor() > 1 ? "factor" : "bytes",
        p.warmupIters(), p.iters(), 1, p.validation(), 0)).append('\n');
    sb.append("# Blocking Enabled: wait for completion and barrier after each collective \n");
    sb.append("#\n");
    sb.append("# Using devices\n");
    for (Device d : devices) {
      sb.append(String.format(Locale.ROOT, "#  Rank %2d Group %2d Pid %6d on %10s device %2d [%s] %s", d.rank(), 0,
          d.pid(), d.host(), d.device(), d.hex(), DEVICE_NAME)).append('\n');
    }
    return sb.toString();
  }

  /**
   * The devices of {@code spec}'s ranks: rank r runs on host {@code r / ranksPerHost} (named as in
   * {@code topology}, or {@code host<i>} without one) as its device {@code r % ranksPerHost}, in emulated process
   * {@code r / ranksPerProcess} (printed as the pid: fabemu has no process per rank). Where the topology groups hosts
   * into servers (GPU servers, an optical cluster's servers of NPUs) the host is the server, {@code server<s>}, and
   * the device the rank's place in it.
   */
  static List<Device> devices(ScenarioSpec spec, Topology topology, int ranksPerProcess) {
    int ranksPerHost = spec.workload().ppn();
    int hostsPerServer = spec.topology().hostsPerServer();
    int ranks = ReportFormatter.ranks(spec);
    List<Device> devices = new ArrayList<>(ranks);
    for (int r = 0; r < ranks; r++) {
      int host = r / ranksPerHost;
      if (hostsPerServer > 1) {
        // A server of GPUs (or NPUs) is what nccl-tests calls a host; its devices are its hosts' ranks.
        int ranksPerServer = ranksPerHost * hostsPerServer;
        devices.add(new Device(r, r / ranksPerProcess, "server" + r / ranksPerServer, r % ranksPerServer));
        continue;
      }
      String name = topology != null && host < topology.vertexCount() ? topology.vertex(host).name() : "host" + host;
      devices.add(new Device(r, r / ranksPerProcess, name, r % ranksPerHost));
    }
    return devices;
  }

  /**
   * The {@code # fabemu ...} line of the preamble (without its {@code "# "}): what was emulated, on what, and that
   * the times are virtual.
   */
  static String emulationLine(ScenarioSpec spec, String topologyDescription, String algorithm) {
    WorkloadSpec w = spec.workload();
    // A payload cut at a size is said in nccl-tests' sizes (an all-gather's is every rank's block).
    String payload = RealDataBudget.describe(w, ReportFormatter.ncclBlocks(w.collective(), ReportFormatter.ranks(spec)))
        + (w.syntheticPayload() ? " (outputs not checked)"
            : w.mixedPayload() ? " (the heap's budget; outputs from there not checked)" : "");
    return "fabemu emulation: " + spec.name() + " (" + spec.source() + "), " + spec.topology().hosts() + " hosts x "
        + w.ppn() + " ranks, " + w.collective().configName() + " algorithm " + algorithm
        // Channels split the ring only; a size gets fewer when its parts would be small (ChannelRingAllreduce).
        + (channelsMayRun(w, algorithm) ? " (a ring on up to " + w.channels() + " channels)" : "")
        + protocols(spec, algorithm)
        + ", payload " + payload
        + "; " + topologyDescription
        + "; no GPU and no NCCL ran, times are virtual"
        // Said here, not hidden: a harness that needs 13 fields reads no row from a table measured one way only.
        + (w.buffers().contains(BufferLayout.IN_PLACE) ? ""
            : "; in-place half not measured (workload.buffers = [out-of-place]): rows end after the out-of-place half");
  }

  /** {@code ", protocol ..."} when the cases do not all run Simple at no cost ({@link ProtocolNote}), else "". */
  private static String protocols(ScenarioSpec spec, String algorithm) {
    WorkloadSpec w = spec.workload();
    int index = 0;
    for (int a = 0; a < w.algorithms().size(); a++) {
      if (w.algorithms().get(a).configName().equals(algorithm)) index = a;
    }
    String note = ProtocolNote.of(spec, index, ReportFormatter.ncclBlocks(w.collective(), ReportFormatter.ranks(spec)));
    return note.isEmpty() ? "" : ", " + note;
  }

  /**
   * Whether the workload's channels split a ring at some size: a flat allreduce by the ring or {@code auto} (named
   * {@code algorithm}); every other workload ignores them.
   */
  private static boolean channelsMayRun(WorkloadSpec w, String algorithm) {
    return w.channels() > 1 && w.collective() == Collective.ALLREDUCE && !w.hierarchical()
        && (algorithm.equals(Algorithm.RING.configName()) || algorithm.equals(Algorithm.AUTO.configName()));
  }

  /** nccl-tests' column header: {@code #}, the halves' titles, the column names with {@code root}, the units. */
  public static String columnHeader() {
    StringBuilder sb = new StringBuilder("#\n");
    sb.append(String.format(Locale.ROOT, "# %10s  %12s  %8s  %6s  %6s           out-of-place                       "
        + "in-place          ", "", "", "", "", "")).append('\n');
    sb.append(String.format(Locale.ROOT, "# %10s  %12s  %8s  %6s  %6s  %7s  %6s  %6s  %6s  %7s  %6s  %6s  %6s ",
        "size", "count", "type", "redop", "root", "time", "algbw", "busbw", "#wrong", "time", "algbw", "busbw",
        "#wrong")).append('\n');
    sb.append(String.format(Locale.ROOT, "# %10s  %12s  %8s  %6s  %6s  %7s  %6s  %6s  %6s  %7s  %6s  %6s  %6s ",
        "(B)", "(elements)", "", "", "", "(us)", "(GB/s)", "(GB/s)", "", "(us)", "(GB/s)", "(GB/s)", "")).append('\n');
    return sb.toString();
  }

  /** One line per row. */
  public static String rows(Table table) {
    StringBuilder sb = new StringBuilder();
    for (Row r : table.rows()) {
      sb.append(String.format(Locale.ROOT, "%12d  %12d  %8s  %6s  %6s", r.sizeBytes(), r.count(), r.type(),
          r.redop(), String.format(Locale.ROOT, "%6d", r.root())));
      if (r.outOfPlace() == null) {
        sb.append(" ".repeat(32)); // nccl-tests' writeBenchMarkLineNullBody
      } else {
        sb.append(half(r.outOfPlace()));
      }
      if (r.inPlace() != null) sb.append(half(r.inPlace()));
      sb.append('\n');
    }
    return sb.toString();
  }

  private static String half(Half h) {
    String head = "  " + floatStr(h.timeUs(), 7) + "  " + floatStr(h.algBwGBps(), 6) + "  "
        + floatStr(h.busBwGBps(), 6);
    return h.checked() ? head + "  " + CNumbers.padLeft(CNumbers.g(h.wrongElements()), 6) : head + "    " + NOT_CHECKED;
  }

  /** The two footer lines: {@code # Out of bounds values : N OK|FAILED} and {@code # Avg bus bandwidth    : x }. */
  public static String footer(Table table) {
    return String.format(Locale.ROOT, "# %-20s : %d %s", "Out of bounds values", table.outOfBounds(),
        table.outOfBounds() > 0 ? "FAILED" : "OK") + "\n"
        + String.format(Locale.ROOT, "# %-20s : %s ", "Avg bus bandwidth", average(table)) + "\n";
  }

  /** The average bus bandwidth as C's {@code %g} prints it ({@code nan} when nothing was measured, as in C). */
  static String average(Table table) {
    return Double.isNaN(table.avgBusBwGBps()) ? "nan" : CNumbers.g(table.avgBusBwGBps());
  }

  /** The lines after the footer: {@code #}, {@code # Collective test concluded: PROGRAM}, {@code #}, an empty line. */
  static String closing(String program) {
    return "#\n# Collective test concluded: " + program + "\n#\n\n";
  }

  /**
   * Everything after the preamble: column header, rows, footer, the comment lines of the sizes whose in-network case
   * fell back to the host ({@code incNotes}, empty when none) and closing.
   */
  static String body(Table table, String incNotes, String program) {
    return columnHeader() + rows(table) + footer(table) + incNotes + closing(program);
  }

  /**
   * The files {@code run --out} writes beside {@code results.json}, one per algorithm of the workload (none for a
   * barrier, and for send/recv only its ring, what sendrecv_perf measures): {@value #FOLDER}
   * {@code /PROGRAM.ALGORITHM.txt} (e.g. {@code nccl-tests/all_reduce_perf.ring.txt}),
   * each the whole document the matching {@code *-perf} command prints ({@code -t 1 -g 1}, {@code --ppn} the
   * workload's ranks per host, the sizes, warm-up and iterations of the workload: {@link Params#of}).
   */
  public static List<RunSupport.ReportFile> files(RunResult result, Topology topology) {
    ScenarioSpec spec = result.scenario();
    WorkloadSpec w = spec.workload();
    String program = program(w.collective());
    List<RunSupport.ReportFile> files = new ArrayList<>();
    if (program == null) return files;
    Params params = Params.of(spec);
    List<Device> devices = devices(spec, topology, 1);
    String topologyDescription = topology == null ? spec.topology().configName() : topology.description();
    for (int a = 0; a < w.algorithms().size(); a++) {
      // sendrecv_perf is every rank exchanging with its ring neighbours at once; a ping-pong's round trip or a
      // window's stream is an OSU figure (osu_latency, osu_bw), not nccl-tests'.
      if (w.collective() == Collective.SENDRECV && w.algorithms().get(a) != Algorithm.RING) continue;
      String algorithm = w.algorithms().get(a).configName();
      String text = preamble(program, params, emulationLine(spec, topologyDescription, algorithm), List.of(), devices)
          + body(table(result, a), ReportFormatter.incNotes(ReportFormatter.casesOfAlgorithm(result, a)), program);
      files.add(new RunSupport.ReportFile(FOLDER + "/" + program + "." + algorithm + ".txt", text));
    }
    return files;
  }

  /**
   * nccl-tests' {@code -J} JSON document (format version {@value #JSON_FILE_VERSION}, one line, keys in nccl-tests'
   * order): {@code version}, {@code start_time}, {@code args}, {@code env} (always empty: fabemu does not copy its
   * environment, which may hold secrets, into a result file), {@code nccl_version} (0: no NCCL), {@code config} (the
   * parameters and the devices, one per emulated process), {@code results} (per row: size, count, type, redop, root
   * as nccl-tests' {@code "%6i"} string, {@code out_of_place} and {@code in_place} with time, alg_bw, bus_bw and
   * nwrong, null when not checked, a half not measured being null, {@code actual_iterations}, {@code experiment_name}),
   * {@code out_of_bounds}, {@code average_bus_bandwidth}, {@code errors} and {@code end_time}. Doubles are C's
   * {@code %lf}; booleans are the strings {@code "true"} / {@code "false"}, as nccl-tests writes them.
   *
   * @param startTime when the run started, {@code yyyy-MM-dd HH:mm:ss} local time (wall clock: metadata only)
   * @param endTime   when it ended, likewise
   */
  static String json(List<String> args, Params p, List<Device> devices, Table table, String startTime,
                     String endTime) {
    StringWriter out = new StringWriter();
    try (JsonGenerator g = new JsonFactory().createGenerator(out)) {
      g.writeStartObject();
      g.writeNumberField("version", JSON_FILE_VERSION);
      g.writeStringField("start_time", startTime);
      g.writeArrayFieldStart("args");
      for (String a : args) g.writeString(a);
      g.writeEndArray();
      g.writeArrayFieldStart("env");
      g.writeEndArray();
      g.writeNumberField("nccl_version", 0);
      g.writeObjectFieldStart("config");
      g.writeNumberField("nthreads", p.threads());
      g.writeNumberField("ngpus", p.gpusPerThread());
      g.writeNumberField("minimum_bytes", p.minBytes());
      g.writeNumberField("maximum_bytes", p.maxBytes());
      if (p.stepFactor() > 1) {
        g.writeNumberField("step_factor", p.stepFactor());
      } else {
        g.writeNumberField("step_bytes", p.stepBytes());
      }
      g.writeNumberField("warmup_iters", p.warmupIters());
      g.writeNumberField("iterations", p.iters());
      g.writeNumberField("aggregated_iterations", 1);
      g.writeNumberField("validation", p.validation());
      g.writeNumberField("graph", 0);
      g.writeStringField("blocking_collectives", "true");
      g.writeStringField("parallel_init", "false");
      g.writeArrayFieldStart("devices");
      int ranksPerProcess = p.threads() * p.gpusPerThread();
      for (Device d : devices) {
        if (d.rank() % ranksPerProcess != 0) continue; // nccl-tests reads one line per process
        g.writeStartObject();
        g.writeNumberField("rank", d.rank());
        g.writeNumberField("group", 0);
        g.writeNumberField("pid", d.pid());
        g.writeStringField("hostname", d.host());
        g.writeNumberField("device", d.device());
        g.writeStringField("device_hex", d.hex());
        g.writeStringField("device_info", DEVICE_NAME);
        g.writeEndObject();
      }
      g.writeEndArray();
      g.writeEndObject();
      g.writeArrayFieldStart("results");
      for (Row r : table.rows()) {
        g.writeStartObject();
        g.writeNumberField("size", r.sizeBytes());
        g.writeNumberField("count", r.count());
        g.writeStringField("type", r.type());
        g.writeStringField("redop", r.redop());
        g.writeStringField("root", String.format(Locale.ROOT, "%6d", r.root()));
        writeHalf(g, "out_of_place", r.outOfPlace());
        writeHalf(g, "in_place", r.inPlace());
        g.writeNumberField("actual_iterations", p.iters());
        g.writeStringField("experiment_name", "");
        g.writeEndObject();
      }
      g.writeEndArray();
      g.writeObjectFieldStart("out_of_bounds");
      g.writeNumberField("count", table.outOfBounds());
      g.writeStringField("okay", table.outOfBounds() == 0 ? "true" : "false");
      g.writeEndObject();
      g.writeObjectFieldStart("average_bus_bandwidth");
      g.writeFieldName("bandwidth");
      writeDouble(g, table.avgBusBwGBps());
      g.writeStringField("okay", "unchecked");
      g.writeEndObject();
      g.writeArrayFieldStart("errors");
      g.writeEndArray();
      g.writeStringField("end_time", endTime);
      g.writeEndObject();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out.toString();
  }

  private static void writeHalf(JsonGenerator g, String name, Half h) throws IOException {
    g.writeFieldName(name);
    if (h == null) {
      g.writeNull();
      return;
    }
    g.writeStartObject();
    g.writeFieldName("time");
    writeDouble(g, h.timeUs());
    g.writeFieldName("alg_bw");
    writeDouble(g, h.algBwGBps());
    g.writeFieldName("bus_bw");
    writeDouble(g, h.busBwGBps());
    g.writeFieldName("nwrong");
    if (h.checked()) {
      writeDouble(g, h.wrongElements());
    } else {
      g.writeNull();
    }
    g.writeEndObject();
  }

  /** C's {@code %lf} (six decimals); NaN as the string {@code "nan"}, as nccl-tests writes it. */
  private static void writeDouble(JsonGenerator g, double v) throws IOException {
    if (Double.isNaN(v)) {
      g.writeString("nan");
    } else {
      g.writeNumber(CNumbers.fixed(v, 6));
    }
  }

  /**
   * nccl-tests' {@code getFloatStr}: {@code value} in {@code width} characters, with 2 decimals while the integer
   * part has fewer than {@code width - 2} digits, 1 decimal at {@code width - 2}, none up to {@code width}, else in
   * exponent form ({@code %.1e} for width 7 and more, {@code %.0e} below).
   */
  static String floatStr(double value, int width) {
    int power = 0;
    for (double v = 1; value >= v && power < 308; v *= 10) power++;
    String s;
    if (power < width - 2) {
      s = CNumbers.fixed(value, 2);
    } else if (power < width - 1) {
      s = CNumbers.fixed(value, 1);
    } else if (power < width + 1) {
      s = CNumbers.fixed(value, 0);
    } else {
      s = CNumbers.exponent(value, width >= 7 ? 1 : 0);
    }
    return CNumbers.padLeft(s, width);
  }
}
