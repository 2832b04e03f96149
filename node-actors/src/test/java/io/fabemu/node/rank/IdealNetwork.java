package io.fabemu.node.rank;

import io.fabemu.collectives.ExpectedAnswers;
import io.fabemu.collectives.RankGrid;
import io.fabemu.collectives.RankLayout;
import io.fabemu.collectives.WorkloadSpec;
import io.fabemu.core.protocol.Message;
import java.util.PriorityQueue;
import java.util.function.UnaryOperator;

/**
 * A reusable test network: a {@link RankHost} for every rank of a world, delivering a message sent at {@code t}
 * at {@code t + alphaPs + bytes * betaPsPerByte} (plus an optional deterministic extra delay), with no contention.
 * Deliveries are ordered by (time, source rank, sequence). CPU costs are linear and configurable, zero by default.
 */
final class IdealNetwork implements RankHost {

  /** Extra delay of the {@code sequence}-th message (for reordering tests); must be deterministic. */
  interface Jitter {
    long extraPs(Message message, long sequence);
  }

  private record Delivery(long timePs, int source, long sequence, Message message, int startRank)
      implements Comparable<Delivery> {
    @Override
    public int compareTo(Delivery o) {
      int c = Long.compare(timePs, o.timePs);
      if (c != 0) return c;
      c = Integer.compare(source, o.source);
      if (c != 0) return c;
      return Long.compare(sequence, o.sequence);
    }
  }

  private final long alphaPs;
  private final long betaPsPerByte;
  private long sendOverheadPs;
  private long recvOverheadPs;
  private long reducePsPerByte;
  private long copyPsPerByte;
  private int engines = 1;
  private Jitter jitter = (m, s) -> 0L;
  private UnaryOperator<Message> tamper = UnaryOperator.identity();

  private final PriorityQueue<Delivery> queue = new PriorityQueue<>();
  private RankWorkload[] ranks;
  private long sequence;
  private long nowPs;
  private long messages;
  private long bytes;
  private int maxUnexpected;

  IdealNetwork(long alphaPs, long betaPsPerByte) {
    this.alphaPs = alphaPs;
    this.betaPsPerByte = betaPsPerByte;
  }

  IdealNetwork overheads(long sendOverheadPs, long recvOverheadPs, long reducePsPerByte, long copyPsPerByte) {
    this.sendOverheadPs = sendOverheadPs;
    this.recvOverheadPs = recvOverheadPs;
    this.reducePsPerByte = reducePsPerByte;
    this.copyPsPerByte = copyPsPerByte;
    return this;
  }

  /** Engines of every rank ({@link RankHost#engines}); set before the ranks are created. */
  IdealNetwork engines(int engines) {
    this.engines = engines;
    return this;
  }

  IdealNetwork jitter(Jitter jitter) {
    this.jitter = jitter;
    return this;
  }

  /** Rewrites messages on delivery (e.g. to corrupt a payload). */
  IdealNetwork tamper(UnaryOperator<Message> tamper) {
    this.tamper = tamper;
    return this;
  }

  /**
   * Creates every rank's workload on this network (all sharing one {@link ExpectedAnswers}, none for a synthetic
   * payload).
   */
  RankWorkload[] createRanks(WorkloadSpec workload, int worldSize, long seed) {
    return createRanks(workload, worldSize, seed, RankLayout.NONE);
  }

  /** Ranks laid out on {@code grid} (for the dimension-wise algorithms); null: no grid. */
  RankWorkload[] createRanks(WorkloadSpec workload, int worldSize, long seed, RankGrid grid) {
    return createRanks(workload, worldSize, seed, RankLayout.ofGrid(grid));
  }

  /** Ranks laid out as {@code layout} says: on its grid, on its ring embedding (the embedded-ring algorithms). */
  RankWorkload[] createRanks(WorkloadSpec workload, int worldSize, long seed, RankLayout layout) {
    ExpectedAnswers answers = workload.syntheticPayload() ? null
        : ExpectedAnswers.forWorkload(workload, worldSize, seed);
    ranks = new RankWorkload[worldSize];
    for (int r = 0; r < worldSize; r++) {
      ranks[r] = new RankWorkload(r, worldSize, workload, seed, answers, this, null, layout);
    }
    return ranks;
  }

  /** Starts every rank at time 0 and delivers until nothing is left; returns the time of the last event. */
  long run() {
    return run(new long[ranks.length]);
  }

  /** Starts rank r at {@code startPs[r]} and delivers until nothing is left. */
  long run(long[] startPs) {
    for (int r = 0; r < ranks.length; r++) {
      queue.add(new Delivery(startPs[r], -1, sequence++, null, r));
    }
    while (!queue.isEmpty()) {
      Delivery d = queue.poll();
      if (d.timePs < nowPs) {
        throw new AssertionError("time went backwards: " + d.timePs + " < " + nowPs);
      }
      nowPs = d.timePs;
      if (d.message == null) {
        ranks[d.startRank].start(d.timePs);
      } else {
        RankWorkload target = ranks[d.message.destinationRank()];
        target.onMessage(d.timePs, tamper.apply(d.message));
        maxUnexpected = Math.max(maxUnexpected, target.unexpectedMessages());
      }
    }
    return nowPs;
  }

  @Override
  public void send(Message message, long atPs) {
    if (atPs < nowPs) {
      throw new AssertionError("rank " + message.sourceRank() + " sent into the past: " + atPs + " < " + nowPs);
    }
    long seq = sequence++;
    long arrival = atPs + alphaPs + message.sizeBytes() * betaPsPerByte + jitter.extraPs(message, seq);
    queue.add(new Delivery(arrival, message.sourceRank(), seq, message, -1));
    messages++;
    bytes += message.sizeBytes();
  }

  @Override
  public long sendOverheadPs() {
    return sendOverheadPs;
  }

  @Override
  public long recvOverheadPs() {
    return recvOverheadPs;
  }

  @Override
  public long reducePs(long bytes) {
    return bytes * reducePsPerByte;
  }

  @Override
  public long localCopyPs(long bytes) {
    return bytes * copyPsPerByte;
  }

  @Override
  public int engines() {
    return engines;
  }

  long messages() {
    return messages;
  }

  long bytes() {
    return bytes;
  }

  /** Most messages any rank held in its unexpected queue right after a delivery. */
  int maxUnexpected() {
    return maxUnexpected;
  }
}
