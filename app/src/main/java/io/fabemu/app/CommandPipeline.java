package io.fabemu.app;

import com.typesafe.config.Config;
import io.fabemu.app.osu.OsuFiles;
import io.fabemu.app.osu.OsuFormatter;
import io.fabemu.app.report.FaultFigures;
import io.fabemu.cluster.KubernetesDiscovery;
import io.fabemu.cluster.MemberLostException;
import io.fabemu.cluster.MemberPlacement;
import io.fabemu.cluster.scenario.ScenarioException;
import io.fabemu.core.topology.Topology;
import io.fabemu.fabric.ScenarioSpec;
import io.fabemu.fabric.result.RunResult;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.LongSupplier;

/**
 * The one pipeline behind every command that runs a scenario ({@code run}, the {@code osu-*} commands, the
 * nccl-tests programs, each point of {@code sweep}): a checked scenario and the command's {@link RunOptions} in, an
 * exit code out. It builds the topology once (the member count is placed on it and the fabric is built from it),
 * picks where the run happens (this JVM, or N cluster members through {@link ClusterRun}), prints the command's
 * header, runs with a progress bar on stderr (when stderr is a terminal: {@link RunOptions#showProgress}), prints the
 * command's results, writes the result files with {@code --out} ({@link RunSupport}, and the OSU files of
 * {@link OsuFiles} with the formatter's columns) and returns the exit code. What stdout shows and how the run is
 * plotted is the command's {@link Formatter}; the pipeline adds nothing to stdout.
 *
 * <p>Contract: exit codes as {@link Main} documents them. Bad input (topology, {@code --members} and the other cluster
 * options, output folder) is reported before anything runs or is printed (exit code 2). The result files are written
 * even when the run is incomplete or wrong (exit code 1), so the evidence is kept. A result file that cannot be written
 * once the run is over (or a plot that cannot be drawn) is named on one line and makes the exit code 1 (the run
 * happened; it is not bad input), after the other files have still been tried. When the emulation itself fails (a
 * device error) the exception passes through: nothing is written and {@link Main} makes it exit code 1. A synthetic
 * payload (sizes only) checks no output, so it fails only when incomplete. Spread over N members a run prints and
 * writes exactly what a one-member run does; when a member is lost mid-run ({@link MemberLostException}) what was
 * finished is printed and written marked {@code "complete": false}, the loss is printed on one line, and the exit code
 * is {@value ExitCodes#LOST_MEMBER}.
 */
public final class CommandPipeline {

  /** What a command shows of its run: stdout before and after it, and the latency plot of its result files. */
  public interface Formatter {
    /** Printed on stdout once the input is checked, before the run starts. */
    String header(ScenarioSpec spec, Topology topology);

    /** Printed on stderr, one line each, right after the {@link #header}: what the user should know; none here. */
    default List<String> warnings(ScenarioSpec spec) {
      return List.of();
    }

    /** Printed on stdout after the run: of its result, or of the partial result of a run that lost a member. */
    String results(RunResult result);

    /** The latency plot written with {@code --out}. */
    RunSupport.Plot plot(RunResult result);

    /** The optional columns of the OSU files written with {@code --out} ({@link OsuFiles}); none by default. */
    default OsuFormatter.Columns osuColumns() {
      return OsuFormatter.Columns.PLAIN;
    }
  }

  private final PrintStream stdout;
  private final PrintStream stderr;
  private final ScenarioExecutor localExecutor;
  private final LongSupplier nanoClock;

  /**
   * A pipeline printing on {@code stdout} and {@code stderr} that runs on this JVM's single member with
   * {@code localExecutor}, and times the progress bar with {@code nanoClock} (wall time).
   */
  public CommandPipeline(PrintStream stdout, PrintStream stderr, ScenarioExecutor localExecutor, LongSupplier nanoClock) {
    this.stdout = stdout;
    this.stderr = stderr;
    this.localExecutor = localExecutor;
    this.nanoClock = nanoClock;
  }

