package io.fabemu.loadtests;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigException;
import com.typesafe.config.ConfigFactory;
import io.fabemu.app.report.PipelineTable;
import io.fabemu.cluster.EmbeddedCluster;
import io.fabemu.cluster.ScenarioRunner;
import io.fabemu.cluster.scenario.ScenarioException;
import io.fabemu.cluster.scenario.ScenarioLoader;
import io.fabemu.collectives.Schedules;
import io.fabemu.core.sim.ProgressListener;
import io.fabemu.fabric.Fabric;
import io.fabemu.fabric.ScenarioSpec;
import io.fabemu.fabric.result.CaseResult;
import io.fabemu.fabric.result.RunResult;
import java.nio.file.Path;
import java.util.Locale;

/**
 * The optical cluster at scale (docs/performance.md, "The optical cluster"):
 * runs one scenario (load-tests/optical/optical-64x64-allreduce.conf, the global AllReduce on 64 servers × 64 NPUs;
 * load-tests/optical/optical-8x512-pipeline.conf, one pipeline iteration of 8 stages on 4,096 NPUs) once on the
 * embedded single-member cluster and prints, for docs/performance.md, its cases (the algorithm run, the mean and
 * slowest ranks' latency) and a Markdown row of the run's events, windows, emulation wall time, events per second,
 * peak heap, set-up time and digest; for a pipeline also the pipeline table {@code fabemu run} prints.
 *
 * <p>Progress goes to standard error every 30 s of wall time (virtual time, heap in use), so that a run too slow for
 * the machine can be told and stopped. Exit status 1 when the run did not complete or an output was wrong, 0
 * otherwise, 2 on bad arguments or an invalid scenario (one line).
 *
 * <p>Usage: {@code load-tests/run-optical-scale-benchmark.sh SCENARIO [KEY=VALUE ...]}; each {@code KEY=VALUE} is
 * laid over the scenario as {@code fabemu run --set} does. Wall-clock figures depend on the machine and its load; the
 * latencies are virtual-time results and do not.
 */
public final class OpticalScaleBenchmark {

  private static final long PROGRESS_EVERY_NS = 30_000_000_000L;

  private OpticalScaleBenchmark() {}

  /** Runs {@code args[0]} with the {@code KEY=VALUE} overrides that follow; exits 0, 1 (failed run) or 2. */
  public static void main(String[] args) {
    if (args.length == 0) {
      System.err.println("usage: OpticalScaleBenchmark SCENARIO [KEY=VALUE ...]");
      System.exit(2);
    }
    Config overrides = ConfigFactory.empty();
    for (int i = args.length - 1; i >= 1; i--) {
      try {
        overrides = overrides.withFallback(ConfigFactory.parseString(args[i]));
      } catch (ConfigException e) {
        System.err.println("argument " + i + " (" + args[i] + "): not KEY=VALUE: " + e.getMessage());
        System.exit(2);
      }
    }
    ScenarioSpec spec;
    try {
      spec = ScenarioLoader.load(Path.of(args[0]), overrides).spec();
    } catch (ScenarioException e) {
      System.err.println(e.getMessage());
      System.exit(2);
      return;
    }
    // Initialize slf4j before Pekko's logger starts on another thread; otherwise slf4j prints a "replay" notice.
    org.slf4j.LoggerFactory.getILoggerFactory();
    ScaleBenchmark.settleHeap();
    ScaleBenchmark.resetPeaks();
    long setupStartNs = System.nanoTime();
    Fabric fabric = Fabric.build(spec);
    double setupSeconds = (System.nanoTime() - setupStartNs) / 1e9;
    RunResult result;
    long startNs = System.nanoTime();
    try (EmbeddedCluster cluster = EmbeddedCluster.startAlone()) {
      result = ScenarioRunner.run(cluster, fabric, progress(spec, startNs));
    }
    double totalSeconds = (System.nanoTime() - startNs) / 1e9;
    long peakHeapBytes = ScaleBenchmark.peakHeapBytes();
    int ranks = fabric.worldSize();
    System.out.printf(Locale.ROOT, "%s: %s, %d ranks, %d devices, payload %s%n%n", spec.name(),
        fabric.topology().description(), ranks, fabric.devices().length,
        spec.workload().syntheticPayload() ? "synthetic (sizes only)" : "real (checked)");
    System.out.println("| case | collective | algorithm | size (B) | avg latency (us) | max latency (us) |");
    System.out.println("|---|---|---|---|---|---|");
    for (CaseResult c : result.cases()) {
      System.out.printf(Locale.ROOT, "| %d | %s | %s | %d | %.2f | %.2f |%n", c.caseIndex(),
          spec.workload().collective().configName(),
          Schedules.resolveForCase(spec.workload(), c.caseIndex(), ranks).configName(), c.sizeBytes(),
          c.avgLatencyPs() / 1e6, c.maxLatencyPs() / 1e6);
    }
    System.out.println();
    PipelineTable pipeline = PipelineTable.of(result);
    if (pipeline != null) {
      System.out.println(pipeline.text());
    }
    System.out.printf(Locale.ROOT, "| events | windows | virtual end (us) | emulation (s) | events/s | peak heap (MiB) "
        + "| set-up (s) | run in all (s) | complete | wrong | digest |%n|---|---|---|---|---|---|---|---|---|---|---|%n"
        + "| %d | %d | %.2f | %.2f | %.0f | %.0f | %.2f | %.1f | %s | %s | %s |%n",
        result.events(), result.windows(), result.virtualEndPs() / 1e6, result.wallSeconds(),
        result.events() / result.wallSeconds(), peakHeapBytes / 1048576.0, setupSeconds, totalSeconds,
        result.complete(), result.checked() ? Long.toString(result.wrongElements()) : "not checked",
        result.digest().substring(0, 16));
    boolean ok = result.complete() && result.wrongElements() == 0;
    if (!ok) System.out.println("FAILED: the run did not complete, or an output was wrong");
    System.exit(ok ? 0 : 1);
  }

  /** Every 30 s of wall time: how far the run is, to standard error. */
  private static ProgressListener progress(ScenarioSpec spec, long startNs) {
    long total = ScenarioRunner.totalOperations(spec);
    long[] nextNs = {startNs + PROGRESS_EVERY_NS};
    return (done, virtualTimePs) -> {
      long now = System.nanoTime();
      if (now < nextNs[0]) return;
      nextNs[0] = now + PROGRESS_EVERY_NS;
      System.err.printf(Locale.ROOT, "%s: %.0f s, %d of %d rank operations done, virtual time %.1f us, heap %d MiB%n",
          spec.name(), (now - startNs) / 1e9, done, total, virtualTimePs / 1e6,
          (Runtime.getRuntime().totalMemory() - Runtime.getRuntime().freeMemory()) >> 20);
    };
  }
}
