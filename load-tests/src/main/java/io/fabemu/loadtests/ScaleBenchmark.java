package io.fabemu.loadtests;

import io.fabemu.cluster.EmbeddedCluster;
import io.fabemu.cluster.ScenarioRunner;
import io.fabemu.cluster.scenario.ScenarioLoader;
import io.fabemu.core.sim.DeviceCore;
import io.fabemu.core.sim.DeviceRunner;
import io.fabemu.engine.DeviceActorFactory;
import io.fabemu.engine.MemberScheduler;
import io.fabemu.fabric.Fabric;
import io.fabemu.fabric.ScenarioSpec;
import io.fabemu.fabric.result.RunResult;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Props;
import org.apache.pekko.actor.typed.javadsl.Behaviors;

/**
 * The emulator's own speed and memory at scale, on the embedded single-member cluster: device events handled per
 * wall-clock second (median of 3 runs after a warm-up run), windows, peak heap during the runs, and heap per idle
 * endpoint (a built fabric with one actor per device, before any event). Each case also runs on the plain
 * single-threaded loop, to separate the devices' own cost from the actors'. Prints a Markdown table for
 * docs/performance.md.
 *
 * <p>Usage: {@code load-tests/run-scale-benchmark.sh [case ...]}; cases: {@code ring-256x1MiB},
 * {@code ring-256x1MiB-synthetic} (sizes only, no data), {@code rd-4096x8B} (default: all). Wall-clock figures
 * depend on the machine and its load; run on an idle machine and report the command with the figures.
 */
public final class ScaleBenchmark {

  private record Case(String name, String scenario) {}

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
          """));

  /** Measured runs per case and engine; the median is reported. */
  private static final int REPEATS = 3;

  private ScaleBenchmark() {}

  public static void main(String[] args) throws Exception {
    // Initialize slf4j before Pekko's logger starts on another thread; otherwise slf4j prints a "replay" notice.
    org.slf4j.LoggerFactory.getILoggerFactory();
    List<Case> selected = new ArrayList<>();
    for (Case c : CASES) {
      if (args.length == 0 || List.of(args).contains(c.name())) selected.add(c);
    }
    if (selected.isEmpty()) {
      System.err.println("unknown case; known: " + CASES.stream().map(Case::name).toList());
      System.exit(2);
    }
    System.out.println("| case | engine | ranks | devices | events | windows | wall (s) | events/s | peak heap (MiB) "
        + "| idle heap per endpoint (KiB) | complete | wrong | digest |");
    System.out.println("|---|---|---|---|---|---|---|---|---|---|---|---|---|");
    try (EmbeddedCluster cluster = EmbeddedCluster.start()) {
      for (Case c : selected) {
        ScenarioSpec spec = ScenarioLoader.parse(c.scenario(), c.name() + ".conf").spec();
        double idleKiBPerEndpoint = idleHeapPerEndpointKiB(cluster, spec);
        settleHeap();
        resetPeaks();
        int devices = Fabric.build(spec).devices().length;
        // One unmeasured run each warms the JIT; then the median of REPEATS measured runs.
        ScenarioRunner.run(cluster, spec, (done, timePs) -> {});
        runPlain(spec);
        for (String engine : List.of("pekko actors", "plain loop")) {
          List<RunResult> runs = new ArrayList<>();
          long peakHeap = 0;
          for (int r = 0; r < REPEATS; r++) {
            settleHeap();
            resetPeaks();
            runs.add(engine.startsWith("pekko") ? ScenarioRunner.run(cluster, spec, (done, timePs) -> {})
                : runPlain(spec));
            peakHeap = Math.max(peakHeap, peakHeapBytes());
          }
          runs.sort(java.util.Comparator.comparingDouble(RunResult::wallSeconds));
          print(c, engine, spec, devices, runs.get(REPEATS / 2), peakHeap, idleKiBPerEndpoint);
        }
      }
    }
  }

  /** The same fabric on the single-threaded plain loop: the cost of the devices without the actors. */
  private static RunResult runPlain(ScenarioSpec spec) {
    return Fabric.build(spec).runOnPlainEngine();
  }

  private static void print(Case c, String engine, ScenarioSpec spec, int devices, RunResult result, long peakHeap,
                            double idleKiBPerEndpoint) {
    int ranks = spec.topology().hosts() * spec.workload().ppn();
    System.out.printf(Locale.ROOT, "| %s | %s | %d | %d | %d | %d | %.2f | %.0f | %.0f | %.1f | %s | %d | %s |%n",
        c.name(), engine, ranks, devices, result.events(), result.windows(), result.wallSeconds(),
        result.events() / result.wallSeconds(), peakHeap / 1048576.0, idleKiBPerEndpoint, result.complete(),
        result.wrongElements(), result.digest().substring(0, 16));
  }

  /**
   * Heap held by a built fabric plus one idle actor per device, divided by the number of ranks. The actors are
   * children of one parent, stopped (with them) after the measurement.
   */
  private static double idleHeapPerEndpointKiB(EmbeddedCluster cluster, ScenarioSpec spec) throws Exception {
    long before = settleHeap();
    Fabric fabric = Fabric.build(spec);
    CompletableFuture<Void> spawned = new CompletableFuture<>();
    ActorRef<String> parent = cluster.system().systemActorOf(Behaviors.<String>setup(context -> {
      ActorRef<MemberScheduler.Command> nobody = context.getSystem().ignoreRef();
      for (DeviceCore core : fabric.devices()) {
        context.spawn(DeviceActorFactory.GENERIC.create(new DeviceRunner(core), nobody), "device-" + core.deviceId());
      }
      spawned.complete(null);
      return Behaviors.receiveMessage(stop -> Behaviors.stopped());
    }), "idle-" + spec.name(), Props.empty());
    spawned.get(60, TimeUnit.SECONDS);
    long after = settleHeap();
    double perEndpointKiB = (after - before) / 1024.0 / fabric.worldSize();
    parent.tell("stop");
    return perEndpointKiB;
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
