package io.fabemu.app.osu;

import com.typesafe.config.Config;
import io.fabemu.app.CommandPipeline;
import io.fabemu.app.Main;
import io.fabemu.app.ProfileRun;
import io.fabemu.app.RunOptions;
import io.fabemu.app.RunSupport;
import io.fabemu.app.SetOverrides;
import io.fabemu.app.output.LatencyPlot;
import io.fabemu.cluster.scenario.LoadedScenario;
import io.fabemu.cluster.scenario.ScenarioLoader;
import io.fabemu.collectives.Algorithm;
import io.fabemu.collectives.BufferLayout;
import io.fabemu.collectives.Schedules;
import io.fabemu.core.data.DataType;
import io.fabemu.core.data.ReduceOp;
import io.fabemu.core.topology.Topology;
import io.fabemu.fabric.ScenarioSpec;
import io.fabemu.fabric.result.RunResult;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;
import picocli.CommandLine;

/**
 * An OSU Micro-Benchmarks program on an emulated cluster: {@code fabemu osu-allreduce}, {@code osu-bcast}, ...,
 * {@code osu-latency}, {@code osu-bw}. The profile is a scenario file that describes the hardware (topology kind,
 * links, hosts per TOR, spines, devices, INC units); the command sets the host count and the workload over it, as a
 * Typesafe {@code Config} of overrides whose origin is {@value #OVERRIDES_ORIGIN} ({@link ScenarioLoader#load(Path,
 * Config)}): {@code topology.hosts}, {@code workload.ppn}, the collective and the one algorithm, the datatype
 * ({@code -T}; float32 by default) and {@code op = sum}, the sizes ({@link OsuSizes}: OMB's doublings as
 * {@code min-size}/{@code max-size}), iterations and warm-up, {@code devices.host.sockets-per-node} with
 * {@code --sockets}, and {@code seed} with {@code --seed}; {@code --set KEY=VALUE} lays values under those. It then
 * runs through the pipeline {@code fabemu run} uses ({@link CommandPipeline}, with the same {@link RunOptions}) and
 * prints the program's table ({@link OsuFormatter}) on stdout, everything else on stderr.
 *
 * <p>Shared options, as OMB's: {@code -m} (sizes), {@code -i} and {@code -x} (iterations and warm-up; fabemu's
 * defaults are OMB's for large messages, used for every size: a virtual-time run repeats the same latencies after
 * the warm-up, so OMB's larger counts for small messages would only cost wall time), {@code -z[P,...]} (tail
 * percentiles), and {@code -d TYPE}, refused: fabemu emulates host memory, never accelerator buffers. Each subclass
 * adds the options its program has ({@link OsuOptions}).
 *
 * <p>Contract: exit codes as {@link Main} documents them. Bad arguments (N, P or S below 1, a malformed or
 * unrunnable {@code -m}, {@code -d}, a type fabemu lacks, {@code -c} on a synthetic profile, a missing or bad
 * profile) are one line on stderr and exit code 2 before anything runs; a value the loader refuses that came from an
 * option (not from the profile) is reported naming the option. stdout holds only OMB-format lines: the preamble and
 * column titles before the run, one row per finished case after it, and the comment lines of in-network cases that
 * fell back; notes (OMB's memory-limit warning, sizes fabemu skips) go to stderr before the run. A case with wrong
 * output makes exit code 1 with one line after the table, as {@code run} does; with {@code --out} the result files
 * are written as {@code run} writes them, and the OSU file of the run holds exactly what stdout shows.
 */
public abstract class OsuCommand implements Callable<Integer>, CommandPipeline.Formatter {

  /** The origin description of the overrides, which names them in the loader's messages. */
  static final String OVERRIDES_ORIGIN = "OSU command options";

  @Option(names = "--profile", required = true, paramLabel = "FILE",
      description = "Scenario file (HOCON) describing the hardware; its host count and workload are set here.")
  Path profile;

