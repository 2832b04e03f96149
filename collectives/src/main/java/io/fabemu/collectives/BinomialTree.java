package io.fabemu.collectives;

import static io.fabemu.collectives.ScheduleBuilder.log2;


/**
 * Binomial-tree reduce, broadcast, gather and scatter on a {@link RankGroup}, as in MPICH
 * ({@code MPIR_Reduce_intra_binomial}, {@code MPIR_Bcast_intra_binomial}, {@code MPIR_Gather_intra_binomial},
 * {@code MPIR_Scatter_intra_binomial}); see Thakur, Rabenseifner and Gropp, "Optimization of Collective
 * Communication Operations in MPICH", IJHPCA 19(1), 2005, sections 3 and 4.
 *
 * <p>Ranks are renumbered relative to the root, {@code vr = (i - root) mod p}. The parent of {@code vr} is
 * {@code vr} minus its lowest set bit; its children are {@code vr + m} for every power of two {@code m} below that
 * bit with {@code vr + m < p}. The round of the edge between a child and its parent is log2 of that power of two,
 * so both ends compute the same tag. A node receives from all its children in one step (applied in arrival order;
 * every op here is commutative), then sends to its parent; ceil(log2 p) rounds in all.
 */
final class BinomialTree {
  private BinomialTree() {}

  /**
   * Reduces {@code count} elements to group index {@code root}; the result ends in {@link BufferId#OUTPUT} of the
   * root. With {@code dataInInput} the rank's contribution is still in {@link BufferId#INPUT}: ranks with children
   * copy it to OUTPUT first (as MPICH does), leaves send straight from INPUT. Otherwise it is already in OUTPUT.
   */
  static void reduce(ScheduleBuilder b, RankGroup g, int me, int root, int count, boolean dataInInput) {
    int p = g.size();
    int vr = ScheduleBuilder.mod(me - root, p);
    int parentMask = lowestBitBelow(vr, p);
    boolean hasChildren = vr + 1 < p && (vr & 1) == 0;
    BufferId accumulator = BufferId.OUTPUT;
    if (dataInInput) {
      if (hasChildren || vr == 0) {
        b.copy(BufferId.INPUT, 0, BufferId.OUTPUT, 0, count);
      } else {
        accumulator = BufferId.INPUT;
      }
    }
    for (int mask = 1; mask < parentMask && vr + mask < p; mask <<= 1) {
      b.receive(g.world(ScheduleBuilder.mod(vr + mask + root, p)), BufferId.OUTPUT, 0, count, true, log2(mask));
    }
    b.endStep();
    if (vr != 0) {
      b.send(g.world(ScheduleBuilder.mod(vr - parentMask + root, p)), accumulator, 0, count, log2(parentMask));
      b.endStep();
    }
  }

  /**
   * Broadcasts {@code count} elements from group index {@code root}, whose data is in {@code rootSource}; the
   * other ranks receive into {@link BufferId#OUTPUT} and forward from there, largest subtree first.
   */
  static void broadcast(ScheduleBuilder b, RankGroup g, int me, int root, int count, BufferId rootSource) {
    int p = g.size();
    int vr = ScheduleBuilder.mod(me - root, p);
    int parentMask = lowestBitBelow(vr, p);
    BufferId source = rootSource;
    if (vr != 0) {
      b.receive(g.world(ScheduleBuilder.mod(vr - parentMask + root, p)), BufferId.OUTPUT, 0, count, false,
          log2(parentMask));
      b.endStep();
      source = BufferId.OUTPUT;
    }
    for (int mask = parentMask >> 1; mask > 0; mask >>= 1) {
      if (vr + mask < p) {
        b.send(g.world(ScheduleBuilder.mod(vr + mask + root, p)), source, 0, count, log2(mask));
      }
    }
    b.endStep();
  }

