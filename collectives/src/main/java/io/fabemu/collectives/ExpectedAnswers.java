package io.fabemu.collectives;

import io.fabemu.core.data.DataBuffer;
import io.fabemu.core.data.DataType;
import io.fabemu.core.data.ReduceOp;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;
import java.util.stream.IntStream;

/**
 * The exact answer of every collective, for checking each rank's output bit for bit. One instance per JVM serves
 * every rank hosted there; it is thread-safe.
 *
 * <p>Reducing collectives (allreduce, reduce, reduce-scatter) compare with the full reduction of all ranks'
 * inputs, computed once per size (with {@link DataBuffer#reduceFrom}, the same arithmetic MPI ranks would use)
 * and cached. The others (broadcast, gather, scatter, allgather, all-to-all, send/recv) compare element by element
 * with the {@link InputGenerator}, which is random access, so nothing large is stored. The cost per check is
 * linear in the output, e.g. 256 ranks × 1 MiB allreduce reduces 256 MiB once per size, then compares 1 MiB per
 * rank and iteration.
 */
public final class ExpectedAnswers {
  private final InputGenerator inputs;
  private final int worldSize;
  private final ReduceOp op;
  /** Size in bytes -> its reduction; the holder is created cheaply, the reduction computed once outside the map. */
  private final ConcurrentHashMap<Long, Lazy> reductions = new ConcurrentHashMap<>();
  private final ConcurrentHashMap<Long, Lazy> blockReductions = new ConcurrentHashMap<>();
  /** (size, server, input offset, length) -> the reduction over one server's NPUs, for pipeline checks. */
  private final ConcurrentHashMap<List<Long>, Once> serverReductions = new ConcurrentHashMap<>();

  /** A value made once, on first use, outside the map's lock (as {@link Lazy}, for any maker). */
  private static final class Once {
    private final Supplier<DataBuffer> maker;
    private volatile DataBuffer value;

    Once(Supplier<DataBuffer> maker) {
      this.maker = maker;
    }

    DataBuffer get() {
      DataBuffer v = value;
      if (v == null) {
        synchronized (this) {
          v = value;
          if (v == null) {
            v = maker.get();
            value = v;
          }
        }
      }
      return v;
    }
  }

  /** Computes a reduction once, on first use, without holding a lock of the map. */
  private final class Lazy {
    private final long sizeBytes;
    private final int length;
    private volatile DataBuffer value;

    Lazy(long sizeBytes, int length) {
      this.sizeBytes = sizeBytes;
      this.length = length;
    }

    DataBuffer get() {
      DataBuffer v = value;
      if (v == null) {
        synchronized (this) {
          v = value;
          if (v == null) {
            v = reduce(sizeBytes, length);
            value = v;
          }
        }
      }
      return v;
    }
  }

  /**
   * @param seed      the run's seed (the one given to every {@code RankWorkload})
   * @param type      element type
   * @param op        reduce op (null for collectives that do not reduce)
   * @param worldSize ranks in the run
   */
  public ExpectedAnswers(long seed, DataType type, ReduceOp op, int worldSize) {
    if (worldSize < 1) {
      throw new IllegalArgumentException("world size must be at least 1, got " + worldSize);
    }
    if (op != null && !op.isDefinedOn(type)) {
      throw new IllegalArgumentException("reduce op " + op.configName() + " is not defined on " + type.configName());
    }
    this.inputs = new InputGenerator(seed, type, op);
    this.worldSize = worldSize;
    this.op = op;
  }

  /** The answers for a workload: its op when the collective reduces (the others ignore the op). */
  public static ExpectedAnswers forWorkload(WorkloadSpec workload, int worldSize, long seed) {
    return new ExpectedAnswers(seed, workload.dataType(), effectiveOp(workload), worldSize);
  }

  /** The op whose ranges inputs use: the workload's op for reducing collectives, null (SUM ranges) otherwise. */
  static ReduceOp effectiveOp(WorkloadSpec workload) {
    return workload.collective().reduces() ? workload.op() : null;
  }

  public InputGenerator inputs() {
    return inputs;
  }

  public int worldSize() {
    return worldSize;
  }

  public long seed() {
    return inputs.seed();
  }

  public DataType type() {
    return inputs.type();
  }

  /** The op reductions use (null when none). */
  public ReduceOp op() {
    return op;
  }

  /**
   * Number of elements of {@code rank}'s result that differ from the exact answer (0 for ranks that own no result,
   * e.g. non-roots of reduce and gather, the idle rank of ping-pong, and barriers).
   *
   * @param collective the collective
   * @param root       its root (ignored unless rooted)
   * @param sizeBytes  the case's size per rank
   * @param count      elements per rank (per block)
   * @param rank       the rank checked
   * @param result     the buffer holding the rank's result (see {@link Schedule#resultBuffer()})
   */
  public long countWrong(Collective collective, int root, long sizeBytes, int count, int rank, DataBuffer result) {
    return countWrong(collective, Algorithm.AUTO, root, sizeBytes, count, rank, result);
  }

