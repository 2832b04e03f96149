package io.fabemu.collectives;

import static io.fabemu.collectives.ScheduleBuilder.chunkCount;
import static io.fabemu.collectives.ScheduleBuilder.chunkStart;
import static io.fabemu.collectives.ScheduleBuilder.mod;

import java.util.List;

/**
 * The ring collectives on several embedded rings at once (the ring patent, claims
 * 8-12): the vector is cut into one fragment per ring in proportion to the rings' bandwidths
 * ({@link EmbeddedRings#fragmentCounts}), and every ring runs the ring reduce-scatter and then the ring all-gather
 * of {@link RingAllreduce} on its fragment, all rings in the same steps. So in every step a rank sends one chunk
 * on each of its rings' outgoing hops and reduces (or stores) one chunk from each incoming hop: on a ring and its
 * reverse, two links each way at once, as claims 10-12 say; on the triangular prism's six rings, six.
 *
 * <p>Chunks. Ring i's fragment is cut into p chunks with labels 0..p-1; at reduce-scatter step k the rank at place
 * j of the ring sends chunk (j-k) to the next place and reduces chunk (j-k-1) from the previous, so after p-1 steps
 * place j holds chunk (j+1) fully reduced; the all-gather step k sends chunk (j+1-k) and stores chunk (j-k). For
 * the allreduce a chunk is a part of the ring's fragment of OUTPUT; for reduce-scatter and all-gather, chunk l is
 * ring i's fragment of the block of the rank at place l-1, so place j ends (reduce-scatter) or starts (all-gather)
 * with its own block.
 *
 * <p>Tags: reduce-scatter step k is round k, all-gather step k round p-1+k, and each hop's lane is the tag's index
 * ({@link EmbeddedRings}), which also keeps apart two rings that share a hop in the same step. Cost with R rings of
 * equal bandwidth on an uncontended network: 2(p-1) steps of alpha + (n/(R p)) beta each.
 */
final class MultiRing {
  private MultiRing() {}

  /** Allreduce, the contributions already in OUTPUT ({@code count} elements). */
  static void allreduce(ScheduleBuilder b, List<EmbeddedRings.Ring> rings, int me, int count) {
    int p = rings.get(0).order().length;
    if (p == 1) return;
    int[] fragment = EmbeddedRings.fragmentCounts(rings, count);
    int[] fragmentStart = starts(fragment);
    Chunks chunks = new Chunks() {
      @Override
      public int offset(int ring, int label) {
        return fragmentStart[ring] + chunkStart(fragment[ring], p, mod(label, p));
      }

      @Override
      public int count(int ring, int label) {
        return chunkCount(fragment[ring], p, mod(label, p));
      }
    };
    reduceScatterSteps(b, rings, me, BufferId.OUTPUT, chunks);
    allGatherSteps(b, rings, me, chunks);
  }

  /** Reduce-scatter of p blocks of {@code count} elements (INPUT) to this rank's block (OUTPUT). */
  static void reduceScatter(ScheduleBuilder b, List<EmbeddedRings.Ring> rings, int me, int count) {
    int p = rings.get(0).order().length;
    if (p == 1) {
      b.copy(BufferId.INPUT, 0, BufferId.OUTPUT, 0, count);
      b.endStep();
      return;
    }
    b.temp(p * count);
    b.copy(BufferId.INPUT, 0, BufferId.TEMP, 0, p * count);
    reduceScatterSteps(b, rings, me, BufferId.TEMP, blockChunks(rings, count));
    b.copy(BufferId.TEMP, me * count, BufferId.OUTPUT, 0, count);
    b.endStep();
  }

  /** All-gather of every rank's {@code count} elements (INPUT) into p blocks (OUTPUT). */
  static void allGather(ScheduleBuilder b, List<EmbeddedRings.Ring> rings, int me, int count) {
    b.copy(BufferId.INPUT, 0, BufferId.OUTPUT, me * count, count);
    if (rings.get(0).order().length > 1) allGatherSteps(b, rings, me, blockChunks(rings, count));
    b.endStep();
  }

  /** Chunk l of ring i: ring i's fragment of the block of the rank at place l-1 of ring i. */
  private static Chunks blockChunks(List<EmbeddedRings.Ring> rings, int count) {
    int[] fragment = EmbeddedRings.fragmentCounts(rings, count);
    int[] fragmentStart = starts(fragment);
    return new Chunks() {
      @Override
      public int offset(int ring, int label) {
        int[] order = rings.get(ring).order();
        return order[mod(label - 1, order.length)] * count + fragmentStart[ring];
      }

      @Override
      public int count(int ring, int label) {
        return fragment[ring];
      }
    };
  }

  private static void reduceScatterSteps(ScheduleBuilder b, List<EmbeddedRings.Ring> rings, int me,
                                         BufferId buffer, Chunks chunks) {
    int p = rings.get(0).order().length;
    int[] place = places(rings, me);
    for (int k = 0; k < p - 1; k++) {
      for (int i = 0; i < rings.size(); i++) {
        hop(b, rings.get(i), place[i], buffer, i, chunks, place[i] - k, place[i] - k - 1, true, k);
      }
      b.endStep();
    }
  }

  private static void allGatherSteps(ScheduleBuilder b, List<EmbeddedRings.Ring> rings, int me, Chunks chunks) {
    int p = rings.get(0).order().length;
    int[] place = places(rings, me);
    for (int k = 0; k < p - 1; k++) {
      for (int i = 0; i < rings.size(); i++) {
        hop(b, rings.get(i), place[i], BufferId.OUTPUT, i, chunks, place[i] + 1 - k, place[i] - k, false,
            p - 1 + k);
      }
      b.endStep();
    }
  }

  /** Sends chunk {@code sent} to the next place and receives chunk {@code received} from the previous. */
  private static void hop(ScheduleBuilder b, EmbeddedRings.Ring ring, int place, BufferId buffer, int ringIndex,
                          Chunks chunks, int sent, int received, boolean reduce, int round) {
    int[] order = ring.order();
    int p = order.length;
    int previous = mod(place - 1, p);
    b.send(order[mod(place + 1, p)], buffer, chunks.offset(ringIndex, sent), chunks.count(ringIndex, sent), round,
        ring.lanes()[place]);
    b.receive(order[previous], buffer, chunks.offset(ringIndex, received), chunks.count(ringIndex, received), reduce,
        round, ring.lanes()[previous]);
  }

  /** Where each fragment starts: the counts before it added up. */
  private static int[] starts(int[] fragment) {
    int[] start = new int[fragment.length];
    for (int i = 1; i < fragment.length; i++) start[i] = start[i - 1] + fragment[i - 1];
    return start;
  }

  private static int[] places(List<EmbeddedRings.Ring> rings, int me) {
    int[] place = new int[rings.size()];
    for (int i = 0; i < place.length; i++) place[i] = rings.get(i).positionOf(me);
    return place;
  }

  /** Where chunk {@code label} of ring {@code ring} lies in the working buffer. */
  private interface Chunks {
    int offset(int ring, int label);

    int count(int ring, int label);
  }
}
