package io.fabemu.loadtests;

import io.fabemu.cluster.EmbeddedCluster;
import io.fabemu.cluster.ScenarioRunner;
import io.fabemu.cluster.scenario.ScenarioLoader;
import io.fabemu.core.sim.DeviceCore;
import io.fabemu.core.sim.DeviceRunner;
import io.fabemu.core.sim.ProgressListener;
import io.fabemu.engine.DeviceActorFactory;
import io.fabemu.engine.MemberScheduler;
import io.fabemu.fabric.Fabric;
import io.fabemu.fabric.ScenarioSpec;
import io.fabemu.fabric.result.RunResult;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Props;
import org.apache.pekko.actor.typed.javadsl.Behaviors;

/**
 * The emulator's own speed and memory at scale, on the embedded single-member cluster: device events handled per
 * wall-clock second of the emulation (median of 3 runs after a warm-up run), windows, peak heap during the runs,
 * and heap per idle endpoint (a built fabric with one actor per device, before any event). Each case also runs on
 * the plain single-threaded loop, to separate the devices' own cost from the actors'. Set-up, i.e. building the
 * fabric (topology, routing, exact answers, device cores), is timed apart from the emulation; the emulation's
 * time on the actors includes spawning them (timed on its own as "actor spawn", with the idle heap);
 * {@link SetupPhases} times the set-up phase by phase. Prints a Markdown table for docs/performance.md, then each
 * case's wall time in all.
 *
 * <p>{@code rd-100000x8B} (100,000 hosts: 3,125 TORs of 32, 16 spines; recursive doubling on a rank count that is
 * no power of two, 1 warm-up + 1 measured iteration) runs on the actors only, once, with no warm-up run: one run
 * emulates about 31 million events, a minute and a half of wall time on two cores, which amortizes the JIT's
 * warm-up; the plain loop would add as much again per run (it is one thread) for a figure the smaller cases
 * already give. Its set-up, once minutes of breadth-first routing, takes about a second (routes come from the
 * leaf-spine's numbering, {@code LeafSpineRouting}). It is not among the cases run when none is named.
 *
 * <p>Usage: {@code load-tests/run-scale-benchmark.sh [case ...]}; cases: {@code ring-256x1MiB},
 * {@code ring-256x1MiB-synthetic} (sizes only, no data), {@code rd-4096x8B} (default: these three), and
 * {@code rd-100000x8B}. Wall-clock figures depend on the machine and its load; run on an idle machine and report
 * the command with the figures.
 */
public final class ScaleBenchmark {

  private static final String ACTORS = "pekko actors";
  private static final String PLAIN = "plain loop";

  /**
   * A case: its scenario, the engines it runs on, whether one unmeasured run per engine warms the JIT first, the
   * measured runs per engine (the median is reported), and whether it runs when no case is named.
   */
  private record Case(String name, String scenario, List<String> engines, boolean warmUp, int repeats,
                      boolean byDefault) {
    Case(String name, String scenario) {
      this(name, scenario, List.of(ACTORS, PLAIN), true, 3, true);
    }
  }

  private static final List<Case> CASES = List.of(
      new Case("ring-256x1MiB", """
          name = ring-256x1MiB
          topology { kind = leaf-spine, hosts = 256, hosts-per-tor = 16, spines = 4 }
          workload { collective = allreduce, algorithms = [ring], sizes = [1 MiB], iterations = 2, warmup = 0 }
          """),
      new Case("ring-256x1MiB-synthetic", """
          name = ring-256x1MiB-synthetic
          topology { kind = leaf-spine, hosts = 256, hosts-per-tor = 16, spines = 4 }
          workload { collective = allreduce, algorithms = [ring], sizes = [1 MiB], iterations = 2, warmup = 0,
                     payload = synthetic }
          """),
      new Case("rd-4096x8B", """
          name = rd-4096x8B
          topology { kind = leaf-spine, hosts = 4096, hosts-per-tor = 32, spines = 16 }
          workload {
            collective = allreduce, algorithms = [recursive-doubling], sizes = [8 B], iterations = 5, warmup = 1
          }
          """),
      new Case("rd-100000x8B", """
          name = rd-100000x8B
          topology { kind = leaf-spine, hosts = 100000, hosts-per-tor = 32, spines = 16 }
          workload {
            collective = allreduce, algorithms = [recursive-doubling], sizes = [8 B], iterations = 1, warmup = 1
          }
          """, List.of(ACTORS), false, 1, false));

  private ScaleBenchmark() {}

  /** A measured run and the wall time of building its fabric before it. */
  private record Run(RunResult result, double setupSeconds) {}

  /** What {@link #idleFigures} measures: heap per idle endpoint, and the wall time spawning the actors took. */
  private record Idle(double heapKiBPerEndpoint, double spawnSeconds, int devices) {}

