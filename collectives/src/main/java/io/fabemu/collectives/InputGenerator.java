package io.fabemu.collectives;

import io.fabemu.core.data.DataBuffer;
import io.fabemu.core.data.DataType;
import io.fabemu.core.data.ReduceOp;

/**
 * Seeded, deterministic, random-access input data: element {@code i} of rank {@code r} for a case of
 * {@code sizeBytes} is a pure function of (seed, sizeBytes, r, i), so every algorithm of a size sees the same data
 * and a checker can recompute any element without storing it. The mixing is SplitMix64's (Steele, Lea and Flood,
 * "Fast Splittable Pseudorandom Number Generators", OOPSLA 2014): one stream per (seed, size, rank); each output
 * gives four elements, 16 bits each (all 64 bits go to one element for the bitwise ops). No {@code java.util.Random},
 * no wall clock.
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
  /** Elements generated per pass of {@link #fill}. */
  private static final int FILL_CHUNK = 1024;

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
    return valueInStream(stream(sizeBytes, rank), index);
  }

  /** Start of the stream of (sizeBytes, rank), for repeated {@link #valueInStream} calls. */
  long streamOf(long sizeBytes, int rank) {
    return stream(sizeBytes, rank);
  }

  /** Element {@code index} of the stream {@link #streamOf} returned; equals {@link #value}. */
  long valueInStream(long stream, long index) {
    if (kind == KIND_BITS) {
      return SplitMix.mix(stream + (index + 1) * GOLDEN_GAMMA);
    }
    long h = SplitMix.mix(stream + ((index >>> 2) + 1) * GOLDEN_GAMMA);
    return mapLane((h >>> ((index & 3) << 4)) & 0xFFFF);
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
    java.util.Objects.checkFromIndexSize(targetOffset, count, target.count());
    long stream = stream(sizeBytes, rank);
    Object values = target.valuesArray();
    long[] chunk = new long[Math.min(count, FILL_CHUNK)];
    for (int done = 0; done < count; done += chunk.length) {
      int n = Math.min(chunk.length, count - done);
      generate(stream, firstIndex + done, chunk, n);
      int at = target.arrayOffset() + targetOffset + done;
      switch (type) {
        case INT8 -> {
          byte[] a = (byte[]) values;
          for (int i = 0; i < n; i++) a[at + i] = (byte) chunk[i];
        }
        case INT16 -> {
          short[] a = (short[]) values;
          for (int i = 0; i < n; i++) a[at + i] = (short) chunk[i];
        }
        case INT32 -> {
          int[] a = (int[]) values;
          for (int i = 0; i < n; i++) a[at + i] = (int) chunk[i];
        }
        case INT64 -> System.arraycopy(chunk, 0, values, at, n);
        case FLOAT32 -> {
          float[] a = (float[]) values;
          for (int i = 0; i < n; i++) a[at + i] = (float) chunk[i];
        }
        case FLOAT64 -> {
          double[] a = (double[]) values;
          for (int i = 0; i < n; i++) a[at + i] = (double) chunk[i];
        }
      }
    }
    int[] locations = target.locationsArray();
    if (locations != null) {
      int from = target.arrayOffset() + targetOffset;
      java.util.Arrays.fill(locations, from, from + count, location(rank));
    }
  }

  /**
   * Elements [firstIndex, firstIndex + n) of {@code stream} into {@code out}; one hash serves four elements. The
   * lanes of whole hashes are unrolled four at a time, with SUM's mapping inlined: inputs are regenerated for every
   * rank and iteration of a real-data run, and with the per-element branch and switch of the plain loop it took a
   * fifth of the CPU samples of a 1,024-rank Rabenseifner run with real data (JFR, the SMPI comparison's cell).
   */
  private void generate(long stream, long firstIndex, long[] out, int n) {
    if (kind == KIND_BITS) {
      for (int i = 0; i < n; i++) out[i] = SplitMix.mix(stream + (firstIndex + i + 1) * GOLDEN_GAMMA);
      return;
    }
    long index = firstIndex;
    int i = 0;
    // Head: the lanes of a hash the range starts inside.
    if ((index & 3) != 0) {
      long h = SplitMix.mix(stream + ((index >>> 2) + 1) * GOLDEN_GAMMA);
      for (; i < n && (index & 3) != 0; i++, index++) {
        out[i] = mapLane((h >>> ((index & 3) << 4)) & 0xFFFF);
      }
    }
    // Body: whole hashes, four lanes each; index is a multiple of 4 here.
    long word = (index >>> 2) + 1;
    int whole = i + ((n - i) & ~3);
    if (kind == KIND_SUM) {
      for (; i < whole; i += 4, word++) {
        long h = SplitMix.mix(stream + word * GOLDEN_GAMMA);
        out[i] = (((h & 0xFFFF) * 9) >>> 16) - 4;
        out[i + 1] = ((((h >>> 16) & 0xFFFF) * 9) >>> 16) - 4;
        out[i + 2] = ((((h >>> 32) & 0xFFFF) * 9) >>> 16) - 4;
        out[i + 3] = (((h >>> 48) * 9) >>> 16) - 4;
      }
    } else {
      for (; i < whole; i += 4, word++) {
        long h = SplitMix.mix(stream + word * GOLDEN_GAMMA);
        out[i] = mapLane(h & 0xFFFF);
        out[i + 1] = mapLane((h >>> 16) & 0xFFFF);
        out[i + 2] = mapLane((h >>> 32) & 0xFFFF);
        out[i + 3] = mapLane(h >>> 48);
      }
    }
    // Tail: the first lanes of one more hash.
    if (i < n) {
      long h = SplitMix.mix(stream + word * GOLDEN_GAMMA);
      for (int lane = 0; i < n; i++, lane++) {
        out[i] = mapLane((h >>> (lane << 4)) & 0xFFFF);
      }
    }
  }

  /** Start of the SplitMix64 stream of (seed, sizeBytes, rank). */
  private long stream(long sizeBytes, int rank) {
    long h = SplitMix.mix(seed + GOLDEN_GAMMA);
    h = SplitMix.mix(h ^ (sizeBytes * 0xD6E8FEB86659FD93L));
    return SplitMix.mix(h ^ ((rank + 1L) * 0xA0761D6478BD642FL));
  }

  /** A value in the kind's range from 16 random bits (multiply-shift: no division, nearly uniform). */
  private long mapLane(long lane) {
    return switch (kind) {
      case KIND_SUM -> ((lane * 9) >>> 16) - 4;
      case KIND_SIGN -> (lane & 1) == 0 ? 1 : -1;
      case KIND_RANGE -> ((lane * 2001) >>> 16) - 1000;
      case KIND_LOGICAL -> ((lane * 10) >>> 16) == 0 ? 0 : 1;
      default -> ((lane * 101) >>> 16) - 50;
    };
  }

  /** SplitMix64's output function (Steele, Lea and Flood 2014; the finalizer of {@code java.util.SplittableRandom}). */
  public static final class SplitMix {
    private SplitMix() {}

    public static long mix(long z) {
      z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
      z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
      return z ^ (z >>> 31);
    }
  }
}
