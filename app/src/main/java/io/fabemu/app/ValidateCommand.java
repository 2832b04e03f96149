package io.fabemu.app;

import io.fabemu.cluster.scenario.LoadedScenario;
import io.fabemu.core.topology.Topology;
import io.fabemu.fabric.ScenarioSpec;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

/**
 * {@code fabemu validate SCENARIO [--set KEY=VALUE ...]}: checks the scenario (with the {@link SetOverrides} laid
 * over it) (keys, values, cross-field rules) and builds its topology
 * (the graph of hosts, switches and cables) to describe it; no device is created and nothing runs.
 *
 * <p>Contract: prints {@code OK: <file>: <topology description>, <ranks> ranks, <cases> cases} (a traffic scenario:
 * {@code OK: <file>: <topology description>, <pattern> traffic, <n> offered loads}) and exits 0, or
 * prints the one-line error and exits 2.
 */
@Command(name = "validate", mixinStandardHelpOptions = true,
    description = "Check a scenario without running it.")
final class ValidateCommand implements Callable<Integer> {

  @Parameters(index = "0", paramLabel = "SCENARIO", description = "Scenario file (HOCON), see docs/scenario-format.md.")
  Path scenario;

  @Mixin
  SetOverrides sets;

  private final PrintStream stdout;

  ValidateCommand(PrintStream stdout) {
    this.stdout = stdout;
  }

  @Override
  public Integer call() {
    LoadedScenario loaded = sets.load(scenario);
    ScenarioSpec spec = loaded.spec();
    Topology topology = Main.buildTopology(spec);
    if (spec.runsTraffic()) {
      // A traffic scenario's ranks run nothing: say what 'fabemu traffic' will run.
      stdout.println("OK: " + scenario + ": " + topology.description() + ", " + spec.traffic().pattern().configName()
          + " traffic, " + spec.traffic().loadCount() + " offered loads");
    } else {
      stdout.println("OK: " + scenario + ": " + topology.description() + ", " + ReportFormatter.ranks(spec)
          + " ranks, " + spec.workload().caseCount() + " cases");
    }
    return Main.EXIT_OK;
  }
}
