package io.fabemu.collectives;

/**
 * The part of one rank's input that is its output when a collective runs in place ({@link BufferLayout#IN_PLACE}):
 * elements {@code [inputOffset, inputOffset + count)} of {@link BufferId#INPUT} are the same memory as elements
 * {@code [outputOffset, outputOffset + count)} of {@link BufferId#OUTPUT}. The positions are NCCL's and MPI's in-place
 * conventions (nccl-tests' {@code sendInplaceOffset}/{@code recvInplaceOffset}), with {@code count} the schedule's
 * elements per rank (per block for the collectives with {@link Collective#oneBlockPerRank()}):
 * <ul>
 *   <li>allreduce, reduce, broadcast, send/recv: the whole buffer at offset 0 of both;</li>
 *   <li>allgather, gather: the input is block {@code rank} of the output ({@code recvbuff + rank * count});</li>
 *   <li>reduce-scatter, scatter: the output is block {@code rank} of the input ({@code sendbuff + rank * count});</li>
 *   <li>alltoall: all {@code p} blocks, at offset 0 of both;</li>
 *   <li>barrier: nothing.</li>
 * </ul>
 *
 * <p>Rule ({@link #aliases}): a schedule's local copy from INPUT to OUTPUT that moves elements onto themselves under
 * this aliasing is what an in-place call skips, so it costs no time. Schedules keep separate buffers either way (the
 * copy still moves the data), so every output element stays exactly checked; only the time of the skipped copy
 * differs between the two layouts. Every other copy (into TEMP, a rotation, a copy from TEMP) is paid in both.
 *
 * @param inputOffset  first aliased element of INPUT
 * @param outputOffset first aliased element of OUTPUT
 * @param count        aliased elements (0: nothing is aliased)
 */
public record InPlaceAlias(long inputOffset, long outputOffset, long count) {

  /** Nothing aliased: every copy is paid (a barrier, or a run out of place). */
  public static final InPlaceAlias NONE = new InPlaceAlias(0, 0, 0);

  public InPlaceAlias {
    if (inputOffset < 0 || outputOffset < 0 || count < 0) {
      throw new IllegalArgumentException("negative in-place region: input " + inputOffset + ", output "
          + outputOffset + ", count " + count);
    }
  }

  /**
   * The aliasing of {@code rank} of {@code worldSize} ranks when {@code collective} runs in place on {@code count}
   * elements per rank (per block for the block collectives).
   */
  public static InPlaceAlias of(Collective collective, int rank, int worldSize, int count) {
    if (rank < 0 || rank >= worldSize) {
      throw new IllegalArgumentException("rank " + rank + " is outside a world of " + worldSize);
    }
    long block = (long) rank * count;
    return switch (collective) {
      case ALLREDUCE, REDUCE, BROADCAST, SENDRECV -> new InPlaceAlias(0, 0, count);
      case ALLGATHER, GATHER -> new InPlaceAlias(0, block, count);
      case REDUCE_SCATTER, SCATTER -> new InPlaceAlias(block, 0, count);
      case ALLTOALL -> new InPlaceAlias(0, 0, (long) worldSize * count);
      case BARRIER, PIPELINE -> NONE;
    };
  }

  /**
   * True when {@code copy} moves aliased INPUT elements onto the same memory in OUTPUT: in place it moves nothing,
   * so it costs no time.
   */
  public boolean aliases(LocalCopy copy) {
    if (count == 0 || copy.count() == 0 || copy.from() != BufferId.INPUT || copy.to() != BufferId.OUTPUT) {
      return false;
    }
    long from = copy.fromOffset();
    return from >= inputOffset && from + copy.count() <= inputOffset + count
        && copy.toOffset() - from == outputOffset - inputOffset;
  }
}
