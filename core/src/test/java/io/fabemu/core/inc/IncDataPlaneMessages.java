package io.fabemu.core.inc;

import io.fabemu.core.data.DataBuffer;
import io.fabemu.core.data.DataType;
import io.fabemu.core.data.ReduceOp;
import io.fabemu.core.protocol.Message;

/** The INC messages a rank hands its NIC, built as the rank side does, for the data-plane tests. */
public final class IncDataPlaneMessages {
  private IncDataPlaneMessages() {}

  public static MpiHeader mpi(int srcRank, long groupId, ReduceOp op, DataType type, int reqId) {
    return new MpiHeader(IncCodes.MPI_INC_TAG, srcRank, (int) (groupId & 0xFFFF), IncCodes.opCode(op),
        IncCodes.typeCode(type), reqId, 0);
  }

  /** A TASK_UP from {@code srcRank} to its ring successor {@code dstRank} carrying {@code data}. */
  public static Message task(int srcRank, int dstRank, long tag, long groupId, ReduceOp op, DataBuffer data,
                             int reqId) {
    IncHeader1 h1 = new IncHeader1(IncCodes.taskId(groupId, reqId), groupId, IncCodes.opCode(op),
        IncCodes.typeCode(data.type()), 0, data.count(), data.sizeBytes(), 0);
    return new Message(srcRank, dstRank, tag, data, data.sizeBytes(),
        new IncRequest(IncPacketType.TASK_UP, mpi(srcRank, groupId, op, data.type(), reqId), null, h1));
  }

  /** A synthetic (data-less) TASK_UP of {@code sizeBytes}. */
  public static Message syntheticTask(int srcRank, int dstRank, long tag, long groupId, ReduceOp op, DataType type,
                               long sizeBytes, int reqId) {
    IncHeader1 h1 = new IncHeader1(IncCodes.taskId(groupId, reqId), groupId, IncCodes.opCode(op),
        IncCodes.typeCode(type), 0, sizeBytes / type.sizeBytes(), sizeBytes, 0);
    return new Message(srcRank, dstRank, tag, null, sizeBytes,
        new IncRequest(IncPacketType.TASK_UP, mpi(srcRank, groupId, op, type, reqId), null, h1));
  }

  /** A control message (query, notify or release). */
  public static Message control(IncPacketType type, int srcRank, int dstRank, ControlPayload payload) {
    MpiHeader mpi = new MpiHeader(IncCodes.MPI_INC_TAG, srcRank, MpiHeader.CONTROL_COMM_ID, 0, 0, 0, 0);
    return new Message(srcRank, dstRank, 0L, null, ControlPayload.WIRE_BYTES,
        new IncRequest(type, mpi, payload, null));
  }

  /** A query as an NMRR leader sends it: every capability bit set, the largest size, no address yet. */
  /** The operations (SUM, PROD, MAX, MIN) and types (INT32, FLOAT32) the tests' queries and notifies ask for. */
  public static final int OPS = 0b1111;
  public static final int TYPES = (1 << 1) | (1 << 3);

  public static ControlPayload query(long groupId, int globalGroupSize, int dstRank, int worldRank) {
    return ControlPayload.builder().supCommType(1).supAllreduceOp(OPS).supDataType(TYPES).supMaxDataSize(0xFFFF)
        .globalGroupSize(globalGroupSize).trueCommId(groupId).dstRank(dstRank).worldRank(worldRank).build();
  }

  /**
   * A notify as the MRR sends it.
   *
   * @param spineIp           the chosen SPINE (0 for a single-TOR group)
   * @param localGroupSize    leaders under the destination's TOR
   * @param srcLocalGroupSize leaders under the MRR's TOR
   */
  public static ControlPayload notify(long groupId, int maxDataSize, int globalGroupSize, int localGroupSize,
                                      int dstRank, long spineIp, int mrrRank, int srcLocalGroupSize,
                                      int torCount) {
    return ControlPayload.builder().queryNotifyHop(0x80).supCommType(1).supAllreduceOp(OPS).supDataType(TYPES)
        .supMaxDataSize(maxDataSize).globalGroupSize(globalGroupSize).localGroupSize(localGroupSize)
        .trueCommId(groupId).dstRank(dstRank).spineIp(spineIp).worldRank(mrrRank)
        .srcLocalGroupSize(srcLocalGroupSize).torCount(torCount).build();
  }

  /** A release (the INC paper's kill) for the group. */
  public static ControlPayload release(long groupId, int dstRank, long spineIp) {
    return ControlPayload.builder().queryNotifyHop(0x80).trueCommId(groupId).dstRank(dstRank).spineIp(spineIp)
        .build();
  }
}
