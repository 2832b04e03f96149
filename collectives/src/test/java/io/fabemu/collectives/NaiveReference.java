package io.fabemu.collectives;

import io.fabemu.core.data.DataBuffer;
import io.fabemu.core.data.DataType;
import io.fabemu.core.data.ReduceOp;

/**
 * An independent, deliberately naive reference for tests: recomputes what every output element must be from the
 * generator's values with plain long/double arithmetic (not {@link DataBuffer#reduceFrom}, not
 * {@link ExpectedAnswers}) and compares raw bits.
 */
public final class NaiveReference {
  private NaiveReference() {}

  /** Number of mismatching elements of {@code rank}'s result, with a description of the first one. */
  public static String check(Collective c, int p, int root, long sizeBytes, int count, DataType type, ReduceOp op,
                      InputGenerator gen, int rank, DataBuffer result) {
    return check(c, Algorithm.AUTO, p, root, sizeBytes, count, type, op, gen, rank, result);
  }

  /**
   * Like {@link #check(Collective, int, int, long, int, DataType, ReduceOp, InputGenerator, int, DataBuffer)} for a
   * case run with {@code a}: send/recv over a {@link Algorithm#RING} leaves every rank the previous rank's input.
   */
  public static String check(Collective c, Algorithm a, int p, int root, long sizeBytes, int count, DataType type,
                             ReduceOp op, InputGenerator gen, int rank, DataBuffer result) {
    if (c == Collective.SENDRECV && a == Algorithm.RING) {
      int from = (rank - 1 + p) % p;
      for (int k = 0; k < count; k++) {
        long expected = raw(type, gen.value(sizeBytes, from, k));
        long actual = raw(type, result, k);
        if (actual != expected) {
          return "element " + k + ": expected raw " + expected + " (rank " + from + "), got raw " + actual;
        }
      }
      return null;
    }
    int wrong = 0;
    String first = null;
    int outputs = outputCount(c, p, root, count, rank);
    if (result.count() < outputs) {
      return "result buffer has " + result.count() + " elements, expected at least " + outputs;
    }
    boolean loc = c.reduces() && op.carriesLocation();
    for (int k = 0; k < outputs; k++) {
      long[] expected = expected(c, p, root, sizeBytes, count, type, op, gen, rank, k);
      long actual = raw(type, result, k);
      boolean ok = actual == expected[0] && (!loc || result.locationsArray()[k] == expected[1]);
      if (!ok) {
        wrong++;
        if (first == null) {
          first = "element " + k + ": expected raw " + expected[0] + (loc ? " loc " + expected[1] : "")
              + ", got raw " + actual + (loc ? " loc " + result.locationsArray()[k] : "");
        }
      }
    }
    return wrong == 0 ? null : wrong + " wrong elements; first " + first;
  }

  private static int outputCount(Collective c, int p, int root, int count, int rank) {
    return switch (c) {
      case ALLREDUCE, REDUCE_SCATTER, BROADCAST, SCATTER -> count;
      case REDUCE -> rank == root ? count : 0;
      case GATHER -> rank == root ? p * count : 0;
      case ALLGATHER, ALLTOALL -> p * count;
      case SENDRECV -> PingPong.active(p, rank) ? count : 0;
      case BARRIER -> 0;
      case PIPELINE -> throw new AssertionError("a pipeline iteration is checked by its own tests");
    };
  }

  /** {raw value bits, location} of output element k. */
  private static long[] expected(Collective c, int p, int root, long size, int count, DataType type, ReduceOp op,
                                 InputGenerator gen, int rank, int k) {
    return switch (c) {
      case ALLREDUCE, REDUCE -> reduceAt(p, size, type, op, gen, k);
      case REDUCE_SCATTER -> reduceAt(p, size, type, op, gen, (long) rank * count + k);
      case BROADCAST -> new long[] {raw(type, gen.value(size, root, k)), root};
      case SCATTER -> new long[] {raw(type, gen.value(size, root, (long) rank * count + k)), root};
      case GATHER, ALLGATHER -> new long[] {raw(type, gen.value(size, k / count, k % count)), k / count};
      case ALLTOALL -> new long[] {raw(type, gen.value(size, k / count, (long) rank * count + k % count)), 0};
      case SENDRECV -> new long[] {raw(type, gen.value(size, rank & ~1, k)), 0};
      case BARRIER, PIPELINE -> throw new AssertionError();
    };
  }

