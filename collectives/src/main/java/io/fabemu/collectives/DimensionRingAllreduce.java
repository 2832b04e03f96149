package io.fabemu.collectives;

import static io.fabemu.collectives.ScheduleBuilder.chunkCount;
import static io.fabemu.collectives.ScheduleBuilder.chunkStart;
import static io.fabemu.collectives.ScheduleBuilder.mod;

import java.util.ArrayDeque;
import java.util.Deque;

/**
 * Dimension-wise ring Allreduce on a torus (the router patent's dimension-order networks; the algorithm of
 * torus machines such as Blue Gene and of the 2-D torus Allreduce of Mikami et al. and Ying et al.): a ring
 * reduce-scatter along dimension 0 over the whole vector, then along dimension 1 over the part each rank kept, and so
 * on; then ring all-gathers back in the reverse order. Both directions of every ring work at once: the first half of
 * the vector goes round the rings in the + direction, the second half in the - direction, so each dimension's links
 * carry traffic both ways.
 *
 * <p>Along a dimension of k ranks, the + half's reduce-scatter step j sends chunk (c-j) of the current segment to
 * the + neighbour and reduces chunk (c-j-1) from the - neighbour, leaving rank c with chunk (c+1); the - half
 * mirrors it (sends chunk (c+j) to the - neighbour, reduces chunk (c+j+1), keeps chunk (c-1)). The all-gather
 * undoes it with the same chunks, without reducing. Dimensions of size 1 are skipped. Cost on a torus of
 * dimensions k_1..k_D with n bytes per rank: 2 sum(k_d - 1) alpha steps and about 2 (1 - 1/p) n/2 beta per
 * direction, on neighbour links only. The data is in OUTPUT throughout; rounds are 2t for the + half and 2t+1 for
 * the - half of step t, so the two halves never share a tag even when both neighbours are one rank (k = 2).
 */
final class DimensionRingAllreduce {
  private DimensionRingAllreduce() {}

  /** Rank {@code me}'s steps on {@code grid}, the contributions already in OUTPUT ({@code count} elements). */
  static void append(ScheduleBuilder b, RankGrid grid, int me, int count) {
    int plusCount = count - count / 2;
    Segment plus = new Segment(0, plusCount);
    Segment minus = new Segment(plusCount, count - plusCount);
    Deque<Segment[]> parents = new ArrayDeque<>();
    int round = 0;
    for (int d = 0; d < grid.dimensions(); d++) {
      int k = grid.size(d);
      if (k == 1) continue;
      RankGroup line = grid.line(me, d);
      int c = grid.coordinate(me, d);
      int next = line.world(mod(c + 1, k));
      int previous = line.world(mod(c - 1, k));
      for (int j = 0; j < k - 1; j++, round += 2) {
        transfer(b, next, plus, k, c - j, round);
        receive(b, previous, plus, k, c - j - 1, true, round);
        transfer(b, previous, minus, k, c + j, round + 1);
        receive(b, next, minus, k, c + j + 1, true, round + 1);
        b.endStep();
      }
      parents.push(new Segment[] {plus, minus});
      plus = plus.chunk(k, c + 1);
      minus = minus.chunk(k, c - 1);
    }
    for (int d = grid.dimensions() - 1; d >= 0; d--) {
      int k = grid.size(d);
      if (k == 1) continue;
      Segment[] parent = parents.pop();
      RankGroup line = grid.line(me, d);
      int c = grid.coordinate(me, d);
      int next = line.world(mod(c + 1, k));
      int previous = line.world(mod(c - 1, k));
      for (int j = 0; j < k - 1; j++, round += 2) {
        transfer(b, next, parent[0], k, c + 1 - j, round);
        receive(b, previous, parent[0], k, c - j, false, round);
        transfer(b, previous, parent[1], k, c - 1 + j, round + 1);
        receive(b, next, parent[1], k, c + j, false, round + 1);
        b.endStep();
      }
    }
  }

  private static void transfer(ScheduleBuilder b, int peer, Segment segment, int k, int chunk, int round) {
    Segment part = segment.chunk(k, chunk);
    b.send(peer, BufferId.OUTPUT, part.offset, part.count, round);
  }

  private static void receive(ScheduleBuilder b, int peer, Segment segment, int k, int chunk, boolean reduce,
                              int round) {
    Segment part = segment.chunk(k, chunk);
    b.receive(peer, BufferId.OUTPUT, part.offset, part.count, reduce, round);
  }

  /** A region of OUTPUT. */
  private record Segment(int offset, int count) {
    /** Chunk {@code j mod parts} of this segment cut into {@code parts}. */
    Segment chunk(int parts, int j) {
      int index = mod(j, parts);
      return new Segment(offset + chunkStart(count, parts, index), chunkCount(count, parts, index));
    }
  }
}
