package io.fabemu.collectives;

/**
 * Send/recv as osu_bw measures bandwidth: rank 2j posts {@code window} non-blocking sends of its INPUT to rank 2j+1
 * and waits for one acknowledgement; rank 2j+1 receives the whole window into its OUTPUT (every message into the
 * same region, as osu_bw's single receive buffer) and then sends the acknowledgement. When p is odd the last rank
 * idles. The latency recorded at rank 2j is the time of one window, from its first send to the acknowledgement:
 * osu_bw reports {@code size x window / time}.
 *
 * <p>Message k of the window travels on round k and the acknowledgement on round {@code window}, so every message of
 * the operation has its own tag. The acknowledgement carries no data (osu_bw's carries one byte; fabemu's smallest
 * element is two bytes, and a zero-byte message costs the same headers and overheads). The sender's result is its
 * own INPUT, which it only reads: only the receiver's OUTPUT holds data to check.
 */
final class WindowedStream {
  private WindowedStream() {}

  /**
   * Appends rank {@code me}'s part of one window of {@code window} messages of {@code count} elements, and sets its
   * buffers: the sender reads INPUT, the receiver writes OUTPUT.
   */
  static void append(ScheduleBuilder b, int p, int me, int count, int window) {
    if (window < 1 || window > Tags.MAX_ROUND) {
      throw new IllegalArgumentException("window must be 1 to " + Tags.MAX_ROUND + " messages, got " + window);
    }
    if (!PingPong.active(p, me)) {
      b.buffers(0, 0);
      return;
    }
    if ((me & 1) == 0) {
      b.buffers(count, 0).result(BufferId.INPUT);
      for (int k = 0; k < window; k++) {
        b.send(me + 1, BufferId.INPUT, 0, count, k);
      }
      // Posted with the sends: the acknowledgement can only come once the receiver has the whole window.
      b.receive(me + 1, BufferId.OUTPUT, 0, 0, false, window);
      b.endStep();
    } else {
      b.buffers(0, count);
      for (int k = 0; k < window; k++) {
        b.receive(me - 1, BufferId.OUTPUT, 0, count, false, k);
      }
      b.endStep();
      b.send(me - 1, BufferId.OUTPUT, 0, 0, window);
      b.endStep();
    }
  }
}