  @Option(names = "--sockets", paramLabel = "S",
      description = "Sockets per node (devices.host.sockets-per-node; default: the profile's).")
  Integer sockets;

  @Option(names = {"-m", "--message-size"}, paramLabel = "[MIN:]MAX", converter = OsuSizes.Range.Converter.class,
      description = "Message sizes in bytes: MAX, MIN:MAX, MIN: or :MAX (default ${DEFAULT-VALUE}); every doubling "
          + "from MIN that holds at least one element.")
  OsuSizes.Range sizes;

  @Option(names = {"-i", "--iterations"}, paramLabel = "ITER",
      description = "Measured iterations per size (default ${DEFAULT-VALUE}).")
  int iterations;

  @Option(names = {"-x", "--warmup"}, paramLabel = "WARMUP",
      description = "Warm-up iterations per size, not measured (default ${DEFAULT-VALUE}).")
  int warmup;

  @Option(names = {"-z", "--tail-lat"}, arity = "0..1", fallbackValue = "50,90,99", paramLabel = "P[,P...]",
      description = "Also print tail percentiles over the iterations (-z alone: 50,90,99; at most 5, each 0 to "
          + "100; give them attached: -z50,99).")
  String tailPercentiles;

  @Option(names = {"-d", "--accelerator"}, paramLabel = "TYPE",
      description = "Refused: fabemu emulates host memory, never accelerator (cuda, rocm, ...) buffers.")
  String accelerator;

  @Option(names = "--seed", paramLabel = "N", description = "Use seed N instead of the profile's seed.")
  Long seed;

  @Mixin
  RunOptions options;

  @Mixin
  SetOverrides sets;

  @Spec
  CommandSpec spec;

  private final CommandPipeline pipeline;

  OsuCommand(CommandPipeline pipeline) {
    this.pipeline = pipeline;
  }

  /** The OMB program this command emulates. */
  abstract OsuBenchmark benchmark();

  /** Compute nodes ({@code --nodes}). */
  abstract int nodes();

  /** Processes per node ({@code --ppn}). */
  abstract int ppn();

  /** The algorithm the workload runs, as the scenario names it ({@code auto} unless an option says otherwise). */
  Algorithm algorithm() {
    return benchmark().defaultAlgorithm();
  }

  /** The option (with its value) that chose the algorithm, or null when none did. */
  String algorithmOption() {
    return null;
  }

  /** {@code -T}'s value when the command has it and it was given, else null. */
  String typeValue() {
    return null;
  }

  /** The datatype: {@code -T}'s ({@link OsuOptions#dataType}), float32 by default. */
  final DataType dataType() {
    DataType t = OsuOptions.dataType(typeValue());
    return t == null ? DataType.FLOAT32 : t;
  }

  /** {@code -T} with its value when given, else null. */
  final String typeOption() {
    return typeValue() == null ? null : "-T " + typeValue();
  }

  /** {@code -f}: never, unless the command has it. */
  boolean full() {
    return false;
  }

  /** {@code -c}: never, unless the command has it. */
  boolean validation() {
    return false;
  }

  /** {@code -M} in bytes, null when not given (or the command has none). */
  Long memLimitBytes() {
    return null;
  }

  /** The command's own checks, after the shared ones; a bad one throws {@link #bad}. */
  void checkOwnArguments() {}

  /** The command's own overrides, after the shared ones (e.g. osu-bw's window). */
  void addOwnOverrides(Map<String, Object> overrides) {}

  /** The option (with its value) that set {@code key}, for the keys only this command sets; else null. */
  String ownOptionOf(String key) {
    return null;
  }

  /** The plot's series label: the algorithm's name unless the command names it otherwise (osu-allreduce's mode). */
  String plotLabel() {
    return algorithm().configName();
  }

