package io.fabemu.collectives;

import io.fabemu.core.data.DataBuffer;
import io.fabemu.core.data.DataType;
import io.fabemu.core.data.ReduceOp;
import java.util.List;

/**
 * What the ranks run. Each (algorithm, buffer layout, size) triple is one case, run in order: algorithms outer, then
 * buffer layouts, sizes inner. Like osu_allreduce, each iteration is followed by a barrier, and the first
 * {@code warmup} iterations of every case are not measured. With the default layouts ({@code [out-of-place]}) the
 * case of algorithm {@code a} and size {@code s} has the index {@code a * sizes + s}, as before layouts existed.
 *
 * <p>The record checks itself, once, where it is built: every rule that needs only the workload (see the compact
 * constructor). The rules between the workload and the world it runs on (the root is a rank, one block per rank
 * fits an array, a pipeline's ranks are its NPUs) need the topology: the scenario loader checks them first, with the
 * file, line and key of the value at fault, and the fabric again once before any device exists
 * ({@link #requireFits}), for specs built in code. The ranks check neither.
 *
 * @param collective   the collective operation
 * @param algorithms   algorithms to compare (at least one)
 * @param sizesBytes   message sizes in bytes per rank (a multiple of the element size)
 * @param iterations   measured iterations per case
 * @param warmup       unmeasured iterations before them
 * @param ppn          processes (ranks) per compute node; ranks are placed in blocks (ranks 0..ppn-1 on node 0)
 * @param dataType     element type
 * @param op           reduce op (ignored by collectives that do not reduce)
 * @param hierarchical reduce inside each node to a leader, run the algorithm among leaders, broadcast back
 * @param root         root rank of rooted collectives (reduce, broadcast, gather, scatter)
 * @param syntheticPayload messages carry sizes only, no data: the same schedules, message sizes and costs as with
 *                     real data, but no buffers, no input and no check of the outputs (for the largest runs)
 * @param buffers      the buffer layouts to measure, each at least once (default {@code [out-of-place]}; null means
 *                     the default); in place, the copies {@link InPlaceAlias} names cost nothing
 * @param window       messages one operation of the send/recv algorithm {@link Algorithm#WINDOW} streams before its
 *                     acknowledgement (osu_bw's window; at least 1; the other algorithms ignore it)
 * @param pipeline     the pipeline of a {@link Collective#PIPELINE} workload (its sizes are activations per NPU);
 *                     null for every other collective
 * @param syntheticFromBytes the cases of this size and above carry sizes only even with real data
 *                     ({@link #REAL_AT_EVERY_SIZE}: none), because the heap cannot hold their buffers on every rank:
 *                     the CLI's heap budget sets it, a scenario never does; positive
 */
