package io.fabemu.collectives;

import static io.fabemu.collectives.ScheduleBuilder.mod;


/**
 * Ring allgather (MPICH's {@code MPIR_Allgather_intra_ring}; Thakur, Rabenseifner and Gropp 2005, section 4.1):
 * rank i copies its block to OUTPUT[i], then in step k (round k, k = 0..p-2) sends block (i-k) mod p to the right
 * and receives block (i-k-1) mod p from the left. Cost: (p-1)α + (p-1)·nβ for n bytes per rank.
 */
final class RingAllgather {
  private RingAllgather() {}

  static void append(ScheduleBuilder b, int p, int me, int count) {
    b.copy(BufferId.INPUT, 0, BufferId.OUTPUT, me * count, count);
    int right = mod(me + 1, p);
    int left = mod(me - 1, p);
    for (int k = 0; k < p - 1; k++) {
      b.send(right, BufferId.OUTPUT, mod(me - k, p) * count, count, k);
      b.receive(left, BufferId.OUTPUT, mod(me - k - 1, p) * count, count, false, k);
      b.endStep();
    }
    b.endStep();
  }
}
