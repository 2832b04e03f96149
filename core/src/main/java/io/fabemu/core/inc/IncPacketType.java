package io.fabemu.core.inc;

/**
 * The kinds of INC packet (the INC patent's four types, which carry the INC paper's control plane too). Tree generation
 * is the control plane: the query travels up (NMRR leader to MRR leader), the notify down (MRR to each NMRR) and
 * builds the aggregation tree in the switches it crosses; the release (the INC paper's "kill") frees the tree.
 * Tasks are the data plane.
 */
public enum IncPacketType {
  /** Tree generation, up: the INC paper's query. Carries {@link IncHeader0} and a {@link ControlPayload}. */
  TREE_UP(1),
  /** Tree generation, down: the INC paper's notify. Carries {@link IncHeader0} and a {@link ControlPayload}. */
  TREE_DOWN(2),
  /** Aggregation task, up: a fragment of a host's contribution or a switch's partial. Carries {@link IncHeader2}. */
  TASK_UP(3),
  /** Aggregation task, down: a fragment of the final result. Carries {@link IncHeader2}. */
  TASK_DOWN(4),
  /** Release (the INC paper's kill): frees the group's switch resources. Carries a {@link ControlPayload}. */
  RELEASE(5);

  private final int code;

  IncPacketType(int code) {
    this.code = code;
  }

  /** The 3-bit code in the INC flag byte. */
  public int code() {
    return code;
  }

  /** True for the packet types of the control plane: query, notify and release. */
  public boolean isControl() {
    return this == TREE_UP || this == TREE_DOWN || this == RELEASE;
  }

  /** The type with this code, or null when no type has it. */
  public static IncPacketType ofCode(int code) {
    for (IncPacketType t : values()) {
      if (t.code == code) return t;
    }
    return null;
  }
}
