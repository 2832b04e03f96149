package io.fabemu.loadtests;

import io.fabemu.cluster.scenario.ScenarioLoader;
import io.fabemu.collectives.ExpectedAnswers;
import io.fabemu.collectives.WorkloadSpec;
import io.fabemu.core.placement.PlacementPlan;
import io.fabemu.core.routing.RoutingTable;
import io.fabemu.core.topology.Topology;
import io.fabemu.fabric.Fabric;
import io.fabemu.fabric.ScenarioSpec;
import java.util.Locale;

/**
 * Wall time of each set-up phase of a run on a leaf-spine of 32 hosts per TOR and 16 spines, recursive-doubling
 * Allreduce of 8 B (the fabric of {@link ScaleBenchmark}'s {@code rd-} cases): parsing the scenario, building the
 * topology, its routing, the exact answers, the whole {@link Fabric#build} (routing, answers and every device core
 * again), and the placement over 1 and 4 members; each with the heap in use after it. Actor creation is timed by
 * {@link ScaleBenchmark} ("actor spawn").
 *
 * <p>Usage: {@code java -cp "load-tests/target/fabemu-load-tests-0.1.0-SNAPSHOT.jar:load-tests/target/lib/*"
 * io.fabemu.loadtests.SetupPhases [--full-table] HOSTS}. {@code --full-table} times the breadth-first table
 * ({@link RoutingTable#compute}) instead of the kind's routing: what every run built before routes came from the
 * numbering (minutes, and hundreds of MiB, at 100,000 hosts).
 */
public final class SetupPhases {

  private static long lapStartNs;

  private SetupPhases() {}

  public static void main(String[] args) {
    boolean fullTable = args.length == 2 && args[0].equals("--full-table");
    if (args.length != (fullTable ? 2 : 1)) {
      System.err.println("usage: SetupPhases [--full-table] HOSTS");
      System.exit(2);
    }
    int hosts = Integer.parseInt(args[args.length - 1]);
    lapStartNs = System.nanoTime();
    ScenarioSpec spec = ScenarioLoader.parse("""
        name = setup-%d
        topology { kind = leaf-spine, hosts = %d, hosts-per-tor = 32, spines = 16 }
        workload {
          collective = allreduce, algorithms = [recursive-doubling], sizes = [8 B], iterations = 1, warmup = 1
        }
        """.formatted(hosts, hosts), "setup.conf").spec();
    lap("parse");
    Topology topology = spec.topology().build();
    lap("topology");
    RoutingTable routing = fullTable ? RoutingTable.compute(topology) : spec.topology().routing(topology);
    lap(fullTable ? "routing (full table)" : "routing (" + routing.getClass().getSimpleName() + ")");
    WorkloadSpec workload = spec.workload();
    ExpectedAnswers answers = ExpectedAnswers.forWorkload(workload, hosts * workload.ppn(), spec.seed());
    answers.prepare(workload);
    lap("exact answers");
    Fabric fabric = Fabric.build(spec, topology);
    lap("Fabric.build (all but topology)");
    PlacementPlan.compute(topology, fabric.devices().length, 1);
    lap("placement, 1 member");
    PlacementPlan.compute(topology, fabric.devices().length, 4);
    lap("placement, 4 members");
  }

  private static void lap(String phase) {
    long now = System.nanoTime();
    Runtime rt = Runtime.getRuntime();
    System.out.printf(Locale.ROOT, "%-36s %9.2f s   heap in use %6d MiB%n", phase, (now - lapStartNs) / 1e9,
        (rt.totalMemory() - rt.freeMemory()) >> 20);
    lapStartNs = System.nanoTime();
  }
}
