package io.fabemu.app;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigValueFactory;
import io.fabemu.app.Main.BadInputException;
import io.fabemu.app.Main.ScenarioExecutor;
import io.fabemu.cluster.MemberLostException;
import io.fabemu.cluster.scenario.LoadedScenario;
import io.fabemu.cluster.scenario.ScenarioLoader;
import io.fabemu.core.placement.PlacementPlan;
import io.fabemu.core.topology.Topology;
import io.fabemu.fabric.ScenarioSpec;
import io.fabemu.fabric.result.RunResult;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.function.LongSupplier;
import org.apache.pekko.actor.Address;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code fabemu run SCENARIO [--out DIR] [--seed N] [--members N [--seed-nodes ...] [--transport T]]}: loads and checks the scenario, prints a header, runs it, prints
 * the latency and bandwidth tables and a summary, and with {@code --out} writes {@code results.json},
 * {@code results.csv} and the latency plot {@code latency.svg} and {@code latency.png} ({@link RunSupport}).
 *
 * <p>Contract: bad input (scenario, output folder) is reported before anything runs (exit code 2); exit codes as
 * {@link Main} documents them. The result files are written even when the run is incomplete or wrong (exit code 1),
 * so the evidence is kept. A result file that cannot be written once the run is over (or a plot that cannot be drawn)
 * is named on one line and makes the exit code 1 (the run happened; it is not bad input), after the other files
 * have still been tried. When the
 * emulation itself fails (a device error) the error is printed, nothing is written, and the exit code is 1. A
 * synthetic payload (sizes only) checks no output, so it fails only when incomplete. With {@code --members N} the
 * run is spread over N cluster members ({@link ClusterRun}) and prints and writes exactly what a one-member run
 * does; when a member is lost mid-run ({@link MemberLostException}) the loss is printed on one line, what was
 * finished is printed and written marked {@code "complete": false}, and the exit code is
 * {@value Main#EXIT_LOST_MEMBER}.
 */
@Command(name = "run", mixinStandardHelpOptions = true,
    description = "Run a scenario and print osu_allreduce- and nccl-tests-style tables.")
final class RunCommand implements Callable<Integer> {

  @Parameters(index = "0", paramLabel = "SCENARIO", description = "Scenario file (HOCON), see docs/scenario-format.md.")
  Path scenario;

  @Option(names = "--out", paramLabel = "DIR",
      description = "Also write DIR/results.json, DIR/results.csv and the latency plot DIR/latency.svg and "
          + "DIR/latency.png (DIR is created if needed).")
  Path out;

  @Option(names = "--seed", paramLabel = "N", description = "Use seed N instead of the scenario's seed.")
  Long seed;

  @Option(names = "--no-progress", description = "Never show the progress bar on stderr.")
  boolean noProgress;

  @Option(names = "--members", paramLabel = "N", defaultValue = "1",
      description = "Spread the run over N cluster members (default ${DEFAULT-VALUE}: this JVM alone). Without "
          + "--seed-nodes, N-1 member JVMs are started on 127.0.0.1 and stopped afterwards; the digest is the same.")
  int members;

  @Option(names = "--seed-nodes", paramLabel = "HOST:PORT[,...]", converter = ClusterOptions.SeedNodesConverter.class,
      description = "Use members already running ('fabemu member'), joined through these; N counts this one too.")
  List<Address> seedNodes;

  @Option(names = "--port", paramLabel = "P", defaultValue = "0",
      description = "Port of this (the coordinator's) member with --members or --seed-nodes (default: a free one).")
  int port;

  @Option(names = "--member-timeout", paramLabel = "SECONDS", defaultValue = "60",
      description = "Fail when not all N members are up within this many seconds (default ${DEFAULT-VALUE}).")
  int memberTimeoutSeconds;

  @Mixin
  ClusterOptions cluster;

  private final PrintStream stdout;
  private final PrintStream stderr;
  private final ScenarioExecutor executor;
  private final LongSupplier nanoClock;

  RunCommand(PrintStream stdout, PrintStream stderr, ScenarioExecutor executor, LongSupplier nanoClock) {
    this.stdout = stdout;
    this.stderr = stderr;
    this.executor = executor;
    this.nanoClock = nanoClock;
  }

  @Override
  public Integer call() {
    LoadedScenario loaded = ScenarioLoader.load(scenario);
    ScenarioSpec spec = loaded.spec();
    Config echo = loaded.config();
    if (seed != null) {
      spec = spec.withSeed(seed);
      echo = echo.withValue("seed", ConfigValueFactory.fromAnyRef(seed));
    }
    Topology topology = Main.buildTopology(spec);
    ScenarioExecutor runner = chooseExecutor(topology);
    if (out != null) RunSupport.prepareOutputFolder(out);

    stdout.print(ReportFormatter.header(spec, topology.description()));
    stdout.flush();
    RunResult result;
    MemberLostException lost = null;
    try {
      result = RunSupport.runWithProgress(runner, spec, stderr, nanoClock, !noProgress);
    } catch (MemberLostException e) {
      // What every member finished before the loss is kept, marked incomplete, and written like any result.
      lost = e;
      result = markIncomplete(e.partialResult(), Main.oneLine(e.getMessage()));
    }
    if (result != null) {
      stdout.print(ReportFormatter.report(result));
    }
    stdout.flush();

    if (lost != null) {
      if (out != null && result != null) {
        RunSupport.writeResults(out, result, echo, topology, plot(result), stderr);
      }
      String message = Main.oneLine(lost.getMessage());
      stderr.println(message.startsWith("fabemu:") ? message : "fabemu: " + message);
      return Main.EXIT_LOST_MEMBER;
    }

    boolean written = out == null || RunSupport.writeResults(out, result, echo, topology, plot(result), stderr);
    return RunSupport.exitCode(result, written, stderr);
  }

  /** The latency plot of a run: one series per workload algorithm. */
  static RunSupport.Plot plot(RunResult result) {
    ScenarioSpec spec = result.scenario();
    String title = spec.name() + ": " + spec.workload().collective().configName() + " latency, "
        + ReportFormatter.ranks(spec) + " ranks (" + spec.topology().hosts() + " hosts x " + spec.workload().ppn()
        + ")";
    return new RunSupport.Plot(title, LatencyPlot.series(result));
  }

  /**
   * The executor of this run: the given one (one member in this JVM) unless {@code --members} is above 1 or
   * {@code --seed-nodes} is given. The member count is checked against the topology before anything starts.
   */
  private ScenarioExecutor chooseExecutor(Topology topology) {
    if (members < 1) throw new BadInputException("--members must be at least 1, not " + members);
    if (memberTimeoutSeconds < 1) throw new BadInputException("--member-timeout must be at least 1 second");
    if (port < 0 || port > 65535) throw new BadInputException("--port " + port + " is out of range (0 to 65535)");
    if (members == 1 && seedNodes == null) return executor;
    try {
      PlacementPlan.compute(topology, topology.deviceCount(), members);
    } catch (IllegalArgumentException e) {
      throw new BadInputException("--members " + members + ": " + e.getMessage());
    }
    return new ClusterRun(members, seedNodes, cluster.host, port, cluster.transport(),
        Duration.ofSeconds(memberTimeoutSeconds), stderr);
  }

  /** {@code partial} marked incomplete with {@code reason} (kept when it has one); null stays null. */
  static RunResult markIncomplete(RunResult partial, String reason) {
    if (partial == null) return null;
    String why = partial.incompleteReason() == null || partial.incompleteReason().isBlank()
        ? reason : partial.incompleteReason();
    return new RunResult(partial.scenario(), partial.cases(), partial.links(), false, why, partial.virtualEndPs(),
        partial.windows(), partial.events(), partial.wallSeconds(), partial.digest());
  }
}
