package io.fabemu.nic;

/**
 * The chunk schedule of one streamed INC task at its NIC: a vector of {@code elementCount} elements cut into chunks
 * of {@code chunkElements} (the last may be shorter), of which at most {@code window} are in flight. Chunk
 * {@code k} takes window position {@code k mod window}; when its result is in, the position is free and the
 * position's next chunk, {@code k + window}, is sent (the switches reuse the position's aggregation slots for it).
 * The positions are fixed, not first-free, so that a switch can tell when a slot's older use is over (see the
 * switch's {@code IncSlot}): a leader sends chunk {@code k + window} only once it holds chunk {@code k}'s result.
 *
 * <p>Plain state, no time: the NIC's INC unit drives it.
 */
final class IncChunkWindow {
  private final long elementCount;
  private final long chunkElements;
  private final int window;
  private final long chunkCount;
  /** Bit k set once chunk k was handed out to be sent. */
  private final long[] sent;
  /** Bit k set once chunk k's result is in. */
  private final long[] done;
  private long doneCount;
  private long inFlight;
  private boolean started;

  /**
   * @param elementCount  elements of the whole vector (at least 1)
   * @param chunkElements elements per chunk (at least 1)
   * @param window        chunks in flight at most (at least 1)
   */
  IncChunkWindow(long elementCount, long chunkElements, int window) {
    if (elementCount < 1 || chunkElements < 1 || window < 1) {
      throw new IllegalArgumentException("a chunk window needs elements >= 1, chunk elements >= 1 and a window "
          + ">= 1, got " + elementCount + ", " + chunkElements + ", " + window);
    }
    this.elementCount = elementCount;
    this.chunkElements = chunkElements;
    this.window = window;
    this.chunkCount = (elementCount + chunkElements - 1) / chunkElements;
    if (chunkCount > Integer.MAX_VALUE * 64L) {
      throw new IllegalArgumentException(chunkCount + " chunks are too many to track");
    }
    this.sent = new long[(int) ((chunkCount + 63) >>> 6)];
    this.done = new long[sent.length];
  }

  long chunkCount() {
    return chunkCount;
  }

  int window() {
    return window;
  }

  /** The first element of chunk {@code k}. */
  long elementOffset(long k) {
    return k * chunkElements;
  }

  /** The elements of chunk {@code k}: {@code chunkElements}, or what is left for the last chunk. */
  int elements(long k) {
    return (int) Math.min(chunkElements, elementCount - k * chunkElements);
  }

  /** The chunks to send at the start: 0 .. min(window, chunkCount)-1; may be asked once. */
  long[] start() {
    if (started) {
      throw new IllegalStateException("the stream has started already");
    }
    started = true;
    int first = (int) Math.min(window, chunkCount);
    long[] chunks = new long[first];
    for (int k = 0; k < first; k++) {
      chunks[k] = k;
      markSent(k);
    }
    return chunks;
  }

  /**
   * Chunk {@code k}'s result is complete: its position is free.
   *
   * @return the chunk to send on that position now ({@code k + window}), or -1 when the position has no more
   * @throws IllegalStateException when chunk {@code k} was not sent, or was done already
   */
  long onChunkDone(long k) {
    if (k < 0 || k >= chunkCount || !isSet(sent, k)) {
      throw new IllegalStateException("chunk " + k + " of " + chunkCount + " was never sent");
    }
    if (isSet(done, k)) {
      throw new IllegalStateException("chunk " + k + " of " + chunkCount + " completed twice");
    }
    done[(int) (k >>> 6)] |= 1L << (k & 63);
    doneCount++;
    inFlight--;
    long next = k + window;
    if (next >= chunkCount) {
      return -1;
    }
    markSent(next);
    return next;
  }

  private void markSent(long k) {
    sent[(int) (k >>> 6)] |= 1L << (k & 63);
    inFlight++;
  }

  private static boolean isSet(long[] bits, long k) {
    return (bits[(int) (k >>> 6)] & (1L << (k & 63))) != 0;
  }

  /** Chunks sent whose result is not complete: never more than the window. */
  long inFlight() {
    return inFlight;
  }

  /** True once every chunk's result is in. */
  boolean complete() {
    return doneCount == chunkCount;
  }
}
