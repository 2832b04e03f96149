package io.fabemu.cluster;

import io.fabemu.core.engine.ProgressListener;
import io.fabemu.core.result.RunResult;
import io.fabemu.core.spec.ScenarioSpec;

/** Runs a checked scenario on the embedded single-member cluster and gathers its results. */
public final class ScenarioRunner {
  private ScenarioRunner() {}

  /** Collective operations the whole run will complete (ranks x cases x (warm-up + iterations)), for progress. */
  public static long totalOperations(ScenarioSpec spec) {
    long ranks = (long) spec.topology().hosts() * spec.workload().ppn();
    return ranks * spec.workload().caseCount() * (spec.workload().warmup() + spec.workload().iterations());
  }

  public static RunResult run(ScenarioSpec spec, ProgressListener listener) {
    throw new UnsupportedOperationException("being written");
  }
}