public record WorkloadSpec(Collective collective, List<Algorithm> algorithms, List<Long> sizesBytes,
                           int iterations, int warmup, int ppn, DataType dataType, ReduceOp op,
                           boolean hierarchical, int root, boolean syntheticPayload, List<BufferLayout> buffers,
                           int window, PipelineSpec pipeline, long syntheticFromBytes) {

  /** {@link #syntheticFromBytes} of a workload whose payload mode holds at every size. */
  public static final long REAL_AT_EVERY_SIZE = Long.MAX_VALUE;

  /** osu_bw's default window: 64 messages before each acknowledgement. */
  public static final int DEFAULT_WINDOW = 64;

  /** The layouts when none are given: out of place only. */
  public static final List<BufferLayout> DEFAULT_BUFFERS = List.of(BufferLayout.OUT_OF_PLACE);

  /**
   * Checks every rule that needs only the workload.
   *
   * @throws IllegalArgumentException with one line naming the rule, when a part is missing, a count negative, an
   *     algorithm not one of the collective's, a reduce op missing or not defined on the datatype, a size negative or
   *     not a multiple of the element, or a hierarchical workload not an allreduce
   */
  public WorkloadSpec {
    buffers = buffers == null ? DEFAULT_BUFFERS : List.copyOf(buffers);
    if (window < 1) {
      throw new IllegalArgumentException("window must be at least 1 message, got " + window);
    }
    if ((collective == Collective.PIPELINE) != (pipeline != null)) {
      throw new IllegalArgumentException("a pipeline workload needs its pipeline, and only a pipeline workload has "
          + "one (collective " + collective + ")");
    }
    if (syntheticFromBytes < 1) {
      throw new IllegalArgumentException("sizes only from " + syntheticFromBytes + " B: must be positive");
    }
    checkWorkload(collective, algorithms, sizesBytes, iterations, warmup, ppn, dataType, op, hierarchical, root,
        pipeline);
    algorithms = List.copyOf(algorithms);
    sizesBytes = List.copyOf(sizesBytes);
  }

  /** The rules of the compact constructor that need only the workload (its parameters, in its order). */
  private static void checkWorkload(Collective c, List<Algorithm> algorithms, List<Long> sizesBytes, int iterations,
                                    int warmup, int ppn, DataType dataType, ReduceOp op, boolean hierarchical,
                                    int root, PipelineSpec pipeline) {
    if (c == null || dataType == null || algorithms == null || sizesBytes == null) {
      throw new IllegalArgumentException("workload needs a collective, a data type, algorithms and sizes");
    }
    if (algorithms.isEmpty() || sizesBytes.isEmpty()) {
      throw new IllegalArgumentException("workload needs at least one algorithm and one size");
    }
    // Scenarios ask for iterations >= 1; 0 stays valid here: the ranks then run only their warm-up and report every
    // case with no measured iteration (unit tests use it to check an empty workload finishes).
    if (iterations < 0 || warmup < 0) {
      throw new IllegalArgumentException("iterations (" + iterations + ") and warmup (" + warmup
          + ") must not be negative");
    }
    if (hierarchical && c != Collective.ALLREDUCE) {
      throw new IllegalArgumentException("hierarchical mode is only implemented for allreduce, not for "
          + c.configName());
    }
    if (hierarchical && ppn < 1) {
      throw new IllegalArgumentException("hierarchical allreduce needs ppn >= 1, got " + ppn);
    }
    if (c.reduces()) {
      if (op == null) {
        throw new IllegalArgumentException(c.configName() + " needs a reduce op");
      }
      if (!op.isDefinedOn(dataType)) {
        throw new IllegalArgumentException("reduce op " + op.configName() + " is not defined on "
            + dataType.configName());
      }
    }
    if (c.rooted() && root < 0) {
      throw new IllegalArgumentException("root " + root + " of " + c.configName() + " is not a rank");
    }
    for (Algorithm a : algorithms) {
      if (a == null || !Algorithm.validFor(c).contains(a)) {
        throw new IllegalArgumentException("algorithm " + (a == null ? "null" : a.configName())
            + " is not valid for " + c.configName() + " (valid: " + Algorithm.validFor(c) + ")");
      }
    }
    int elementBytes = Schedules.elementBytes(c, dataType, op);
    for (Long size : sizesBytes) {
      if (size == null || size < 0) {
        throw new IllegalArgumentException("message size " + size + " must be a non-negative number of bytes");
      }
      if (size % elementBytes != 0) {
        throw new IllegalArgumentException("message size " + size + " B is not a multiple of the element size "
            + elementBytes + " B (" + dataType.configName()
            + (Schedules.carriesLocation(c, op) ? " with a " + DataBuffer.LOCATION_BYTES + "-byte location" : "")
            + ")");
      }
      if (pipeline != null && pipeline.globalBytes(size) % elementBytes != 0) {
        throw new IllegalArgumentException("the global allreduce size " + pipeline.globalBytes(size)
            + " B is not a multiple of the element size " + elementBytes + " B");
      }
    }
  }

  /** A workload whose payload mode holds at every size. */
  public WorkloadSpec(Collective collective, List<Algorithm> algorithms, List<Long> sizesBytes, int iterations,
                      int warmup, int ppn, DataType dataType, ReduceOp op, boolean hierarchical, int root,
                      boolean syntheticPayload, List<BufferLayout> buffers, int window, PipelineSpec pipeline) {
    this(collective, algorithms, sizesBytes, iterations, warmup, ppn, dataType, op, hierarchical, root,
        syntheticPayload, buffers, window, pipeline, REAL_AT_EVERY_SIZE);
  }

  /** A workload that is not a pipeline. */
  public WorkloadSpec(Collective collective, List<Algorithm> algorithms, List<Long> sizesBytes, int iterations,
                      int warmup, int ppn, DataType dataType, ReduceOp op, boolean hierarchical, int root,
                      boolean syntheticPayload, List<BufferLayout> buffers, int window) {
    this(collective, algorithms, sizesBytes, iterations, warmup, ppn, dataType, op, hierarchical, root,
        syntheticPayload, buffers, window, null);
  }

  /** A pipeline workload: one pipeline iteration per operation, out of place, on real data. */
  public static WorkloadSpec ofPipeline(PipelineSpec pipeline, List<Algorithm> methods, List<Long> activationBytes,
                                      int iterations, int warmup, DataType dataType, ReduceOp op) {
    return new WorkloadSpec(Collective.PIPELINE, methods, activationBytes, iterations, warmup, 1, dataType, op,
        false, 0, false, DEFAULT_BUFFERS, DEFAULT_WINDOW, pipeline);
  }

  /** A workload with the given buffer layouts and the default window ({@value #DEFAULT_WINDOW}). */
  public WorkloadSpec(Collective collective, List<Algorithm> algorithms, List<Long> sizesBytes, int iterations,
                      int warmup, int ppn, DataType dataType, ReduceOp op, boolean hierarchical, int root,
                      boolean syntheticPayload, List<BufferLayout> buffers) {
    this(collective, algorithms, sizesBytes, iterations, warmup, ppn, dataType, op, hierarchical, root,
        syntheticPayload, buffers, DEFAULT_WINDOW);
  }

  /** A workload out of place only, with the given window. */
  public WorkloadSpec(Collective collective, List<Algorithm> algorithms, List<Long> sizesBytes, int iterations,
                      int warmup, int ppn, DataType dataType, ReduceOp op, boolean hierarchical, int root,
                      boolean syntheticPayload, int window) {
    this(collective, algorithms, sizesBytes, iterations, warmup, ppn, dataType, op, hierarchical, root,
        syntheticPayload, DEFAULT_BUFFERS, window);
  }

  /** A workload out of place only, with the given payload mode and the default window. */
  public WorkloadSpec(Collective collective, List<Algorithm> algorithms, List<Long> sizesBytes, int iterations,
                      int warmup, int ppn, DataType dataType, ReduceOp op, boolean hierarchical, int root,
                      boolean syntheticPayload) {
    this(collective, algorithms, sizesBytes, iterations, warmup, ppn, dataType, op, hierarchical, root,
        syntheticPayload, DEFAULT_BUFFERS, DEFAULT_WINDOW);
  }

  /** A workload on real data, out of place, every output checked against the exact answer. */
  public WorkloadSpec(Collective collective, List<Algorithm> algorithms, List<Long> sizesBytes, int iterations,
                      int warmup, int ppn, DataType dataType, ReduceOp op, boolean hierarchical, int root) {
    this(collective, algorithms, sizesBytes, iterations, warmup, ppn, dataType, op, hierarchical, root, false);
  }

  /** The same workload with the given payload mode (true: sizes only). */
  /**
   * Checks the rules between this workload and a world of {@code worldSize} ranks: a rooted collective's root is a
   * rank, the buffers of one block per rank fit a Java array, a pipeline runs one rank per NPU.
   *
   * @throws IllegalArgumentException naming the rule broken
   */
  public void requireFits(int worldSize) {
    if (collective.rooted() && root >= worldSize) {
      throw new IllegalArgumentException("root " + root + " of " + collective.configName() + " is outside a world of "
          + worldSize + " ranks");
    }
    int elementBytes = Schedules.elementBytes(collective, dataType, op);
    for (long size : sizesBytes) {
      long elements = size / elementBytes * (collective.oneBlockPerRank() ? worldSize : 1);
      if (elements > Schedules.MAX_BUFFER_ELEMENTS) {
        throw new IllegalArgumentException("message size " + size + " B needs buffers of " + elements
            + " elements on " + worldSize + " ranks, more than a Java array holds");
      }
    }
    if (collective == Collective.PIPELINE && (pipeline.worldSize() != worldSize || ppn != 1)) {
      throw new IllegalArgumentException("a pipeline of " + pipeline.servers() + " servers of "
          + pipeline.npusPerServer() + " NPUs runs one rank per NPU, " + pipeline.worldSize()
          + " ranks with ppn 1, not " + worldSize + " with ppn " + ppn);
    }
  }

  public WorkloadSpec withSyntheticPayload(boolean synthetic) {
    return new WorkloadSpec(collective, algorithms, sizesBytes, iterations, warmup, ppn, dataType, op, hierarchical,
        root, synthetic, buffers, window, pipeline, syntheticFromBytes);
  }

  /** The same workload measured with the given buffer layouts. */
  public WorkloadSpec withBuffers(List<BufferLayout> layouts) {
    return new WorkloadSpec(collective, algorithms, sizesBytes, iterations, warmup, ppn, dataType, op, hierarchical,
        root, syntheticPayload, layouts, window, pipeline, syntheticFromBytes);
  }

  /** The same workload with another window (see {@link Algorithm#WINDOW}). */
  public WorkloadSpec withWindow(int messages) {
    return new WorkloadSpec(collective, algorithms, sizesBytes, iterations, warmup, ppn, dataType, op, hierarchical,
        root, syntheticPayload, buffers, messages, pipeline, syntheticFromBytes);
  }

  /**
   * The same workload on real data below {@code bytes} and sizes only from it ({@link #REAL_AT_EVERY_SIZE}: real at
   * every size): what fits the heap.
   */
  public WorkloadSpec withSyntheticFrom(long bytes) {
    return new WorkloadSpec(collective, algorithms, sizesBytes, iterations, warmup, ppn, dataType, op, hierarchical,
        root, syntheticPayload, buffers, window, pipeline, bytes);
  }

  /**
   * The payload mode: {@code real} or {@code synthetic} as scenarios write them, or {@code real below N B} when real
   * data stops at a size ({@link #syntheticFromBytes}) below the largest.
   */
  public String payloadName() {
    if (syntheticPayload) return "synthetic";
    return mixedPayload() ? "real below " + syntheticFromBytes + " B" : "real";
  }

  /** True when some cases carry real data and the larger ones sizes only ({@link #syntheticFromBytes}). */
  public boolean mixedPayload() {
    return !syntheticPayload && sizesBytes.stream().anyMatch(s -> s >= syntheticFromBytes);
  }

  /** True when the cases of {@code sizeBytes} carry sizes only: a synthetic payload, or at or above the budget. */
  public boolean syntheticAtSize(long sizeBytes) {
    return syntheticPayload || sizeBytes >= syntheticFromBytes;
  }

  /** True when the case carries sizes only ({@link #syntheticAtSize}); its outputs are not checked. */
  public boolean syntheticOfCase(int caseIndex) {
    return syntheticAtSize(sizeOfCase(caseIndex));
  }

  /** Number of (algorithm, buffer layout, size) cases. */
  public int caseCount() {
    return algorithms.size() * buffers.size() * sizesBytes.size();
  }

  /** Collective operations each rank completes over the whole workload (warm-up included, barriers not). */
  public long operationsPerRank() {
    return (long) caseCount() * (warmup + iterations);
  }

  /** The index of the case of the {@code algorithmIndex}-th algorithm, {@code bufferIndex}-th layout and size. */
  public int caseIndex(int algorithmIndex, int bufferIndex, int sizeIndex) {
    return (algorithmIndex * buffers.size() + bufferIndex) * sizesBytes.size() + sizeIndex;
  }

  /** Position of the case's algorithm in {@link #algorithms()}. */
  public int algorithmIndexOfCase(int caseIndex) {
    return caseIndex / (buffers.size() * sizesBytes.size());
  }

  /** Position of the case's buffer layout in {@link #buffers()}. */
  public int bufferIndexOfCase(int caseIndex) {
    return caseIndex / sizesBytes.size() % buffers.size();
  }

  public Algorithm algorithmOfCase(int caseIndex) {
    return algorithms.get(algorithmIndexOfCase(caseIndex));
  }

  public BufferLayout bufferLayoutOfCase(int caseIndex) {
    return buffers.get(bufferIndexOfCase(caseIndex));
  }

  /**
   * The position in {@link #buffers()} of the layout a one-layout table shows (an OSU table, the latency plot):
   * out of place when the workload measures it, else the first listed.
   */
  public int primaryBufferIndex() {
    return Math.max(0, buffers.indexOf(BufferLayout.OUT_OF_PLACE));
  }

  /** True when the case runs in place (the send buffer is the receive buffer). */
  public boolean inPlaceOfCase(int caseIndex) {
    return bufferLayoutOfCase(caseIndex) == BufferLayout.IN_PLACE;
  }

  public long sizeOfCase(int caseIndex) {
    return sizesBytes.get(caseIndex % sizesBytes.size());
  }
}
