package io.fabemu.collectives;

import static io.fabemu.collectives.ScheduleBuilder.mod;


/**
 * Allgather in ceil(log2 p) rounds.
 *
 * <p>Power of two: recursive doubling (MPICH's {@code MPIR_Allgather_intra_recursive_doubling}; Thakur,
 * Rabenseifner and Gropp 2005, section 4.1): in round k a rank exchanges its 2^k gathered blocks with rank XOR 2^k,
 * directly in OUTPUT. Cost: log2 p·α + (p-1)·nβ.
 *
 * <p>Other p: Bruck's algorithm (Bruck, Ho, Kipnis, Upfal and Weathersby, "Efficient Algorithms for All-to-All
 * Communications in Multiport Message-Passing Systems", IEEE TPDS 8(11), 1997; MPICH's
 * {@code MPIR_Allgather_intra_brucks}), which has the same cost and works for any p: TEMP starts with the rank's
 * own block; in round k (distance d = 2^k) the rank sends its first min(d, p-d) blocks to rank i-d and receives as
 * many from rank i+d after them, so TEMP[j] ends as block (i+j) mod p; two local copies rotate TEMP into OUTPUT.
 */
final class RecursiveDoublingAllgather {
  private RecursiveDoublingAllgather() {}

  static void append(ScheduleBuilder b, int p, int me, int count) {
    if (Integer.bitCount(p) == 1) {
      b.copy(BufferId.INPUT, 0, BufferId.OUTPUT, me * count, count);
      int round = 0;
      for (int mask = 1; mask < p; mask <<= 1, round++) {
        int peer = me ^ mask;
        int mine = me & ~(mask - 1);
        int theirs = peer & ~(mask - 1);
        b.send(peer, BufferId.OUTPUT, mine * count, mask * count, round);
        b.receive(peer, BufferId.OUTPUT, theirs * count, mask * count, false, round);
        b.endStep();
      }
      b.endStep();
      return;
    }
    b.temp(p * count);
    b.copy(BufferId.INPUT, 0, BufferId.TEMP, 0, count);
    int round = 0;
    for (int distance = 1; distance < p; distance <<= 1, round++) {
      int blocks = Math.min(distance, p - distance);
      b.send(mod(me - distance, p), BufferId.TEMP, 0, blocks * count, round);
      b.receive(mod(me + distance, p), BufferId.TEMP, distance * count, blocks * count, false, round);
      b.endStep();
    }
    b.copy(BufferId.TEMP, 0, BufferId.OUTPUT, me * count, (p - me) * count);
    b.copy(BufferId.TEMP, (p - me) * count, BufferId.OUTPUT, 0, me * count);
    b.endStep();
  }
}
