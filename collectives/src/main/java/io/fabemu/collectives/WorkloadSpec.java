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
 * <p>Built with {@link #builder} (the collective, its algorithms and sizes) and the other components by name, each
 * with a default; {@link #toBuilder()} copies one with changes. The record checks itself, once, where it is built:
 * every rule that needs only the workload (see the compact constructor). The rules between the workload and the
 * world it runs on (the root is a rank, one block per rank fits an array, a pipeline's ranks are its NPUs) need the
 * topology: the scenario loader checks them first, with the file, line and key of the value at fault, and the fabric
 * again once before any device exists ({@link #requireFits}), for specs built in code. The ranks check neither.
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
 * @param channels     NCCL's channels for the ring allreduce: up to this many rings, each on its own part of the
 *                     vector and entering each server at another GPU ({@link ChannelRingAllreduce}); 1 to
 *                     {@value #MAX_CHANNELS}, default 1 (one ring); a profile's setting, so every other collective,
 *                     algorithm and the hierarchical allreduce ignore it (as NCCL's channel count does not choose
 *                     what runs)
 * @param protocols    the protocols the messages travel by and what each costs ({@link ProtocolSpec}); default
 *                     {@link ProtocolSpec#SIMPLE_ONLY}, which adds nothing; a profile's setting too: every
 *                     collective and algorithm runs by the case's protocol ({@link #protocolOfCase}) but INC's
 *                     (NCCL's CollNet and NVLS run Simple only)
 */
public record WorkloadSpec(Collective collective, List<Algorithm> algorithms, List<Long> sizesBytes,
                           int iterations, int warmup, int ppn, DataType dataType, ReduceOp op,
                           boolean hierarchical, int root, boolean syntheticPayload, List<BufferLayout> buffers,
                           int window, PipelineSpec pipeline, long syntheticFromBytes, int channels,
                           ProtocolSpec protocols) {

  /** {@link #syntheticFromBytes} of a workload whose payload mode holds at every size. */
  public static final long REAL_AT_EVERY_SIZE = Long.MAX_VALUE;

  /** Most channels a ring allreduce takes: a tag's lane field has 16 values. */
  public static final int MAX_CHANNELS = 16;

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
    if (protocols == null) {
      throw new IllegalArgumentException("workload needs its protocols (ProtocolSpec.SIMPLE_ONLY: none but Simple)");
    }
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
    if (channels < 1 || channels > MAX_CHANNELS) {
      throw new IllegalArgumentException("channels must be 1 to " + MAX_CHANNELS + ", got " + channels);
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

  /**
   * A builder of a workload of {@code collective} that runs {@code algorithms} at {@code sizesBytes}, with every
   * other component at its default until set: 1 measured iteration, no warm-up, ppn 1, float32 (the scenario
   * default), sum, not hierarchical, root 0, real data at every size ({@link #REAL_AT_EVERY_SIZE}), out of place
   * only ({@link #DEFAULT_BUFFERS}), the default window ({@value #DEFAULT_WINDOW}), no pipeline. {@link Builder#build}
   * checks the whole, once, as the compact constructor does.
   */
  public static Builder builder(Collective collective, List<Algorithm> algorithms, List<Long> sizesBytes) {
    return new Builder(collective, algorithms, sizesBytes);
  }

  /** A builder holding every component of this workload, to build a copy with some of them changed. */
  public Builder toBuilder() {
    return new Builder(collective, algorithms, sizesBytes).iterations(iterations).warmup(warmup).ppn(ppn)
        .dataType(dataType).op(op).hierarchical(hierarchical).root(root).syntheticPayload(syntheticPayload)
        .buffers(buffers).window(window).pipeline(pipeline).syntheticFromBytes(syntheticFromBytes).channels(channels)
        .protocols(protocols);
  }

  /**
   * Names the components of a {@link WorkloadSpec}, one setter each (named as the component, see the record for
   * their meaning). Not thread-safe; {@link #build()} may be called more than once.
   */
  public static final class Builder {
    private Collective collective;
    private List<Algorithm> algorithms;
    private List<Long> sizesBytes;
    private int iterations = 1;
    private int warmup;
    private int ppn = 1;
    private DataType dataType = DataType.FLOAT32;
    private ReduceOp op = ReduceOp.SUM;
    private boolean hierarchical;
    private int root;
    private boolean syntheticPayload;
    private List<BufferLayout> buffers = DEFAULT_BUFFERS;
    private int window = DEFAULT_WINDOW;
    private PipelineSpec pipeline;
    private long syntheticFromBytes = REAL_AT_EVERY_SIZE;
    private int channels = 1;
    private ProtocolSpec protocols = ProtocolSpec.SIMPLE_ONLY;

    private Builder(Collective collective, List<Algorithm> algorithms, List<Long> sizesBytes) {
      this.collective = collective;
      this.algorithms = algorithms;
      this.sizesBytes = sizesBytes;
    }

    /** Sets {@link WorkloadSpec#collective()}. */
    public Builder collective(Collective collective) {
      this.collective = collective;
      return this;
    }

    /** Sets {@link WorkloadSpec#algorithms()}. */
    public Builder algorithms(List<Algorithm> algorithms) {
      this.algorithms = algorithms;
      return this;
    }

    /** Sets {@link WorkloadSpec#sizesBytes()}. */
    public Builder sizesBytes(List<Long> sizesBytes) {
      this.sizesBytes = sizesBytes;
      return this;
    }

    /** Sets {@link WorkloadSpec#iterations()} (default 1). */
    public Builder iterations(int iterations) {
      this.iterations = iterations;
      return this;
    }

    /** Sets {@link WorkloadSpec#warmup()} (default 0). */
    public Builder warmup(int warmup) {
      this.warmup = warmup;
      return this;
    }

    /** Sets {@link WorkloadSpec#ppn()} (default 1). */
    public Builder ppn(int ppn) {
      this.ppn = ppn;
      return this;
    }

    /** Sets {@link WorkloadSpec#dataType()} (default float32). */
    public Builder dataType(DataType dataType) {
      this.dataType = dataType;
      return this;
    }

    /** Sets {@link WorkloadSpec#op()} (default sum). */
    public Builder op(ReduceOp op) {
      this.op = op;
      return this;
    }

    /** Sets {@link WorkloadSpec#hierarchical()} (default false). */
    public Builder hierarchical(boolean hierarchical) {
      this.hierarchical = hierarchical;
      return this;
    }

    /** Sets {@link WorkloadSpec#root()} (default 0). */
    public Builder root(int root) {
      this.root = root;
      return this;
    }

    /** Sets {@link WorkloadSpec#syntheticPayload()} (default false: real data). */
    public Builder syntheticPayload(boolean syntheticPayload) {
      this.syntheticPayload = syntheticPayload;
      return this;
    }

    /** Sets {@link WorkloadSpec#buffers()} (default, and for null, {@link WorkloadSpec#DEFAULT_BUFFERS}). */
    public Builder buffers(List<BufferLayout> buffers) {
      this.buffers = buffers;
      return this;
    }

    /** Sets {@link WorkloadSpec#window()} (default {@value WorkloadSpec#DEFAULT_WINDOW}). */
    public Builder window(int window) {
      this.window = window;
      return this;
    }

    /** Sets {@link WorkloadSpec#pipeline()}: null (the default) for every collective but a pipeline. */
    public Builder pipeline(PipelineSpec pipeline) {
      this.pipeline = pipeline;
      return this;
    }

    /** Sets {@link WorkloadSpec#channels()} (default 1: one ring). */
    public Builder channels(int channels) {
      this.channels = channels;
      return this;
    }

    /** Sets {@link WorkloadSpec#protocols()} (default {@link ProtocolSpec#SIMPLE_ONLY}). */
    public Builder protocols(ProtocolSpec protocols) {
      this.protocols = protocols;
      return this;
    }

    /** Sets {@link WorkloadSpec#syntheticFromBytes()} (default {@link WorkloadSpec#REAL_AT_EVERY_SIZE}). */
    public Builder syntheticFromBytes(long syntheticFromBytes) {
      this.syntheticFromBytes = syntheticFromBytes;
      return this;
    }

    /**
     * A workload of the components set so far, through the canonical constructor.
     *
     * @throws IllegalArgumentException as the compact constructor does, naming the rule broken
     */
    public WorkloadSpec build() {
      return new WorkloadSpec(collective, algorithms, sizesBytes, iterations, warmup, ppn, dataType, op, hierarchical,
          root, syntheticPayload, buffers, window, pipeline, syntheticFromBytes, channels, protocols);
    }
  }

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

  /** The same workload with the given payload mode (true: sizes only). */
  public WorkloadSpec withSyntheticPayload(boolean synthetic) {
    return toBuilder().syntheticPayload(synthetic).build();
  }

  /** The same workload measured with the given buffer layouts. */
  public WorkloadSpec withBuffers(List<BufferLayout> layouts) {
    return toBuilder().buffers(layouts).build();
  }

  /** The same workload with another window (see {@link Algorithm#WINDOW}). */
  public WorkloadSpec withWindow(int messages) {
    return toBuilder().window(messages).build();
  }

  /**
   * The same workload on real data below {@code bytes} and sizes only from it ({@link #REAL_AT_EVERY_SIZE}: real at
   * every size): what fits the heap.
   */
  public WorkloadSpec withSyntheticFrom(long bytes) {
    return toBuilder().syntheticFromBytes(bytes).build();
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

  /**
   * The protocol case {@code caseIndex} runs by on {@code worldSize} ranks, {@code ranksPerServer} to a server (what
   * {@link Algorithm#TREE} chains; see {@link RankLayout#ranksPerServer}): {@link LineProtocol#SIMPLE} for an
   * in-network algorithm, as NCCL's CollNet and NVLS run Simple only; the only candidate; or the tuner's choice
   * ({@link ProtocolSpec}): the flat ring allreduce by its shape on the case's channels, the algorithms that need the
   * fabric's grid, rings or circuits (and a pipeline) by the ring allreduce's shape on one channel, every other one by
   * its rank-0 schedule. The same on every rank and in every report: it needs only the workload and the world.
   */
  public LineProtocol protocolOfCase(int caseIndex, int worldSize, int ranksPerServer) {
    if (protocols.candidates().equals(List.of(LineProtocol.SIMPLE))) return LineProtocol.SIMPLE;
    Algorithm algorithm = Schedules.resolveForCase(this, caseIndex, worldSize);
    if (algorithm.inNetwork()) return LineProtocol.SIMPLE;
    if (!protocols.chooses()) return protocols.candidates().get(0);
    long sizeBytes = sizeOfCase(caseIndex);
    int elementBytes = Schedules.elementBytes(collective, dataType, op);
    int count = (int) Math.min(Integer.MAX_VALUE, sizeBytes / elementBytes);
    if (collective == Collective.ALLREDUCE && algorithm == Algorithm.RING && !hierarchical) {
      return protocols.choose(sizeBytes, worldSize,
          ChannelRingAllreduce.channelsFor(sizeBytes, count, worldSize, channels));
    }
    if (collective == Collective.PIPELINE || algorithm == Algorithm.DIMENSION_RING || algorithm.onEmbeddedRings()) {
      return protocols.choose(sizeBytes, worldSize, 1);
    }
    Schedule rankZero = Schedules.build(collective, algorithm, 0, worldSize, count, root, hierarchical, ppn, window,
        new RankLayout(null, null, null, ranksPerServer), 1);
    return protocols.choose(rankZero, elementBytes);
  }
}
