package io.fabemu.loadtests;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigException;
import com.typesafe.config.ConfigFactory;
import io.fabemu.app.output.ReportFormatter;
import io.fabemu.cluster.EmbeddedCluster;
import io.fabemu.cluster.ScenarioRunner;
import io.fabemu.cluster.scenario.ScenarioException;
import io.fabemu.cluster.scenario.ScenarioLoader;
import io.fabemu.collectives.Algorithm;
import io.fabemu.collectives.Collective;
import io.fabemu.core.sim.ProgressListener;
import io.fabemu.fabric.Fabric;
import io.fabemu.fabric.ScenarioSpec;
import io.fabemu.fabric.result.CaseResult;
import io.fabemu.fabric.result.RunResult;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;

/**
 * The embedded-ring Allreduce benchmark (docs/performance.md, "Embedded rings on the prism"): runs a
 * prism scenario (load-tests/prism/*.conf) once on the embedded single-member cluster and prints, for
 * docs/performance.md, a Markdown table of the Allreduce bus bandwidth (nccl-tests' busbw: algbw × 2(n−1)/n, from
 * the mean over ranks of the per-rank mean latency) per size and algorithm, whether every output was exact, then
 * the run's events, windows, emulation wall time, events per second, peak heap, set-up time and digest.
 *
 * <p>The target is a benchmark check, not a unit test: when the scenario runs {@code single-ring} and
 * {@code multi-ring} at 64 MiB, the multi-ring busbw must be at least {@value #MIN_MULTI_RING_GAIN} times the
 * single-ring busbw, and when it also runs {@code line} there, the line's busbw must be below the single ring's.
 * Exit status 1 when a check that applies fails (or an output is wrong, or the run did not complete), 0 otherwise,
 * 2 on bad arguments or an invalid scenario (one line).
 *
 * <p>Usage: {@code load-tests/run-prism-benchmark.sh SCENARIO [KEY=VALUE ...]}; each {@code KEY=VALUE} is laid
 * over the scenario as {@code fabemu run --set} does (HOCON), e.g. {@code "workload.sizes=[64 MiB]"}.
 * Wall-clock figures depend on the machine and its load; the bandwidths are virtual-time results and do not.
 */
public final class PrismRingsBenchmark {

  /** The target's least multi-ring gain over the single ring at {@link #CHECK_SIZE_BYTES}. */
  static final double MIN_MULTI_RING_GAIN = 2.7;

  /** The size the target is stated at: 64 MiB. */
  static final long CHECK_SIZE_BYTES = 64L << 20;

  private PrismRingsBenchmark() {}

