package io.fabemu.collectives;

import static io.fabemu.collectives.ScheduleBuilder.chunkCount;
import static io.fabemu.collectives.ScheduleBuilder.chunkStart;

/**
 * The streaming line Allreduce of the ring patent ([0006]-[0010]), the baseline
 * its rings improve on: the ranks in a line (ring 0 of the embedding without its closing hop), the vector streamed
 * in F fragments ({@link EmbeddedRings#lineFragments}: by default p, the size of a ring's chunks).
 * {@link #fromOneEnd}: the first rank sends each fragment forward; each
 * rank reduces it with its own and passes it on; the last completes it and sends it back along the backward links,
 * each rank storing and passing it on. Forward and backward links work at once as the fragments pipeline.
 * {@link #fromBothEnds} ([0010], "a small improvement"): both ends start, the reduction completes at the middle rank,
 * which broadcasts the result back out to both ends, so every link carries reductions one way and results the other.
 *
 * <p>Steps, fragment f, place j on the line (0..p-1). One end: place j sends fragment f forward at step f+j and
 * the last place sends it back at step f+p-1; place j receives it back at step f+2(p-1)-j-1. Both ends, middle
 * place c = (p-1)/2, D = max(c-1, p-2-c) steps for the later side to reach it: place j &lt; c sends forward at step
 * f+j, place j &gt; c backward at step f+(p-1-j), the middle sends the result out at step f+D+1, and a place e away
 * from the middle receives it at step f+D+e. Cost with F fragments: F + 2p - 3 steps from one end, about F + p from
 * both, each alpha + (n/F) beta; with the default F = p, 3p - 3 and about 2p. Tags: fragment f is round f; phases 0
 * (forward reduce) and 1 (backward results), and from both ends 2 (backward reduce) and 3 (forward results). Lane
 * 0: one link per neighbour and direction, as the patent's line has.
 */
final class LineAllreduce {
  private LineAllreduce() {}

  /** From one end; contributions in OUTPUT. */
  static void fromOneEnd(ScheduleBuilder b, EmbeddedRings.Ring ring, int me, int count, int fragments) {
    int[] line = ring.order();
    int p = line.length;
    if (p == 1) return;
    int j = ring.positionOf(me);
    for (int s = 0; s < fragments + 2 * p - 3; s++) {
      if (j <= p - 2) transfer(b, true, line[j + 1], count, fragments, s - j, 0, false);
      if (j >= 1) transfer(b, false, line[j - 1], count, fragments, s - j + 1, 0, true);
      if (j >= 1) transfer(b, true, line[j - 1], count, fragments, s - 2 * (p - 1) + j, 1, false);
      if (j <= p - 2) transfer(b, false, line[j + 1], count, fragments, s - 2 * (p - 1) + j + 1, 1, false);
      b.endStep();
    }
  }

  /** From both ends, reduced at the middle; contributions in OUTPUT. */
  static void fromBothEnds(ScheduleBuilder b, EmbeddedRings.Ring ring, int me, int count, int fragments) {
    int[] line = ring.order();
    int p = line.length;
    if (p == 1) return;
    int j = ring.positionOf(me);
    int c = (p - 1) / 2;
    int d = Math.max(c - 1, p - 2 - c);
    int farthest = Math.max(c, p - 1 - c);
    for (int s = 0; s < fragments + d + farthest; s++) {
      if (j < c) {
        transfer(b, true, line[j + 1], count, fragments, s - j, 0, false);
        if (j >= 1) transfer(b, false, line[j - 1], count, fragments, s - j + 1, 0, true);
        int e = c - j;
        transfer(b, false, line[j + 1], count, fragments, s - d - e, 1, false);
        if (j >= 1) transfer(b, true, line[j - 1], count, fragments, s - d - 1 - e, 1, false);
      } else if (j > c) {
        int fromEnd = p - 1 - j;
        transfer(b, true, line[j - 1], count, fragments, s - fromEnd, 2, false);
        if (fromEnd >= 1) transfer(b, false, line[j + 1], count, fragments, s - fromEnd + 1, 2, true);
        int e = j - c;
        transfer(b, false, line[j - 1], count, fragments, s - d - e, 3, false);
        if (j <= p - 2) transfer(b, true, line[j + 1], count, fragments, s - d - 1 - e, 3, false);
      } else {
        if (c >= 1) transfer(b, false, line[c - 1], count, fragments, s - (c - 1), 0, true);
        transfer(b, false, line[c + 1], count, fragments, s - (p - 2 - c), 2, true);
        if (c >= 1) transfer(b, true, line[c - 1], count, fragments, s - d - 1, 1, false);
        transfer(b, true, line[c + 1], count, fragments, s - d - 1, 3, false);
      }
      b.endStep();
    }
  }

  /** A send or receive of fragment {@code fragment} in phase {@code phase}; nothing when it is out of range. */
  private static void transfer(ScheduleBuilder b, boolean send, int peer, int count, int fragments, int fragment,
                               int phase, boolean reduce) {
    if (fragment < 0 || fragment >= fragments) return;
    b.phase(phase);
    int offset = chunkStart(count, fragments, fragment);
    int length = chunkCount(count, fragments, fragment);
    if (send) {
      b.send(peer, BufferId.OUTPUT, offset, length, fragment);
    } else {
      b.receive(peer, BufferId.OUTPUT, offset, length, reduce, fragment);
    }
  }
}
