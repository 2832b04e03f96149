package io.fabemu.core.inc;

import io.fabemu.core.data.DataType;
import io.fabemu.core.data.ReduceOp;

/**
 * The numbers INC headers use for operations, data types and failure causes, and how task ids are formed.
 * Operation code = {@link ReduceOp#ordinal()}, type code = {@link DataType#ordinal()}; capability masks set bit
 * {@code code}.
 */
public final class IncCodes {
  /** The MPI header's tag on every INC packet: the marker that names the packet as in-network traffic. */
  public static final int MPI_INC_TAG = 0x494E4301;

  private IncCodes() {}

  /** Why a group cannot use INC (control payload's fail_cause). */
  public enum FailCause {
    NONE(0, "INC in use"),
    NO_INC_SWITCH(1, "a TOR of the group, or every SPINE the queries crossed, has no INC unit"),
    OP_UNSUPPORTED(2, "the reduce operation is not supported by every switch on the path"),
    TYPE_UNSUPPORTED(3, "the data type is not supported by every switch on the path"),
    MESSAGE_TOO_LARGE(4, "the message is larger than the switches' maximum data size and is not streamed (a NIC "
        + "or switch on the path keeps no window of chunks: devices.inc.nic.stream-window = 0)"),
    NO_FREE_GROUPS(5, "a TOR of the group, or every SPINE the queries crossed, has no free INC group "
        + "(ava_grp_num = 0)"),
    NO_AGGREGATION_SLOTS(6, "a switch on the tree has no free aggregation slots"),
    LAYOUT(7, "the ranks' placement does not meet the mode's constraints"),
    TOPOLOGY(8, "the topology is not a TOR/SPINE fabric with every host under one TOR"),
    SINGLE_NODE(9, "every leader is on one node: nothing crosses the network"),
    INC_DISABLED(10, "the fabric has no INC units or NIC INC engines (devices.inc.enabled = false)"),
    /** Not a setup outcome: what a NIC tells its leaders when a fault broke their group's tree mid-case. */
    FAULT(11, "a switch or link of the group's aggregation tree failed: the leaders finish the case on the host");

    private final int code;
    private final String description;

    FailCause(int code, String description) {
      this.code = code;
      this.description = description;
    }

    public int code() {
      return code;
    }

    public String description() {
      return description;
    }

    public static FailCause ofCode(int code) {
      for (FailCause c : values()) {
        if (c.code == code) return c;
      }
      throw new IllegalArgumentException("unknown INC fail_cause " + code);
    }
  }

  public static int opCode(ReduceOp op) {
    return op.ordinal();
  }

  public static ReduceOp op(int code) {
    ReduceOp[] ops = ReduceOp.values();
    if (code < 0 || code >= ops.length) throw new IllegalArgumentException("unknown INC op_code " + code);
    return ops[code];
  }

  public static int typeCode(DataType type) {
    return type.ordinal();
  }

  public static DataType type(int code) {
    DataType[] types = DataType.values();
    if (code < 0 || code >= types.length) throw new IllegalArgumentException("unknown INC operand type " + code);
    return types[code];
  }

  /**
   * The 32-bit task id of request {@code reqId} (0..255) of group {@code groupId}: low 24 bits of the group, then
   * req_id.
   */
  public static long taskId(long groupId, int reqId) {
    return ((groupId & 0xFFFFFFL) << 8) | (reqId & 0xFF);
  }

  /** Largest stream window sup_comm_type's bits 1-7 can carry. */
  public static final int MAX_STREAM_WINDOW = 0x7F;

  /**
   * The stream window a control payload's sup_comm_type carries in bits 1-7 (ours; bit 0 is Allreduce): on a query,
   * the chunks of one leader the switches passed can hold in flight (each lowers it to its free aggregation slots);
   * on a notify, the window the group streams with, 0 when its messages fit one task.
   */
  public static int streamWindow(int supCommType) {
    return (supCommType >>> 1) & MAX_STREAM_WINDOW;
  }

  /** {@code supCommType} with its stream window bits set to {@code window} (0 .. {@value #MAX_STREAM_WINDOW}). */
  public static int withStreamWindow(int supCommType, int window) {
    if (window < 0 || window > MAX_STREAM_WINDOW) {
      throw new IllegalArgumentException("a stream window must be 0.." + MAX_STREAM_WINDOW + ", got " + window);
    }
    return (supCommType & 1) | (window << 1);
  }
}
