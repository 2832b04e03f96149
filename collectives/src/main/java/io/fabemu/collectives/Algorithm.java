package io.fabemu.collectives;

import io.fabemu.core.optical.TransmissionMethod;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Algorithms, each valid for some collectives. {@link #AUTO} picks one by message size, as OpenMPI's tuned module
 * does; for a {@link Collective#PIPELINE}, by the cost model of the transmission methods.
 */
public enum Algorithm {
  AUTO,
  /**
   * Allreduce, allgather, reduce-scatter: the ring algorithms. Send/recv: every rank sends to the next and receives
   * from the previous at once (nccl-tests' {@code sendrecv_perf}).
   */
  RING,
  RECURSIVE_DOUBLING,
  RABENSEIFNER,
  /**
   * Allreduce: binomial-tree reduce to rank 0, then binomial broadcast. Reduce/broadcast/gather/scatter: binomial
   * tree.
   */
  BINOMIAL,
  /** Root talks to every rank in turn (gather, scatter, reduce, broadcast). */
  LINEAR,
  /**
   * Allreduce as NCCL's tree algorithm: a double binary tree across servers (the ranks of a compute node, or of all
   * the hosts of a server where the fabric groups hosts into servers: {@link RankLayout#ranksPerServer}), a chain
   * inside each, the vector halved between the two trees and streamed through them in chunks, reduced on the way up
   * and broadcast on the way down ({@link DoubleBinaryTree}).
   */
  TREE,
  /**
   * Allreduce on a mesh or torus: ring reduce-scatters dimension after dimension, then ring all-gathers back, both
   * ring directions at once ({@link DimensionRingAllreduce}); needs the fabric's {@link RankGrid}.
   */
  DIMENSION_RING,
  /** Reduce-scatter by recursive halving. */
  RECURSIVE_HALVING,
  /** All-to-all: at step k rank r sends to r+k and receives from r-k. */
  PAIRWISE,
  /** Barrier: dissemination (Hensgen, Finkel and Manber). */
  DISSEMINATION,
  /** Send/recv: even ranks send to the next odd rank, which answers (ping-pong, as osu_latency). */
  PING_PONG,
  /**
   * Send/recv as osu_bw streams: even ranks send a window of messages to the next odd rank, which acknowledges the
   * whole window with one zero-byte message ({@link WorkloadSpec#window()} messages per operation).
   */
  WINDOW,
  /**
   * Allreduce in the network, Node mode (the INC paper): one leader per node reduces its node, the switches aggregate
   * the leaders' data, the leader broadcasts the result; falls back to the host algorithm {@link #AUTO} picks when
   * the group cannot use INC.
   */
  INC_NODE,
  /** Allreduce in the network, Socket mode (the INC paper): one leader and one INC group per CPU socket index. */
  INC_SOCKET,
  /**
   * Allreduce, reduce-scatter, all-gather on every ring of the fabric's ring embedding at once, the vector cut across
   * them in proportion to their bandwidth ({@link MultiRing}; the ring patent); needs {@link EmbeddedRings}.
   */
  MULTI_RING,
  /** The ring algorithms on ring 0 of the embedding, one direction: the patent's single-ring baseline. */
  SINGLE_RING,
  /** The ring algorithms on ring 0 of the embedding and its reverse at once (both directions of its links). */
  BIDIRECTIONAL_RING,
  /**
   * Allreduce on a line (ring 0 of the embedding without its closing hop): streamed forward reduce, backward
   * broadcast ({@link LineAllreduce}), the patent's baseline.
   */
  LINE,
  /** The line Allreduce started from both ends, reduced at the middle ({@link LineAllreduce#fromBothEnds}). */
  LINE_BOTH_ENDS,
  /**
   * Pipeline: between stages, the gateway NPU sends one copy, the target gateway broadcasts it in its server (the
   * optical patent's method 1, {@link io.fabemu.core.optical.TransmissionMethod#SEND_BROADCAST}); replicated activations only.
   */
  SEND_BROADCAST,
  /** Pipeline: the gateway reads its neighbours' data over the bus, sends, the target writes (method 2). */
  P2P_BUS,
  /** Pipeline: all-gather in the source server, send the spliced data, scatter it in the target (method 3). */
  ALLGATHER_SEND_SCATTER,
  /** Pipeline: the NPUs send to the gateway, it sends, the target gateway sends on to its neighbours (method 4). */
  SWITCH_SEND;

  /** The pipeline's algorithms that carry out the patent's four transmission methods, in the patent's order. */
  public static final List<Algorithm> TRANSMISSION_METHODS = List.of(SEND_BROADCAST, P2P_BUS, ALLGATHER_SEND_SCATTER,
      SWITCH_SEND);

  /** The patent's transmission method this pipeline algorithm carries out; null for every other algorithm. */
  public TransmissionMethod transmissionMethod() {
    return switch (this) {
      case SEND_BROADCAST -> TransmissionMethod.SEND_BROADCAST;
      case P2P_BUS -> TransmissionMethod.P2P_BUS;
      case ALLGATHER_SEND_SCATTER -> TransmissionMethod.ALLGATHER_SEND_SCATTER;
      case SWITCH_SEND -> TransmissionMethod.SWITCH_SEND;
      default -> null;
    };
  }

  /** The pipeline algorithm that carries out {@code method}. */
  public static Algorithm of(TransmissionMethod method) {
    return switch (method) {
      case SEND_BROADCAST -> SEND_BROADCAST;
      case P2P_BUS -> P2P_BUS;
      case ALLGATHER_SEND_SCATTER -> ALLGATHER_SEND_SCATTER;
      case SWITCH_SEND -> SWITCH_SEND;
    };
  }

  /** True for the algorithms that run on the fabric's ring embedding ({@link EmbeddedRings}). */
  public boolean onEmbeddedRings() {
    return this == MULTI_RING || this == SINGLE_RING || this == BIDIRECTIONAL_RING || this == LINE
        || this == LINE_BOTH_ENDS;
  }

  /** True for the in-network algorithms. */
  public boolean inNetwork() {
    return this == INC_NODE || this == INC_SOCKET;
  }

  public String configName() {
    return name().toLowerCase(Locale.ROOT).replace('_', '-');
  }

  public static Algorithm fromConfigName(String name) {
    for (Algorithm a : values()) {
      if (a.configName().equals(name)) return a;
    }
    return null;
  }

  /** The algorithm named {@code name} when {@code collective} accepts it, else null (unknown or not valid for it). */
  public static Algorithm forCollective(String name, Collective collective) {
    Algorithm a = fromConfigName(name);
    return a != null && validFor(collective).contains(a) ? a : null;
  }

  /** The names of the algorithms {@code collective} accepts, comma-separated, for messages. */
  public static String namesFor(Collective collective) {
    return String.join(", ", validFor(collective).stream().map(Algorithm::configName).toList());
  }

  /** The algorithms a collective accepts (AUTO always). */
  public static Set<Algorithm> validFor(Collective collective) {
    return switch (collective) {
      case ALLREDUCE -> EnumSet.of(AUTO, RING, RECURSIVE_DOUBLING, RABENSEIFNER, BINOMIAL, TREE, DIMENSION_RING,
          INC_NODE, INC_SOCKET, MULTI_RING, SINGLE_RING, BIDIRECTIONAL_RING, LINE, LINE_BOTH_ENDS);
      case REDUCE, BROADCAST, GATHER, SCATTER -> EnumSet.of(AUTO, BINOMIAL, LINEAR);
      case ALLGATHER -> EnumSet.of(AUTO, RING, RECURSIVE_DOUBLING, MULTI_RING, SINGLE_RING, BIDIRECTIONAL_RING);
      case REDUCE_SCATTER -> EnumSet.of(AUTO, RING, RECURSIVE_HALVING, MULTI_RING, SINGLE_RING, BIDIRECTIONAL_RING);
      case ALLTOALL -> EnumSet.of(AUTO, PAIRWISE);
      case BARRIER -> EnumSet.of(AUTO, DISSEMINATION);
      case SENDRECV -> EnumSet.of(AUTO, PING_PONG, RING, WINDOW);
      case PIPELINE -> {
        EnumSet<Algorithm> pipeline = EnumSet.of(AUTO);
        pipeline.addAll(TRANSMISSION_METHODS);
        yield pipeline;
      }
    };
  }
}