  /** Runs {@code args[0]} with the {@code KEY=VALUE} overrides that follow; exits 0, 1 (a check failed) or 2. */
  public static void main(String[] args) {
    if (args.length == 0) {
      System.err.println("usage: PrismRingsBenchmark SCENARIO [KEY=VALUE ...]");
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
    try (EmbeddedCluster cluster = EmbeddedCluster.startAlone()) {
      result = ScenarioRunner.run(cluster, fabric, ProgressListener.NONE);
    }
    long peakHeapBytes = ScaleBenchmark.peakHeapBytes();
    int ranks = fabric.worldSize();
    System.out.printf(Locale.ROOT, "%s: %s, %d ranks%n%n", spec.name(), fabric.topology().description(), ranks);
    Map<Algorithm, Map<Long, CaseResult>> byAlgorithm = table(result.cases());
    printTable(byAlgorithm, ranks);
    System.out.println();
    System.out.printf(Locale.ROOT, "| events | windows | emulation (s) | events/s | peak heap (MiB) | set-up (s) "
        + "| complete | wrong | digest |%n|---|---|---|---|---|---|---|---|---|%n"
        + "| %d | %d | %.2f | %.0f | %.0f | %.2f | %s | %s | %s |%n",
        result.events(), result.windows(), result.wallSeconds(), result.events() / result.wallSeconds(),
        peakHeapBytes / 1048576.0, setupSeconds, result.complete(),
        result.checked() ? Long.toString(result.wrongElements()) : "not checked", result.digest().substring(0, 16));
    System.out.println();
    boolean ok = result.complete() && result.wrongElements() == 0;
    if (!ok) System.out.println("FAILED: the run did not complete, or an output was wrong");
    System.exit(check(byAlgorithm, ranks) && ok ? 0 : 1);
  }

  /** The cases by algorithm (in the workload's order), then by size. */
  private static Map<Algorithm, Map<Long, CaseResult>> table(List<CaseResult> cases) {
    Map<Algorithm, Map<Long, CaseResult>> byAlgorithm = new LinkedHashMap<>();
    for (CaseResult c : cases) {
      byAlgorithm.computeIfAbsent(c.algorithm(), a -> new LinkedHashMap<>()).put(c.sizeBytes(), c);
    }
    return byAlgorithm;
  }

  /** Bus bandwidth in GB/s (10^9 B/s), as nccl-tests' all_reduce_perf computes it from the mean latency. */
  static double busBandwidthGBps(CaseResult c, int ranks) {
    double algorithmGBps = c.sizeBytes() / (c.avgLatencyPs() * 1e-12) / 1e9;
    return algorithmGBps * ReportFormatter.busBandwidthFactor(Collective.ALLREDUCE, ranks);
  }

  private static void printTable(Map<Algorithm, Map<Long, CaseResult>> byAlgorithm, int ranks) {
    TreeSet<Long> sizes = new TreeSet<>();
    byAlgorithm.values().forEach(m -> sizes.addAll(m.keySet()));
    StringBuilder header = new StringBuilder("| size |");
    StringBuilder rule = new StringBuilder("|---|");
    for (Algorithm a : byAlgorithm.keySet()) {
      header.append(' ').append(a.configName()).append(" |");
      rule.append("---|");
    }
    System.out.println("busbw (GB/s) of the Allreduce; * marks a case with wrong outputs");
    System.out.println();
    System.out.println(header);
    System.out.println(rule);
    for (long size : sizes) {
      StringBuilder row = new StringBuilder("| ").append(sizeName(size)).append(" |");
      for (Map<Long, CaseResult> m : byAlgorithm.values()) {
        CaseResult c = m.get(size);
        if (c == null) {
          row.append(" |");
          continue;
        }
        double busGBps = busBandwidthGBps(c, ranks);
        // Three decimals below 1 GB/s, where the small sizes' figures would otherwise all read 0.0x.
        row.append(String.format(Locale.ROOT, busGBps < 1 ? " %.3f%s |" : " %.2f%s |", busGBps,
            c.wrongElements() == 0 ? "" : "*"));
      }
      System.out.println(row);
    }
  }

  private static String sizeName(long sizeBytes) {
    if (sizeBytes >= 1 << 20 && sizeBytes % (1 << 20) == 0) return (sizeBytes >> 20) + " MiB";
    if (sizeBytes >= 1 << 10 && sizeBytes % (1 << 10) == 0) return (sizeBytes >> 10) + " KiB";
    return sizeBytes + " B";
  }

  /** The target's checks that apply to the cases run; prints each; true when none fails. */
  private static boolean check(Map<Algorithm, Map<Long, CaseResult>> byAlgorithm, int ranks) {
    CaseResult single = byAlgorithm.getOrDefault(Algorithm.SINGLE_RING, Map.of()).get(CHECK_SIZE_BYTES);
    if (single == null) {
      System.out.println("check: not applicable (no single-ring case at 64 MiB)");
      return true;
    }
    double singleGBps = busBandwidthGBps(single, ranks);
    List<Boolean> passed = new ArrayList<>();
    CaseResult multi = byAlgorithm.getOrDefault(Algorithm.MULTI_RING, Map.of()).get(CHECK_SIZE_BYTES);
    if (multi != null) {
      double gain = busBandwidthGBps(multi, ranks) / singleGBps;
      boolean met = gain >= MIN_MULTI_RING_GAIN;
      passed.add(met);
      System.out.printf(Locale.ROOT, "check: 64 MiB multi-ring / single-ring busbw = %.2f (at least %.1f): %s%n",
          gain, MIN_MULTI_RING_GAIN, met ? "met" : "NOT MET");
    }
    for (Algorithm a : byAlgorithm.keySet()) {
      CaseResult c = byAlgorithm.get(a).get(CHECK_SIZE_BYTES);
      if (c == null || a == Algorithm.SINGLE_RING || a == Algorithm.MULTI_RING) continue;
      double ratio = busBandwidthGBps(c, ranks) / singleGBps;
      if (a == Algorithm.LINE) {
        boolean met = ratio < 1.0;
        passed.add(met);
        System.out.printf(Locale.ROOT, "check: 64 MiB line / single-ring busbw = %.2f (below 1): %s%n", ratio,
            met ? "met" : "NOT MET");
      } else {
        System.out.printf(Locale.ROOT, "64 MiB %s / single-ring busbw = %.2f%n", a.configName(), ratio);
      }
    }
    return !passed.contains(false);
  }
}