  /**
   * Gathers {@code count} elements of every rank of the world into {@link BufferId#OUTPUT} of {@code root}, in
   * rank order. Each rank collects its subtree's blocks (in relative-rank order, so they are contiguous) in TEMP and
   * sends them up as one message; leaves send straight from INPUT. A root other than 0 receives in relative order
   * into TEMP and rotates into OUTPUT at the end, as MPICH does.
   */
  static void gather(ScheduleBuilder b, int p, int me, int root, int count) {
    RankGroup g = RankGroup.ofWorld(p);
    int vr = ScheduleBuilder.mod(me - root, p);
    int parentMask = lowestBitBelow(vr, p);
    int subtree = Math.min(parentMask, p - vr);
    BufferId collect;
    if (vr == 0) {
      collect = root == 0 ? BufferId.OUTPUT : BufferId.TEMP;
    } else {
      collect = subtree > 1 ? BufferId.TEMP : BufferId.INPUT;
    }
    if (collect == BufferId.TEMP) {
      b.temp(subtree * count);
    }
    b.copy(BufferId.INPUT, 0, collect, 0, collect == BufferId.INPUT ? 0 : count);
    for (int mask = 1; mask < parentMask && vr + mask < p; mask <<= 1) {
      int child = vr + mask;
      int childSubtree = Math.min(mask, p - child);
      b.receive(g.world(ScheduleBuilder.mod(child + root, p)), collect, mask * count, childSubtree * count, false,
          log2(mask));
    }
    b.endStep();
    if (vr != 0) {
      b.send(g.world(ScheduleBuilder.mod(vr - parentMask + root, p)), collect, 0, subtree * count,
          log2(parentMask));
      b.endStep();
    } else if (root != 0) {
      // TEMP holds relative ranks 0..p-1, i.e. world ranks root..p-1 then 0..root-1.
      b.copy(BufferId.TEMP, 0, BufferId.OUTPUT, root * count, (p - root) * count);
      b.copy(BufferId.TEMP, (p - root) * count, BufferId.OUTPUT, 0, root * count);
      b.endStep();
    }
  }

  /**
   * Scatters block {@code i} ({@code count} elements) of the root's INPUT to rank {@code i}'s OUTPUT. A root other
   * than 0 first rotates its input into relative order in TEMP; inner nodes receive their subtree's blocks into
   * TEMP, forward the children's parts, then copy their own block; leaves receive straight into OUTPUT.
   */
  static void scatter(ScheduleBuilder b, int p, int me, int root, int count) {
    RankGroup g = RankGroup.ofWorld(p);
    int vr = ScheduleBuilder.mod(me - root, p);
    int parentMask = lowestBitBelow(vr, p);
    int subtree = Math.min(parentMask, p - vr);
    BufferId hold;
    if (vr == 0) {
      hold = root == 0 ? BufferId.INPUT : BufferId.TEMP;
      if (root != 0) {
        b.temp(p * count);
        b.copy(BufferId.INPUT, root * count, BufferId.TEMP, 0, (p - root) * count);
        b.copy(BufferId.INPUT, 0, BufferId.TEMP, (p - root) * count, root * count);
      }
    } else {
      hold = subtree > 1 ? BufferId.TEMP : BufferId.OUTPUT;
      if (hold == BufferId.TEMP) {
        b.temp(subtree * count);
      }
      b.receive(g.world(ScheduleBuilder.mod(vr - parentMask + root, p)), hold, 0, subtree * count, false,
          log2(parentMask));
      b.endStep();
    }
    for (int mask = parentMask >> 1; mask > 0; mask >>= 1) {
      int child = vr + mask;
      if (child < p) {
        int childSubtree = Math.min(mask, p - child);
        b.send(g.world(ScheduleBuilder.mod(child + root, p)), hold, mask * count, childSubtree * count, log2(mask));
      }
    }
    b.endStep();
    if (hold != BufferId.OUTPUT) {
      b.copy(hold, 0, BufferId.OUTPUT, 0, count);
      b.endStep();
    }
  }

  /**
   * The lowest set bit of {@code vr} (the mask of the edge to its parent); for the root (vr = 0), the smallest power
   * of two not below {@code p}, so that "every power of two below it" covers all the root's children.
   */
  static int lowestBitBelow(int vr, int p) {
    if (vr != 0) {
      return Integer.lowestOneBit(vr);
    }
    return p <= 1 ? 1 : Integer.highestOneBit(p - 1) << 1;
  }
}
