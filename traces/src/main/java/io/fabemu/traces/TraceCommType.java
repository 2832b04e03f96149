package io.fabemu.traces;

/**
 * The collective of a {@link TraceNodeType#COMM_COLL} node, as Chakra's {@code CollectiveCommType} numbers it
 * ({@link #chakraNumber()}): the attribute {@code comm_type} holds that number.
 */
public enum TraceCommType {
  ALL_REDUCE(0),
  REDUCE(1),
  ALL_GATHER(2),
  GATHER(3),
  SCATTER(4),
  BROADCAST(5),
  ALL_TO_ALL(6),
  REDUCE_SCATTER(7),
  REDUCE_SCATTER_BLOCK(8),
  BARRIER(9);

  private final int chakraNumber;

  TraceCommType(int chakraNumber) {
    this.chakraNumber = chakraNumber;
  }

  /** The value of Chakra's {@code CollectiveCommType} for this collective. */
  public int chakraNumber() {
    return chakraNumber;
  }

  /** The collective Chakra numbers {@code number}, or null when there is none. */
  public static TraceCommType ofChakraNumber(long number) {
    for (TraceCommType type : values()) {
      if (type.chakraNumber == number) {
        return type;
      }
    }
    return null;
  }
}