  /** The defaults of {@code -m}, {@code -i} and {@code -x}, which depend on the program (picocli asks per option). */
  String defaultValue(ArgSpec arg) {
    if (!(arg instanceof OptionSpec option)) return null;
    return switch (option.longestName()) {
      // OMB's MIN: 0 for osu_latency and osu_bw (a message without payload first), 1 for the collectives.
      case "--message-size" -> (benchmark().pointToPoint() ? "0:" : "1:") + benchmark().defaultMaxBytes();
      case "--iterations" -> Integer.toString(defaultIterations());
      case "--warmup" -> Integer.toString(defaultWarmup());
      default -> null;
    };
  }

  /** OMB's iterations for large messages: 100 for the collectives, 1,000 for osu_latency, 20 for osu_bw. */
  int defaultIterations() {
    return switch (benchmark()) {
      case LATENCY -> 1000;
      case BW -> 20;
      default -> 100;
    };
  }

  /** OMB's warm-up for large messages: 10, 10, 2 as {@link #defaultIterations}. */
  int defaultWarmup() {
    return benchmark() == OsuBenchmark.BW ? 2 : 10;
  }

  /** The optional columns this run prints. */
  OsuFormatter.Columns columns() {
    return new OsuFormatter.Columns(full(), validation(), OsuOptions.percentiles(tailPercentiles));
  }

  @Override
  public Integer call() {
    checkArguments();
    OsuSizes.Plan plan = sizePlan();
    LoadedScenario loaded = load(plan);
    if (validation() && loaded.spec().workload().syntheticPayload()) {
      throw bad("-c: the profile's payload is synthetic (sizes only), so no output is checked to validate");
    }
    if (plan != null && !plan.notes().isEmpty()) {
      PrintWriter err = spec.commandLine().getErr();
      plan.notes().forEach(err::println);
      err.flush();
    }
    return pipeline.run(loaded.spec(), loaded.config(), options, this);
  }

  /** The preamble and the column titles, before the run starts. */
  @Override
  public String header(ScenarioSpec scenario, Topology topology) {
    return OsuFormatter.head(benchmark(), scenario, algorithm(), columns());
  }

  /**
   * One row per finished case (the workload has this one algorithm), and a comment line per in-network case that
   * fell back.
   */
  @Override
  public String results(RunResult result) {
    return OsuFormatter.rows(benchmark(), result.cases(), result.scenario(), columns());
  }

  /** The plot: one series, named by {@link #plotLabel()} (with the algorithms auto chose). */
  @Override
  public RunSupport.Plot plot(RunResult result) {
    String title = benchmark().program() + " (fabemu): " + result.scenario().name() + ", " + nodes() + " nodes x "
        + ppn() + " ppn";
    return new RunSupport.Plot(title, LatencyPlot.series(result, a -> plotLabel()));
  }

  /** The OSU file of {@code --out} holds what stdout shows: the same columns. */
  @Override
  public OsuFormatter.Columns osuColumns() {
    return columns();
  }

  /** The overrides laid over the profile, in a stable order. */
  Map<String, Object> overrides(OsuSizes.Plan plan) {
    Map<String, Object> o = new LinkedHashMap<>();
    if (seed != null) o.put("seed", seed);
    o.put("topology.hosts", nodes());
    if (sockets != null) o.put("devices.host.sockets-per-node", sockets);
    o.put("workload.collective", benchmark().collective().configName());
    o.put("workload.algorithms", List.of(algorithm().configName()));
    o.put("workload.ppn", ppn());
    o.put("workload.datatype", dataType().configName());
    o.put("workload.op", ReduceOp.SUM.configName());
    // OMB measures out of place (fabemu has no -l): one row per size, whatever layouts the profile lists.
    o.put("workload.buffers", List.of(BufferLayout.OUT_OF_PLACE.configName()));
    if (plan != null) {
      o.put("workload.min-size", plan.minSizeBytes());
      o.put("workload.max-size", plan.maxSizeBytes());
    }
    o.put("workload.iterations", iterations);
    o.put("workload.warmup", warmup);
    addOwnOverrides(o);
    return o;
  }

