package io.fabemu.app;

import com.typesafe.config.ConfigValueFactory;
import io.fabemu.app.report.TrafficReport;
import io.fabemu.cluster.EmbeddedCluster;
import io.fabemu.cluster.ScenarioRunner;
import io.fabemu.cluster.scenario.LoadedScenario;
import io.fabemu.core.router.RouterSpec;
import io.fabemu.core.topology.Topology;
import io.fabemu.core.traffic.LoadPoint;
import io.fabemu.core.traffic.Saturation;
import io.fabemu.core.traffic.SaturationFinder;
import io.fabemu.core.traffic.TrafficSpec;
import io.fabemu.core.traffic.TrafficTable;
import io.fabemu.fabric.Fabric;
import io.fabemu.fabric.ScenarioSpec;
import io.fabemu.fabric.result.TrafficResult;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code fabemu traffic SCENARIO [--set KEY=VALUE ...] [--seed N] [--out DIR] [--all-loads] [--no-progress]}: runs the
 * scenario's synthetic traffic (its {@code traffic} section, on a mesh, torus or group-ring) once per offered load,
 * each load its own emulation on one embedded cluster member, and prints the latency-vs-load table with the
 * saturation point ({@link TrafficTable}, {@link SaturationFinder}); with {@code --out} writes {@code traffic.csv},
 * {@code vc-utilisation.csv} (every router input virtual channel at every load), the curve {@code latency-load.svg}
 * and {@code report.html}.
 *
 * <p>Contract: a scenario without a {@code traffic} section, or one that cannot be loaded, is bad input (exit code
 * 2) before anything runs. The sweep stops at the first saturated load (the loads beyond it only fill the network's
 * buffers, at great cost) unless {@code --all-loads}. Exit code 0 once every load ran and the files were written;
 * 1 when a file could not be written or the emulation failed.
 */
@Command(name = "traffic", mixinStandardHelpOptions = true,
    description = {"Run a router network's synthetic traffic at each offered load and print latency against load, "
        + "with the saturation point.",
        "The scenario needs a traffic section (docs/scenario-format.md) on a mesh, torus or group-ring."})
final class TrafficCommand implements Callable<Integer> {

  @Parameters(index = "0", paramLabel = "SCENARIO", description = "Scenario file (HOCON), see docs/scenario-format.md.")
  Path scenario;

  @Option(names = "--seed", paramLabel = "N", description = "Use seed N instead of the scenario's seed.")
  Long seed;

  @Option(names = "--out", paramLabel = "DIR",
      description = "Write traffic.csv, vc-utilisation.csv, latency-load.svg and report.html into DIR (created if "
          + "needed).")
  Path out;

  @Option(names = "--all-loads", description = "Run every offered load, also those past the saturation point.")
  boolean allLoads;

  @Option(names = "--no-progress", description = "Print no line per load on stderr.")
  boolean noProgress;

  @Mixin
  SetOverrides sets;

  private final PrintStream stdout;
  private final PrintStream stderr;

  TrafficCommand(PrintStream stdout, PrintStream stderr) {
    this.stdout = stdout;
    this.stderr = stderr;
  }

  @Override
  public Integer call() {
    LoadedScenario loaded = sets.load(scenario);
    ScenarioSpec spec = loaded.spec();
    if (seed != null) spec = spec.withSeed(seed);
    if (!spec.runsTraffic()) {
      throw new BadInputException(scenario + ": the scenario has no traffic section (see docs/scenario-format.md); "
          + "run its collective workload with 'fabemu run'");
    }
    Topology topology = RunSupport.buildTopology(spec);
    if (out != null) RunSupport.prepareOutputFolder(out);
    TrafficSpec traffic = spec.traffic();
    stdout.print(header(spec, topology));
    stdout.flush();

    List<TrafficResult> results = new ArrayList<>();
    List<LoadPoint> points = new ArrayList<>();
    SaturationFinder finder = SaturationFinder.standard();
    Optional<Saturation> saturation = Optional.empty();
    try (EmbeddedCluster cluster = EmbeddedCluster.startAlone()) {
      for (int i = 0; i < traffic.loadCount(); i++) {
        ScenarioSpec atLoad = spec.withTraffic(traffic.atLoad(i));
        if (!noProgress) {
          stderr.printf(Locale.ROOT, "fabemu traffic: load %d of %d (%.4f flits/node/cycle)%n", i + 1,
              traffic.loadCount(), traffic.offeredLoad(i));
        }
        TrafficResult result = ScenarioRunner.runTraffic(cluster, Fabric.build(atLoad, topology), (d, t) -> {});
        results.add(result);
        points.add(result.point());
        saturation = finder.find(points);
        if (saturation.isPresent() && !allLoads) break;
      }
    }
    stdout.print(TrafficTable.format(points, saturation));
    stdout.print(summary(results));
    stdout.flush();
    if (out == null) return ExitCodes.OK;
    String csv = TrafficReport.csv(results, saturation);
    String svg = TrafficReport.latencyChart(spec, results, saturation);
    String html = TrafficReport.html(spec, topology, results, saturation, loaded.config());
    // Every file is tried (no short circuit), so one that cannot be written does not cost the others.
    boolean written = RunSupport.write(out.resolve("traffic.csv"), csv, stderr)
        & RunSupport.write(out.resolve("vc-utilisation.csv"), TrafficReport.virtualChannelCsv(results, topology),
            stderr)
        & RunSupport.write(out.resolve("latency-load.svg"), svg, stderr)
        & RunSupport.write(out.resolve("report.html"), html, stderr);
    return written ? ExitCodes.OK : ExitCodes.RUN_FAILED;
  }

  /** The lines before the table: what runs. */
  static String header(ScenarioSpec spec, Topology topology) {
    TrafficSpec t = spec.traffic();
    RouterSpec r = spec.devices().router();
    return String.format(Locale.ROOT, "# fabemu traffic: %s%n# router: %s, %d B flits at %s, %d VCs x %d flits, "
            + "%d+%d+%d+%d cycles per hop + %d cycle link, credit %d cycle%n# traffic: %s, %d-flit packets, %d "
            + "offered loads %s..%s flits/node/cycle; warm-up %d, measure %d, drain %d cycles; seed %d%n",
        topology.description(), r.switching().configName(), r.flitBytes(), clock(r.cyclePs()), r.virtualChannels(),
        r.bufferDepthFlits(), r.routingCycles(), r.vcAllocationCycles(), r.switchAllocationCycles(),
        r.traversalCycles(), r.linkLatencyCycles(), r.creditDelayCycles(), t.pattern().configName(), t.packetFlits(),
        t.loadCount(), load(t.offeredLoad(0)), load(t.offeredLoad(t.loadCount() - 1)), t.warmupCycles(),
        t.measureCycles(), t.drainCycles(), spec.seed());
  }

  /** The emulator's own figures: loads run, virtual cycles, events, wall time. */
  static String summary(List<TrafficResult> results) {
    long events = 0;
    double wall = 0;
    for (TrafficResult r : results) {
      events += r.events();
      wall += r.wallSeconds();
    }
    return String.format(Locale.ROOT, "# Run: %d loads, %d events, %.0f events/s (wall %.3f s)%n", results.size(),
        events, wall > 0 ? events / wall : 0.0, wall);
  }

  private static String clock(long cyclePs) {
    double ghz = 1000.0 / cyclePs;
    return ghz >= 1 ? String.format(Locale.ROOT, "%.4g GHz", ghz) : String.format(Locale.ROOT, "%.4g MHz", ghz * 1e3);
  }

  private static String load(double value) {
    return String.format(Locale.ROOT, "%.4g", value);
  }
}
