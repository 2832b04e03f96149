package io.fabemu.collectives;

import static io.fabemu.collectives.ScheduleBuilder.log2;


/**
 * Recursive-doubling allreduce, as MPICH's {@code MPIR_Allreduce_intra_recursive_doubling} (Thakur, Rabenseifner
 * and Gropp, "Optimization of Collective Communication Operations in MPICH", IJHPCA 19(1), 2005, section 4.4).
 * The data is in OUTPUT throughout.
 *
 * <p>With pof2 the largest power of two not above p and rem = p - pof2: in round 0 the first 2·rem ranks pair up,
 * the even one sends its whole vector to the odd one, which reduces it and joins the power-of-two core as
 * newrank i/2 (the others join as i - rem). In rounds 1..log2(pof2) each core rank exchanges its whole vector with
 * newrank XOR 2^(round-1) and reduces. In the last round the odd ranks send the result back to their even partner.
 * Cost for a power of two: log2 p·(α + nβ).
 */
final class RecursiveDoublingAllreduce {
  private RecursiveDoublingAllreduce() {}

  static void append(ScheduleBuilder b, RankGroup g, int me, int count) {
    int p = g.size();
    if (p == 1) {
      return;
    }
    int pof2 = Integer.highestOneBit(p);
    int rem = p - pof2;
    int newrank = preStep(b, g, me, count, rem);
    if (newrank >= 0) {
      int round = 1;
      for (int mask = 1; mask < pof2; mask <<= 1, round++) {
        int peer = g.world(coreToGroup(newrank ^ mask, rem));
        b.send(peer, BufferId.OUTPUT, 0, count, round);
        b.receive(peer, BufferId.OUTPUT, 0, count, true, round);
        b.endStep();
      }
    }
    postStep(b, g, me, count, rem, 1 + log2(pof2));
  }

  /**
   * The non-power-of-two pre-step (round 0) shared with Rabenseifner's algorithm: returns the rank's index in the
   * power-of-two core, or -1 when it sits out.
   */
  static int preStep(ScheduleBuilder b, RankGroup g, int me, int count, int rem) {
    if (me < 2 * rem) {
      if ((me & 1) == 0) {
        b.send(g.world(me + 1), BufferId.OUTPUT, 0, count, 0);
        b.endStep();
        return -1;
      }
      b.receive(g.world(me - 1), BufferId.OUTPUT, 0, count, true, 0);
      b.endStep();
      return me / 2;
    }
    return me - rem;
  }

  /** The non-power-of-two post-step: odd ranks of the first 2·rem send the result to their even partner. */
  static void postStep(ScheduleBuilder b, RankGroup g, int me, int count, int rem, int round) {
    if (me < 2 * rem) {
      if ((me & 1) == 1) {
        b.send(g.world(me - 1), BufferId.OUTPUT, 0, count, round);
      } else {
        b.receive(g.world(me + 1), BufferId.OUTPUT, 0, count, false, round);
      }
      b.endStep();
    }
  }

  /** Group index of core rank {@code newrank}. */
  static int coreToGroup(int newrank, int rem) {
    return newrank < rem ? newrank * 2 + 1 : newrank + rem;
  }
}
