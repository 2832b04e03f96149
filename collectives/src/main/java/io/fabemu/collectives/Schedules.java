package io.fabemu.collectives;

import io.fabemu.core.data.DataBuffer;
import io.fabemu.core.data.DataType;
import io.fabemu.core.data.ReduceOp;
import java.util.List;

/**
 * Picks algorithms and builds one rank's {@link Schedule} for one collective operation.
 *
 * <p>{@link #resolve} turns {@link Algorithm#AUTO} into a concrete algorithm with the classic fixed decision rules
 * of OpenMPI's coll/tuned module ({@code coll_tuned_decision_fixed.c}, e.g.
 * {@code ompi_coll_tuned_allreduce_intra_dec_fixed}): allreduce below 10,000 bytes uses recursive doubling, else
 * ring when count &ge; p, else recursive doubling; allgather below 10,000 bytes in total uses recursive doubling,
 * else ring; reduce-scatter uses ring; rooted collectives use binomial trees.
 *
 * <p>Hierarchical allreduce (the INC paper's "Node mode": a leader per node aggregates
 * and broadcasts inside its node) runs a binomial reduce inside each node to its leader (node = rank / ppn, leader =
 * lowest rank of the node), the chosen algorithm among the leaders, then a binomial broadcast inside each node.
 */
public final class Schedules {
  /** OpenMPI tuned's "intermediate message" threshold, in bytes. */
  public static final long SMALL_MESSAGE_BYTES = 10_000L;
  /** Most elements one buffer may hold: Java arrays stop a little below {@link Integer#MAX_VALUE}. */
  public static final long MAX_BUFFER_ELEMENTS = Integer.MAX_VALUE - 8L;

  private Schedules() {}

  /**
   * The algorithm that {@code algorithm} stands for. Concrete algorithms are returned as they are (after checking
   * they are valid for the collective); {@link Algorithm#AUTO} is resolved by the fixed rules above.
   *
   * @param sizeBytes message size per rank
   * @param count     elements per rank
   * @param worldSize ranks the algorithm runs on: the number of nodes for hierarchical allreduce (see
   *                  {@link #resolveForCase})
   */
  public static Algorithm resolve(Collective collective, Algorithm algorithm, long sizeBytes, int count,
                                  int worldSize) {
    if (!Algorithm.validFor(collective).contains(algorithm)) {
      throw new IllegalArgumentException("algorithm " + algorithm.configName() + " is not valid for "
          + collective.configName() + " (valid: " + Algorithm.validFor(collective) + ")");
    }
    if (algorithm != Algorithm.AUTO) {
      return algorithm;
    }
    return switch (collective) {
      case ALLREDUCE -> {
        if (sizeBytes < SMALL_MESSAGE_BYTES) yield Algorithm.RECURSIVE_DOUBLING;
        yield count >= worldSize ? Algorithm.RING : Algorithm.RECURSIVE_DOUBLING;
      }
      case REDUCE, BROADCAST, GATHER, SCATTER -> Algorithm.BINOMIAL;
      case ALLGATHER -> sizeBytes * worldSize < SMALL_MESSAGE_BYTES ? Algorithm.RECURSIVE_DOUBLING : Algorithm.RING;
      case REDUCE_SCATTER -> Algorithm.RING;
      case ALLTOALL -> Algorithm.PAIRWISE;
      case BARRIER -> Algorithm.DISSEMINATION;
      case SENDRECV -> Algorithm.PING_PONG;
      case PIPELINE -> throw new IllegalArgumentException("a pipeline's auto is the cost model's choice: resolve it "
          + "with its workload (resolveForCase)");
    };
  }