  private static long[] reduceAt(int p, long size, DataType type, ReduceOp op, InputGenerator gen, long index) {
    if (type.isFloatingPoint()) {
      double acc = typed(type, gen.value(size, 0, index));
      int loc = 0;
      for (int r = 1; r < p; r++) {
        double v = typed(type, gen.value(size, r, index));
        switch (op) {
          case SUM -> acc += v;
          case PROD -> acc *= v;
          case MAX -> acc = Math.max(acc, v);
          case MIN -> acc = Math.min(acc, v);
          case MAXLOC -> {
            if (v > acc) {
              acc = v;
              loc = r;
            }
          }
          case MINLOC -> {
            if (v < acc) {
              acc = v;
              loc = r;
            }
          }
          default -> throw new AssertionError(op + " on " + type);
        }
      }
      long bits = type == DataType.FLOAT32 ? Float.floatToRawIntBits((float) acc) : Double.doubleToRawLongBits(acc);
      return new long[] {bits, loc};
    }
    long acc = narrow(type, gen.value(size, 0, index));
    int loc = 0;
    long nonZero = acc != 0 ? 1 : 0;
    boolean all = acc != 0;
    boolean any = acc != 0;
    for (int r = 1; r < p; r++) {
      long v = narrow(type, gen.value(size, r, index));
      all &= v != 0;
      any |= v != 0;
      nonZero += v != 0 ? 1 : 0;
      switch (op) {
        case SUM -> acc = narrow(type, acc + v);
        case PROD -> acc = narrow(type, acc * v);
        case MAX -> acc = Math.max(acc, v);
        case MIN -> acc = Math.min(acc, v);
        case BAND -> acc &= v;
        case BOR -> acc |= v;
        case BXOR -> acc ^= v;
        case MAXLOC -> {
          if (v > acc) {
            acc = v;
            loc = r;
          }
        }
        case MINLOC -> {
          if (v < acc) {
            acc = v;
            loc = r;
          }
        }
        case LAND, LOR, LXOR -> { }
      }
    }
    switch (op) {
      case LAND -> acc = all ? 1 : 0;
      case LOR -> acc = any ? 1 : 0;
      case LXOR -> acc = nonZero % 2;
      default -> { }
    }
    return new long[] {narrow(type, acc), loc};
  }

  /** The value as the type stores it, sign-extended (integers) . */
  private static long narrow(DataType type, long v) {
    return switch (type) {
      case INT8 -> (byte) v;
      case INT16 -> (short) v;
      case INT32 -> (int) v;
      default -> v;
    };
  }

  private static double typed(DataType type, long v) {
    return type == DataType.FLOAT32 ? (double) (float) v : (double) v;
  }

  /** Raw bits of a generator value once stored in the type. */
  static long raw(DataType type, long v) {
    return switch (type) {
      case INT8 -> (byte) v;
      case INT16 -> (short) v;
      case INT32 -> (int) v;
      case INT64 -> v;
      case FLOAT32 -> Float.floatToRawIntBits((float) v);
      case FLOAT64 -> Double.doubleToRawLongBits((double) v);
    };
  }

  /** Raw bits of element k of a buffer. */
  static long raw(DataType type, DataBuffer b, int k) {
    Object a = b.valuesArray();
    return switch (type) {
      case INT8 -> ((byte[]) a)[k];
      case INT16 -> ((short[]) a)[k];
      case INT32 -> ((int[]) a)[k];
      case INT64 -> ((long[]) a)[k];
      case FLOAT32 -> Float.floatToRawIntBits(((float[]) a)[k]);
      case FLOAT64 -> Double.doubleToRawLongBits(((double[]) a)[k]);
    };
  }
}
