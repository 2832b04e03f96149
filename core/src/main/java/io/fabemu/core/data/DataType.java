package io.fabemu.core.data;

import java.util.List;
import java.util.Locale;

/**
 * Element types a collective moves and reduces, as in MPI (MPI_CHAR, MPI_SHORT, MPI_INT, MPI_LONG, MPI_FLOAT,
 * MPI_DOUBLE). Integers wrap around as in C. The order is part of the wire format and of the INC operand type codes
 * ({@code ordinal()}): a new type goes at the end.
 */
public enum DataType {
  INT16(2, false),
  INT32(4, false),
  INT64(8, false),
  FLOAT32(4, true),
  FLOAT64(8, true),
  /** A signed byte, C's char: OMB's MPI_CHAR. */
  INT8(1, false);

  private final int sizeBytes;
  private final boolean floatingPoint;

  DataType(int sizeBytes, boolean floatingPoint) {
    this.sizeBytes = sizeBytes;
    this.floatingPoint = floatingPoint;
  }

  /** Bytes per element. */
  public int sizeBytes() {
    return sizeBytes;
  }

  public boolean isFloatingPoint() {
    return floatingPoint;
  }

  /** Name as written in scenarios and reports: {@code int16}, {@code float32}, ... */
  public String configName() {
    return name().toLowerCase(Locale.ROOT);
  }

  /** Name as nccl-tests prints it. */
  public String ncclName() {
    return switch (this) {
      case INT8 -> "int8";
      case INT16 -> "int16";
      case INT32 -> "int32";
      case INT64 -> "int64";
      case FLOAT32 -> "float";
      case FLOAT64 -> "double";
    };
  }

  /** Every type in the order messages list them: the integers, then the floating-point types, each by size. */
  public static List<DataType> inNamingOrder() {
    return List.of(INT8, INT16, INT32, INT64, FLOAT32, FLOAT64);
  }

  /**
   * Parses a scenario name, which is case-sensitive (lower case, as {@link #configName()} writes it, like every
   * other name in a scenario); returns null when unknown.
   */
  public static DataType fromConfigName(String name) {
    for (DataType t : values()) {
      if (t.configName().equals(name)) {
        return t;
      }
    }
    return null;
  }
}
