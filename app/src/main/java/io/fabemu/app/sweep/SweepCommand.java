package io.fabemu.app.sweep;

import com.typesafe.config.Config;
import io.fabemu.app.BadInputException;
import io.fabemu.app.ClusterRun;
import io.fabemu.app.CommandPipeline;
import io.fabemu.app.ErrorLines;
import io.fabemu.app.ExitCodes;
import io.fabemu.app.RunOptions;
import io.fabemu.app.RunSupport;
import io.fabemu.app.SetOverrides;
import io.fabemu.app.output.LatencyPlot;
import io.fabemu.app.output.ReportFormatter;
import io.fabemu.app.output.ResultsWriter;
import io.fabemu.app.report.SweepPoint;
import io.fabemu.app.report.SweepReport;
import io.fabemu.cluster.ClusterStartException;
import io.fabemu.cluster.scenario.LoadedScenario;
import io.fabemu.cluster.scenario.ScenarioException;
import io.fabemu.cluster.scenario.ScenarioLoader;
import io.fabemu.core.topology.Topology;
import io.fabemu.fabric.ScenarioSpec;
import io.fabemu.fabric.result.RunResult;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.function.LongSupplier;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine;

/**
 * {@code fabemu sweep SCENARIO --vary KEY.PATH=V1,V2,... [--vary ...] [--set KEY.PATH=VALUE ...] --out DIR
 * [--no-progress] [--members N ...]}: runs the scenario once per point of the cross product of the {@code --vary}
 * values ({@link SweepPlan}), each point through the pipeline {@code run} uses ({@link CommandPipeline}) with its
 * files in {@code DIR/points/<n>-<key=value,...>/}; prints a compact row per point on stdout
 * ({@link SweepSummary}), a line per point ({@code point i of N: assignments}) and each run's progress bar on
 * stderr; and writes {@code DIR/sweep.csv} and {@code DIR/report.html} ({@link SweepReport}) for the whole sweep.
 *
 * <p>Contract: every point is loaded and checked before anything runs: a {@code --vary} the loader refuses is one
 * line naming it ({@code --vary topology.hosts=7: reason}), another error of a point names the point, and either is
 * exit code 2 with nothing written; so is a key both set and varied. Then the points run in order; the exit code is
 * the worst (highest) of the points' codes as {@code run} defines them (0 exact, 1 wrong, incomplete, a file not
 * written or the emulation failed, 3 a member lost). A point whose emulation fails is reported on one line and the
 * sweep goes on; when the cluster cannot start (with {@code --members} or {@code --seed-nodes}) the sweep stops
 * there. The sweep's files are written in either case, from the points that ran.
 */
@Command(name = "sweep", mixinStandardHelpOptions = true, sortOptions = false,
    description = {"Run a scenario once per point of the cross product of --vary values, and write one CSV and one "
        + "HTML report for the whole sweep.",
        "Each point's own files (results.json, results.csv, latency.svg/png, report.html) go to "
            + "DIR/points/<n>-<key=value,...>/."})
public final class SweepCommand implements Callable<Integer> {

  @Parameters(index = "0", paramLabel = "SCENARIO", description = "Scenario file (HOCON), see docs/scenario-format.md.")
  Path scenario;

  @Option(names = "--vary", required = true, paramLabel = "KEY.PATH=V1,V2,...",
      description = "Run the scenario with each of these values of KEY.PATH, written as --set takes them (commas "
          + "inside brackets, braces or quotes do not split), e.g. --vary topology.hosts=8,16 --vary "
          + "'workload.algorithms=[ring],[recursive-doubling]'. Repeatable: the points are the cross product, the "
          + "last --vary changing fastest.")
  List<String> varies;

  @Mixin
  SetOverrides sets;

  @Mixin
  RunOptions options;

  @Spec
  CommandSpec spec;

  private final CommandPipeline pipeline;
  private final PrintStream stdout;
  private final PrintStream stderr;
  private final LongSupplier nanoClock;

  public SweepCommand(CommandPipeline pipeline, PrintStream stdout, PrintStream stderr, LongSupplier nanoClock) {
    this.pipeline = pipeline;
    this.stdout = stdout;
    this.stderr = stderr;
    this.nanoClock = nanoClock;
  }