  /**
   * What case {@code caseIndex} of {@code workload} runs on {@code worldSize} ranks, AUTO resolved; for a
   * hierarchical workload, the algorithm run among the node leaders.
   */
  public static Algorithm resolveForCase(WorkloadSpec workload, int caseIndex, int worldSize) {
    long sizeBytes = workload.sizeOfCase(caseIndex);
    if (workload.collective() == Collective.PIPELINE && workload.algorithmOfCase(caseIndex) == Algorithm.AUTO) {
      return Algorithm.of(workload.pipeline().choice(sizeBytes).chosen());
    }
    int elementBytes = elementBytes(workload.collective(), workload.dataType(), workload.op());
    int count = (int) Math.min(Integer.MAX_VALUE, sizeBytes / elementBytes);
    int groupSize = workload.hierarchical() ? nodeCount(worldSize, workload.ppn()) : worldSize;
    return resolve(workload.collective(), workload.algorithmOfCase(caseIndex), sizeBytes, count, groupSize);
  }

  /**
   * Bytes per element: the type's size, plus 4 for the location when the collective reduces with MAXLOC/MINLOC
   * (collectives that do not reduce ignore the op, so their elements carry no location).
   */
  public static int elementBytes(Collective collective, DataType type, ReduceOp op) {
    return type.sizeBytes() + (carriesLocation(collective, op) ? DataBuffer.LOCATION_BYTES : 0);
  }

  /** True when the buffers of this collective hold (value, location) pairs. */
  public static boolean carriesLocation(Collective collective, ReduceOp op) {
    return collective.reduces() && op != null && op.carriesLocation();
  }

  /** Number of nodes of {@code ppn} ranks (the last one may be partial). */
  public static int nodeCount(int worldSize, int ppn) {
    return (worldSize + ppn - 1) / ppn;
  }

  /**
   * One rank's schedule for one operation.
   *
   * @param collective   the collective
   * @param algorithm    a concrete algorithm ({@link #resolve} it first); for hierarchical allreduce, the one run
   *                     among the leaders
   * @param rank         this rank
   * @param worldSize    ranks taking part
   * @param count        elements per rank (per block for the collectives with {@link Collective#oneBlockPerRank()})
   * @param root         root rank of rooted collectives (ignored by the others)
   * @param hierarchical allreduce only: reduce to node leaders, run the algorithm among them, broadcast back
   * @param ppn          ranks per node (used when hierarchical)
   */
  public static Schedule build(Collective collective, Algorithm algorithm, int rank, int worldSize, int count,
                               int root, boolean hierarchical, int ppn) {
    return build(collective, algorithm, rank, worldSize, count, root, hierarchical, ppn, WorkloadSpec.DEFAULT_WINDOW);
  }

  /**
   * One rank's schedule for one operation, as {@link #build(Collective, Algorithm, int, int, int, int, boolean, int)}
   * builds it; {@code window} is the number of messages {@link Algorithm#WINDOW} streams per operation (the other
   * algorithms ignore it).
   */
  public static Schedule build(Collective collective, Algorithm algorithm, int rank, int worldSize, int count,
                               int root, boolean hierarchical, int ppn, int window) {
    return build(collective, algorithm, rank, worldSize, count, root, hierarchical, ppn, window, RankLayout.NONE);
  }

  /**
   * One rank's schedule for one operation, as {@link #build(Collective, Algorithm, int, int, int, int, boolean, int,
   * int)} builds it; {@code grid} lays the world's ranks out on the fabric's mesh or torus, which
   * {@link Algorithm#DIMENSION_RING} needs (null on other fabrics; the other algorithms ignore it).
   */
  public static Schedule build(Collective collective, Algorithm algorithm, int rank, int worldSize, int count,
                               int root, boolean hierarchical, int ppn, int window, RankGrid grid) {
    return build(collective, algorithm, rank, worldSize, count, root, hierarchical, ppn, window,
        RankLayout.ofGrid(grid));
  }

  /**
   * One rank's schedule for one operation, as {@link #build(Collective, Algorithm, int, int, int, int, boolean, int,
   * int)} builds it; {@code layout} says where the ranks sit: the grid {@link Algorithm#DIMENSION_RING} needs and
   * the ring embedding of the algorithms {@link Algorithm#onEmbeddedRings} (one rank per node).
   */
  public static Schedule build(Collective collective, Algorithm algorithm, int rank, int worldSize, int count,
                               int root, boolean hierarchical, int ppn, int window, RankLayout layout) {
    return build(collective, algorithm, rank, worldSize, count, root, hierarchical, ppn, window, layout, 1);
  }

