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
    return WorkloadSpec.builder(c, List.of(a), List.of(sizeBytes)).iterations(2).warmup(1).dataType(type).op(op)
        .build();
  }

  static WorkloadSpec rooted(Collective c, Algorithm a, long sizeBytes, DataType type, int root) {
    return WorkloadSpec.builder(c, List.of(a), List.of(sizeBytes)).iterations(2).warmup(1).dataType(type).root(root)
        .build();
  }

  static WorkloadSpec hierarchical(Algorithm a, long sizeBytes, DataType type, ReduceOp op, int ppn) {
    return WorkloadSpec.builder(Collective.ALLREDUCE, List.of(a), List.of(sizeBytes)).iterations(2).warmup(1).ppn(ppn)
        .dataType(type).op(op).hierarchical(true).build();
  }

  static WorkloadSpec timed(Collective c, Algorithm a, long sizeBytes) {
    return WorkloadSpec.builder(c, List.of(a), List.of(sizeBytes)).build();
  }
}