  /**
   * Like {@link #countWrong(Collective, int, long, int, int, DataBuffer)} for a case run with {@code algorithm} (as
   * resolved): the answer differs by algorithm only for send/recv, where {@link Algorithm#RING} leaves each rank
   * the previous rank's input and ping-pong ({@code AUTO} resolves to it) its pair's initiator's.
   */
  public long countWrong(Collective collective, Algorithm algorithm, int root, long sizeBytes, int count, int rank,
                         DataBuffer result) {
    if (collective == Collective.SENDRECV && algorithm == Algorithm.RING) {
      return compareInput(result, 0, sizeBytes, RingSendRecv.source(worldSize, rank), 0, count);
    }
    int p = worldSize;
    return switch (collective) {
      case ALLREDUCE -> result.countMismatches(0, reduction(sizeBytes, count), 0, count);
      case REDUCE -> rank == root ? result.countMismatches(0, reduction(sizeBytes, count), 0, count) : 0;
      case REDUCE_SCATTER -> result.countMismatches(0, blockReduction(sizeBytes, count), rank * count, count);
      case BROADCAST -> compareInput(result, 0, sizeBytes, root, 0, count);
      case GATHER -> {
        long wrong = 0;
        if (rank == root) {
          for (int r = 0; r < p; r++) wrong += compareInput(result, r * count, sizeBytes, r, 0, count);
        }
        yield wrong;
      }
      case SCATTER -> compareInput(result, 0, sizeBytes, root, (long) rank * count, count);
      case ALLGATHER -> {
        long wrong = 0;
        for (int r = 0; r < p; r++) wrong += compareInput(result, r * count, sizeBytes, r, 0, count);
        yield wrong;
      }
      case ALLTOALL -> {
        long wrong = 0;
        for (int r = 0; r < p; r++) wrong += compareInput(result, r * count, sizeBytes, r, (long) rank * count, count);
        yield wrong;
      }
      case SENDRECV -> PingPong.active(p, rank) ? compareInput(result, 0, sizeBytes, rank & ~1, 0, count) : 0;
      case BARRIER -> 0;
      case PIPELINE -> throw new IllegalArgumentException("a pipeline is checked with its pipeline: "
          + "countWrongPipeline");
    };
  }

  /**
   * Wrong elements of {@code rank}'s output after a {@link PipelineIteration}: the global AllReduce's result, and
   * every activation and gradient the rank received, each against what the sending stage's collective gives the
   * NPU with the rank's number (see {@link PipelineIteration} for the layout).
   *
   * @param count       elements of an activation per NPU
   * @param globalCount elements of the global AllReduce
   */
  public long countWrongPipeline(PipelineSpec spec, long sizeBytes, int count, int globalCount, int rank,
                                 DataBuffer output) {
    int n = spec.npusPerServer();
    int server = rank / n;
    int npu = rank % n;
    int microBatches = spec.microBatches();
    long wrong = globalCount == 0 ? 0 : output.countMismatches(0, reduction(sizeBytes, globalCount), 0, globalCount);
    for (int m = 0; m < microBatches; m++) {
      if (server > 0) {
        wrong += wrongActivation(spec, sizeBytes, count, globalCount, server - 1, npu, m, output,
            globalCount + m * count);
      }
      if (server < spec.servers() - 1) {
        wrong += wrongActivation(spec, sizeBytes, count, globalCount, server + 1, npu, microBatches + m, output,
            globalCount + (microBatches + m) * count);
      }
    }
    return wrong;
  }

  /** Mismatches of {@code actual} at {@code at} with NPU {@code npu} of {@code server}'s stage result of block q. */
  private long wrongActivation(PipelineSpec spec, long sizeBytes, int count, int globalCount, int server, int npu,
                               int q, DataBuffer actual, int at) {
    int n = spec.npusPerServer();
    long contribution = spec.stageCollective().contributionCount(count, n);
    long inputOffset = globalCount + q * contribution;
    int first = server * n;
    return switch (spec.stageCollective()) {
      case NONE -> compareInput(actual, at, sizeBytes, first + npu, inputOffset, count);
      case ALLGATHER -> {
        int slice = count / n;
        long wrong = 0;
        for (int j = 0; j < n; j++) {
          wrong += compareInput(actual, at + j * slice, sizeBytes, first + j, inputOffset, slice);
        }
        yield wrong;
      }
      case ALLREDUCE -> actual.countMismatches(at, serverReduction(sizeBytes, first, n, inputOffset, count), 0,
          count);
      case REDUCE_SCATTER -> actual.countMismatches(at,
          serverReduction(sizeBytes, first, n, inputOffset, (int) contribution), npu * count, count);
    };
  }

  /** The reduction of input elements [offset, offset + length) over ranks first..first + n - 1, in rank order. */
  private DataBuffer serverReduction(long sizeBytes, int first, int n, long offset, int length) {
    return serverReductions.computeIfAbsent(List.of(sizeBytes, (long) first, offset, (long) length),
        key -> new Once(() -> {
          boolean locations = op.carriesLocation();
          DataBuffer accumulator = DataBuffer.allocate(inputs.type(), length, locations);
          DataBuffer next = DataBuffer.allocate(inputs.type(), length, locations);
          inputs.fill(sizeBytes, first, offset, accumulator, 0, length);
          for (int r = first + 1; r < first + n; r++) {
            inputs.fill(sizeBytes, r, offset, next, 0, length);
            accumulator.reduceFrom(op, 0, next);
          }
          return accumulator;
        })).get();
  }