  /**
   * What a run through the pipeline gave: its exit code, its result (null when there is none to show) and the
   * topology it ran on.
   */
  public record Outcome(int exitCode, RunResult result, Topology topology) {}

  /**
   * Runs {@code spec} as {@code options} say and returns the exit code; {@code echo} is the scenario as loaded
   * (with the command's overrides), echoed in {@code results.json}.
   */
  public int run(ScenarioSpec spec, Config echo, RunOptions options, Formatter formatter) {
    return execute(spec, echo, options, formatter).exitCode();
  }

  /** {@link #run}, also returning the result (for a command that runs several scenarios, such as a sweep). */
  public Outcome execute(ScenarioSpec spec, Config echo, RunOptions options, Formatter formatter) {
    boolean progress = options.showProgress(StderrTerminal::detect);
    Checked checked = check(spec, options);
    spec = checked.spec();
    Topology topology = checked.topology();
    List<String> warnings = checked.warnings();
    ScenarioExecutor executor = chooseExecutor(options, spec, topology);
    Path created = options.out == null ? null : RunSupport.prepareOutputFolder(options.out);
    // Once nothing more can refuse the run as bad input: a refused run gets its one line only.
    warnings.forEach(stderr::println);
    try {
      return runAndWrite(spec, echo, options, formatter, topology, executor, progress);
    } catch (RuntimeException e) {
      // A run refused as bad input, or whose emulation stopped (nothing is written then), leaves no empty output
      // folder of its own behind.
      RunSupport.removeCreatedFolder(created, options.out);
      throw e;
    }
  }

  private Outcome runAndWrite(ScenarioSpec spec, Config echo, RunOptions options, Formatter formatter,
                              Topology topology, ScenarioExecutor executor, boolean progress) {
    stdout.print(formatter.header(spec, topology));
    stdout.flush();
    for (String warning : formatter.warnings(spec)) stderr.println(warning);
    RunResult result;
    MemberLostException lost = null;
    try {
      result = RunSupport.runWithProgress(executor, spec, topology, stderr, nanoClock, progress);
    } catch (MemberLostException e) {
      // What every member finished before the loss is kept, marked incomplete, and written like any result.
      lost = e;
      result = markIncomplete(e.partialResult(), ErrorLines.oneLine(e.getMessage()));
    }
    if (result != null) {
      stdout.print(formatter.results(result));
    }
    stdout.flush();
    if (result != null) {
      // One line each, after the tables: a timeout too short for the load, a baseline that did not finish.
      String spurious = FaultFigures.spuriousWarning(result);
      if (spurious != null) stderr.println(spurious);
      String baseline = FaultFigures.baselineWarning(result);
      if (baseline != null) stderr.println(baseline);
    }

    if (lost != null) {
      if (options.out != null && result != null) {
        RunSupport.writeResults(options.out, result, echo, topology, formatter.plot(result), stderr);
        RunSupport.writeOsuFiles(options.out, result, formatter.osuColumns(), stderr);
      }
      String message = ErrorLines.oneLine(lost.getMessage());
      stderr.println(message.startsWith("fabemu:") ? message : "fabemu: " + message);
      return new Outcome(ExitCodes.LOST_MEMBER, result, topology);
    }

    // Every file is tried (no short circuit), so one that cannot be written does not cost the others.
    boolean written = options.out == null
        || (RunSupport.writeResults(options.out, result, echo, topology, formatter.plot(result), stderr)
            & RunSupport.writeOsuFiles(options.out, result, formatter.osuColumns(), stderr));
    return new Outcome(RunSupport.exitCode(result, written, stderr), result, topology);
  }

