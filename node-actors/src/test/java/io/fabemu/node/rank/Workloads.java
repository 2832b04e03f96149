package io.fabemu.node.rank;

import io.fabemu.collectives.Algorithm;
import io.fabemu.collectives.Collective;
import io.fabemu.collectives.WorkloadSpec;
import io.fabemu.core.data.DataType;
import io.fabemu.core.data.ReduceOp;
import java.util.List;

/** Test helpers that build {@link WorkloadSpec}s. */
final class Workloads {
  private Workloads() {}

  static WorkloadSpec of(Collective c, Algorithm a, long sizeBytes, DataType type, ReduceOp op) {
    return new WorkloadSpec(c, List.of(a), List.of(sizeBytes), 2, 1, 1, type, op, false, 0);
  }

  static WorkloadSpec rooted(Collective c, Algorithm a, long sizeBytes, DataType type, int root) {
    return new WorkloadSpec(c, List.of(a), List.of(sizeBytes), 2, 1, 1, type, ReduceOp.SUM, false, root);
  }

  static WorkloadSpec hierarchical(Algorithm a, long sizeBytes, DataType type, ReduceOp op, int ppn) {
    return new WorkloadSpec(Collective.ALLREDUCE, List.of(a), List.of(sizeBytes), 2, 1, ppn, type, op, true, 0);
  }

  static WorkloadSpec timed(Collective c, Algorithm a, long sizeBytes) {
    return new WorkloadSpec(c, List.of(a), List.of(sizeBytes), 1, 0, 1, DataType.FLOAT32, ReduceOp.SUM, false, 0);
  }
}
