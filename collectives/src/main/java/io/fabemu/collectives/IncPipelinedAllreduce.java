package io.fabemu.collectives;

import static io.fabemu.collectives.ScheduleBuilder.chunkCount;
import static io.fabemu.collectives.ScheduleBuilder.chunkStart;
import static io.fabemu.collectives.ScheduleBuilder.mod;

/**
 * INC Allreduce of a large vector, one rank's schedule: the data plane of {@link IncAllreduce} cut into segments and
 * software-pipelined, so that the host's reduce work inside a node overlaps the in-network aggregation of the
 * segment before. For each segment {@code s} of about {@value #SEGMENT_BYTES} bytes:
 * <ol>
 *   <li>the ranks a leader leads reduce-scatter it along a ring (each reduces about 1/p of it per step, instead of the
 *       whole segment per binomial-tree level: the leader of a binomial reduce does log2(p) full reductions, this
 *       ring p-1 of 1/p each) and gather the reduced parts to the leader;</li>
 *   <li>the leader hands the segment to its NIC as one INC task (which the NIC streams in chunks when it is larger
 *       than the switches' maximum data size) addressed to its ring successor;</li>
 *   <li>one segment later (after segment {@code s + 1}'s reduce-scatter and gather), the leader takes segment
 *       {@code s}'s aggregate from its ring predecessor and sends it to each of its ranks.</li>
 * </ol>
 * The in-network step of segment {@code s} thus runs while the ranks reduce segment {@code s + 1}.
 *
 * <p>Tags: phase 4 the reduce-scatter (round = segment × p + step), 5 the gather (round = segment), 6 the in-network
 * step (round = segment), 7 the broadcast (round = segment).
 *
 * <p>Every segment but the last has the same number of elements, the last no more ({@link #segmentBounds}): each
 * segment is one INC task of the group, and a switch tells a slot's generations apart by the tasks' 8-bit req_id,
 * which holds only while every slot is used by every task but at most one in a row. Equal segments use the same
 * slots; the smaller last one uses a subset, and the next iteration's first segment the whole set again. (Spreading
 * the remainder over the first segments instead would leave some slots to those alone, skipped by hundreds of
 * tasks in a row: req_id wraps and a stale generation matches.)
 */
final class IncPipelinedAllreduce {
  /** Bytes per segment the vector is cut into, about (the last segment may be smaller). */
  static final int SEGMENT_BYTES = 64 * 1024;
  /** At most this many segments: a 64 MiB vector of 4-byte elements makes 1024 segments of 64 KiB. */
  static final int MAX_SEGMENTS = 1024;

  private static final int PHASE_REDUCE_SCATTER = 4;
  private static final int PHASE_GATHER = 5;
  private static final int PHASE_IN_NETWORK = 6;
  private static final int PHASE_BROADCAST = 7;

  private IncPipelinedAllreduce() {}

  /** Segments a vector of {@code count} elements of {@code elementBytes} is cut into: at least 1. */
  static int segments(int count, int elementBytes) {
    long bytes = (long) count * elementBytes;
    return (int) Math.max(1, Math.min(Math.min(MAX_SEGMENTS, count), bytes / SEGMENT_BYTES));
  }

  /**
   * Where each segment starts, and the vector's end last: {@code segments(count, elementBytes)} segments of
   * ceil(count / segments) elements, as many as that takes (fewer when the remainder would leave the last empty), the
   * last holding what is left, at least one element.
   */
  static int[] segmentBounds(int count, int elementBytes) {
    int wanted = segments(count, elementBytes);
    int size = (int) (((long) count + wanted - 1) / wanted);
    int segments = (int) (((long) count + size - 1) / size);
    int[] bounds = new int[segments + 1];
    for (int s = 0; s < segments; s++) bounds[s] = s * size;
    bounds[segments] = count;
    return bounds;
  }

