package io.fabemu.core.inc;

import java.nio.ByteBuffer;

/**
 * The INC patent's Header0, on aggregation-tree generation packets (16 bytes on the wire, big-endian). The sender puts
 * the packet's real destination into {@code dstIpCache}; switches update the aggregation info hop by hop, record
 * the child the packet came from, and the root swaps the cached destination back.
 *
 * @param groupId       4 B: the INC group (the INC paper's true_comm_id)
 * @param leaderRank    4 B: rank of the leader process that sent the packet
 * @param childCount    2 B, unsigned: compute nodes (leaders) aggregated below the last switch passed
 * @param level         1 B, unsigned: switch level of the last switch passed (0 host, 1 TOR, 2 SPINE)
 * @param flags         1 B, unsigned: bit 0 set when the last switch passed is the tree's root
 * @param dstIpCache    4 B: the cached destination address
 */
public record IncHeader0(long groupId, long leaderRank, int childCount, int level, int flags, long dstIpCache) {
  public static final int WIRE_BYTES = 16;
  static final String NAME = "Header0";

  public IncHeader0 {
    WireChecks.unsigned("group_id", groupId, 32);
    WireChecks.unsigned("leader_rank", leaderRank, 32);
    WireChecks.unsigned("child_count", childCount, 16);
    WireChecks.unsigned("level", level, 8);
    WireChecks.unsigned("flags", flags, 8);
    WireChecks.unsigned("dst_ip_cache", dstIpCache, 32);
  }

  /** Writes the {@link #WIRE_BYTES} bytes of this header at {@code out}'s position, big-endian, and moves past them. */
  public void encode(ByteBuffer out) {
    WireBytes.writer(out, NAME, WIRE_BYTES)
        .u32(groupId).u32(leaderRank).u16(childCount).u8(level).u8(flags).u32(dstIpCache)
        .finish();
  }

  /**
   * Reads a header from {@code in}'s position and moves past it.
   *
   * @throws WireFormatException when fewer than {@link #WIRE_BYTES} bytes remain; the buffer is then left as it was
   */
  public static IncHeader0 decode(ByteBuffer in) {
    WireBytes.Reader r = WireBytes.reader(in, NAME, WIRE_BYTES);
    return r.finish(() -> new IncHeader0(r.u32(), r.u32(), r.u16(), r.u8(), r.u8(), r.u32()));
  }
}
