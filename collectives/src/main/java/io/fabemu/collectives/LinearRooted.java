package io.fabemu.collectives;

/**
 * Linear (flat-tree) rooted collectives: the root talks to every other rank directly, in rank order, in one round
 * (MPICH's {@code MPIR_Gather_intra_linear}/{@code MPIR_Scatter_intra_linear} style, and the "linear" algorithms of
 * OpenMPI's coll/basic). Every message uses round 0; (source, tag) stays unique because each peer sends or receives
 * exactly one message.
 */
final class LinearRooted {
  private LinearRooted() {}

  /** The root copies its input to OUTPUT and reduces every other rank's INPUT into it. */
  static void reduce(ScheduleBuilder b, int p, int me, int root, int count) {
    if (me == root) {
      b.copy(BufferId.INPUT, 0, BufferId.OUTPUT, 0, count);
      for (int r = 0; r < p; r++) {
        if (r != root) b.receive(r, BufferId.OUTPUT, 0, count, true, 0);
      }
    } else {
      b.send(root, BufferId.INPUT, 0, count, 0);
    }
    b.endStep();
  }

  /** The root sends its INPUT to every rank, which receives into OUTPUT. */
  static void broadcast(ScheduleBuilder b, int p, int me, int root, int count) {
    if (me == root) {
      for (int r = 0; r < p; r++) {
        if (r != root) b.send(r, BufferId.INPUT, 0, count, 0);
      }
    } else {
      b.receive(root, BufferId.OUTPUT, 0, count, false, 0);
    }
    b.endStep();
  }

  /** Every rank sends its INPUT to the root, which places block r at OUTPUT[r * count]. */
  static void gather(ScheduleBuilder b, int p, int me, int root, int count) {
    if (me == root) {
      b.copy(BufferId.INPUT, 0, BufferId.OUTPUT, root * count, count);
      for (int r = 0; r < p; r++) {
        if (r != root) b.receive(r, BufferId.OUTPUT, r * count, count, false, 0);
      }
    } else {
      b.send(root, BufferId.INPUT, 0, count, 0);
    }
    b.endStep();
  }

  /** The root sends block r of its INPUT to rank r, then copies its own block. */
  static void scatter(ScheduleBuilder b, int p, int me, int root, int count) {
    if (me == root) {
      for (int r = 0; r < p; r++) {
        if (r != root) b.send(r, BufferId.INPUT, r * count, count, 0);
      }
      b.endStep();
      b.copy(BufferId.INPUT, root * count, BufferId.OUTPUT, 0, count);
    } else {
      b.receive(root, BufferId.OUTPUT, 0, count, false, 0);
    }
    b.endStep();
  }
}
