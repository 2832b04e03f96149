package io.fabemu.core.traffic;

import java.util.SplittableRandom;

/**
 * One node's packet creation process at one offered load: the cycles its packets are created in and their
 * destinations, from cycle 0 up to (not including) an end cycle. Deterministic: a function of the seed only.
 *
 * <p>The process is BookSim's Bernoulli injection: in every cycle, independently, a packet of {@code packetFlits}
 * flits is created with probability {@code p = L / packetFlits} for an offered load of L flits per node per cycle.
 * Rather than draw once per cycle, the source draws the number of empty cycles before the next packet from the
 * geometric distribution of that Bernoulli process, {@code P(gap = k) = (1 - p)^k p}, by inversion
 * ({@code floor(ln U / ln(1 - p))}, U uniform in (0, 1]); the packet arrivals are then distributed exactly as the
 * per-cycle draws would make them, and the cost is per packet. Creation cycles are strictly increasing (at most one
 * packet per cycle).
 *
 * <p>Two streams, both from one {@link SplittableRandom} seeded by {@link #seed(long, int, int)}: one for the gaps,
 * one (split off it) for the destinations, so the arrival cycles do not depend on the pattern. A node that sends
 * nothing ({@link DestinationPicker#sends} false) has no packets at all.
 *
 * <p>Use: read {@link #nextPacketCycle()} and {@link #nextDestination()}, then {@link #advance()} to the next
 * packet. Not thread-safe; each node owns its source.
 */
public final class TrafficSource {
  /** Separates this stream family from any other stream seeded from the same scenario seed. */
  private static final long STREAM_TAG = 0x7261_6666_6963_5372L;
  private static final long GOLDEN_GAMMA = 0x9E37_79B9_7F4A_7C15L;

  private final int node;
  private final DestinationPicker destinations;
  private final long endCycle;
  private final double packetProbabilityPerCycle;
  /** ln(1 - p); negative infinity when p = 1, which makes every gap 0. */
  private final double logOfEmptyCycleProbability;
  private final SplittableRandom gapRandom;
  private final SplittableRandom destinationRandom;
  private long nextCycle;
  private int nextDestination;
  private long nextPacketNumber;

  /**
   * The source of {@code node} at sweep point {@code loadIndex} of {@code spec}: packets created from cycle 0 up to
   * the end of the drain ({@link TrafficSpec#drainEndCycle()}), seeded from the scenario seed, node and load index.
   */
  public static TrafficSource forLoad(TrafficSpec spec, int loadIndex, DestinationPicker destinations, int node,
                                      long scenarioSeed) {
    return new TrafficSource(destinations, node, spec.offeredLoad(loadIndex), spec.packetFlits(),
        spec.drainEndCycle(), seed(scenarioSeed, node, loadIndex));
  }

  /**
   * A source creating packets in cycles {@code [0, endCycle)}.
   *
   * @param destinations             the pattern on the network
   * @param node                     the source node
   * @param offeredFlitsPerNodeCycle offered load L, with {@code 0 < L / packetFlits <= 1}
   * @param packetFlits              flits per packet, at least 1
   * @param endCycle                 first cycle in which no packet is created, 0 or more
   * @param streamSeed               the seed of this source's random streams (see {@link #seed})
   */
  public TrafficSource(DestinationPicker destinations, int node, double offeredFlitsPerNodeCycle, int packetFlits,
                       long endCycle, long streamSeed) {
    if (destinations == null) throw new IllegalArgumentException("traffic source needs destinations, got none");
    destinations.shape().requireNode("traffic source node", node);
    if (packetFlits < 1) {
      throw new IllegalArgumentException("traffic packet-flits must be at least 1, got " + packetFlits);
    }
    double probability = offeredFlitsPerNodeCycle / packetFlits;
    if (!(probability > 0.0 && probability <= 1.0)) {
      throw new IllegalArgumentException("traffic offered load / packet-flits is the packet probability per cycle and "
          + "must be in (0, 1], got " + offeredFlitsPerNodeCycle + " / " + packetFlits);
    }
    if (endCycle < 0) throw new IllegalArgumentException("traffic source end cycle must be 0 or more, got " + endCycle);
    this.node = node;
    this.destinations = destinations;
    this.endCycle = endCycle;
    this.packetProbabilityPerCycle = probability;
    // StrictMath, not Math: the same bits on every JVM and processor, so a run is byte-identical anywhere.
    this.logOfEmptyCycleProbability = StrictMath.log1p(-probability);
    this.gapRandom = new SplittableRandom(streamSeed);
    this.destinationRandom = gapRandom.split();
    if (destinations.sends(node)) {
      place(0L);
    } else {
      nextCycle = Long.MAX_VALUE;
    }
  }

