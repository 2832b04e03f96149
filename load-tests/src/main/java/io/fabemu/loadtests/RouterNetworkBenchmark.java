package io.fabemu.loadtests;

import io.fabemu.cluster.EmbeddedCluster;
import io.fabemu.cluster.ScenarioRunner;
import io.fabemu.cluster.scenario.ScenarioLoader;
import io.fabemu.core.sim.DeviceReport.LinkCounters;
import io.fabemu.fabric.Fabric;
import io.fabemu.fabric.ScenarioSpec;
import io.fabemu.fabric.result.RunResult;
import io.fabemu.fabric.result.TrafficResult;
import java.util.List;
import java.util.Locale;

/**
 * The emulator's speed on router networks, where every flit crossing a channel is an event: flit-hops (flits carried
 * by any channel: injection, router to router, ejection) per wall-clock second, on the embedded single-member
 * cluster and on the plain single-threaded loop.
 *
 * <ul>
 *   <li>{@code mesh8x8-sweep}: the 8x8 mesh with dimension-order routing, uniform traffic of 4-flit packets at 20
 *   offered loads from 0.02 to 0.40 flits/node/cycle (1,000 warm-up, 10,000 measured and up to 10,000 drain cycles
 *   each), every load run (none skipped past saturation);</li>
 *   <li>{@code torus16-dimension-ring}: a 16x16x16 torus (4,096 nodes) running the dimension-wise ring Allreduce of
 *   1 MiB float32 once (no warm-up iteration), with 256 B flits and 4 KiB segments, sizes only ({@code payload =
 *   synthetic}: the network's speed, without the 8 GiB of inputs and outputs that real data would hold; the
 *   algorithm's exact results are tested on smaller tori).</li>
 * </ul>
 *
 * <p>Usage: {@code load-tests/run-router-benchmark.sh [case ...] [--plain-only | --actors-only]} (default: both
 * cases on both engines). Wall-clock figures depend on the machine and its load: run on an idle machine and report
 * the command with the figures.
 */
public final class RouterNetworkBenchmark {

  private static final String MESH_SWEEP = """
      name = mesh8x8-sweep
      seed = 1
      topology { kind = mesh, dimensions = [8, 8] }
      traffic {
        pattern = uniform, packet-flits = 4
        sweep { from = 0.02, to = 0.40, points = 20 }
        warmup-cycles = 1000, measure-cycles = 10000, drain-cycles = 10000
      }
      """;

  private static final String TORUS_ALLREDUCE = """
      name = torus16-dimension-ring
      seed = 1
      topology { kind = torus, dimensions = [16, 16, 16] }
      devices.nic.segment-size = 4 KiB
      devices.router { flit-bytes = 256 B }
      workload {
        collective = allreduce, algorithms = [dimension-ring], sizes = [1 MiB], datatype = float32
        iterations = 1, warmup = 0, payload = synthetic
      }
      """;

  private RouterNetworkBenchmark() {}

  public static void main(String[] args) {
    boolean plain = true;
    boolean actors = true;
    List<String> cases = new java.util.ArrayList<>();
    for (String a : args) {
      switch (a) {
        case "--plain-only" -> actors = false;
        case "--actors-only" -> plain = false;
        default -> cases.add(a);
      }
    }
    if (cases.isEmpty()) cases = List.of("mesh8x8-sweep", "torus16-dimension-ring");
    System.out.println("| case | engine | wall s | events | flit-hops | flit-hops/s | events/s | result |");
    System.out.println("|---|---|---|---|---|---|---|---|");
    for (String name : cases) {
      switch (name) {
        case "mesh8x8-sweep" -> {
          if (plain) sweep(false);
          if (actors) sweep(true);
        }
        case "torus16-dimension-ring" -> {
          if (plain) allreduce(false);
          if (actors) allreduce(true);
        }
        default -> throw new IllegalArgumentException("unknown case " + name
            + " (cases: mesh8x8-sweep, torus16-dimension-ring)");
      }
    }
  }

  private static void sweep(boolean onActors) {
    ScenarioSpec spec = ScenarioLoader.parse(MESH_SWEEP, "mesh8x8-sweep.conf").spec();
    long events = 0;
    long flitHops = 0;
    double wall = 0;
    int saturatedFrom = -1;
    try (EmbeddedCluster cluster = onActors ? EmbeddedCluster.startAlone() : null) {
      for (int i = 0; i < spec.traffic().loadCount(); i++) {
        Fabric fabric = Fabric.build(spec.withTraffic(spec.traffic().atLoad(i)));
        TrafficResult r = onActors ? ScenarioRunner.runTraffic(cluster, fabric, (d, t) -> {})
            : fabric.runTrafficOnPlainEngine();
        events += r.events();
        wall += r.wallSeconds();
        flitHops += flits(r.links(), spec.devices().router().flitBytes());
        if (saturatedFrom < 0 && !r.point().drainCompleted()) saturatedFrom = i;
      }
    }
    print("mesh8x8-sweep", onActors, wall, events, flitHops, saturatedFrom < 0 ? "every drain completed"
        : "drains incomplete from load " + spec.traffic().offeredLoad(saturatedFrom));
  }

  private static void allreduce(boolean onActors) {
    ScenarioSpec spec = ScenarioLoader.parse(TORUS_ALLREDUCE, "torus16.conf").spec();
    Fabric fabric = Fabric.build(spec);
    RunResult r;
    if (onActors) {
      try (EmbeddedCluster cluster = EmbeddedCluster.startAlone()) {
        r = ScenarioRunner.run(cluster, fabric, (d, t) -> {});
      }
    } else {
      r = fabric.runOnPlainEngine();
    }
    String verdict = r.complete() ? String.format(Locale.ROOT, "complete, %.1f us",
        r.cases().get(0).maxLatencyPs() / 1e6) : "incomplete: " + r.incompleteReason();
    print("torus16-dimension-ring", onActors, r.wallSeconds(), r.events(),
        flits(r.links(), spec.devices().router().flitBytes()), verdict);
  }

  /** Flits carried by every channel: each channel's bytes are whole flits. */
  private static long flits(List<LinkCounters> links, int flitBytes) {
    long bytes = 0;
    for (LinkCounters l : links) bytes += l.bytes();
    return bytes / flitBytes;
  }

  private static void print(String name, boolean onActors, double wall, long events, long flitHops, String result) {
    System.out.printf(Locale.ROOT, "| %s | %s | %.2f | %d | %d | %.2f M | %.2f M | %s |%n", name,
        onActors ? "pekko actors" : "plain loop", wall, events, flitHops, flitHops / wall / 1e6, events / wall / 1e6,
        result);
  }
}
