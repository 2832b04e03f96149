package io.fabemu.collectives;

import static io.fabemu.collectives.ScheduleBuilder.mod;


/**
 * Dissemination barrier (Hensgen, Finkel and Manber, "Two algorithms for barrier synchronization", IJPP 17(1),
 * 1988; MPICH's {@code MPIR_Barrier_intra_dissemination}): in round k (distance 2^k, ceil(log2 p) rounds) every
 * rank sends a zero-byte message to rank i + 2^k and waits for one from rank i - 2^k.
 */
final class DisseminationBarrier {
  private DisseminationBarrier() {}

  static void append(ScheduleBuilder b, int p, int me) {
    int round = 0;
    for (int distance = 1; distance < p; distance <<= 1, round++) {
      b.send(mod(me + distance, p), BufferId.OUTPUT, 0, 0, round);
      b.receive(mod(me - distance, p), BufferId.OUTPUT, 0, 0, false, round);
      b.endStep();
    }
  }
}
