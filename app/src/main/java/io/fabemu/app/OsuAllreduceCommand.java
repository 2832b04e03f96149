package io.fabemu.app;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import io.fabemu.cluster.scenario.LoadedScenario;
import io.fabemu.cluster.scenario.ScenarioException;
import io.fabemu.cluster.scenario.ScenarioLoader;
import io.fabemu.core.topology.Topology;
import io.fabemu.fabric.ScenarioSpec;
import io.fabemu.fabric.result.RunResult;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine.Command;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;
import picocli.CommandLine.TypeConversionException;

/**
 * {@code fabemu osu-allreduce --profile FILE --nodes N --ppn P [--sockets S] --mode host|inc-node|inc-socket
 * [-m MIN:MAX] [-i ITER] [-x WARMUP] [-f] [--seed N] [--out DIR] [--no-progress] [--members N [--seed-nodes ...]
 * [--transport T] ...]}: OSU Micro-Benchmarks 5.x {@code osu_allreduce} on an emulated cluster.
 *
 * <p>The profile is a scenario file that describes the hardware (topology kind, links, hosts per TOR, spines,
 * devices, INC units); this command sets the host count and the workload over it, as a Typesafe {@code Config} of
 * overrides whose origin is {@value #OVERRIDES_ORIGIN} ({@link ScenarioLoader#load(Path, Config)}):
 * {@code topology.hosts = N}, {@code workload.ppn = P}, {@code workload.collective = allreduce},
 * {@code workload.algorithms = [auto]} for {@code host} or {@code [inc-node]} / {@code [inc-socket]} for the
 * in-network modes, {@code workload.datatype = float32}, {@code workload.op = sum}, the sizes, iterations and
 * warm-up of {@code -m}, {@code -i} and {@code -x}, {@code devices.host.sockets-per-node = S} with {@code --sockets},
 * and {@code seed} with {@code --seed}. It then runs through the pipeline {@code fabemu run} uses
 * ({@link CommandPipeline}, with the same {@link RunOptions}: {@code --out}, {@code --members} and the other cluster
 * options) and prints the osu_allreduce table ({@link OsuFormatter}) on stdout, everything else on stderr.
 *
 * <p>Options as OSU's: {@code -m} is {@code MAX}, {@code MIN:MAX}, {@code MIN:} or {@code :MAX} in bytes of
 * {@code MPI_FLOAT} data (default {@value #DEFAULT_SIZES}); as in osu_allreduce the smallest message is
 * {@code MIN / 4} floats (at least one) and the sizes double from there while they do not exceed {@code MAX}.
 * {@code -i} (default {@value #DEFAULT_ITERATIONS}) and {@code -x} (default {@value #DEFAULT_WARMUP}) are OSU's
 * defaults for large messages, used for every size: OSU takes 1000 and 100 up to 8 KiB, but a virtual-time run is
 * deterministic, so after the warm-up every iteration repeats the same latencies and ten times the iterations would
 * only cost ten times the wall time (a 16-node x 64-ppn run of 4-256 B takes about 35 s with these defaults).
 *
 * <p>Contract: exit codes as {@link Main} documents them. Bad arguments (an unknown mode, N, P or S below 1, a
 * malformed {@code -m} or one whose MIN is above its MAX, a missing or bad profile) are one line on stderr and exit
 * code 2 before anything runs; a value the loader refuses that came from an option (not from the profile) is
 * reported naming the option. A case with wrong output makes exit code 1 with one line after the table, as
 * {@code run} does; with {@code --out} the result files and the plot are written as {@code run} writes them. stdout
 * holds the title, the column titles and one row per finished case, nothing else, except that a profile with
 * {@code workload.payload = synthetic} adds the comment line {@link ReportFormatter#SYNTHETIC_HEADER_LINE} after the
 * title (its outputs are not checked). Spread over N members ({@code --members}) stdout and the files are exactly
 * those of one member; a member lost mid-run is exit code {@value Main#EXIT_LOST_MEMBER} with the finished rows
 * printed and written, as {@code run} does.
 */
@Command(name = "osu-allreduce", mixinStandardHelpOptions = true, sortOptions = false,
    description = {"Run osu_allreduce (OSU Micro-Benchmarks 5.x) on an emulated cluster described by a profile, and "
        + "print its table.", "Sizes are bytes of MPI_FLOAT data; avg/min/max latency over ranks of each rank's "
        + "mean, in virtual microseconds."})
final class OsuAllreduceCommand implements Callable<Integer>, CommandPipeline.Formatter {

  /** The origin description of the overrides, which names them in the loader's messages. */
  static final String OVERRIDES_ORIGIN = "osu-allreduce options";
  static final String DEFAULT_SIZES = "4:1048576";
  static final String DEFAULT_ITERATIONS = "100";
  static final String DEFAULT_WARMUP = "10";
  /** Bytes of one MPI_FLOAT. */
  static final long FLOAT_BYTES = 4;

