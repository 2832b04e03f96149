package io.fabemu.collectives;

import static io.fabemu.collectives.ScheduleBuilder.log2;

import java.util.function.IntUnaryOperator;

/**
 * Reduce-scatter by recursive halving with equal blocks, correct for any p (MPICH's
 * {@code MPIR_Reduce_scatter_block_intra_recursive_halving}; Thakur, Rabenseifner and Gropp 2005, section 4.3).
 *
 * <p>The rank copies its p·count input to TEMP. With pof2 and rem as in {@link RecursiveDoublingAllreduce}, in
 * round 0 the even ranks among the first 2·rem send their whole TEMP to the odd neighbour, which reduces it. The
 * pof2 core ranks then own "virtual blocks": core rank v &lt; rem stands for the blocks of ranks 2v and 2v+1, the
 * others for the block of rank v + rem; virtual blocks stay contiguous in memory. Rounds 1..L halve the window of
 * virtual blocks (mask = pof2/2 down to 1), sending the far half to v XOR mask and reducing the near half received
 * from it; core rank v ends with virtual block v. In round L+1 the odd ranks of the first 2·rem send their even
 * partner its block; everyone copies its own block to OUTPUT. Cost for a power of two:
 * log2 p·α + (p-1)·nβ.
 */
final class RecursiveHalvingReduceScatter {
  private RecursiveHalvingReduceScatter() {}

  static void append(ScheduleBuilder b, int p, int me, int count) {
    if (p == 1) {
      b.copy(BufferId.INPUT, 0, BufferId.OUTPUT, 0, count);
      b.endStep();
      return;
    }
    int pof2 = Integer.highestOneBit(p);
    int rem = p - pof2;
    int total = p * count;
    b.temp(total);
    b.copy(BufferId.INPUT, 0, BufferId.TEMP, 0, total);
    int newrank;
    if (me < 2 * rem) {
      if ((me & 1) == 0) {
        b.send(me + 1, BufferId.TEMP, 0, total, 0);
        newrank = -1;
      } else {
        b.receive(me - 1, BufferId.TEMP, 0, total, true, 0);
        newrank = me / 2;
      }
    } else {
      newrank = me - rem;
    }
    b.endStep();
    if (newrank >= 0) {
      appendHalvingRounds(b, newrank, pof2, core -> RecursiveDoublingAllreduce.coreToGroup(core, rem), BufferId.TEMP,
          block -> virtualStart(block, rem, count));
    }
    int postRound = 1 + log2(pof2);
    if (me < 2 * rem) {
      if ((me & 1) == 1) {
        b.send(me - 1, BufferId.TEMP, (me - 1) * count, count, postRound);
        b.copy(BufferId.TEMP, me * count, BufferId.OUTPUT, 0, count);
      } else {
        b.receive(me + 1, BufferId.OUTPUT, 0, count, false, postRound);
      }
    } else {
      b.copy(BufferId.TEMP, me * count, BufferId.OUTPUT, 0, count);
    }
    b.endStep();
  }

  /**
   * Rounds 1..log2(pof2) of recursive halving among the pof2 core ranks: with mask = pof2/2 down to 1, core rank
   * {@code newrank} keeps the half of its window of blocks on its own side of the mask bit, sends the other half to
   * newrank XOR mask and reduces the half it receives. It ends owning block {@code newrank}.
   *
   * @param peerOfCore maps a core rank to the world rank to talk to
   * @param blockStart element offset of block i in {@code buffer} (block pof2 = the end)
   */
  static void appendHalvingRounds(ScheduleBuilder b, int newrank, int pof2, IntUnaryOperator peerOfCore,
                                  BufferId buffer, IntUnaryOperator blockStart) {
    int lo = 0;
    int hi = pof2;
    int round = 1;
    for (int mask = pof2 >> 1; mask > 0; mask >>= 1, round++) {
      int peer = peerOfCore.applyAsInt(newrank ^ mask);
      int mid = lo + mask;
      boolean keepLow = (newrank & mask) == 0;
      int sendLo = keepLow ? mid : lo;
      int sendHi = keepLow ? hi : mid;
      int keepLo = keepLow ? lo : mid;
      int keepHi = keepLow ? mid : hi;
      int sendStart = blockStart.applyAsInt(sendLo);
      int keepStart = blockStart.applyAsInt(keepLo);
      b.send(peer, buffer, sendStart, blockStart.applyAsInt(sendHi) - sendStart, round);
      b.receive(peer, buffer, keepStart, blockStart.applyAsInt(keepHi) - keepStart, true, round);
      b.endStep();
      lo = keepLo;
      hi = keepHi;
    }
  }

  private static int virtualStart(int v, int rem, int count) {
    return (v < rem ? 2 * v : v + rem) * count;
  }
}
