package io.fabemu.collectives;

import java.util.List;

/**
 * The protocols a workload's messages may travel by ({@link LineProtocol}) and what each costs: its framing on the
 * wire (the protocol's own, {@link LineProtocol#framing}) and its {@link ProtocolCost} (a latency per message and a
 * payload rate per engine; in a GPU profile, fitted). With one candidate every case runs it; with several
 * ({@code protocol = auto}) each case runs the one {@link #choose} gives, NCCL's tuner's way: a cost model of the
 * algorithm's steps (each the protocol's latency, its engine time and the step's framed bytes over the tuner's rate),
 * cheapest first: from the ring allreduce's shape ({@link #choose(long, int, int)}), or from the rank-0 schedule of
 * any other algorithm ({@link #choose(Schedule, int)}; {@link WorkloadSpec#protocolOfCase} picks).
 *
 * @param candidates         the protocols to choose from, at least one, without repeats; one: every case runs it
 * @param simple             what {@link LineProtocol#SIMPLE} costs
 * @param ll                 what {@link LineProtocol#LL} costs
 * @param ll128              what {@link LineProtocol#LL128} costs
 * @param tunerBitsPerSecond the rate the tuner's cost model sends a step's wire bytes at (the scenario loader takes
 *                           the link a ring's steps cross: a GPU's link to its server switch when the world is one
 *                           server, else its NIC's); positive
 */
public record ProtocolSpec(List<LineProtocol> candidates, ProtocolCost simple, ProtocolCost ll, ProtocolCost ll128,
                           long tunerBitsPerSecond) {

  /** The default: every message by {@link LineProtocol#SIMPLE}, which costs nothing (the model before protocols). */
  public static final ProtocolSpec SIMPLE_ONLY = new ProtocolSpec(List.of(LineProtocol.SIMPLE), ProtocolCost.NONE,
      ProtocolCost.NONE, ProtocolCost.NONE, 1);

  public ProtocolSpec {
    if (candidates == null || candidates.isEmpty() || candidates.stream().distinct().count() != candidates.size()) {
      throw new IllegalArgumentException("protocols: give at least one, each once, got " + candidates);
    }
    candidates = List.copyOf(candidates);
    if (simple == null || ll == null || ll128 == null) {
      throw new IllegalArgumentException("protocols: every protocol needs its cost (ProtocolCost.NONE: nothing)");
    }
    if (tunerBitsPerSecond < 1) {
      throw new IllegalArgumentException("the protocol tuner's rate must be positive, got " + tunerBitsPerSecond
          + " bit/s");
    }
  }

  /** Whether each case chooses its protocol ({@code protocol = auto}). */
  public boolean chooses() {
    return candidates.size() > 1;
  }

  /** What {@code protocol} costs. */
  public ProtocolCost cost(LineProtocol protocol) {
    return switch (protocol) {
      case SIMPLE -> simple;
      case LL -> ll;
      case LL128 -> ll128;
    };
  }

  /**
   * The protocol a collective of {@code sizeBytes} per rank on {@code worldSize} ranks runs by, cut into
   * {@code channels} rings: the only candidate, or the one whose cost for a ring allreduce of that size is lowest
   * (the first of equal ones): {@code 2 (n - 1)} steps of {@code sizeBytes / (n channels)} of payload, each the
   * protocol's latency, its engine time for the payload and the payload's wire bytes at {@link #tunerBitsPerSecond}.
   */
  public LineProtocol choose(long sizeBytes, int worldSize, int channels) {
    if (!chooses()) return candidates.get(0);
    int ranks = Math.max(2, worldSize);
    long steps = 2L * (ranks - 1);
    long parts = (long) ranks * Math.max(1, channels);
    long stepPayloadBytes = Math.max(1, (sizeBytes + parts - 1) / parts);
    LineProtocol best = null;
    double bestPs = Double.MAX_VALUE;
    for (LineProtocol p : candidates) {
      double costPs = steps * stepPs(p, stepPayloadBytes);
      if (costPs < bestPs) {
        best = p;
        bestPs = costPs;
      }
    }
    return best;
  }

  /**
   * The protocol of the operation whose rank-0 schedule is {@code schedule}, in elements of {@code elementBytes}:
   * the only candidate, or the one whose cost over the schedule is lowest (the first of equal ones): every step that
   * sends costs the protocol's latency, plus the engine time and the wire bytes at {@link #tunerBitsPerSecond} of
   * its largest message (the step's messages run on their own engines).
   */
  public LineProtocol choose(Schedule schedule, int elementBytes) {
    if (!chooses()) return candidates.get(0);
    long[] largestBytes = new long[schedule.stepCount()];
    int sendingSteps = 0;
    for (int i = 0; i < schedule.stepCount(); i++) {
      Step step = schedule.step(i);
      if (step.sendCount() == 0) continue;
      long largest = 0;
      for (int j = 0; j < step.sendCount(); j++) {
        largest = Math.max(largest, (long) step.send(j).count() * elementBytes);
      }
      largestBytes[sendingSteps++] = largest;
    }
    LineProtocol best = null;
    double bestPs = Double.MAX_VALUE;
    for (LineProtocol p : candidates) {
      double costPs = 0;
      for (int i = 0; i < sendingSteps; i++) {
        costPs += stepPs(p, largestBytes[i]);
      }
      if (costPs < bestPs) {
        best = p;
        bestPs = costPs;
      }
    }
    return best;
  }

  /** The tuner's cost of a step whose largest message is {@code payloadBytes} by {@code p}, in ps. */
  private double stepPs(LineProtocol p, long payloadBytes) {
    ProtocolCost cost = cost(p);
    return cost.latencyPs() + cost.enginePs(payloadBytes) + p.wireBytes(payloadBytes) * 8e12 / tunerBitsPerSecond;
  }
}
