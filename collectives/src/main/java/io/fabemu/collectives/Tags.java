package io.fabemu.collectives;

/**
 * The message tag scheme. A tag is a {@code long}:
 *
 * <pre>
 *   bits 63..32  operation sequence number in the rank's workload (collectives and barriers alike, from 0)
 *   bits 31..28  phase   (hierarchical allreduce: 0 intra-node reduce, 1..2 among leaders, 3 intra-node broadcast;
 *                         binomial allreduce: 0 reduce, 1 broadcast; the tree allreduce: 0..1 up and down
 *                         tree 0, 2..3 up and down tree 1; a pipeline iteration: 1..4 its stages'
 *                         collectives and transfers, 5..6 its global allreduce, see PipelineIteration;
 *                         everything else 0)
 *   bits 27..4   round   (the algorithm's logical step, which sender and receiver compute alike, e.g. ring step k,
 *                         or log2 of the mask of a binomial-tree edge)
 *   bits  3..0   index   (transfer index inside one round between the same two ranks, and the message's lane:
 *                         where a hop has parallel links, index k takes the k-th after the flow's own, see
 *                         Message#laneOf; 0 except in the embedded-ring algorithms, whose rings sharing a hop
 *                         take lanes 0, 1, ... there, see EmbeddedRings, and in the tree allreduce, whose tree t
 *                         takes lane t, see DoubleBinaryTree)
 * </pre>
 *
 * Every rank runs the same sequence of operations, so every rank computes the same tags, and (source rank, tag)
 * names exactly one message a rank receives in the run (the embedded-ring algorithms send one tag to several
 * successors, one per ring, so across the run it is (source, destination, tag) that is unique).
 */
public final class Tags {
  /** Largest round number a channel can carry. */
  public static final int MAX_ROUND = (1 << 24) - 1;

  private Tags() {}

  /** The low 32 bits of a tag. */
  public static int channel(int phase, int round, int index) {
    if (phase < 0 || phase > 15 || round < 0 || round > MAX_ROUND || index < 0 || index > 15) {
      throw new IllegalArgumentException("channel out of range: phase " + phase + ", round " + round
          + ", index " + index);
    }
    return (phase << 28) | (round << 4) | index;
  }

  /** The tag of a transfer of operation {@code opSequence}. */
  public static long tag(long opSequence, int channel) {
    return (opSequence << 32) | (channel & 0xFFFF_FFFFL);
  }

  public static long opSequence(long tag) {
    return tag >>> 32;
  }

  public static int phase(long tag) {
    return (int) (tag >>> 28) & 0xF;
  }

  public static int round(long tag) {
    return (int) (tag >>> 4) & MAX_ROUND;
  }

  public static int index(long tag) {
    return (int) tag & 0xF;
  }

  /** Human form, for error messages. */
  public static String describe(long tag) {
    return "op " + opSequence(tag) + " phase " + phase(tag) + " round " + round(tag) + " index " + index(tag);
  }
}