  /** The sizes OMB runs for {@code -m} (null for osu_barrier, which moves no data); refused ones are bad input. */
  OsuSizes.Plan sizePlan() {
    if (benchmark() == OsuBenchmark.BARRIER) return null;
    DataType type = dataType();
    int elementBytes = Schedules.elementBytes(benchmark().collective(), type, ReduceOp.SUM);
    try {
      return OsuSizes.plan(benchmark(), sizes, elementBytes, OsuFormatter.mpiTypeName(type), nodes() * ppn(),
          memLimitBytes());
    } catch (OsuSizes.Refused e) {
      throw bad(e.getMessage());
    }
  }

  /** The checks the loader cannot word in terms of the options. */
  private void checkArguments() {
    if (nodes() < 1) throw bad("--nodes must be at least 1, not " + nodes());
    if (ppn() < 1) throw bad("--ppn must be at least 1, not " + ppn());
    // The sizes are planned per rank before the loader sees the ranks: refuse a count an int cannot hold here.
    if ((long) nodes() * ppn() > ScenarioLoader.MAX_RANKS) {
      throw bad("--nodes " + nodes() + " x --ppn " + ppn() + " is above the limit of " + ScenarioLoader.MAX_RANKS
          + " ranks");
    }
    if (sockets != null && sockets < 1) throw bad("--sockets must be at least 1, not " + sockets);
    if (iterations < 1) throw bad("-i must be at least 1, not " + iterations);
    if (warmup < 0) throw bad("-x must be at least 0, not " + warmup);
    if (accelerator != null) {
      throw bad("-d " + accelerator + ": fabemu emulates host memory only; accelerator buffers (cuda, managed, "
          + "openacc, rocm, cxl) cannot apply");
    }
    try {
      OsuOptions.percentiles(tailPercentiles);
      dataType();
    } catch (IllegalArgumentException e) {
      throw bad(e.getMessage());
    }
    checkOwnArguments();
  }

  /**
   * Loads the profile with the overrides ({@link ProfileRun}: the options win over {@code --set}, which wins over the
   * profile). A value the loader refuses that came from an option is reported as a bad argument naming the option;
   * anything else keeps the loader's message.
   */
  private LoadedScenario load(OsuSizes.Plan plan) {
    ProfileRun run = new ProfileRun(OVERRIDES_ORIGIN);
    overrides(plan).forEach((key, value) -> run.set(key, value, optionOf(key)));
    return run.load(profile, sets, spec);
  }

  /** The option (with its value) that set {@code keyPath}, or null when no option sets it. */
  private String optionOf(String keyPath) {
    String key = keyPath.replaceAll("\\[\\d+]$", "");
    return switch (key) {
      case "seed" -> seed == null ? null : "--seed " + seed;
      case "topology.hosts" -> "--nodes " + nodes();
      case "devices.host.sockets-per-node" -> sockets == null ? null : "--sockets " + sockets;
      case "workload.algorithms" -> algorithmOption();
      case "workload.datatype" -> typeOption();
      case "workload.ppn" -> "--ppn " + ppn();
      case "workload.min-size", "workload.max-size" -> sizes == null ? null : "-m '" + sizes.text() + "'";
      case "workload.iterations" -> "-i " + iterations;
      case "workload.warmup" -> "-x " + warmup;
      default -> ownOptionOf(key);
    };
  }

  /** A usage error of this command (exit code 2, one line). */
  ParameterException bad(String message) {
    return new ParameterException(spec.commandLine(), message);
  }

  /** This command as a picocli {@code CommandLine}, with the defaults that depend on its program. */
  public CommandLine commandLine() {
    CommandLine cli = new CommandLine(this);
    cli.setDefaultValueProvider(this::defaultValue);
    return cli;
  }
}