  /**
   * The sweep's command line: {@link RunOptions}' {@code --out} made required and described as a sweep uses it
   * (the mixin's text speaks of one run's files).
   */
  public static CommandLine commandLine(SweepCommand command) {
    CommandLine cli = new CommandLine(command);
    CommandSpec commandSpec = cli.getCommandSpec();
    List<OptionSpec> options = new ArrayList<>(commandSpec.options());
    int at = options.indexOf(commandSpec.findOption("--out"));
    // Options are listed in the order they were added: the ones after --out are added again behind its new form.
    for (OptionSpec o : options.subList(at, options.size())) commandSpec.remove(o);
    commandSpec.addOption(options.get(at).toBuilder().required(true).description("Write DIR/sweep.csv and "
        + "DIR/report.html for the whole sweep, and each point's files into DIR/points/<n>-<key=value,...>/ (DIR is "
        + "created if needed).").build());
    for (OptionSpec o : options.subList(at + 1, options.size())) commandSpec.addOption(o);
    return cli;
  }

  /** A loaded and checked point, ready to run. */
  private record Prepared(SweepPlan.Point point, LoadedScenario loaded) {}

  @Override
  public Integer call() {
    long startNanos = nanoClock.getAsLong();
    SweepPlan plan;
    try {
      plan = SweepPlan.of(varies);
    } catch (IllegalArgumentException e) {
      throw new ParameterException(spec.commandLine(), e.getMessage());
    }
    checkSetsAgainstVaries(plan);
    List<Prepared> prepared = new ArrayList<>();
    for (SweepPlan.Point point : plan.points()) prepared.add(prepare(plan, point));
    RunSupport.prepareOutputFolder(options.out);

    SweepSummary summary = new SweepSummary(plan);
    ScenarioSpec first = prepared.get(0).loaded().spec();
    stdout.print(summary.header(first.name(), scenario.toString()));
    stdout.flush();
    List<SweepPoint> done = new ArrayList<>();
    String stoppedBecause = null;
    for (Prepared p : prepared) {
      SweepPlan.Point point = p.point();
      String folder = SweepSummary.POINTS_FOLDER + "/" + point.folderName(plan.numberDigits());
      List<String> values = point.assignments().stream().map(a -> a.value().text()).toList();
      if (stoppedBecause != null) {
        done.add(new SweepPoint(point.number(), point.label(), values, folder, ExitCodes.RUN_FAILED, null,
            List.of(), "not run: " + stoppedBecause));
        continue;
      }
      stderr.println("fabemu sweep: point " + point.number() + " of " + plan.points().size() + ": " + point.label());
      stderr.flush();
      SweepPoint result;
      try {
        CommandPipeline.Outcome outcome = pipeline.execute(p.loaded().spec(), p.loaded().config(),
            options.withOut(options.out.resolve(folder)), new PointFormatter(point));
        RunResult r = outcome.result();
        result = new SweepPoint(point.number(), point.label(), values, folder, outcome.exitCode(), r,
            r == null ? List.of() : ResultsWriter.caseFigures(r, outcome.topology()), null);
      } catch (ClusterStartException | ClusterRun.Failure e) {
        // The cluster itself failed: every later point would wait for it in vain.
        String message = ErrorLines.oneLine(e.getMessage());
        stderr.println("fabemu: point " + point.number() + ": " + message);
        if (e instanceof ClusterRun.Failure f) f.details().forEach(stderr::println);
        stoppedBecause = "the sweep stopped at point " + point.number() + " (" + message + ")";
        result = new SweepPoint(point.number(), point.label(), values, folder, ExitCodes.RUN_FAILED, null, List.of(),
            message);
      } catch (ScenarioException | BadInputException e) {
        String message = e instanceof ScenarioException ? e.getMessage() : "fabemu: " + ErrorLines.oneLine(e.getMessage());
        stderr.println(message + " (point " + point.number() + ": " + point.label() + ")");
        result = new SweepPoint(point.number(), point.label(), values, folder, ExitCodes.BAD_INPUT, null, List.of(),
            ErrorLines.oneLine(e.getMessage()));
      } catch (RuntimeException e) {
        // As run: the emulation failed; nothing of this point is written, and the other points still run.
        String message = ErrorLines.failure(e);
        stderr.println("fabemu: error: point " + point.number() + ": " + ErrorLines.oneLine(message));
        result = new SweepPoint(point.number(), point.label(), values, folder, ExitCodes.RUN_FAILED, null, List.of(),
            ErrorLines.oneLine(message));
      }
      done.add(result);
      stdout.print(summary.row(result));
      stdout.flush();
    }

    int worst = done.stream().mapToInt(SweepPoint::exitCode).max().orElse(ExitCodes.OK);
    double wallSeconds = (nanoClock.getAsLong() - startNanos) / 1e9;
    boolean written = RunSupport.write(options.out.resolve(SweepSummary.CSV_FILE), summary.csv(done), stderr);
    Config firstScenario = prepared.get(0).loaded().config();
    SweepReport report = new SweepReport(first.name() + ": sweep of " + String.join(", ", plan.keys()),
        scenario.toString(), plan.keys(), sets.assignments, done, firstScenario, wallSeconds);
    written &= RunSupport.writeReport(options.out.resolve(ResultsWriter.REPORT_FILE), report::html, stderr);
    stdout.print(SweepSummary.footer(done, worst, options.out.toString()));
    if (!written) worst = Math.max(worst, ExitCodes.RUN_FAILED);
    return worst;
  }

