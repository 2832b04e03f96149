package io.fabemu.app.nccl;

import io.fabemu.app.BadInputException;
import io.fabemu.app.CommandPipeline;
import io.fabemu.app.ExitCodes;
import io.fabemu.app.Main;
import io.fabemu.app.ProfileRun;
import io.fabemu.app.RunOptions;
import io.fabemu.app.RunSupport;
import io.fabemu.app.SetOverrides;
import io.fabemu.app.output.LatencyPlot;
import io.fabemu.app.output.ReportFormatter;
import io.fabemu.cluster.scenario.LoadedScenario;
import io.fabemu.collectives.Algorithm;
import io.fabemu.collectives.BufferLayout;
import io.fabemu.core.data.DataType;
import io.fabemu.core.data.ReduceOp;
import io.fabemu.core.topology.Topology;
import io.fabemu.fabric.ScenarioSpec;
import io.fabemu.fabric.result.RunResult;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.function.Supplier;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code fabemu all-reduce-perf} and the other nccl-tests programs ({@link NcclPerfProgram}): nccl-tests' flags and
 * output on an emulated cluster described by a hardware profile. One instance per program, registered under the
 * program's command name.
 *
 * <p>nccl-tests' flags, with its meanings and defaults (nccl-tests 2.17): {@code -b}/{@code -e} minimum and maximum
 * size in bytes (default 32M; sizes take K, M, G as {@link NcclPerfProgram#parseSize} reads them), {@code -f} step
 * factor (default 1: step by bytes), {@code -i} step in bytes (default 1M), {@code -n} iterations (20), {@code -w}
 * warm-up iterations (1), {@code -c} check (1; 0: sizes only, {@code payload = synthetic}, and {@code N/A} as
 * {@code #wrong}), {@code -o} op (sum, prod, max, min), {@code -d} datatype (float, double, int32, int64),
 * {@code -r} root, {@code -t} threads and {@code -g} GPUs per thread (ranks per host = {@code --ppn x t x g}),
 * {@code -a} the time reported (0 rank 0, 1 mean, 2 min, 3 max over ranks; default 1), {@code -J FILE} the JSON file
 * ({@link NcclTestsReport#json}). Flags whose other values cannot apply to an emulation are accepted with the one
 * value that does and refused otherwise: {@code -m 1} (no aggregation), {@code -z 1} (fabemu always waits for a
 * collective and runs a barrier after it), {@code -G 0} (no CUDA graphs). The emulation's: {@code --profile},
 * {@code --nodes}, {@code --ppn}, {@code --algorithm} (fabemu's algorithm, default {@code auto}; send/recv
 * {@code ring}), {@code --seed}, {@code --reference} (a published bus-bandwidth curve: {@link ReferenceComparison}),
 * {@code --set} and the shared {@link RunOptions}.
 *
 * <p>The scenario ({@link ProfileRun}): the profile with {@code topology.hosts}, the workload's collective, algorithm,
 * {@code buffers = [out-of-place, in-place]}, ranks per host, datatype, op, root (rooted collectives), the sizes
 * (nccl-tests' sizes turned into per-rank counts by {@link NcclPerfProgram#perRankCount}; sizes that give no element
 * per rank, or the same count as a smaller size, are left out and named in a {@code # fabemu:} line, since an
 * emulated collective moves at least one element), iterations, warm-up and payload.
 *
 * <p>Contract: exit codes as {@link Main} documents them: bad flags are one line on stderr and exit code 2 before
 * anything runs; stdout holds exactly nccl-tests' output ({@link NcclTestsReport}); wrong output (real payload) is
 * exit code 1 after the table, as is a JSON file that cannot be written (named on one line). With {@code -J} the
 * JSON file is written after the run, to {@code FILE} or, when that exists, the first free {@code FILE.0},
 * {@code FILE.1}, ... (as nccl-tests does); its folder must exist and FILE must end in {@code .json} (the only type
 * nccl-tests writes).
 */
@Command(mixinStandardHelpOptions = true, sortOptions = false)
public final class NcclPerfCommand implements Callable<Integer>, CommandPipeline.Formatter {

  /** nccl-tests' defaults (2.17). */
  static final String DEFAULT_MIN_BYTES = "32M";
  static final String DEFAULT_MAX_BYTES = "32M";
  static final String DEFAULT_STEP_BYTES = "1M";
  static final String DEFAULT_ITERS = "20";
  static final String DEFAULT_WARMUP = "1";
  /** Most sizes one invocation runs (each is a case, twice: out of place and in place). */
  static final int MAX_SIZES = 1000;
  /** The datatypes fabemu runs, by nccl-tests name. */
  static final List<String> DATATYPES = List.of("float", "double", "int32", "int64");
  /** nccl-tests' other datatypes, which fabemu does not emulate. */
  static final List<String> OTHER_DATATYPES = List.of("int8", "uint8", "uint32", "uint64", "half", "bfloat16",
      "f8e4m3", "f8e5m2");
  /** The reduce ops fabemu runs, by nccl-tests name (which are fabemu's names too). */
  static final List<String> OPS = List.of("sum", "prod", "max", "min");
  private static final DateTimeFormatter JSON_TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss", Locale.ROOT);

  @Option(names = {"-b", "--minbytes"}, paramLabel = "SIZE", defaultValue = DEFAULT_MIN_BYTES,
      description = "Smallest size in bytes, K/M/G allowed (default ${DEFAULT-VALUE}).")
  String minBytesText;

  @Option(names = {"-e", "--maxbytes"}, paramLabel = "SIZE", defaultValue = DEFAULT_MAX_BYTES,
      description = "Largest size in bytes, K/M/G allowed (default ${DEFAULT-VALUE}).")
  String maxBytesText;

  @Option(names = {"-i", "--stepbytes"}, paramLabel = "SIZE", defaultValue = DEFAULT_STEP_BYTES,
      description = "Step between sizes in bytes when -f is 1 (default ${DEFAULT-VALUE}).")
  String stepBytesText;

  @Option(names = {"-f", "--stepfactor"}, paramLabel = "F", defaultValue = "1",
      description = "Multiply the size by F from one size to the next (default ${DEFAULT-VALUE}: step by -i).")
  long stepFactor;

  @Option(names = {"-n", "--iters"}, paramLabel = "N", defaultValue = DEFAULT_ITERS,
      description = "Measured iterations per size and half (default ${DEFAULT-VALUE}).")
  int iters;

  @Option(names = {"-w", "--warmup_iters"}, paramLabel = "N", defaultValue = DEFAULT_WARMUP,
      description = "Warm-up iterations, not measured (default ${DEFAULT-VALUE}).")
  int warmupIters;

  @Option(names = {"-c", "--check"}, paramLabel = "N", defaultValue = "1",
      description = "Check the results (default ${DEFAULT-VALUE}); any N >= 1 checks every output element of every "
          + "iteration (nccl-tests checks N iterations); 0: sizes only, nothing checked, #wrong N/A.")
  int check;

  @Option(names = {"-o", "--op"}, paramLabel = "OP", defaultValue = "sum",
      description = "Reduce op: sum, prod, max, min (default ${DEFAULT-VALUE}).")
  String op;

  @Option(names = {"-d", "--datatype"}, paramLabel = "TYPE", defaultValue = "float",
      description = "Datatype: float, double, int32, int64 (default ${DEFAULT-VALUE}).")
  String datatype;

  @Option(names = {"-r", "--root"}, paramLabel = "RANK", defaultValue = "0",
      description = "Root rank of broadcast and reduce (default ${DEFAULT-VALUE}).")
  int root;

  @Option(names = {"-t", "--nthreads"}, paramLabel = "T", defaultValue = "1",
      description = "Threads per process (default ${DEFAULT-VALUE}); ranks per node = ppn x T x G.")
  int threads;

  @Option(names = {"-g", "--ngpus"}, paramLabel = "G", defaultValue = "1",
      description = "GPUs (emulated ranks) per thread (default ${DEFAULT-VALUE}).")
  int gpusPerThread;

  @Option(names = {"-a", "--average"}, paramLabel = "A", defaultValue = "1",
      description = "Time reported over ranks: 0 rank 0, 1 mean, 2 min, 3 max (default ${DEFAULT-VALUE}).")
  int average;

  @Option(names = {"-m", "--agg_iters"}, paramLabel = "1", defaultValue = "1",
      description = "Operations aggregated per iteration: 1 only (each collective is timed alone).")
  int aggIters;

  @Option(names = {"-z", "--blocking"}, paramLabel = "1", defaultValue = "1",
      description = "Blocking collectives: 1 only (fabemu waits for each collective and runs a barrier after it).")
  int blocking;

  @Option(names = {"-G", "--cudagraph"}, paramLabel = "0", defaultValue = "0",
      description = "CUDA graph launches: 0 only (nothing runs on a GPU).")
  int cudaGraphs;

  @Option(names = {"-J", "--output_file"}, paramLabel = "FILE",
      description = "Also write nccl-tests' JSON to FILE (ending in .json; FILE.0, FILE.1, ... when it exists).")
  Path jsonOption;

  @Option(names = "--profile", required = true, paramLabel = "FILE",
      description = "Scenario file (HOCON) describing the hardware; its host count and workload are set here.")
  Path profile;

  @Option(names = "--nodes", required = true, paramLabel = "N", description = "Compute nodes (topology.hosts).")
  int nodes;

  @Option(names = "--ppn", required = true, paramLabel = "P", description = "Processes per node.")
  int ppn;

  @Option(names = "--algorithm", paramLabel = "NAME",
      description = "fabemu's algorithm for the collective (default: auto; sendrecv-perf: ring).")
  String algorithm;

  @Option(names = "--seed", paramLabel = "N", description = "Use seed N instead of the profile's seed.")
  Long seed;

  @Option(names = "--reference", paramLabel = "FILE.csv",
      description = "A published bus-bandwidth curve (size_bytes,busbw_GBps) to compare with: per-size error and "
          + "MAPE after the table, and a chart in the report.")
  Path referenceFile;

  @Mixin
  RunOptions options;

  @Mixin
  SetOverrides sets;

  @Spec
  CommandSpec spec;

  private final CommandPipeline pipeline;
  private final NcclPerfProgram program;
  private final PrintStream stderr;
  private final Supplier<LocalDateTime> wallClock;

  // What one invocation found out before the run and what the run gave, for the output and the JSON file.
  private NcclTestsReport.Params params;
  private final List<String> notes = new ArrayList<>();
  private Path jsonFile;
  private List<NcclTestsReport.Device> devices;
  private NcclTestsReport.Table table;
  private BusBandwidthReference reference;
  private ReferenceComparison comparison;

  /**
   * The command of {@code program}, run through {@code pipeline}; JSON errors go to {@code stderr}, and
   * {@code wallClock} stamps the JSON file's {@code start_time} and {@code end_time} (metadata, as nccl-tests writes).
   */
  public NcclPerfCommand(CommandPipeline pipeline, NcclPerfProgram program, PrintStream stderr,
                  Supplier<LocalDateTime> wallClock) {
    this.pipeline = pipeline;
    this.program = program;
    this.stderr = stderr;
    this.wallClock = wallClock;
  }

  /** The help text's description of {@code program}'s command. */
  public static String[] description(NcclPerfProgram program) {
    return new String[] {"Run nccl-tests' " + program.program + " on an emulated cluster described by a profile, and "
        + "print its output.", "Each size runs out of place and in place; times are the mean over ranks in virtual "
        + "microseconds, bandwidths nccl-tests' algbw and busbw."};
  }

  @Override
  public Integer call() {
    DataType type = dataType();
    ReduceOp reduceOp = reduceOp();
    checkArguments();
    long minBytes = size("-b", minBytesText, "minbytes");
    long maxBytes = size("-e", maxBytesText, "maxbytes");
    long stepBytes = size("-i", stepBytesText, "stepBytes");
    if (minBytes > maxBytes) {
      throw bad("invalid sizes for 'minbytes' and 'maxbytes': " + minBytes + " > " + maxBytes);
    }
    if (stepFactor <= 1 && stepBytes == 0 && minBytes < maxBytes) {
      throw bad("-i 0 with -f " + stepFactor + " never grows the size from " + minBytes + " to " + maxBytes);
    }
    long ranksPerNode = (long) ppn * threads * gpusPerThread;
    long ranks = ranksPerNode * nodes;
    if (ranksPerNode > Integer.MAX_VALUE || ranks > Integer.MAX_VALUE) {
      throw bad("--nodes " + nodes + " x --ppn " + ppn + " x -t " + threads + " x -g " + gpusPerThread
          + " is too many ranks");
    }
    List<Long> workloadSizes = workloadSizes(NcclPerfProgram.sizes(minBytes, maxBytes, stepFactor, stepBytes,
        MAX_SIZES), type.sizeBytes(), (int) ranks);
    params = new NcclTestsReport.Params(threads, gpusPerThread, minBytes, maxBytes, stepFactor, stepBytes,
        warmupIters, iters, check);

    reference = referenceFile == null ? null : BusBandwidthReference.read(referenceFile);
    int hostsPerServer = ProfileRun.hostsPerServer(profile, sets);
    if (ranksPerNode % hostsPerServer != 0) {
      throw bad("--ppn " + ppn + " -t " + threads + " -g " + gpusPerThread + ": " + ranksPerNode + " ranks per node on "
          + "the profile's servers of " + hostsPerServer + " hosts (GPUs): give a multiple of " + hostsPerServer);
    }
    LoadedScenario loaded = profileRun(type, reduceOp, (int) ranksPerNode, hostsPerServer, workloadSizes)
        .load(profile, sets, spec);
    jsonFile = jsonOption == null ? null : jsonTarget(jsonOption);
    String startTime = JSON_TIME.format(wallClock.get());
    int code = pipeline.run(loaded.spec(), loaded.config(), options, this);
    if (jsonFile != null && table != null) {
      List<String> args = new ArrayList<>(List.of("fabemu", program.commandName));
      args.addAll(spec.commandLine().getParseResult().expandedArgs());
      String json = NcclTestsReport.json(args, params, devices, table, startTime, JSON_TIME.format(wallClock.get()));
      if (!RunSupport.write(jsonFile, json, stderr) && code == ExitCodes.OK) code = ExitCodes.RUN_FAILED;
    }
    return code;
  }

  /**
   * The scenario keys the flags set, each with the flag that set it (for the loader's messages). A node is a host of
   * the fabric, or, on a profile whose topology groups hosts into servers of {@code hostsPerServer} (GPU servers),
   * a server: {@code --nodes} sets {@code topology.servers} and the ranks per node are spread over its hosts.
   */
  private ProfileRun profileRun(DataType type, ReduceOp reduceOp, int ranksPerNode, int hostsPerServer,
                                List<Long> workloadSizes) {
    String algorithmName = algorithm == null ? program.defaultAlgorithm().configName() : algorithm;
    String sizeFlags = "-b " + minBytesText + " -e " + maxBytesText
        + (stepFactor > 1 ? " -f " + stepFactor : " -i " + stepBytesText);
    ProfileRun run = new ProfileRun(program.commandName + " options");
    if (seed != null) run.set("seed", seed, "--seed " + seed);
    run.set(hostsPerServer > 1 ? "topology.servers" : "topology.hosts", nodes, "--nodes " + nodes);
    run.set("workload.collective", program.collective.configName(), program.commandName);
    run.set("workload.algorithms", List.of(algorithmName), "--algorithm " + algorithmName);
    run.set("workload.buffers", List.of(BufferLayout.OUT_OF_PLACE.configName(), BufferLayout.IN_PLACE.configName()),
        program.commandName);
    run.set("workload.ppn", ranksPerNode / hostsPerServer, "--ppn " + ppn + " -t " + threads + " -g " + gpusPerThread);
    run.set("workload.datatype", type.configName(), "-d " + datatype);
    run.set("workload.op", reduceOp.configName(), "-o " + op);
    if (program.collective.rooted()) run.set("workload.root", root, "-r " + root);
    run.set("workload.sizes", workloadSizes, sizeFlags);
    run.set("workload.iterations", iters, "-n " + iters);
    run.set("workload.warmup", warmupIters, "-w " + warmupIters);
    run.set("workload.payload", check == 0 ? "synthetic" : "real", "-c " + check);
    return run;
  }

  /**
   * The workload's sizes per rank for nccl-tests' {@code ncclSizes}: each one's per-rank count times the word size,
   * in order, leaving out (and noting) sizes that give no element per rank or repeat a smaller size's count.
   */
  private List<Long> workloadSizes(List<Long> ncclSizes, int wordBytes, int ranks) {
    if (ncclSizes.size() > MAX_SIZES) {
      throw bad("-b " + minBytesText + " -e " + maxBytesText + (stepFactor > 1 ? " -f " + stepFactor
          : " -i " + stepBytesText) + " gives more than " + MAX_SIZES + " sizes; use a larger step");
    }
    Set<Long> sizes = new LinkedHashSet<>();
    List<Long> empty = new ArrayList<>();
    List<Long> repeated = new ArrayList<>();
    for (long size : ncclSizes) {
      long count = program.perRankCount(size, wordBytes, ranks);
      if (count == 0) {
        empty.add(size);
      } else if (!sizes.add(count * wordBytes)) {
        repeated.add(size);
      }
    }
    if (sizes.isEmpty()) {
      throw bad("-b " + minBytesText + " -e " + maxBytesText + ": no size gives " + program.program
          + " an element to move per rank on " + ranks + " ranks (" + minimumBytes(wordBytes, ranks) + " B at least)");
    }
    if (!empty.isEmpty()) {
      notes.add("fabemu: skipped " + sizeList(empty) + ": less than one element per rank on " + ranks + " ranks after "
          + "nccl-tests' rounding (" + minimumBytes(wordBytes, ranks) + " B at least)");
    }
    if (!repeated.isEmpty()) {
      notes.add("fabemu: skipped " + sizeList(repeated) + ": the same count per rank as a smaller size");
    }
    return List.copyOf(sizes);
  }

  /** The smallest nccl-tests size that moves an element per rank. */
  private long minimumBytes(int wordBytes, int ranks) {
    return switch (program) {
      case ALL_GATHER, REDUCE_SCATTER -> (long) NcclPerfProgram.ALIGN * ranks * wordBytes;
      case ALLTOALL -> (long) ranks * 16;
      default -> wordBytes;
    };
  }

  private static String sizeList(List<Long> sizes) {
    return sizes.size() == 1 ? "size " + sizes.get(0) + " B"
        : sizes.size() + " sizes (" + sizes.get(0) + " B to " + sizes.get(sizes.size() - 1) + " B)";
  }

  /** Where the JSON goes: {@code option}, or the first of {@code option.0}, {@code option.1}, ... that is free. */
  private Path jsonTarget(Path option) {
    String name = option.getFileName() == null ? "" : option.getFileName().toString();
    if (!name.toLowerCase(Locale.ROOT).endsWith(".json") || name.length() == ".json".length()) {
      throw bad("-J " + option + ": nccl-tests writes JSON only, to a FILE ending in .json");
    }
    Path folder = option.toAbsolutePath().getParent();
    if (folder == null || !Files.isDirectory(folder)) {
      throw new BadInputException("cannot write -J " + option + ": no such folder " + folder);
    }
    if (!Files.isWritable(folder)) {
      throw new BadInputException("cannot write -J " + option + ": permission denied");
    }
    Path target = option;
    for (int i = 0; Files.exists(target); i++) {
      target = option.resolveSibling(name + "." + i);
    }
    return target;
  }

  @Override
  public String header(ScenarioSpec scenario, Topology topology) {
    devices = NcclTestsReport.devices(scenario, topology, threads * gpusPerThread);
    String algorithmName = scenario.workload().algorithms().get(0).configName();
    StringBuilder sb = new StringBuilder();
    if (jsonFile != null) sb.append("# Writing JSON output to ").append(jsonFile).append('\n');
    sb.append(NcclTestsReport.preamble(program.program, params,
        NcclTestsReport.emulationLine(scenario, topology.description(), algorithmName), notes, devices));
    sb.append(NcclTestsReport.columnHeader());
    return sb.toString();
  }

  @Override
  public String results(RunResult result) {
    table = NcclTestsReport.table(result, 0, NcclTestsReport.TimeOverRanks.of(average));
    return NcclTestsReport.rows(table) + NcclTestsReport.footer(table)
        + ReportFormatter.incNotes(ReportFormatter.casesOfAlgorithm(result, 0))
        + (comparison(result) == null ? "" : comparison.commentLines())
        + NcclTestsReport.closing(program.program);
  }

  /**
   * The plot: the out-of-place latencies, one series named by the algorithm; with {@code --reference} the report
   * adds the published curve ({@link ReferenceSection}).
   */
  @Override
  public RunSupport.Plot plot(RunResult result) {
    String title = program.program + " (fabemu): " + result.scenario().name() + ", " + nodes + " nodes x "
        + result.scenario().workload().ppn() + " ranks";
    if (comparison(result) != null) {
      String algorithmName = result.scenario().workload().algorithms().get(0).configName();
      return new RunSupport.Plot(title, LatencyPlot.series(result), List.of(new ReferenceSection(comparison,
          algorithmName)));
    }
    return new RunSupport.Plot(title, LatencyPlot.series(result));
  }

  /**
   * The run held against {@code --reference}, worked out once from the table {@link #results} printed (null without
   * a reference): the comment lines and the report's section show the same figures.
   */
  private ReferenceComparison comparison(RunResult result) {
    if (reference != null && comparison == null) {
      NcclTestsReport.Table measured = table != null ? table
          : NcclTestsReport.table(result, 0, NcclTestsReport.TimeOverRanks.of(average));
      comparison = ReferenceComparison.of(measured, reference);
    }
    return comparison;
  }

  private DataType dataType() {
    return switch (datatype) {
      case "float" -> DataType.FLOAT32;
      case "double" -> DataType.FLOAT64;
      case "int32" -> DataType.INT32;
      case "int64" -> DataType.INT64;
      default -> throw bad("-d " + datatype + ": " + (datatype.equals("all") ? "fabemu prints one table per run; "
          + "run once per datatype" : OTHER_DATATYPES.contains(datatype) ? "fabemu does not emulate this datatype"
          : "not an nccl-tests datatype") + " (fabemu runs " + String.join(", ", DATATYPES) + ")");
    };
  }

  private ReduceOp reduceOp() {
    if (OPS.contains(op)) return ReduceOp.fromConfigName(op);
    throw bad("-o " + op + ": " + (op.equals("all") ? "fabemu prints one table per run; run once per op"
        : op.equals("avg") || op.equals("mulsum") ? "fabemu has no such reduction"
        : "not an nccl-tests op") + " (fabemu runs " + String.join(", ", OPS) + ")");
  }

  /** The checks the loader cannot word in terms of the flags. */
  private void checkArguments() {
    if (nodes < 1) throw bad("--nodes must be at least 1, not " + nodes);
    if (ppn < 1) throw bad("--ppn must be at least 1, not " + ppn);
    if (threads < 1) throw bad("-t must be at least 1, not " + threads);
    if (gpusPerThread < 1) throw bad("-g must be at least 1, not " + gpusPerThread);
    if (iters < 1) throw bad("-n must be at least 1, not " + iters);
    if (warmupIters < 0) throw bad("-w must be at least 0, not " + warmupIters);
    if (check < 0) throw bad("-c must be at least 0, not " + check);
    if (stepFactor < 0) throw bad("-f must be at least 0, not " + stepFactor);
    if (average < 0 || average > 3) throw bad("-a " + average + ": 0 (rank 0), 1 (mean), 2 (min) or 3 (max)");
    if (aggIters != 1) throw bad("-m " + aggIters + ": fabemu times each collective alone (-m 1)");
    if (blocking != 1) {
      throw bad("-z " + blocking + ": fabemu always waits for each collective and runs a barrier after it (-z 1)");
    }
    if (cudaGraphs != 0) throw bad("-G " + cudaGraphs + ": nothing runs on a GPU, so no CUDA graph (-G 0)");
    // Every program: a root outside the world is a mistake whether or not this collective has a root.
    long ranks = (long) nodes * ppn * threads * gpusPerThread;
    if (root < 0 || root >= ranks) throw bad("-r " + root + ": not a rank (ranks are 0.." + (ranks - 1) + ")");
    if (algorithm != null && Algorithm.forCollective(algorithm, program.collective) == null) {
      throw bad("--algorithm " + algorithm + ": not an algorithm of " + program.collective.configName() + " (use "
          + Algorithm.namesFor(program.collective) + ")");
    }
  }

  private long size(String flag, String text, String what) {
    long bytes = NcclPerfProgram.parseSize(text);
    if (bytes < 0) {
      throw bad(flag + " " + text + ": invalid size specified for '" + what + "' (bytes, with an optional K, M or G: "
          + "8, 128K, 1M)");
    }
    return bytes;
  }

  private ParameterException bad(String message) {
    return new ParameterException(spec.commandLine(), message);
  }
}
