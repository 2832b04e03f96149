package io.fabemu.collectives;

import static io.fabemu.collectives.ScheduleBuilder.mod;


/**
 * Ring reduce-scatter with equal blocks (OpenMPI's {@code ompi_coll_base_reduce_scatter_intra_ring}; the first
 * half of {@link RingAllreduce}). The rank copies its p·count input to TEMP; in step k (round k, k = 0..p-2) it
 * sends block (i-k-1) mod p to the right and reduces block (i-k-2) mod p received from the left; after p-1 steps
 * block i holds all p contributions and is copied to OUTPUT. Cost: (p-1)α + (p-1)·nβ for n bytes per block.
 */
final class RingReduceScatter {
  private RingReduceScatter() {}

  static void append(ScheduleBuilder b, int p, int me, int count) {
    if (p == 1) {
      b.copy(BufferId.INPUT, 0, BufferId.OUTPUT, 0, count);
      b.endStep();
      return;
    }
    b.temp(p * count);
    b.copy(BufferId.INPUT, 0, BufferId.TEMP, 0, p * count);
    int right = mod(me + 1, p);
    int left = mod(me - 1, p);
    for (int k = 0; k < p - 1; k++) {
      b.send(right, BufferId.TEMP, mod(me - k - 1, p) * count, count, k);
      b.receive(left, BufferId.TEMP, mod(me - k - 2, p) * count, count, true, k);
      b.endStep();
    }
    b.copy(BufferId.TEMP, me * count, BufferId.OUTPUT, 0, count);
    b.endStep();
  }
}
