package io.fabemu.collectives;

import java.util.Locale;

/**
 * The collective operations fabemu runs on real data, and {@link #PIPELINE}: one iteration of pipeline-parallel
 * training on an optical cluster (the optical patent), whose operation is a whole iteration ({@link PipelineIteration}).
 */
public enum Collective {
  ALLREDUCE, REDUCE, BROADCAST, ALLGATHER, REDUCE_SCATTER, GATHER, SCATTER, ALLTOALL, BARRIER, SENDRECV, PIPELINE;

  /** Name in scenarios: {@code allreduce}, {@code reduce-scatter}, ... */
  public String configName() {
    return name().toLowerCase(Locale.ROOT).replace('_', '-');
  }

  public static Collective fromConfigName(String name) {
    for (Collective c : values()) {
      if (c.configName().equals(name)) return c;
    }
    return null;
  }

  /** True for collectives that combine data with a reduce op (a pipeline iteration's all-reduces do). */
  public boolean reduces() {
    return this == ALLREDUCE || this == REDUCE || this == REDUCE_SCATTER || this == PIPELINE;
  }

  /** True for collectives with a root rank. */
  public boolean rooted() {
    return this == REDUCE || this == BROADCAST || this == GATHER || this == SCATTER;
  }

  /**
   * True for the collectives whose workload size is one block per rank, so that a buffer holds one block for every
   * rank (gather, scatter, allgather, reduce-scatter, alltoall): the whole buffer is {@code size x ranks}, which must
   * fit a Java array, and is what nccl-tests counts as the size.
   */
  public boolean oneBlockPerRank() {
    return switch (this) {
      case GATHER, SCATTER, ALLGATHER, REDUCE_SCATTER, ALLTOALL -> true;
      case ALLREDUCE, REDUCE, BROADCAST, BARRIER, SENDRECV, PIPELINE -> false;
    };
  }
}
