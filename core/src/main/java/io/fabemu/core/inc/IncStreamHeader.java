package io.fabemu.core.inc;

import java.nio.ByteBuffer;

/**
 * The stream header of a chunk of a streamed INC task (10 bytes, big-endian; ours, after the INC patent's Header2):
 * a vector larger than the switches' maximum data size is aggregated as a stream of chunks, each an INC task of at
 * most that size, with at most {@code window} chunks of one leader in flight. Chunk {@code k} uses the group's
 * aggregation slots of window position {@code k mod window} (each position holds the slots of one chunk's
 * fragments), so a switch reuses a position for chunk {@code k + window} once chunk {@code k} is done; the round
 * {@code k / window} tells the generations of a slot apart. A task that fits one chunk carries no stream header.
 *
 * @param chunkIndex 4 B, unsigned: the chunk, 0 .. chunkCount-1
 * @param chunkCount 4 B, unsigned: chunks in the stream (at least 2)
 * @param window     2 B, unsigned: window positions of the group (chunks of one leader in flight at most)
 */
public record IncStreamHeader(long chunkIndex, long chunkCount, int window) {
  public static final int WIRE_BYTES = 10;
  static final String NAME = "stream header";

  public IncStreamHeader {
    WireChecks.unsigned("chunk_index", chunkIndex, 32);
    WireChecks.unsigned("chunk_count", chunkCount, 32);
    WireChecks.unsigned("window", window, 16);
    if (window < 1 || chunkCount < 2 || chunkIndex >= chunkCount) {
      throw new IllegalArgumentException("stream chunk " + chunkIndex + " of " + chunkCount + " with window "
          + window + ": a stream has at least 2 chunks and a window of at least 1");
    }
  }

  /** The window position whose aggregation slots the chunk uses: {@code chunkIndex mod window}. */
  public int slotPosition() {
    return (int) (chunkIndex % window);
  }

  /** How many chunks used this position before this one: {@code chunkIndex / window}. */
  public int round() {
    return (int) (chunkIndex / window);
  }

  /** The round of the last chunk of the stream at this chunk's position. */
  public int lastRound() {
    return (int) ((chunkCount - 1 - slotPosition()) / window);
  }

  /** Writes the {@link #WIRE_BYTES} bytes of this header at {@code out}'s position, big-endian, and moves past them. */
  public void encode(ByteBuffer out) {
    WireBytes.writer(out, NAME, WIRE_BYTES).u32(chunkIndex).u32(chunkCount).u16(window).finish();
  }

  /**
   * Reads a header from {@code in}'s position and moves past it.
   *
   * @throws WireFormatException when fewer than {@link #WIRE_BYTES} bytes remain or the values are refused; the
   *     buffer is then left as it was
   */
  public static IncStreamHeader decode(ByteBuffer in) {
    WireBytes.Reader r = WireBytes.reader(in, NAME, WIRE_BYTES);
    return r.finish(() -> new IncStreamHeader(r.u32(), r.u32(), r.u16()));
  }
}
