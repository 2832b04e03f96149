package io.fabemu.app;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigValueFactory;
import io.fabemu.app.output.LatencyPlot;
import io.fabemu.app.output.ReportFormatter;
import io.fabemu.cluster.scenario.LoadedScenario;
import io.fabemu.core.optical.ConnectionPolicy;
import io.fabemu.core.topology.Topology;
import io.fabemu.fabric.ScenarioSpec;
import io.fabemu.fabric.result.RunResult;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code fabemu run SCENARIO [--set KEY=VALUE ...] [--fault EVENT ...] [--out DIR] [--seed N] [--no-progress]
 * [--members N [--seed-nodes ...] [--transport T] ...]}: loads and checks the scenario, prints a header, runs it,
 * prints the latency and nccl-tests tables and a summary ({@link ReportFormatter}; a scenario with a ring embedding
 * adds {@code # Rings: <its summary>} to the header and its warnings to stderr once, before the run), and with
 * {@code --out} writes {@code results.json}, {@code results.csv}, the latency plot {@code latency.svg} and
 * {@code latency.png}, the HTML report {@code report.html}, and one nccl-tests and one OSU file per algorithm
 * ({@code nccl-tests/}, {@code osu/}).
 *
 * <p>Contract: everything after loading the scenario (with the {@link SetOverrides} laid over it, the
 * {@link FaultOptions} appended to its fault events, then {@code --seed}) is {@link CommandPipeline}'s: exit codes,
 * bad input before anything runs, result files kept when the run is wrong, {@code --members} and a lost member. A
 * scenario that cannot be loaded is bad input (exit code 2).
 */
@Command(name = "run", mixinStandardHelpOptions = true,
    description = "Run a scenario and print osu_allreduce- and nccl-tests-style tables.")
final class RunCommand implements Callable<Integer>, CommandPipeline.Formatter {

  @Parameters(index = "0", paramLabel = "SCENARIO", description = "Scenario file (HOCON), see docs/scenario-format.md.")
  Path scenario;

  @Option(names = "--seed", paramLabel = "N", description = "Use seed N instead of the scenario's seed.")
  Long seed;

  @Mixin
  RunOptions options;

  @Mixin
  SetOverrides sets;

  @Mixin
  FaultOptions faults;

  private final CommandPipeline pipeline;

  RunCommand(CommandPipeline pipeline) {
    this.pipeline = pipeline;
  }

  @Override
  public Integer call() {
    LoadedScenario loaded = sets.load(scenario, faults);
    ScenarioSpec spec = loaded.spec();
    Config echo = loaded.config();
    if (seed != null) {
      spec = spec.withSeed(seed);
      echo = echo.withValue("seed", ConfigValueFactory.fromAnyRef(seed));
    }
    return pipeline.run(spec, echo, options, this);
  }

  /**
   * {@link ReportFormatter#header}, then with a ring embedding {@code # Rings: <its summary>}, on an optical cluster
   * {@code # Policy: <the management device's policy and its check>}.
   */
  @Override
  public String header(ScenarioSpec spec, Topology topology) {
    String header = ReportFormatter.header(spec, topology.description());
    Optional<ConnectionPolicy> policy = spec.topology().connectionPolicy();
    if (policy.isPresent()) header += policyLine(policy.get());
    return spec.rings() == null ? header : header + "# Rings: " + spec.rings().summary() + "\n";
  }

  /** The management device's policy and the result of its full-interconnect check, as one header line. */
  static String policyLine(ConnectionPolicy policy) {
    List<String> problems = policy.fullInterconnectProblems();
    int pairs = policy.servers() * (policy.servers() - 1) / 2;
    return "# Policy: " + policy.summary() + "; " + (problems.isEmpty()
        ? "a full interconnect: each of the " + pairs + " server pairs joined by one circuit, no NPU in two, both "
            + "ends on one plane"
        : "NOT a full interconnect: " + String.join("; ", problems)) + "\n";
  }

  /** The ring embedding's warnings ({@link ValidateCommand#ringWarnings}), once, before the run. */
  @Override
  public List<String> warnings(ScenarioSpec spec) {
    return spec.rings() == null ? List.of() : ValidateCommand.ringWarnings(spec.rings());
  }

  @Override
  public String results(RunResult result) {
    return ReportFormatter.report(result);
  }

  /** The latency plot of a run: one series per workload algorithm. */
  @Override
  public RunSupport.Plot plot(RunResult result) {
    ScenarioSpec spec = result.scenario();
    String title = spec.name() + ": " + spec.workload().collective().configName() + " latency, "
        + ReportFormatter.ranks(spec) + " ranks (" + spec.topology().hosts() + " hosts x " + spec.workload().ppn()
        + ")";
    return new RunSupport.Plot(title, LatencyPlot.series(result));
  }
}