  /**
   * One rank's schedule for one operation, as {@link #build(Collective, Algorithm, int, int, int, int, boolean, int,
   * int, RankLayout)} builds it, the ring allreduce on {@code channels} rings ({@link ChannelRingAllreduce}; the
   * caller picks them per size with {@link ChannelRingAllreduce#channelsFor}); every other algorithm ignores them.
   */
  public static Schedule build(Collective collective, Algorithm algorithm, int rank, int worldSize, int count,
                               int root, boolean hierarchical, int ppn, int window, RankLayout layout,
                               int channels) {
    RankGrid grid = layout.grid();
    if (worldSize < 1 || rank < 0 || rank >= worldSize) {
      throw new IllegalArgumentException("rank " + rank + " is outside a world of " + worldSize);
    }
    if (count < 0) {
      throw new IllegalArgumentException("negative count " + count);
    }
    if (algorithm == Algorithm.AUTO) {
      throw new IllegalArgumentException("resolve AUTO before building a schedule");
    }
    if (algorithm.inNetwork()) {
      throw new IllegalArgumentException(algorithm.configName() + " needs the INC rank layout: RankWorkload builds "
          + "its schedule (IncAllreduce)");
    }
    if (!Algorithm.validFor(collective).contains(algorithm)) {
      throw new IllegalArgumentException("algorithm " + algorithm.configName() + " is not valid for "
          + collective.configName());
    }
    if (algorithm == Algorithm.DIMENSION_RING) {
      if (grid == null) {
        throw new IllegalArgumentException("dimension-ring needs a mesh or torus: the fabric lays out no rank grid");
      }
      if (grid.rankCount() != worldSize) {
        throw new IllegalArgumentException("dimension-ring on grid " + grid + " of " + grid.rankCount()
            + " ranks cannot run on a world of " + worldSize);
      }
      if (hierarchical) {
        throw new IllegalArgumentException("dimension-ring runs on every rank: it has no hierarchical mode");
      }
    }
    if (algorithm.onEmbeddedRings()) {
      if (layout.rings() == null) {
        throw new IllegalArgumentException(algorithm.configName() + " needs the fabric's ring embedding: it has none");
      }
      if (layout.rings().rankCount() != worldSize) {
        throw new IllegalArgumentException(algorithm.configName() + " on rings of " + layout.rings().rankCount()
            + " ranks cannot run on a world of " + worldSize);
      }
      if (hierarchical) {
        throw new IllegalArgumentException(algorithm.configName() + " runs on every rank: it has no hierarchical mode");
      }
    }
    if (hierarchical && algorithm == Algorithm.TREE) {
      throw new IllegalArgumentException("tree chains the ranks of each node itself: it has no hierarchical mode");
    }
    if (hierarchical && collective != Collective.ALLREDUCE) {
      throw new IllegalArgumentException("hierarchical mode is only implemented for allreduce, not for "
          + collective.configName());
    }
    if (collective.rooted() && (root < 0 || root >= worldSize)) {
      throw new IllegalArgumentException("root " + root + " of " + collective.configName()
          + " is outside a world of " + worldSize);
    }
    int p = worldSize;
    int blocks = blocksCount(collective, p, count);
    ScheduleBuilder b = new ScheduleBuilder(rank);
    boolean binomial = algorithm == Algorithm.BINOMIAL;
    switch (collective) {
      case ALLREDUCE -> {
        b.buffers(count, count);
        if (hierarchical) {
          hierarchicalAllreduce(b, algorithm, rank, p, count, ppn);
        } else if (algorithm == Algorithm.DIMENSION_RING) {
          b.copy(BufferId.INPUT, 0, BufferId.OUTPUT, 0, count);
          DimensionRingAllreduce.append(b, grid, rank, count);
          b.endStep();
        } else if (algorithm.onEmbeddedRings()) {
          b.copy(BufferId.INPUT, 0, BufferId.OUTPUT, 0, count);
          List<EmbeddedRings.Ring> rings = layout.rings().forAlgorithm(algorithm);
          int fragments = layout.rings().lineFragments();
          if (algorithm == Algorithm.LINE) {
            LineAllreduce.fromOneEnd(b, rings.get(0), rank, count, fragments);
          } else if (algorithm == Algorithm.LINE_BOTH_ENDS) {
            LineAllreduce.fromBothEnds(b, rings.get(0), rank, count, fragments);
          } else {
            MultiRing.allreduce(b, rings, rank, count);
          }
          b.endStep();
        } else if (algorithm == Algorithm.RING && channels > 1) {
          b.copy(BufferId.INPUT, 0, BufferId.OUTPUT, 0, count);
          ChannelRingAllreduce.append(b, p, rank, count, channels, layout.ranksPerServer(ppn));
          b.endStep();
        } else {
          allreduceFromInput(b, algorithm, RankGroup.ofWorld(p), rank, count, 0, layout.ranksPerServer(ppn));
        }
      }
      case REDUCE -> {
        b.buffers(count, count);
        if (binomial) {
          BinomialTree.reduce(b, RankGroup.ofWorld(p), rank, root, count, true);
        } else {
          LinearRooted.reduce(b, p, rank, root, count);
        }
      }
      case BROADCAST -> {
        boolean isRoot = rank == root;
        b.buffers(isRoot ? count : 0, isRoot ? 0 : count).result(isRoot ? BufferId.INPUT : BufferId.OUTPUT);
        if (binomial) {
          BinomialTree.broadcast(b, RankGroup.ofWorld(p), rank, root, count, BufferId.INPUT);
        } else {
          LinearRooted.broadcast(b, p, rank, root, count);
        }
      }
      case GATHER -> {
        b.buffers(count, rank == root ? blocks : 0);
        if (binomial) {
          BinomialTree.gather(b, p, rank, root, count);
        } else {
          LinearRooted.gather(b, p, rank, root, count);
        }
      }
      case SCATTER -> {
        b.buffers(rank == root ? blocks : 0, count);
        if (binomial) {
          BinomialTree.scatter(b, p, rank, root, count);
        } else {
          LinearRooted.scatter(b, p, rank, root, count);
        }
      }
      case ALLGATHER -> {
        b.buffers(count, blocks);
        if (algorithm == Algorithm.RING) {
          RingAllgather.append(b, p, rank, count);
        } else if (algorithm.onEmbeddedRings()) {
          MultiRing.allGather(b, layout.rings().forAlgorithm(algorithm), rank, count);
        } else {
          RecursiveDoublingAllgather.append(b, p, rank, count);
        }
      }
      case REDUCE_SCATTER -> {
        b.buffers(blocks, count);
        if (algorithm == Algorithm.RING) {
          RingReduceScatter.append(b, p, rank, count);
        } else if (algorithm.onEmbeddedRings()) {
          MultiRing.reduceScatter(b, layout.rings().forAlgorithm(algorithm), rank, count);
        } else {
          RecursiveHalvingReduceScatter.append(b, p, rank, count);
        }
      }
      case ALLTOALL -> {
        b.buffers(blocks, blocks);
        PairwiseAlltoall.append(b, p, rank, count);
      }
      case BARRIER -> {
        b.buffers(0, 0);
        DisseminationBarrier.append(b, p, rank);
      }
      case PIPELINE -> throw new IllegalArgumentException("a pipeline iteration needs its pipeline and the "
          + "connection policy: PipelineIteration builds its schedule");
      case SENDRECV -> {
        if (algorithm == Algorithm.RING) {
          b.buffers(count, count);
          RingSendRecv.append(b, p, rank, count);
        } else if (algorithm == Algorithm.WINDOW) {
          WindowedStream.append(b, p, rank, count, window);
        } else {
          boolean active = PingPong.active(p, rank);
          b.buffers(active && (rank & 1) == 0 ? count : 0, active ? count : 0);
          PingPong.append(b, p, rank, count);
        }
      }
    }
    return b.build();
  }

