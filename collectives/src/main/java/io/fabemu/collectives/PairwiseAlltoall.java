package io.fabemu.collectives;

import static io.fabemu.collectives.ScheduleBuilder.mod;


/**
 * Pairwise-exchange all-to-all (MPICH's {@code MPIR_Alltoall_intra_pairwise}, OpenMPI's
 * {@code ompi_coll_base_alltoall_intra_pairwise}; Thakur, Rabenseifner and Gropp 2005, section 4.5): the rank
 * copies its own block, then in step k (round k, k = 1..p-1) sends INPUT block (i+k) mod p to rank (i+k) mod p and
 * receives block i of rank (i-k) mod p into OUTPUT block (i-k) mod p.
 */
final class PairwiseAlltoall {
  private PairwiseAlltoall() {}

  static void append(ScheduleBuilder b, int p, int me, int count) {
    b.copy(BufferId.INPUT, me * count, BufferId.OUTPUT, me * count, count);
    for (int k = 1; k < p; k++) {
      int to = mod(me + k, p);
      int from = mod(me - k, p);
      b.send(to, BufferId.INPUT, to * count, count, k);
      b.receive(from, BufferId.OUTPUT, from * count, count, false, k);
      b.endStep();
    }
    b.endStep();
  }
}
