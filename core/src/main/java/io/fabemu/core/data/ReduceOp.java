package io.fabemu.core.data;

import java.util.Locale;

/**
 * Reduction operations, as MPI defines them. All are associative and commutative on the values we generate
 * (integers wrap around; floating-point inputs are small integers, so sums and products are exact), which is why
 * every algorithm's output can be compared bit for bit with the exact answer.
 */
public enum ReduceOp {
  SUM, PROD, MAX, MIN,
  /** Logical and/or/xor: operands are 0 (false) or non-zero (true); the result is 0 or 1. Integer types only. */
  LAND, LOR, LXOR,
  /** Bitwise and/or/xor. Integer types only. */
  BAND, BOR, BXOR,
  /** Value and location pairs: the larger (smaller) value wins, ties go to the smaller location. */
  MAXLOC, MINLOC;

  /** True for ops that carry a location with every value. */
  public boolean carriesLocation() {
    return this == MAXLOC || this == MINLOC;
  }

  /** True when MPI defines this op on {@code type}. Logical and bitwise ops are not defined on floating point. */
  public boolean isDefinedOn(DataType type) {
    return switch (this) {
      case LAND, LOR, LXOR, BAND, BOR, BXOR -> !type.isFloatingPoint();
      default -> true;
    };
  }

  public String configName() {
    return name().toLowerCase(Locale.ROOT);
  }

  /**
   * Parses a scenario name, which is case-sensitive (lower case, as {@link #configName()} writes it, like every
   * other name in a scenario); returns null when unknown.
   */
  public static ReduceOp fromConfigName(String name) {
    for (ReduceOp op : values()) {
      if (op.configName().equals(name)) {
        return op;
      }
    }
    return null;
  }

  long apply(long a, long b) {
    return switch (this) {
      case SUM -> a + b;
      case PROD -> a * b;
      case MAX, MAXLOC -> Math.max(a, b);
      case MIN, MINLOC -> Math.min(a, b);
      case LAND -> (a != 0 && b != 0) ? 1 : 0;
      case LOR -> (a != 0 || b != 0) ? 1 : 0;
      case LXOR -> ((a != 0) != (b != 0)) ? 1 : 0;
      case BAND -> a & b;
      case BOR -> a | b;
      case BXOR -> a ^ b;
    };
  }

  double apply(double a, double b) {
    return switch (this) {
      case SUM -> a + b;
      case PROD -> a * b;
      case MAX, MAXLOC -> Math.max(a, b);
      case MIN, MINLOC -> Math.min(a, b);
      default -> throw new IllegalArgumentException(this + " is not defined on floating-point data");
    };
  }
}
