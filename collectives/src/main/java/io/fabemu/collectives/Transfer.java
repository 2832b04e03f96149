package io.fabemu.collectives;

/**
 * One message of a {@link Step}, seen from one rank: a send of a buffer region to {@code peer}, or a receive of
 * a region from {@code peer} that is copied or reduced into the buffer.
 *
 * @param peer    world rank of the other side
 * @param buffer  buffer the region lies in
 * @param offset  first element of the region
 * @param count   elements in the region (0 makes a zero-byte message whose data is null)
 * @param reduce  for receives: reduce the payload into the region instead of copying it; false for sends
 * @param channel the tag bits that sender and receiver agree on, see {@link Tags#channel(int, int, int)}
 * @param inc     for sends: the region is this rank's contribution to an in-network aggregation (the NIC's INC
 *                engine sends it flagged, and the switches return the aggregate to {@code peer}); false otherwise
 */
public record Transfer(int peer, BufferId buffer, int offset, int count, boolean reduce, int channel, boolean inc) {

  public Transfer {
    if (offset < 0 || count < 0) {
      throw new IllegalArgumentException("negative region: offset " + offset + ", count " + count);
    }
    if (inc && reduce) {
      throw new IllegalArgumentException("an in-network send is not a reducing receive");
    }
  }

  /** An ordinary transfer. */
  public Transfer(int peer, BufferId buffer, int offset, int count, boolean reduce, int channel) {
    this(peer, buffer, offset, count, reduce, channel, false);
  }
}
