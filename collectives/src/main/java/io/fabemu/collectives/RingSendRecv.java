package io.fabemu.collectives;

import static io.fabemu.collectives.ScheduleBuilder.mod;

/**
 * Send/recv as nccl-tests' {@code sendrecv_perf} runs it: every rank sends its INPUT to rank {@code (i+1) mod p} and
 * receives rank {@code (i-1) mod p}'s into OUTPUT, both posted at once (one step, round 0), so the latency is one
 * exchange, not a round trip as in {@link PingPong}. A world of one rank sends to itself, which is a local copy.
 */
final class RingSendRecv {
  private RingSendRecv() {}

  static void append(ScheduleBuilder b, int p, int me, int count) {
    if (p == 1) {
      b.copy(BufferId.INPUT, 0, BufferId.OUTPUT, 0, count);
      b.endStep();
      return;
    }
    b.send(mod(me + 1, p), BufferId.INPUT, 0, count, 0);
    b.receive(mod(me - 1, p), BufferId.OUTPUT, 0, count, false, 0);
    b.endStep();
  }

  /** The rank whose data {@code me} receives. */
  static int source(int p, int me) {
    return mod(me - 1, p);
  }
}
