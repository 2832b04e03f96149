package io.fabemu.core.device;

import io.fabemu.core.data.DataBuffer;

/**
 * A rank-to-rank message, as MPI sees it.
 *
 * @param sourceRank      sending world rank
 * @param destinationRank receiving world rank
 * @param tag             matches the message to the receive the collective posted
 * @param data            the payload (null for a zero-byte message, e.g. in a barrier)
 */
public record Message(int sourceRank, int destinationRank, long tag, DataBuffer data) {

  public long sizeBytes() {
    return data == null ? 0L : data.sizeBytes();
  }
}
