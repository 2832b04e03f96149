package io.fabemu.core.collective;

import io.fabemu.core.data.DataBuffer;
import io.fabemu.core.data.DataType;
import io.fabemu.core.data.ReduceOp;

/**
 * Seeded, deterministic, random-access input data: element {@code i} of rank {@code r} for a case of
 * {@code sizeBytes} is a pure function of (seed, sizeBytes, r, i), so every algorithm of a size sees the same data
 * and a checker can recompute any element without storing it. The mixing is SplitMix64's (Steele, Lea and Flood,
 * "Fast Splittable Pseudorandom Number Generators", OOPSLA 2014): one stream per (seed, size, rank), whose i-th
 * output is element i. No {@code java.util.Random}, no wall clock.
 *
 * <p>Value ranges are chosen so every result is exact whatever the reduction order, on every type:
 * SUM integers in [-4, 4]; PROD ±1; MAX/MIN integers in [-1000, 1000]; LAND/LOR/LXOR 0 or 1 with about 90% ones;
 * BAND/BOR/BXOR random bits (64 of them, truncated to the type); MAXLOC/MINLOC values in [-50, 50] with the rank as
 * location. Collectives that do not reduce use the same ranges (SUM's when no op is given).
 *
 * <p>Immutable and thread-safe.
 */
public final class InputGenerator {
  private static final long GOLDEN_GAMMA = 0x9E3779B97F4A7C15L;

  private static final int KIND_SUM = 0;
  private static final int KIND_SIGN = 1;
  private static final int KIND_RANGE = 2;
  private static final int KIND_LOGICAL = 3;
  private static final int KIND_BITS = 4;
  private static final int KIND_LOCATION = 5;

  private final long seed;
  private final DataType type;
  private final ReduceOp op;
  private final int kind;

  /**
   * @param seed the run's seed
   * @param type element type
   * @param op   reduce op whose value range to use (null: SUM's range)
   */
  public InputGenerator(long seed, DataType type, ReduceOp op) {
    this.seed = seed;
    this.type = type;
    this.op = op;
    this.kind = op == null ? KIND_SUM : switch (op) {
      case SUM -> KIND_SUM;
      case PROD -> KIND_SIGN;
      case MAX, MIN -> KIND_RANGE;
      case LAND, LOR, LXOR -> KIND_LOGICAL;
      case BAND, BOR, BXOR -> KIND_BITS;
      case MAXLOC, MINLOC -> KIND_LOCATION;
    };
  }

  public long seed() {
    return seed;
  }

  public DataType type() {
    return type;
  }

  /** The op whose ranges are used (may be null). */
  public ReduceOp op() {
    return op;
  }

  /**
   * Element {@code index} of rank {@code rank}'s input for a case of {@code sizeBytes}, as a long; buffers store it
   * with {@link DataBuffer#set(int, long)} (truncated for integer types, converted for floating point).
   */
  public long value(long sizeBytes, int rank, long index) {
    return map(SplitMix.mix(stream(sizeBytes, rank) + (index + 1) * GOLDEN_GAMMA));
  }

  /** Start of the stream of (sizeBytes, rank), for repeated {@link #valueInStream} calls. */
  long streamOf(long sizeBytes, int rank) {
    return stream(sizeBytes, rank);
  }

  /** Element {@code index} of the stream {@link #streamOf} returned; equals {@link #value}. */
  long valueInStream(long stream, long index) {
    return map(SplitMix.mix(stream + (index + 1) * GOLDEN_GAMMA));
  }

  /** Location of rank {@code rank}'s elements (MAXLOC/MINLOC): the rank itself. */
  public int location(int rank) {
    return rank;
  }

  /**
   * Writes elements [firstIndex, firstIndex + count) of rank {@code rank}'s input into {@code target} from
   * {@code targetOffset}; locations too when the buffer has them.
   */
  public void fill(long sizeBytes, int rank, long firstIndex, DataBuffer target, int targetOffset, int count) {
    if (target.type() != type) {
      throw new IllegalArgumentException("generator of " + type + " cannot fill " + target);
    }
    long state = stream(sizeBytes, rank) + (firstIndex + 1) * GOLDEN_GAMMA;
    Object values = target.valuesArray();
    switch (type) {
      case INT16 -> {
        short[] a = (short[]) values;
        for (int i = 0; i < count; i++, state += GOLDEN_GAMMA) a[targetOffset + i] = (short) map(SplitMix.mix(state));
      }
      case INT32 -> {
        int[] a = (int[]) values;
        for (int i = 0; i < count; i++, state += GOLDEN_GAMMA) a[targetOffset + i] = (int) map(SplitMix.mix(state));
      }
      case INT64 -> {
        long[] a = (long[]) values;
        for (int i = 0; i < count; i++, state += GOLDEN_GAMMA) a[targetOffset + i] = map(SplitMix.mix(state));
      }
      case FLOAT32 -> {
        float[] a = (float[]) values;
        for (int i = 0; i < count; i++, state += GOLDEN_GAMMA) a[targetOffset + i] = (float) map(SplitMix.mix(state));
      }
      case FLOAT64 -> {
        double[] a = (double[]) values;
        for (int i = 0; i < count; i++, state += GOLDEN_GAMMA) a[targetOffset + i] = (double) map(SplitMix.mix(state));
      }
    }
    int[] locations = target.locationsArray();
    if (locations != null) {
      java.util.Arrays.fill(locations, targetOffset, targetOffset + count, location(rank));
    }
  }

  /** Start of the SplitMix64 stream of (seed, sizeBytes, rank). */
  private long stream(long sizeBytes, int rank) {
    long h = SplitMix.mix(seed + GOLDEN_GAMMA);
    h = SplitMix.mix(h ^ (sizeBytes * 0xD6E8FEB86659FD93L));
    return SplitMix.mix(h ^ ((rank + 1L) * 0xA0761D6478BD642FL));
  }

  private long map(long h) {
    long high = h >>> 32;
    return switch (kind) {
      case KIND_SUM -> ((high * 9) >>> 32) - 4;
      case KIND_SIGN -> (h & 1) == 0 ? 1 : -1;
      case KIND_RANGE -> ((high * 2001) >>> 32) - 1000;
      case KIND_LOGICAL -> ((high * 10) >>> 32) == 0 ? 0 : 1;
      case KIND_BITS -> h;
      default -> ((high * 101) >>> 32) - 50;
    };
  }

  /** SplitMix64's output function (Steele, Lea and Flood 2014; the finalizer of {@code java.util.SplittableRandom}). */
  static final class SplitMix {
    private SplitMix() {}

    static long mix(long z) {
      z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
      z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
      return z ^ (z >>> 31);
    }
  }
}