  /** The modes: the name on the command line and the allreduce algorithm of the scenario. */
  enum Mode {
    HOST("host", "auto"),
    INC_NODE("inc-node", "inc-node"),
    INC_SOCKET("inc-socket", "inc-socket");

    final String optionName;
    final String algorithm;

    Mode(String optionName, String algorithm) {
      this.optionName = optionName;
      this.algorithm = algorithm;
    }

    static String names() {
      return String.join(", ", Arrays.stream(values()).map(m -> m.optionName).toList());
    }

    /** {@code --mode}'s converter: the names are lower case and case-sensitive, like the scenario's. */
    static final class Converter implements ITypeConverter<Mode> {
      @Override
      public Mode convert(String value) {
        for (Mode m : values()) {
          if (m.optionName.equals(value)) return m;
        }
        throw new TypeConversionException("'" + value + "' is not one of " + names());
      }
    }
  }

  /**
   * {@code -m} as given: {@code min} and {@code max} in bytes, null where the option left them out (OSU's
   * {@code set_message_size}: {@code MAX}, {@code MIN:MAX}, {@code MIN:}, {@code :MAX}).
   */
  record SizeRange(String text, Long min, Long max) {
    private static final Pattern FORM = Pattern.compile("(\\d+)?(:)?(\\d+)?");
    static final long DEFAULT_MIN = 4;
    static final long DEFAULT_MAX = 1L << 20;

    /** Parses {@code -m}'s value; a malformed one is a {@link TypeConversionException}. */
    static SizeRange parse(String text) {
      Matcher m = FORM.matcher(text);
      boolean colon = m.matches() && m.group(2) != null;
      if (!m.matches() || (m.group(1) == null && m.group(3) == null) || (!colon && m.group(3) != null)) {
        throw new TypeConversionException("'" + text + "' is not MAX, MIN:MAX, MIN: or :MAX in bytes (e.g. "
            + DEFAULT_SIZES + ")");
      }
      Long first = number(text, m.group(1));
      Long second = number(text, m.group(3));
      SizeRange range = colon ? new SizeRange(text, first, second) : new SizeRange(text, null, first);
      if (range.min != null && range.min < 1) {
        throw new TypeConversionException("'" + text + "': MIN must be at least 1 byte");
      }
      return range;
    }

    private static Long number(String text, String digits) {
      if (digits == null) return null;
      try {
        return Long.parseLong(digits);
      } catch (NumberFormatException e) {
        throw new TypeConversionException("'" + text + "': " + digits + " is too large");
      }
    }

    /** The smallest size run: MIN (default 4) rounded down to whole floats, at least one, as osu_allreduce does. */
    long firstSizeBytes() {
      long floats = Math.max(1, (min == null ? DEFAULT_MIN : min) / FLOAT_BYTES);
      return floats * FLOAT_BYTES;
    }

    /** The largest size allowed (the sizes double from {@link #firstSizeBytes()} while at most this). */
    long maxBytes() {
      return max == null ? DEFAULT_MAX : max;
    }

    static final class Converter implements ITypeConverter<SizeRange> {
      @Override
      public SizeRange convert(String value) {
        return parse(value);
      }
    }
  }

  @Option(names = "--profile", required = true, paramLabel = "FILE",
      description = "Scenario file (HOCON) describing the hardware; its host count and workload are set here.")
  Path profile;

  @Option(names = "--nodes", required = true, paramLabel = "N", description = "Compute nodes (topology.hosts).")
  int nodes;

  @Option(names = "--ppn", required = true, paramLabel = "P", description = "MPI processes per node.")
  int ppn;

  @Option(names = "--sockets", paramLabel = "S",
      description = "Sockets per node (devices.host.sockets-per-node; default: the profile's).")
  Integer sockets;

  @Option(names = "--mode", required = true, paramLabel = "MODE", converter = Mode.Converter.class,
      description = "host (the host-based allreduce, algorithm auto), inc-node or inc-socket (in-network).")
  Mode mode;

  @Option(names = {"-m", "--message-size"}, paramLabel = "[MIN:]MAX", converter = SizeRange.Converter.class,
      defaultValue = DEFAULT_SIZES,
      description = "Message sizes in bytes: MAX, MIN:MAX, MIN: or :MAX (default ${DEFAULT-VALUE}).")
  SizeRange sizes;

  @Option(names = {"-i", "--iterations"}, paramLabel = "ITER", defaultValue = DEFAULT_ITERATIONS,
      description = "Measured iterations per size (default ${DEFAULT-VALUE}).")
  int iterations;

  @Option(names = {"-x", "--warmup"}, paramLabel = "WARMUP", defaultValue = DEFAULT_WARMUP,
      description = "Warm-up iterations per size, not measured (default ${DEFAULT-VALUE}).")
  int warmup;

  @Option(names = {"-f", "--full"}, description = "Also print min and max latency and iterations.")
  boolean full;

  @Option(names = "--seed", paramLabel = "N", description = "Use seed N instead of the profile's seed.")
  Long seed;

  @Mixin
  RunOptions options;

  @Mixin
  SetOverrides sets;

  @Spec
  CommandSpec spec;

  private final CommandPipeline pipeline;