  /** p·count, checked to fit an int (buffers are Java arrays). */
  private static int blocksCount(Collective collective, int p, int count) {
    long blocks = (long) p * count;
    if (collective.oneBlockPerRank() && blocks > MAX_BUFFER_ELEMENTS) {
      throw new IllegalArgumentException(collective.configName() + " of " + count + " elements on " + p
          + " ranks needs a buffer of " + blocks + " elements, more than a Java array holds");
    }
    return (int) Math.min(blocks, Integer.MAX_VALUE);
  }

  /**
   * Flat allreduce on a group; the rank's contribution is in INPUT [0, count), the result in OUTPUT [0, count).
   * Binomial uses phases base and base+1.
   */
  static void allreduceFromInput(ScheduleBuilder b, Algorithm algorithm, RankGroup g, int me, int count,
                                         int phaseBase) {
    allreduceFromInput(b, algorithm, g, me, count, phaseBase, 1);
  }

  /**
   * {@link #allreduceFromInput(ScheduleBuilder, Algorithm, RankGroup, int, int, int)} on servers of
   * {@code serverSize} ranks, which {@link Algorithm#TREE} chains (the others ignore it).
   */
  static void allreduceFromInput(ScheduleBuilder b, Algorithm algorithm, RankGroup g, int me, int count,
                                 int phaseBase, int serverSize) {
    if (algorithm == Algorithm.BINOMIAL) {
      b.phase(phaseBase);
      BinomialTree.reduce(b, g, me, 0, count, true);
      b.phase(phaseBase + 1);
      BinomialTree.broadcast(b, g, me, 0, count, BufferId.OUTPUT);
      return;
    }
    b.copy(BufferId.INPUT, 0, BufferId.OUTPUT, 0, count);
    if (algorithm == Algorithm.TREE) {
      // The copy goes first, in a step of its own: the tree's first step may already send.
      b.endStep();
      DoubleBinaryTree.allreduce(b, g, me, count, Math.max(1, serverSize), phaseBase);
      return;
    }
    allreduceInOutput(b, algorithm, g, me, count, phaseBase);
  }