  /**
   * The seed of the source of {@code node} at sweep point {@code loadIndex}: the scenario seed mixed with both
   * through SplitMix64's finalizer, so that neighbouring nodes and loads get unrelated streams (a seed stepping by
   * the golden gamma per node would make node n + 1's {@link SplittableRandom} node n's shifted by one draw).
   */
  public static long seed(long scenarioSeed, int node, int loadIndex) {
    long mixed = mix64(scenarioSeed ^ STREAM_TAG);
    mixed = mix64(mixed + (node + 1L) * GOLDEN_GAMMA);
    return mix64(mixed + (loadIndex + 1L) * GOLDEN_GAMMA);
  }

  private static long mix64(long z) {
    z = (z ^ (z >>> 30)) * 0xBF58_476D_1CE4_E5B9L;
    z = (z ^ (z >>> 27)) * 0x94D0_49BB_1331_11EBL;
    return z ^ (z >>> 31);
  }

  public int node() {
    return node;
  }

  /** The per-cycle probability of a new packet, L / packetFlits. */
  public double packetProbabilityPerCycle() {
    return packetProbabilityPerCycle;
  }

  /** Whether a packet is pending: {@link #nextPacketCycle()} is before the end cycle. */
  public boolean hasNext() {
    return nextCycle != Long.MAX_VALUE;
  }

  /** The cycle the pending packet is created in; {@link Long#MAX_VALUE} when there are no more packets. */
  public long nextPacketCycle() {
    return nextCycle;
  }

  /** The pending packet's destination, never this node. */
  public int nextDestination() {
    requirePending();
    return nextDestination;
  }

  /** How many packets this source created before the pending one (0 for the first): a per-source packet id. */
  public long nextPacketNumber() {
    requirePending();
    return nextPacketNumber;
  }

  /** Moves on to the next packet, created at least one cycle after the pending one. */
  public void advance() {
    requirePending();
    nextPacketNumber++;
    place(nextCycle + 1);
  }

  private void requirePending() {
    if (!hasNext()) throw new IllegalStateException("traffic source of node " + node + " has no more packets");
  }

  /** The next packet is the first success of the Bernoulli cycles from {@code fromCycle} on. */
  private void place(long fromCycle) {
    double emptyCycles = emptyCyclesBeforeNextPacket();
    // Compare as doubles: a tiny probability can draw a gap far beyond any long.
    if (fromCycle >= endCycle || emptyCycles >= (double) (endCycle - fromCycle)) {
      nextCycle = Long.MAX_VALUE;
      return;
    }
    nextCycle = fromCycle + (long) emptyCycles;
    nextDestination = destinations.destination(node, destinationRandom);
  }

  /** A geometric draw, by inversion: P(result >= k) = P(U <= (1 - p)^k) = (1 - p)^k. */
  private double emptyCyclesBeforeNextPacket() {
    if (packetProbabilityPerCycle == 1.0) return 0.0;
    double uniformOpenAtZero = 1.0 - gapRandom.nextDouble();
    return Math.floor(StrictMath.log(uniformOpenAtZero) / logOfEmptyCycleProbability);
  }
}
