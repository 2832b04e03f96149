package io.fabemu.collectives;


/**
 * The data plane of INC Allreduce (the INC paper, section 3.4), one rank's schedule. Phase 0: the ranks a leader leads
 * (its node in Node mode, its socket in Socket mode) reduce to it along a binomial tree. Phase 1, leaders only: the
 * leader sends its partial flagged for in-network aggregation to its ring successor (the closed ring of its group's
 * leaders under its TOR) and receives the aggregate over all leaders from its ring predecessor, as the TOR fills
 * the result into the packet the predecessor sent. Phase 3: the leader broadcasts the result to its ranks along a
 * binomial tree.
 */
public final class IncAllreduce {
  private IncAllreduce() {}

  /**
   * Vectors of at least this many bytes take the pipelined schedule ({@link IncPipelinedAllreduce}); smaller ones,
   * every vector that fits one INC task (a switch's max data size is at most 65,535 B) among them, this one.
   */
  public static final long PIPELINED_MIN_BYTES = 64 * 1024;

  /**
   * One rank's schedule for {@code count} elements of {@code elementBytes}: this class's below
   * {@link #PIPELINED_MIN_BYTES}, the pipelined one from there on.
   */
  public static Schedule build(IncLayout layout, int rank, int count, int elementBytes) {
    if ((long) count * elementBytes >= PIPELINED_MIN_BYTES) {
      return IncPipelinedAllreduce.build(layout, rank, count, elementBytes);
    }
    return build(layout, rank, count);
  }

  /**
   * The in-network tasks one Allreduce of {@code bytes} hands each leader's NIC: one below
   * {@link #PIPELINED_MIN_BYTES}, one per segment of about 64 KiB (at most 1024) from there on.
   */
  public static int tasksPerAllreduce(long bytes) {
    if (bytes < PIPELINED_MIN_BYTES) return 1;
    return (int) Math.max(1, Math.min(IncPipelinedAllreduce.MAX_SEGMENTS, bytes / IncPipelinedAllreduce.SEGMENT_BYTES));
  }

  public static Schedule build(IncLayout layout, int rank, int count) {
    ScheduleBuilder b = new ScheduleBuilder(rank).buffers(count, count);
    int leader = layout.leaderOf(rank);
    IncLayout.Block block = layout.ledBy(leader);
    RankGroup ledRanks = new RankGroup(block.first(), 1, block.count());
    int me = rank - block.first();
    b.phase(0);
    BinomialTree.reduce(b, ledRanks, me, 0, count, true);
    if (rank == leader) {
      b.phase(1);
      b.incSend(layout.ringSuccessor(rank), BufferId.OUTPUT, 0, count, 0);
      b.receive(layout.ringPredecessor(rank), BufferId.OUTPUT, 0, count, false, 0);
      b.endStep();
    }
    b.phase(3);
    BinomialTree.broadcast(b, ledRanks, me, 0, count, BufferId.OUTPUT);
    return b.build();
  }
}