  /**
   * Checks {@code options} against {@code spec}'s {@code topology} as a run would, without running anything: the
   * progress options, the member count, timeout and port, the way to join ({@link DiscoveryOptions}), and that the
   * members can be placed ({@link MemberPlacement}: the scenario's {@code cluster.placement} or the automatic plan); a
   * problem is a {@link BadInputException}, or the {@link ScenarioException} naming a {@code cluster.placement} whose
   * member count is not the run's (for a command that checks several scenarios before it runs any).
   *
   * @return the Kubernetes discovery the run joins through; null when it joins through seed nodes or runs alone or
   *         on members of its own
   */
  static KubernetesDiscovery checkOptions(RunOptions options, ScenarioSpec spec, Topology topology) {
    options.showProgress(() -> false); // refuses --progress with --no-progress
    int members = options.members;
    if (members < 1) throw new BadInputException("--members must be at least 1, not " + members);
    if (options.memberTimeoutSeconds < 1) throw new BadInputException("--member-timeout must be at least 1 second");
    if (options.port < 0 || options.port > 65535) {
      throw new BadInputException("--port " + options.port + " is out of range (0 to 65535)");
    }
    KubernetesDiscovery kubernetes = options.discovery.kubernetes(options.seedNodes != null, false, options.port,
        options.cluster.transport());
    if (members == 1 && options.seedNodes == null && kubernetes == null) return null;
    try {
      MemberPlacement.plan(spec, topology, topology.deviceCount(), members);
    } catch (ScenarioException e) {
      throw e; // the scenario's cluster.placement: its own line names the file, the line and the key
    } catch (IllegalArgumentException e) {
      throw new BadInputException("--members " + members + ": " + e.getMessage());
    }
    return kubernetes;
  }

  /**
   * The executor of this run: the local one (one member in this JVM) unless {@code --members} is above 1,
   * {@code --seed-nodes} is given or the run joins through the Kubernetes API. The member count is placed on the
   * topology before anything starts.
   */
  /**
   * A scenario that passed {@link #check}: the spec to run (real data cut where the heap ends), its topology and
   * the warnings (the cut's note, the estimate's), printed when it runs.
   */
  record Checked(ScenarioSpec spec, Topology topology, List<String> warnings) {}

  /**
   * Every refusal of {@code spec} as bad input that does not need a run: a scenario this pipeline does not run
   * (synthetic traffic), the pre-flight estimate, the topology, and the cluster options against it. A command that
   * runs several scenarios (a sweep) checks them all this way before the first runs.
   */
  public static Checked check(ScenarioSpec spec, RunOptions options) {
    if (spec.runsTraffic()) {
      throw new BadInputException(spec.source() + ": the scenario runs synthetic traffic (its traffic section): run "
          + "it with 'fabemu traffic'");
    }
    // Before anything is built: a scenario far above the heap would build for minutes and then run out of memory.
    // Real data as far as the heap holds it, sizes only beyond (a note says from which size); then the check.
    PayloadFit.Fitted fitted = PayloadFit.fit(spec, options.members, options.skipEstimate,
        Runtime.getRuntime().maxMemory());
    ScenarioSpec fit = fitted.spec();
    List<String> warnings = new ArrayList<>();
    if (fitted.note() != null) warnings.add(fitted.note());
    warnings.addAll(RunSupport.checkEstimate(fit, options.members, options.skipEstimate,
        Runtime.getRuntime().maxMemory()));
    Topology topology = RunSupport.buildTopology(fit);
    checkOptions(options, fit, topology);
    MemberPlacement.oneMemberWarning(fit, options.members).ifPresent(warnings::add);
    return new Checked(fit, topology, warnings);
  }

  private ScenarioExecutor chooseExecutor(RunOptions options, ScenarioSpec spec, Topology topology) {
    KubernetesDiscovery kubernetes = checkOptions(options, spec, topology);
    int members = options.members;
    if (members == 1 && options.seedNodes == null && kubernetes == null) return localExecutor;
    return new ClusterRun(members, options.seedNodes, kubernetes, options.cluster.host, options.port,
        options.cluster.transport(), Duration.ofSeconds(options.memberTimeoutSeconds), stderr);
  }

  /** {@code partial} marked incomplete with {@code reason} (kept when it has one); null stays null. */
  static RunResult markIncomplete(RunResult partial, String reason) {
    if (partial == null) return null;
    String why = partial.incompleteReason() == null || partial.incompleteReason().isBlank()
        ? reason : partial.incompleteReason();
    return partial.toBuilder().complete(false).incompleteReason(why).build();
  }
}
