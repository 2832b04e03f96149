package io.fabemu.core.inc;

import java.nio.ByteBuffer;

/**
 * The INC patent's Header1: an aggregation task handed by the host to its NIC (24 bytes, big-endian). The NIC cuts the
 * task's data into {@code ceil(totalBytes / fragmentBytes)} fragments, each with an {@link IncHeader2}.
 *
 * @param taskId        4 B: the task (group and req_id, see {@code IncCodes#taskId})
 * @param groupId       4 B: the INC group
 * @param opCode        1 B: reduce operation code
 * @param dataType      1 B: element type code
 * @param fragmentBytes 2 B, unsigned: data bytes per fragment (the last may be shorter)
 * @param elementCount  4 B: elements in the task
 * @param totalBytes    4 B: data bytes in the task
 * @param dstIp         4 B: the real destination (the leader that gets this packet's result)
 */
public record IncHeader1(long taskId, long groupId, int opCode, int dataType, int fragmentBytes, long elementCount,
                         long totalBytes, long dstIp) {
  public static final int WIRE_BYTES = 24;
  static final String NAME = "Header1";

  public IncHeader1 {
    WireChecks.unsigned("task_id", taskId, 32);
    WireChecks.unsigned("group_id", groupId, 32);
    WireChecks.unsigned("op_code", opCode, 8);
    WireChecks.unsigned("data_type", dataType, 8);
    WireChecks.unsigned("fragment_bytes", fragmentBytes, 16);
    WireChecks.unsigned("element_count", elementCount, 32);
    WireChecks.unsigned("total_bytes", totalBytes, 32);
    WireChecks.unsigned("dst_ip", dstIp, 32);
  }

  /** Writes the {@link #WIRE_BYTES} bytes of this header at {@code out}'s position, big-endian, and moves past them. */
  public void encode(ByteBuffer out) {
    WireBytes.writer(out, NAME, WIRE_BYTES)
        .u32(taskId).u32(groupId).u8(opCode).u8(dataType).u16(fragmentBytes).u32(elementCount).u32(totalBytes)
        .u32(dstIp)
        .finish();
  }

  /**
   * Reads a header from {@code in}'s position and moves past it.
   *
   * @throws WireFormatException when fewer than {@link #WIRE_BYTES} bytes remain; the buffer is then left as it was
   */
  public static IncHeader1 decode(ByteBuffer in) {
    WireBytes.Reader r = WireBytes.reader(in, NAME, WIRE_BYTES);
    return r.finish(() -> new IncHeader1(r.u32(), r.u32(), r.u8(), r.u8(), r.u16(), r.u32(), r.u32(), r.u32()));
  }
}
