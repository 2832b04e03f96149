package io.fabemu.cluster;

import io.fabemu.core.device.ComputeNodeCore;
import io.fabemu.core.device.NicCore;
import io.fabemu.core.device.SwitchCore;
import io.fabemu.core.engine.DeviceCore;
import io.fabemu.core.engine.ProgressListener;
import io.fabemu.core.fabric.Fabric;
import io.fabemu.core.result.ResultAggregator;
import io.fabemu.core.result.RunResult;
import io.fabemu.core.spec.ScenarioSpec;
import io.fabemu.engine.DeviceActor;
import io.fabemu.engine.EngineOutcome;
import io.fabemu.engine.MemberScheduler;
import io.fabemu.engine.PekkoWindowEngine;
import io.fabemu.nic.NicActor;
import io.fabemu.node.ComputeNodeActor;
import io.fabemu.switchfabric.SwitchActor;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;

/**
 * Runs a checked scenario: assembles the fabric, drives one actor per device on the embedded single-member
 * cluster, and turns the devices' reports into a {@link RunResult}.
 */
public final class ScenarioRunner {
  private ScenarioRunner() {}

  /** Collective operations the whole run will complete (ranks x cases x (warm-up + iterations)), for progress. */
  public static long totalOperations(ScenarioSpec spec) {
    long ranks = (long) spec.topology().hosts() * spec.workload().ppn();
    return ranks * spec.workload().operationsPerRank();
  }

  /** Runs {@code spec} on a fresh embedded cluster, which is shut down afterwards. */
  public static RunResult run(ScenarioSpec spec, ProgressListener listener) {
    try (EmbeddedCluster cluster = EmbeddedCluster.start()) {
      return run(cluster, spec, listener);
    }
  }

  /** Runs {@code spec} on an existing cluster (tests and benchmarks reuse one). */
  public static RunResult run(EmbeddedCluster cluster, ScenarioSpec spec, ProgressListener listener) {
    Fabric fabric = Fabric.build(spec);
    // Wall time is only reported (emulator speed); it never feeds the emulation.
    long wallStartNs = System.nanoTime();
    EngineOutcome outcome = PekkoWindowEngine.run(cluster.system(), fabric.devices(), ScenarioRunner::actorFor,
        fabric.lookaheadPs(), fabric.startEvents(), listener);
    double wallSeconds = (System.nanoTime() - wallStartNs) / 1e9;
    return ResultAggregator.aggregate(spec, fabric.worldSize(), outcome.reports(), outcome.lastWindowStartPs(),
        outcome.windows(), outcome.events(), wallSeconds);
  }

  /** The actor for each kind of device. */
  private static Behavior<DeviceActor.Command> actorFor(DeviceCore core, ActorRef<MemberScheduler.Command> scheduler) {
    if (core instanceof ComputeNodeCore node) return ComputeNodeActor.create(node, scheduler);
    if (core instanceof NicCore nic) return NicActor.create(nic, scheduler);
    if (core instanceof SwitchCore sw) return SwitchActor.create(sw, scheduler);
    throw new IllegalArgumentException("no actor for " + core.getClass().getName());
  }
}
