package io.fabemu.collectives;

import io.fabemu.core.optical.StageTransfer;
import io.fabemu.core.optical.TransmissionChoice;
import io.fabemu.core.optical.TransmissionCostModel;
import io.fabemu.core.optical.TransmissionCosts;
import java.util.List;
import java.util.stream.IntStream;

/**
 * The shape of a {@link Collective#PIPELINE} workload (the optical patent, [0055], [0072]-[0074]): one stage per server, in
 * server order, each stage on all the server's NPUs; a workload size is the bytes each NPU sends to the next stage
 * per micro-batch (its activation, and as much gradient back).
 *
 * @param servers               stages, one per server (at least 2)
 * @param npusPerServer         NPUs of each server, the ranks of a stage (ranks {@code s x N .. s x N + N - 1})
 * @param microBatches          micro-batches per iteration (at least 1)
 * @param stageCollective       what a stage runs among its NPUs on every activation and gradient
 * @param globalAllreduceBytes  bytes per NPU of the data-parallel AllReduce over all NPUs that ends the iteration
 *                              (0: none; {@link #SAME_AS_ACTIVATION}: the case's size)
 * @param costs                 the cost model's configuration ([0173]), for {@link Algorithm#AUTO}
 */
public record PipelineSpec(int servers, int npusPerServer, int microBatches, StageCollective stageCollective,
    long globalAllreduceBytes, TransmissionCosts costs) {

  /** {@link #globalAllreduceBytes} meaning "as large as one activation" (the case's size). */
  public static final long SAME_AS_ACTIVATION = -1;

  /** Largest number of micro-batches: their rounds share a tag's 24 round bits with 8 rounds each. */
  public static final int MAX_MICRO_BATCHES = Tags.MAX_ROUND / 8;

  /**
   * Checks the ranges.
   *
   * @throws IllegalArgumentException when a count is out of range or the costs are missing
   */
  public PipelineSpec {
    if (servers < 2) throw new IllegalArgumentException("a pipeline needs at least 2 stages, got " + servers);
    if (npusPerServer < 1) throw new IllegalArgumentException("NPUs per server must be at least 1");
    if (microBatches < 1 || microBatches > MAX_MICRO_BATCHES) {
      throw new IllegalArgumentException("micro-batches must be 1.." + MAX_MICRO_BATCHES + ", got " + microBatches);
    }
    if (stageCollective == null || costs == null) {
      throw new IllegalArgumentException("a pipeline needs its stage collective and its cost configuration");
    }
    if (globalAllreduceBytes < 0 && globalAllreduceBytes != SAME_AS_ACTIVATION) {
      throw new IllegalArgumentException("the global allreduce size must not be negative");
    }
  }

  /** Ranks of the pipeline: every NPU of every server. */
  public int worldSize() {
    return servers * npusPerServer;
  }

  /** Bytes per NPU of the global AllReduce in a case of {@code sizeBytes}. */
  public long globalBytes(long sizeBytes) {
    return globalAllreduceBytes == SAME_AS_ACTIVATION ? sizeBytes : globalAllreduceBytes;
  }

  /**
   * The cost model's choice for an activation of {@code sizeBytes} per NPU: the stages take whole servers, so every
   * pair of consecutive stages has the same transfer whatever its gateway (the costs depend on the counts only).
   */
  public TransmissionChoice choice(long sizeBytes) {
    List<Integer> all = IntStream.range(0, npusPerServer).boxed().toList();
    StageTransfer transfer = new StageTransfer(sizeBytes, stageCollective.replicated(), 0, all, 1, all, 0);
    return new TransmissionCostModel(costs).choose(transfer);
  }
}