  static Schedule build(IncLayout layout, int rank, int count, int elementBytes) {
    ScheduleBuilder b = new ScheduleBuilder(rank).buffers(count, count);
    int leader = layout.leaderOf(rank);
    IncLayout.Block block = layout.ledBy(leader);
    RankGroup led = new RankGroup(block.first(), 1, block.count());
    int me = rank - block.first();
    int[] bounds = segmentBounds(count, elementBytes);
    int segments = bounds.length - 1;
    for (int s = 0; s < segments; s++) {
      int start = bounds[s];
      int n = bounds[s + 1] - bounds[s];
      reduceToLeader(b, led, me, s, start, n);
      if (rank == leader) {
        b.phase(PHASE_IN_NETWORK);
        b.incSend(layout.ringSuccessor(rank), BufferId.OUTPUT, start, n, s);
        b.endStep();
      }
      if (s > 0) finish(b, layout, rank, led, me, s - 1, bounds[s - 1], bounds[s] - bounds[s - 1]);
    }
    finish(b, layout, rank, led, me, segments - 1, bounds[segments - 1], count - bounds[segments - 1]);
    return b.build();
  }

  /**
   * Segment {@code s} ({@code n} elements from {@code start}) reduced to the leader (group index 0): copied to
   * OUTPUT, reduce-scattered along the ring, the parts gathered to the leader.
   */
  private static void reduceToLeader(ScheduleBuilder b, RankGroup g, int me, int s, int start, int n) {
    int p = g.size();
    if (p == 1) {
      b.copy(BufferId.INPUT, start, BufferId.OUTPUT, start, n);
      b.endStep();
      return;
    }
    // The parts this rank reduces into need its own data in OUTPUT; part `me`, sent first, goes from INPUT.
    int mine = chunkStart(n, p, me);
    b.copy(BufferId.INPUT, start, BufferId.OUTPUT, start, mine);
    b.copy(BufferId.INPUT, start + mine + chunkCount(n, p, me), BufferId.OUTPUT, start + mine + chunkCount(n, p, me),
        n - mine - chunkCount(n, p, me));
    b.phase(PHASE_REDUCE_SCATTER);
    int right = g.world(mod(me + 1, p));
    int left = g.world(mod(me - 1, p));
    for (int k = 0; k < p - 1; k++) {
      int sent = mod(me - k, p);
      int received = mod(me - k - 1, p);
      b.send(right, k == 0 ? BufferId.INPUT : BufferId.OUTPUT, start + chunkStart(n, p, sent),
          chunkCount(n, p, sent), s * p + k);
      b.receive(left, BufferId.OUTPUT, start + chunkStart(n, p, received), chunkCount(n, p, received), true,
          s * p + k);
      b.endStep();
    }
    // Rank i now holds part (i + 1) mod p reduced; the leader (index 0) holds part 1.
    b.phase(PHASE_GATHER);
    if (me == 0) {
      for (int i = 1; i < p; i++) {
        int part = mod(i + 1, p);
        b.receive(g.world(i), BufferId.OUTPUT, start + chunkStart(n, p, part), chunkCount(n, p, part), false, s);
      }
    } else {
      int part = mod(me + 1, p);
      b.send(g.world(0), BufferId.OUTPUT, start + chunkStart(n, p, part), chunkCount(n, p, part), s);
    }
    b.endStep();
  }

  /** Segment {@code s}: the leader takes its aggregate from its ring predecessor, then broadcasts it to its ranks. */
  private static void finish(ScheduleBuilder b, IncLayout layout, int rank, RankGroup g, int me, int s, int start,
                             int n) {
    if (me == 0) {
      b.phase(PHASE_IN_NETWORK);
      b.receive(layout.ringPredecessor(rank), BufferId.OUTPUT, start, n, false, s);
      b.endStep();
    }
    broadcast(b, g, me, s, start, n);
  }

  /**
   * Flat broadcast of {@code n} elements of OUTPUT from {@code start}: the leader (index 0) sends to each of its
   * ranks. Inside a node a message is a copy through memory that costs the sender only its send overhead, so one
   * level of copies in parallel beats a binomial tree's log2(p) levels one after the other.
   */
  private static void broadcast(ScheduleBuilder b, RankGroup g, int me, int s, int start, int n) {
    int p = g.size();
    if (p == 1) {
      return;
    }
    b.phase(PHASE_BROADCAST);
    if (me != 0) {
      b.receive(g.world(0), BufferId.OUTPUT, start, n, false, s);
    } else {
      for (int i = 1; i < p; i++) b.send(g.world(i), BufferId.OUTPUT, start, n, s);
    }
    b.endStep();
  }
}