  OsuAllreduceCommand(CommandPipeline pipeline) {
    this.pipeline = pipeline;
  }

  @Override
  public Integer call() {
    checkArguments();
    LoadedScenario loaded = load();
    return pipeline.run(loaded.spec(), loaded.config(), options, this);
  }

  /** The title, and the synthetic payload's comment line when the profile asks for one (nothing is checked). */
  @Override
  public String header(ScenarioSpec scenario, Topology topology) {
    String title = OsuFormatter.title(scenario.name(), nodes, ppn, mode.optionName);
    return scenario.workload().syntheticPayload() ? title + ReportFormatter.SYNTHETIC_HEADER_LINE : title;
  }

  /** The column titles and one row per finished case (with {@code -f}: min, max and iterations too). */
  @Override
  public String results(RunResult result) {
    return OsuFormatter.table(result.cases(), full);
  }

  /** The overrides laid over the profile, in a stable order. */
  Map<String, Object> overrides() {
    Map<String, Object> o = new LinkedHashMap<>();
    if (seed != null) o.put("seed", seed);
    o.put("topology.hosts", nodes);
    if (sockets != null) o.put("devices.host.sockets-per-node", sockets);
    o.put("workload.collective", "allreduce");
    o.put("workload.algorithms", List.of(mode.algorithm));
    o.put("workload.ppn", ppn);
    o.put("workload.datatype", "float32");
    o.put("workload.op", "sum");
    o.put("workload.min-size", sizes.firstSizeBytes());
    o.put("workload.max-size", sizes.maxBytes());
    o.put("workload.iterations", iterations);
    o.put("workload.warmup", warmup);
    return o;
  }

  /** The plot: one series, named by the mode (host: with the algorithms auto chose). */
  @Override
  public RunSupport.Plot plot(RunResult result) {
    String title = "osu_allreduce (fabemu): " + result.scenario().name() + ", " + nodes + " nodes x " + ppn + " ppn";
    return new RunSupport.Plot(title, LatencyPlot.series(result, a -> mode.optionName));
  }

  /** The checks the loader cannot word in terms of the options. */
  private void checkArguments() {
    if (nodes < 1) throw bad("--nodes must be at least 1, not " + nodes);
    if (ppn < 1) throw bad("--ppn must be at least 1, not " + ppn);
    if (sockets != null && sockets < 1) throw bad("--sockets must be at least 1, not " + sockets);
    if (iterations < 1) throw bad("-i must be at least 1, not " + iterations);
    if (warmup < 0) throw bad("-x must be at least 0, not " + warmup);
    long min = sizes.min() == null ? SizeRange.DEFAULT_MIN : sizes.min();
    if (min > sizes.maxBytes()) {
      throw bad("-m '" + sizes.text() + "': MIN " + min + " is above MAX " + sizes.maxBytes());
    }
    if (sizes.firstSizeBytes() > sizes.maxBytes()) {
      throw bad("-m '" + sizes.text() + "': MAX " + sizes.maxBytes() + " is below the smallest message, one float ("
          + FLOAT_BYTES + " bytes)");
    }
    if (sizes.maxBytes() > ScenarioLoader.MAX_SIZE_BYTES) {
      throw bad("-m '" + sizes.text() + "': MAX " + sizes.maxBytes() + " is above the limit of "
          + ScenarioLoader.MAX_SIZE_BYTES + " bytes (1 GiB)");
    }
  }

  /**
   * Loads the profile with the overrides. A value the loader refuses that came from an option (no line of the
   * profile) is reported as a bad argument naming the option; anything else keeps the loader's message.
   */
  private LoadedScenario load() {
    // The command's own options win over --set, which wins over the profile.
    Config overrides = ConfigFactory.parseMap(overrides(), OVERRIDES_ORIGIN).withFallback(sets.config());
    try {
      return ScenarioLoader.load(profile, overrides);
    } catch (ScenarioException e) {
      String option = e.line() > 0 || e.keyPath() == null ? null : optionOf(e.keyPath());
      if (option == null) throw sets.reword(e);
      throw bad(option + " (" + e.keyPath() + "): " + e.reason());
    }
  }

  /** The option (with its value) that set {@code keyPath}, or null when no option sets it. */
  private String optionOf(String keyPath) {
    String key = keyPath.replaceAll("\\[\\d+]$", "");
    return switch (key) {
      case "seed" -> seed == null ? null : "--seed " + seed;
      case "topology.hosts" -> "--nodes " + nodes;
      case "devices.host.sockets-per-node" -> sockets == null ? null : "--sockets " + sockets;
      case "workload.algorithms" -> "--mode " + mode.optionName;
      case "workload.ppn" -> "--ppn " + ppn;
      case "workload.min-size", "workload.max-size" -> "-m '" + sizes.text() + "'";
      case "workload.iterations" -> "-i " + iterations;
      case "workload.warmup" -> "-x " + warmup;
      default -> null;
    };
  }

  private ParameterException bad(String message) {
    return new ParameterException(spec.commandLine(), message);
  }
}
