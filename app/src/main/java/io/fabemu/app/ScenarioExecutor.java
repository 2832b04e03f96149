package io.fabemu.app;

import io.fabemu.cluster.ScenarioRunner;
import io.fabemu.core.sim.ProgressListener;
import io.fabemu.core.topology.Topology;
import io.fabemu.fabric.ScenarioSpec;
import io.fabemu.fabric.result.RunResult;

/**
 * Runs a checked scenario over its topology, built from {@code spec.topology()} once by the caller;
 * {@link ScenarioRunner#run} in production, a fake in tests.
 */
@FunctionalInterface
public interface ScenarioExecutor {
  RunResult run(ScenarioSpec spec, Topology topology, ProgressListener listener);
}
