package io.fabemu.collectives;

import static io.fabemu.collectives.ScheduleBuilder.chunkCount;
import static io.fabemu.collectives.ScheduleBuilder.chunkStart;
import static io.fabemu.collectives.ScheduleBuilder.mod;


/**
 * Ring allreduce: a ring reduce-scatter followed by a ring allgather, 2(p-1) steps, each moving one chunk of about
 * n/p elements to the right neighbour (Patarasuk and Yuan, "Bandwidth optimal all-reduce algorithms for clusters of
 * workstations", JPDC 69(2), 2009; OpenMPI's {@code ompi_coll_base_allreduce_intra_ring}; also the reduce-scatter +
 * all-gather of the ring patent on one ring). Cost on an ideal network:
 * 2(p-1)α + 2(p-1)/p·nβ.
 *
 * <p>The count is cut into p chunks, the first {@code count % p} one element larger. When count &lt; p some chunks
 * are empty; they still travel as zero-element messages so that every rank keeps the same step structure.
 *
 * <p>Reduce-scatter step k (round k): send chunk (i-k) mod p, receive and reduce chunk (i-k-1) mod p; afterwards
 * rank i holds the reduced chunk (i+1) mod p. Allgather step k (round p-1+k): send chunk (i+1-k), receive chunk
 * (i-k). The data is in OUTPUT throughout.
 */
final class RingAllreduce {
  private RingAllreduce() {}

  static void append(ScheduleBuilder b, RankGroup g, int me, int count) {
    int p = g.size();
    if (p == 1) {
      return;
    }
    int right = g.world(mod(me + 1, p));
    int left = g.world(mod(me - 1, p));
    for (int k = 0; k < p - 1; k++) {
      int s = mod(me - k, p);
      int r = mod(me - k - 1, p);
      b.send(right, BufferId.OUTPUT, chunkStart(count, p, s), chunkCount(count, p, s), k);
      b.receive(left, BufferId.OUTPUT, chunkStart(count, p, r), chunkCount(count, p, r), true, k);
      b.endStep();
    }
    for (int k = 0; k < p - 1; k++) {
      int s = mod(me + 1 - k, p);
      int r = mod(me - k, p);
      b.send(right, BufferId.OUTPUT, chunkStart(count, p, s), chunkCount(count, p, s), p - 1 + k);
      b.receive(left, BufferId.OUTPUT, chunkStart(count, p, r), chunkCount(count, p, r), false, p - 1 + k);
      b.endStep();
    }
  }
}
