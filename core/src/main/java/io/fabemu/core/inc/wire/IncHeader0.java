package io.fabemu.core.inc.wire;

/**
 * Seed 000's Header0, on aggregation-tree generation packets (16 bytes on the wire, big-endian). The sender puts
 * the packet's real destination into {@code dstIpCache}; switches update the aggregation info hop by hop, record
 * the child the packet came from, and the root swaps the cached destination back.
 *
 * @param groupId       4 B: the INC group (seed 001's true_comm_id)
 * @param leaderRank    4 B: rank of the leader process that sent the packet
 * @param childCount    2 B, unsigned: compute nodes (leaders) aggregated below the last switch passed
 * @param level         1 B, unsigned: switch level of the last switch passed (0 host, 1 TOR, 2 SPINE)
 * @param flags         1 B, unsigned: bit 0 set when the last switch passed is the tree's root
 * @param dstIpCache    4 B: the cached destination address
 */
public record IncHeader0(long groupId, long leaderRank, int childCount, int level, int flags, long dstIpCache) {
  public static final int WIRE_BYTES = 16;

  public IncHeader0 {
    WireChecks.unsigned("group_id", groupId, 32);
    WireChecks.unsigned("leader_rank", leaderRank, 32);
    WireChecks.unsigned("child_count", childCount, 16);
    WireChecks.unsigned("level", level, 8);
    WireChecks.unsigned("flags", flags, 8);
    WireChecks.unsigned("dst_ip_cache", dstIpCache, 32);
  }
}
