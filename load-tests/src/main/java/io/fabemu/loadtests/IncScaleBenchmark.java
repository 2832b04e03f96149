package io.fabemu.loadtests;

import io.fabemu.cluster.EmbeddedCluster;
import io.fabemu.cluster.ScenarioRunner;
import io.fabemu.cluster.scenario.ScenarioLoader;
import io.fabemu.collectives.Algorithm;
import io.fabemu.collectives.Collective;
import io.fabemu.collectives.Schedules;
import io.fabemu.core.inc.IncCodes.FailCause;
import io.fabemu.core.sim.ProgressListener;
import io.fabemu.fabric.ScenarioSpec;
import io.fabemu.fabric.result.CaseResult;
import io.fabemu.fabric.result.RunResult;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * In-network (INC) Allreduce at scale, against host algorithms on the same fabric: a leaf-spine of 16,384 hosts (512
 * TORs of 32 hosts, 16 SPINEs), one rank per host, every TOR and SPINE with an INC unit. Each case is one scenario
 * (one algorithm, one size, 1 warm-up + 2 measured iterations) run on the embedded single-member cluster (one actor
 * per device); it prints a Markdown table for docs/performance.md: wall time of the emulation, device events,
 * events/s, windows, peak heap (as {@link ScaleBenchmark} measures it), the emulated (virtual) latency and, for
 * {@code inc-node}, how the INC setup ended ({@code CaseResult.incOutcome()}) and what ran instead when it fell back.
 *
 * <p>The switches take messages up to 32 KiB ({@code max-data-size}; the loader caps it at 65,535 B, the control
 * payload's u16 field) in 4 KiB INC packets: 8 B and 32 KiB run in the network, 1 MiB falls back
 * ({@code message-too-large}) to the host algorithm {@code auto} picks (ring). 8 B cases carry real data (checked);
 * the larger ones {@code payload = synthetic} (sizes only, identical virtual times), since 16,384 ranks' real
 * buffers of 1 MiB would not fit the machine.
 *
 * <p>Usage: {@code load-tests/run-inc-benchmark.sh [--hosts N] [--iterations N] [--no-warmup] [all | case ...]}
 * (default: the cases of {@link #DEFAULT_CASES}). {@code --hosts} scales the fabric (a multiple of 32; default
 * 16384); {@code --iterations} sets the measured iterations (default 2; the difference between two values gives the
 * cost of one iteration without the INC setup and release). Before each measured case the same case runs once,
 * unmeasured, on 512 hosts to warm the JIT. A case whose emulation fails prints one row with the error. Progress
 * goes to stderr every 30 s. Wall-clock figures depend on the machine and its load; report the command with them.
 */
public final class IncScaleBenchmark {

  /**
   * One case: the algorithm asked for, the message size, whether it carries real data, and the NICs' INC
   * retransmission timeout.
   */
  record Case(String name, String algorithm, String size, boolean synthetic, String retransmitTimeout) {
    Case(String name, String algorithm, String size, boolean synthetic) {
      this(name, algorithm, size, synthetic, RETRANSMIT_TIMEOUT);
    }
  }

  /**
   * The NICs' INC retransmission timeout of the cases: far longer than one loss-free operation, so that no fragment
   * is resent and the figures are those of the aggregation alone. The cases named {@code -timeout-20us} run the
   * default, 20 us, which is shorter than one 32 KiB operation (~22.6 us), so that every leader resends once.
   */
  static final String RETRANSMIT_TIMEOUT = "20 ms";

  static final int HOSTS_PER_TOR = 32;
  static final int SPINES = 16;
  static final int DEFAULT_HOSTS = 16_384;
  static final int WARMUP_HOSTS = 512;
  static final int DEFAULT_ITERATIONS = 2;
  static final int WARMUP_ITERATIONS = 1;

  static final List<Case> CASES = List.of(
      new Case("inc-node-8B", "inc-node", "8 B", false),
      new Case("inc-node-8B-timeout-20us", "inc-node", "8 B", false, "20 us"),
      new Case("ring-8B", "ring", "8 B", false),
      new Case("rd-8B", "recursive-doubling", "8 B", false),
      new Case("inc-node-32KiB-synthetic", "inc-node", "32 KiB", true),
      new Case("inc-node-32KiB-synthetic-timeout-20us", "inc-node", "32 KiB", true, "20 us"),
      new Case("ring-32KiB-synthetic", "ring", "32 KiB", true),
      new Case("rabenseifner-32KiB-synthetic", "rabenseifner", "32 KiB", true),
      new Case("inc-node-1MiB-synthetic", "inc-node", "1 MiB", true),
      new Case("ring-1MiB-synthetic", "ring", "1 MiB", true),
      new Case("rabenseifner-1MiB-synthetic", "rabenseifner", "1 MiB", true));

  /**
   * Cases run when none is named: all but those that run the host ring on 16,384 ranks (directly, or as the 1 MiB
   * INC fallback): their schedules, 2(p − 1) steps per rank, take ~86 GiB at this scale (docs/performance.md); run
   * them with a smaller {@code --hosts}.
   */
  static final List<String> DEFAULT_CASES = List.of("inc-node-8B", "inc-node-8B-timeout-20us", "rd-8B",
      "inc-node-32KiB-synthetic", "inc-node-32KiB-synthetic-timeout-20us", "rabenseifner-32KiB-synthetic",
      "rabenseifner-1MiB-synthetic");

  private IncScaleBenchmark() {}

  /** The scenario of case {@code c} on {@code hosts} hosts, as HOCON. */
  static String scenario(Case c, int hosts, int iterations) {
    return """
        name = %s
        topology { kind = leaf-spine, hosts = %d, hosts-per-tor = %d, spines = %d }
        devices.inc {
          enabled = true
          tor   { max-payload = 4 KiB, max-data-size = 32 KiB }
          spine { max-payload = 4 KiB, max-data-size = 32 KiB }
          nic   { fragment-size = 4 KiB, retransmit-timeout = %s }
        }
        workload { collective = allreduce, algorithms = [%s], sizes = [%s], ppn = 1,
                   iterations = %d, warmup = %d, payload = %s }
        """.formatted(c.name() + "-" + hosts, hosts, HOSTS_PER_TOR, SPINES, c.retransmitTimeout(), c.algorithm(),
        c.size(), iterations, WARMUP_ITERATIONS, c.synthetic() ? "synthetic" : "real");
  }

  public static void main(String[] args) throws Exception {
    // Initialize slf4j before Pekko's logger starts on another thread; otherwise slf4j prints a "replay" notice.
    org.slf4j.LoggerFactory.getILoggerFactory();
    int hosts = DEFAULT_HOSTS;
    int iterations = DEFAULT_ITERATIONS;
    boolean warmup = true;
    List<String> names = new ArrayList<>();
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--hosts" -> hosts = Integer.parseInt(args[++i]);
        case "--iterations" -> iterations = Integer.parseInt(args[++i]);
        case "--no-warmup" -> warmup = false;
        case "all" -> CASES.forEach(c -> names.add(c.name()));
        default -> names.add(args[i]);
      }
    }
    if (names.isEmpty()) names.addAll(DEFAULT_CASES);
    List<Case> selected = new ArrayList<>();
    for (Case c : CASES) {
      if (names.contains(c.name())) selected.add(c);
    }
    if (selected.size() != names.stream().distinct().count() || hosts % HOSTS_PER_TOR != 0) {
      System.err.println("usage: run-inc-benchmark.sh [--hosts N (multiple of " + HOSTS_PER_TOR + ")] "
          + "[--iterations N] [--no-warmup] [all | case ...]; cases: " + CASES.stream().map(Case::name).toList());
      System.exit(2);
    }
    System.out.println("| case | ranks | algorithm run | INC outcome | events | events per iteration | windows "
        + "| wall (s) | events/s | build+aggregate (s) | peak heap (MiB) | avg latency (µs) | complete | wrong "
        + "| digest |");
    System.out.println("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|");
    try (EmbeddedCluster cluster = EmbeddedCluster.startAlone()) {
      for (Case c : selected) {
        if (warmup) {
          try {
            ScenarioRunner.run(cluster, parse(c, WARMUP_HOSTS, iterations), ProgressListener.NONE);
          } catch (RuntimeException e) {
            // The measured run reports it.
          }
        }
        ScenarioSpec spec = parse(c, hosts, iterations);
        ScaleBenchmark.settleHeap();
        ScaleBenchmark.resetPeaks();
        long startNs = System.nanoTime();
        RunResult result;
        try {
          result = ScenarioRunner.run(cluster, spec, progress(c, spec, startNs));
        } catch (RuntimeException e) {
          // A failed emulation (a device error) is a result too: one row with the error, then the next case.
          System.out.printf(Locale.ROOT, "| %s | %d | %s | failed after %.1f s: %s |%n", c.name(),
              spec.topology().hosts() * spec.workload().ppn(), c.algorithm(), (System.nanoTime() - startNs) / 1e9,
              rootMessage(e));
          continue;
        }
        double totalSeconds = (System.nanoTime() - startNs) / 1e9;
        print(c, spec, result, totalSeconds - result.wallSeconds(), ScaleBenchmark.peakHeapBytes());
      }
    }
  }

  private static String rootMessage(Throwable e) {
    Throwable t = e;
    while (t.getCause() != null && t.getCause() != t) t = t.getCause();
    return t.getClass().getSimpleName() + ": " + t.getMessage();
  }

  private static ScenarioSpec parse(Case c, int hosts, int iterations) {
    return ScenarioLoader.parse(scenario(c, hosts, iterations), c.name() + ".conf").spec();
  }

  /** Prints how far the run has come to stderr, at most every 30 s of wall time. */
  private static ProgressListener progress(Case c, ScenarioSpec spec, long startNs) {
    long total = ScenarioRunner.totalOperations(spec);
    long[] nextNs = {startNs + 30_000_000_000L};
    return (done, virtualTimePs) -> {
      long now = System.nanoTime();
      if (now < nextNs[0]) return;
      nextNs[0] = now + 30_000_000_000L;
      System.err.printf(Locale.ROOT, "%s: %.0f s, %d of %d rank operations done, virtual time %.1f µs, heap %d MiB%n",
          c.name(), (now - startNs) / 1e9, done, total, virtualTimePs / 1e6,
          (Runtime.getRuntime().totalMemory() - Runtime.getRuntime().freeMemory()) >> 20);
    };
  }

  /**
   * One row. {@code buildSeconds}: the wall time of the run besides the emulation (building the fabric and the exact
   * answers, aggregating the results).
   */
  private static void print(Case c, ScenarioSpec spec, RunResult result, double buildSeconds, long peakHeap) {
    int ranks = spec.topology().hosts() * spec.workload().ppn();
    // Warm-up included; an iteration's events include the barrier after it and, for INC, a share of the setup.
    long iterations = spec.workload().operationsPerRank();
    String algorithm = c.algorithm();
    String outcome = "";
    String latency = "";
    if (!result.cases().isEmpty()) {
      CaseResult r = result.cases().get(0);
      latency = String.format(Locale.ROOT, "%.2f", r.avgLatencyPs() / 1e6);
      FailCause cause = r.incOutcome();
      if (cause != null) {
        outcome = cause.name().toLowerCase(Locale.ROOT).replace('_', '-');
        if (cause != FailCause.NONE) {
          Algorithm fallback = Schedules.resolve(Collective.ALLREDUCE, Algorithm.AUTO, r.sizeBytes(),
              (int) r.count(), ranks);
          algorithm = "host " + fallback.configName() + " (fallback)";
        }
      }
    }
    System.out.printf(Locale.ROOT,
        "| %s | %d | %s | %s | %d | %d | %d | %.2f | %.0f | %.2f | %.0f | %s | %s | %s | %s |%n",
        c.name(), ranks, algorithm, outcome, result.events(), result.events() / iterations, result.windows(),
        result.wallSeconds(), result.events() / result.wallSeconds(), buildSeconds, peakHeap / 1048576.0, latency,
        result.complete(), result.checked() ? Long.toString(result.wrongElements()) : "not checked",
        result.digest().substring(0, 16));
  }
}