  /** Allreduce on a group whose contributions are already in OUTPUT. */
  private static void allreduceInOutput(ScheduleBuilder b, Algorithm algorithm, RankGroup g, int me, int count,
                                        int phaseBase) {
    b.phase(phaseBase);
    switch (algorithm) {
      case RING -> RingAllreduce.append(b, g, me, count);
      case RECURSIVE_DOUBLING -> RecursiveDoublingAllreduce.append(b, g, me, count);
      case RABENSEIFNER -> RabenseifnerAllreduce.append(b, g, me, count);
      case BINOMIAL -> {
        BinomialTree.reduce(b, g, me, 0, count, false);
        b.phase(phaseBase + 1);
        BinomialTree.broadcast(b, g, me, 0, count, BufferId.OUTPUT);
      }
      default -> throw new IllegalArgumentException("not an allreduce algorithm: " + algorithm);
    }
    b.endStep();
  }

  /** Phases: 0 intra-node reduce, 1 (and 2 for binomial) among leaders, 3 intra-node broadcast. */
  private static void hierarchicalAllreduce(ScheduleBuilder b, Algorithm algorithm, int rank, int p, int count,
                                            int ppn) {
    if (ppn < 1) {
      throw new IllegalArgumentException("ppn must be at least 1, got " + ppn);
    }
    int node = rank / ppn;
    int first = node * ppn;
    RankGroup nodeGroup = new RankGroup(first, 1, Math.min(ppn, p - first));
    int me = rank - first;
    b.phase(0);
    BinomialTree.reduce(b, nodeGroup, me, 0, count, true);
    if (me == 0) {
      RankGroup leaders = new RankGroup(0, ppn, nodeCount(p, ppn));
      allreduceInOutput(b, algorithm, leaders, node, count, 1);
    }
    b.phase(3);
    BinomialTree.broadcast(b, nodeGroup, me, 0, count, BufferId.OUTPUT);
  }
}