  public static void main(String[] args) throws Exception {
    // Initialize slf4j before Pekko's logger starts on another thread; otherwise slf4j prints a "replay" notice.
    org.slf4j.LoggerFactory.getILoggerFactory();
    List<Case> selected = new ArrayList<>();
    for (Case c : CASES) {
      if (args.length == 0 ? c.byDefault() : List.of(args).contains(c.name())) selected.add(c);
    }
    if (selected.isEmpty()) {
      System.err.println("unknown case; known: " + CASES.stream().map(Case::name).toList());
      System.exit(2);
    }
    System.out.println("| case | engine | ranks | devices | set-up (s) | actor spawn (s) | events | windows "
        + "| emulation (s) | events/s | peak heap (MiB) | idle heap per endpoint (KiB) | complete | wrong | digest |");
    System.out.println("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|");
    List<String> walls = new ArrayList<>();
    try (EmbeddedCluster cluster = EmbeddedCluster.startAlone()) {
      for (Case c : selected) {
        long caseStartNs = System.nanoTime();
        ScenarioSpec spec = ScenarioLoader.parse(c.scenario(), c.name() + ".conf").spec();
        Idle idle = idleFigures(cluster, spec);
        if (c.warmUp()) {
          // One unmeasured run each warms the JIT; then the median of the measured runs.
          for (String engine : c.engines()) run(cluster, spec, engine, ProgressListener.NONE);
        }
        for (String engine : c.engines()) {
          List<Run> runs = new ArrayList<>();
          long peakHeap = 0;
          for (int r = 0; r < c.repeats(); r++) {
            settleHeap();
            resetPeaks();
            runs.add(run(cluster, spec, engine, progress(c, spec)));
            peakHeap = Math.max(peakHeap, peakHeapBytes());
          }
          double setupSeconds = median(runs.stream().mapToDouble(Run::setupSeconds).toArray());
          runs.sort(Comparator.comparingDouble(run -> run.result().wallSeconds()));
          print(c, engine, spec, idle, setupSeconds, runs.get(runs.size() / 2).result(), peakHeap);
        }
        double caseSeconds = (System.nanoTime() - caseStartNs) / 1e9;
        walls.add(String.format(Locale.ROOT, "%s: %.1f s of wall time in all", c.name(), caseSeconds));
      }
    }
    System.out.println();
    walls.forEach(System.out::println);
  }

  /** Builds the fabric (timed: the set-up) and runs it on {@code engine} (timed by the engine: the emulation). */
  private static Run run(EmbeddedCluster cluster, ScenarioSpec spec, String engine, ProgressListener progress) {
    long startNs = System.nanoTime();
    Fabric fabric = Fabric.build(spec);
    double setupSeconds = (System.nanoTime() - startNs) / 1e9;
    RunResult result = engine.equals(ACTORS) ? ScenarioRunner.run(cluster, fabric, progress)
        : fabric.runOnPlainEngine();
    return new Run(result, setupSeconds);
  }

  private static double median(double[] values) {
    double[] sorted = values.clone();
    Arrays.sort(sorted);
    return sorted[sorted.length / 2];
  }

  /** How far a run has come, to stderr every 30 s of wall time (only long runs get that far). */
  private static ProgressListener progress(Case c, ScenarioSpec spec) {
    long total = ScenarioRunner.totalOperations(spec);
    long startNs = System.nanoTime();
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

  private static void print(Case c, String engine, ScenarioSpec spec, Idle idle, double setupSeconds,
                            RunResult result, long peakHeap) {
    int ranks = spec.topology().hosts() * spec.workload().ppn();
    boolean actors = engine.equals(ACTORS);
    System.out.printf(Locale.ROOT,
        "| %s | %s | %d | %d | %.2f | %s | %d | %d | %.2f | %.0f | %.0f | %s | %s | %d | %s |%n",
        c.name(), engine, ranks, idle.devices(), setupSeconds,
        actors ? String.format(Locale.ROOT, "%.2f", idle.spawnSeconds()) : "", result.events(), result.windows(),
        result.wallSeconds(), result.events() / result.wallSeconds(), peakHeap / 1048576.0,
        actors ? String.format(Locale.ROOT, "%.1f", idle.heapKiBPerEndpoint()) : "", result.complete(),
        result.wrongElements(), result.digest().substring(0, 16));
  }

  /**
   * Heap held by a built fabric plus one idle actor per device, divided by the number of ranks, and the wall time
   * spawning those actors took. The actors are children of one parent, stopped (with them) after the measurement.
   */
  private static Idle idleFigures(EmbeddedCluster cluster, ScenarioSpec spec) throws Exception {
    long before = settleHeap();
    Fabric fabric = Fabric.build(spec);
    long spawnStartNs = System.nanoTime();
    CompletableFuture<Void> spawned = new CompletableFuture<>();
    ActorRef<String> parent = cluster.system().systemActorOf(Behaviors.<String>setup(context -> {
      ActorRef<MemberScheduler.Command> nobody = context.getSystem().ignoreRef();
      for (DeviceCore core : fabric.devices()) {
        context.spawn(DeviceActorFactory.GENERIC.create(new DeviceRunner(core), nobody), "device-" + core.deviceId());
      }
      spawned.complete(null);
      return Behaviors.receiveMessage(stop -> Behaviors.stopped());
    }), "idle-" + spec.name(), Props.empty());
    spawned.get(600, TimeUnit.SECONDS);
    double spawnSeconds = (System.nanoTime() - spawnStartNs) / 1e9;
    long after = settleHeap();
    double perEndpointKiB = (after - before) / 1024.0 / fabric.worldSize();
    parent.tell("stop");
    return new Idle(perEndpointKiB, spawnSeconds, fabric.devices().length);
  }

  /** Three full collections; the heap in use afterwards. Shared with {@link IncScaleBenchmark}. */
  static long settleHeap() {
    for (int i = 0; i < 3; i++) {
      System.gc();
    }
    return usedHeapBytes();
  }

  private static long usedHeapBytes() {
    return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
  }

  /** Resets the heap pools' peak usage, so that {@link #peakHeapBytes()} covers what runs next. */
  static void resetPeaks() {
    for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
      if (pool.getType() == MemoryType.HEAP) pool.resetPeakUsage();
    }
  }

  /** Sum of the heap pools' peak usage since {@link #resetPeaks()} (garbage between collections included). */
  static long peakHeapBytes() {
    long peak = 0;
    for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
      if (pool.getType() == MemoryType.HEAP) peak += pool.getPeakUsage().getUsed();
    }
    return peak;
  }
}