  /** A key both set and varied is ambiguous (which wins?): refused, naming both. */
  private void checkSetsAgainstVaries(SweepPlan plan) {
    for (SetOverrides.Assignment set : sets.parsed()) {
      for (SweepPlan.Variation v : plan.variations()) {
        if (SetOverrides.concerns(set.keyPath(), v.keyPath())) {
          throw new ParameterException(spec.commandLine(), "--vary '" + v.text() + "': " + v.keyPath()
              + " is also set by --set " + set.text() + "; give it in one of them");
        }
      }
    }
  }

  /**
   * Loads and checks one point: the scenario with {@code --set} and the point's values laid over it, its topology,
   * and the cluster options against it. An error about a varied value names the {@code --vary} assignment; one
   * about a {@code --set} value names that; any other names the point.
   */
  private Prepared prepare(SweepPlan plan, SweepPlan.Point point) {
    String where = " (sweep point " + point.number() + " of " + plan.points().size() + ": " + point.label() + ")";
    try {
      LoadedScenario loaded = ScenarioLoader.load(scenario, point.config().withFallback(sets.config()));
      // Refused before the output folder is made, as run refuses it; its warnings come when the point runs.
      CommandPipeline.check(loaded.spec(), options);
      return new Prepared(point, loaded);
    } catch (ScenarioException e) {
      if (e.line() <= 0 && e.keyPath() != null) {
        String errorKey = e.keyPath().replaceAll("\\[\\d+]", "");
        for (SweepPlan.Assignment a : point.assignments()) {
          if (SetOverrides.concerns(errorKey, a.keyPath())) {
            throw new ParameterException(spec.commandLine(), "--vary " + a.text() + ": "
                + (errorKey.equals(a.keyPath()) ? "" : e.keyPath() + ": ") + e.reason());
          }
        }
      }
      RuntimeException reworded = sets.reword(e);
      if (reworded != e) throw reworded;
      throw new ScenarioException(e.file(), e.line(), e.keyPath(), e.reason() + where);
    } catch (BadInputException e) {
      throw new BadInputException(e.getMessage() + where);
    }
  }

  /** What a point shows: nothing on stdout (the sweep prints its row), and its plot titled with its values. */
  private static final class PointFormatter implements CommandPipeline.Formatter {
    private final SweepPlan.Point point;

    PointFormatter(SweepPlan.Point point) {
      this.point = point;
    }

    @Override
    public String header(ScenarioSpec spec, Topology topology) {
      return "";
    }

    @Override
    public String results(RunResult result) {
      return "";
    }

    @Override
    public RunSupport.Plot plot(RunResult result) {
      ScenarioSpec spec = result.scenario();
      String title = spec.name() + " (" + point.label() + "): " + spec.workload().collective().configName()
          + " latency, " + ReportFormatter.ranks(spec) + " ranks (" + spec.topology().hosts() + " hosts x "
          + spec.workload().ppn() + ")";
      return new RunSupport.Plot(title, LatencyPlot.series(result));
    }
  }
}
