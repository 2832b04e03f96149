package io.fabemu.collectives;

import static io.fabemu.collectives.ScheduleBuilder.chunkStart;
import static io.fabemu.collectives.ScheduleBuilder.log2;

import java.util.function.IntUnaryOperator;

/**
 * Rabenseifner's allreduce: reduce-scatter by recursive halving, then allgather by recursive doubling
 * (R. Rabenseifner, "Optimization of Collective Reduction Operations", ICCS 2004; MPICH's
 * {@code MPIR_Allreduce_intra_reduce_scatter_allgather}; Thakur, Rabenseifner and Gropp 2005, section 4.4).
 * Cost for a power of two: 2·log2 p·α + 2(p-1)/p·nβ.
 *
 * <p>Non-powers of two use the same round-0 pre-step and final post-step as
 * {@link RecursiveDoublingAllreduce}. The vector is cut into pof2 chunks (the first {@code count % pof2} one
 * larger). Reduce-scatter rounds 1..L (L = log2 pof2) halve the distance: with mask = pof2/2, pof2/4, ..., 1, a rank
 * keeps the half of its chunk window on its own side of the mask bit, sends the other half to newrank XOR mask and
 * reduces what it receives; it ends with chunk newrank. Allgather rounds L+1..2L double the distance again and
 * copy. When count &lt; pof2 (some chunks would be empty) it falls back to recursive doubling, as MPICH does.
 */
final class RabenseifnerAllreduce {
  private RabenseifnerAllreduce() {}

  static void append(ScheduleBuilder b, RankGroup g, int me, int count) {
    int p = g.size();
    int pof2 = Integer.highestOneBit(p);
    if (p == 1 || count < pof2) {
      RecursiveDoublingAllreduce.append(b, g, me, count);
      return;
    }
    int rem = p - pof2;
    int levels = log2(pof2);
    int newrank = RecursiveDoublingAllreduce.preStep(b, g, me, count, rem);
    if (newrank >= 0) {
      IntUnaryOperator peerOfCore = core -> g.world(RecursiveDoublingAllreduce.coreToGroup(core, rem));
      RecursiveHalvingReduceScatter.appendHalvingRounds(b, newrank, pof2, peerOfCore, BufferId.OUTPUT,
          chunk -> chunkStart(count, pof2, chunk));
      // Halving left this rank with chunk newrank; allgather rounds double the window back to all chunks.
      int lo = newrank;
      int hi = newrank + 1;
      int round = levels + 1;
      for (int mask = 1; mask < pof2; mask <<= 1, round++) {
        int peer = peerOfCore.applyAsInt(newrank ^ mask);
        int peerLo = (newrank & mask) == 0 ? hi : lo - mask;
        int peerHi = peerLo + mask;
        b.send(peer, BufferId.OUTPUT, start(count, pof2, lo), span(count, pof2, lo, hi), round);
        b.receive(peer, BufferId.OUTPUT, start(count, pof2, peerLo), span(count, pof2, peerLo, peerHi), false,
            round);
        b.endStep();
        lo = Math.min(lo, peerLo);
        hi = Math.max(hi, peerHi);
      }
    }
    RecursiveDoublingAllreduce.postStep(b, g, me, count, rem, 2 * levels + 1);
  }

  private static int start(int count, int parts, int chunk) {
    return chunkStart(count, parts, chunk);
  }

  private static int span(int count, int parts, int fromChunk, int toChunk) {
    return chunkStart(count, parts, toChunk) - chunkStart(count, parts, fromChunk);
  }
}