  /**
   * Computes now every reduction {@code workload} will be checked against (one per size carrying real data, for the
   * reducing collectives), so that no device waits on one mid-run. The others need nothing: they are checked against the
   * generator directly.
   */
  public void prepare(WorkloadSpec workload) {
    Collective collective = workload.collective();
    if (!collective.reduces()) {
      return;
    }
    int elementBytes = Schedules.elementBytes(collective, workload.dataType(), workload.op());
    for (long sizeBytes : workload.sizesBytes()) {
      // The sizes the heap budget runs on sizes only are never checked: their reductions would only take heap.
      if (workload.syntheticAtSize(sizeBytes)) continue;
      int count = (int) (sizeBytes / elementBytes);
      if (collective == Collective.PIPELINE) {
        // The stages' reductions are made on first use, per server; the global AllReduce's now.
        int globalCount = (int) (workload.pipeline().globalBytes(sizeBytes) / elementBytes);
        if (globalCount > 0) reduction(sizeBytes, globalCount);
      } else if (collective == Collective.REDUCE_SCATTER) {
        blockReduction(sizeBytes, count);
      } else {
        reduction(sizeBytes, count);
      }
    }
  }

  /**
   * The reduction over all ranks of input elements [0, count) for a case of {@code sizeBytes}; computed once per
   * size and cached. Callers must not modify it.
   */
  public DataBuffer reduction(long sizeBytes, int count) {
    return checkLength(reductions.computeIfAbsent(sizeBytes, s -> new Lazy(s, count)).get(), count, sizeBytes);
  }

  /** The reduction of input elements [0, p·count): reduce-scatter's blocks. Cached; do not modify. */
  public DataBuffer blockReduction(long sizeBytes, int count) {
    int length = Math.multiplyExact(worldSize, count);
    return checkLength(blockReductions.computeIfAbsent(sizeBytes, s -> new Lazy(s, length)).get(), length,
        sizeBytes);
  }

  private static DataBuffer checkLength(DataBuffer cached, int length, long sizeBytes) {
    if (cached.count() != length) {
      throw new IllegalArgumentException("size " + sizeBytes + " B was first asked with " + cached.count()
          + " elements, now with " + length);
    }
    return cached;
  }

  private DataBuffer reduce(long sizeBytes, int length) {
    if (op == null) {
      throw new IllegalStateException("no reduce op given");
    }
    boolean locations = op.carriesLocation();
    DataBuffer accumulator = DataBuffer.allocate(inputs.type(), length, locations);
    // Element ranges are independent and each element is reduced over ranks 0..p-1 in order, so splitting the
    // range over cores gives the same bits as one pass; it spares the device threads waiting on this answer.
    int chunks = Math.max(1, Math.min(length / REDUCE_CHUNK_ELEMENTS, 4 * Runtime.getRuntime().availableProcessors()));
    IntStream.range(0, chunks).parallel().forEach(chunk -> {
      int from = (int) ((long) length * chunk / chunks);
      int to = (int) ((long) length * (chunk + 1) / chunks);
      DataBuffer part = DataBuffer.allocate(inputs.type(), to - from, locations);
      DataBuffer next = DataBuffer.allocate(inputs.type(), to - from, locations);
      inputs.fill(sizeBytes, 0, from, part, 0, to - from);
      for (int r = 1; r < worldSize; r++) {
        inputs.fill(sizeBytes, r, from, next, 0, to - from);
        part.reduceFrom(op, 0, next);
      }
      accumulator.copyFrom(from, part);
    });
    return accumulator;
  }

  /** Below this many elements per chunk, splitting the reduction over cores is not worth it. */
  private static final int REDUCE_CHUNK_ELEMENTS = 16_384;

  /**
   * Mismatches between actual[actualOffset..+count) and elements [firstIndex..+count) of rank {@code source}'s
   * input, recomputed from the generator. Locations, when the buffer has them, must be the source rank.
   */
  private long compareInput(DataBuffer actual, int actualOffset, long sizeBytes, int source, long firstIndex,
                            int count) {
    // Regenerate the expected input chunk by chunk (the generator's fast path), then compare bit for bit.
    DataBuffer expected = DataBuffer.allocate(actual.type(), Math.min(count, COMPARE_CHUNK_ELEMENTS),
        actual.hasLocations());
    long wrong = 0;
    for (int done = 0; done < count; done += expected.count()) {
      int n = Math.min(expected.count(), count - done);
      inputs.fill(sizeBytes, source, firstIndex + done, expected, 0, n);
      wrong += actual.countMismatches(actualOffset + done, expected, 0, n);
    }
    return wrong;
  }

  /** Elements regenerated at a time when checking a copy of some rank's input. */
  private static final int COMPARE_CHUNK_ELEMENTS = 4096;
}
