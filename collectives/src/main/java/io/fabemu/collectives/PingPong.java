package io.fabemu.collectives;

/**
 * Send/recv as a ping-pong, like osu_latency: rank 2j sends its INPUT to rank 2j+1 (round 0), which receives it
 * into OUTPUT and sends it back (round 1) into rank 2j's OUTPUT. When p is odd the last rank idles. The latency
 * recorded is the full round trip; osu_latency prints half of it, so divide by two to compare.
 */
final class PingPong {
  private PingPong() {}

  static void append(ScheduleBuilder b, int p, int me, int count) {
    if ((me & 1) == 0) {
      if (me + 1 < p) {
        b.send(me + 1, BufferId.INPUT, 0, count, 0);
        b.endStep();
        b.receive(me + 1, BufferId.OUTPUT, 0, count, false, 1);
        b.endStep();
      }
    } else {
      b.receive(me - 1, BufferId.OUTPUT, 0, count, false, 0);
      b.endStep();
      b.send(me - 1, BufferId.OUTPUT, 0, count, 1);
      b.endStep();
    }
  }

  /** True when the rank takes part (the last rank of an odd world idles). */
  static boolean active(int p, int me) {
    return (me & 1) == 1 || me + 1 < p;
  }
}
