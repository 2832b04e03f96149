package io.fabemu.core.traffic;

/**
 * The synthetic traffic patterns of cycle-accurate network simulators: who each node sends its packets to. The
 * destinations themselves come from a {@link DestinationPicker} made for one network shape.
 *
 * <p>Definitions follow BookSim 2 ({@code traffic.cpp}) where it has the pattern; where this one differs it says
 * so. No pattern ever sends a packet to its own source: a node that a permutation maps to itself (a fixed point:
 * the diagonal of transpose, the palindromes of bit-reverse, all-zeros and all-ones of shuffle) sends nothing at
 * all, and throughput is counted per sending node ({@link DestinationPicker#sendingNodeCount()}), so that accepted
 * equals offered below saturation as it does in BookSim, whose fixed points send to themselves.
 */
public enum TrafficPattern {
  /**
   * Each packet to a node chosen uniformly among all the other nodes. BookSim's {@code uniform} draws among all
   * nodes, the source included.
   */
  UNIFORM("uniform"),
  /**
   * (x, y) sends to (y, x) on a square 2-D mesh or torus (any side; BookSim's {@code transpose} swaps the high and
   * low halves of the address bits, the same thing on a 2^k x 2^k network). Rejected on 3-D networks and
   * group-rings, where no one transpose is standard.
   */
  TRANSPOSE("transpose"),
  /** Node s sends to {@code ~s} in log2(n) bits (BookSim {@code bitcomp}); needs a power-of-two node count. */
  BIT_COMPLEMENT("bit-complement"),
  /** Node s sends to s with its log2(n) address bits reversed (BookSim {@code bitrev}); power-of-two count. */
  BIT_REVERSE("bit-reverse"),
  /** Node s sends to s with its log2(n) address bits rotated left by one (BookSim {@code shuffle}); power of two. */
  SHUFFLE("shuffle"),
  /**
   * With probability {@link HotSpot#fraction()} a packet goes to a hot node chosen uniformly (not its source; a
   * source that is the only hot node draws uniformly instead), otherwise to a node chosen uniformly among all the
   * other nodes. BookSim's {@code hotspot} sends every packet to a hot node, chosen by weight: that is fraction 1
   * with equal weights.
   */
  HOT_SPOT("hot-spot"),
  /**
   * Each packet to a neighbour chosen uniformly among the node's distinct directly cabled nodes
   * ({@link NetworkShape#neighbours}): +-1 in each dimension on a mesh (the ones that exist) or torus (wrapping);
   * the rest of its group and its ring neighbours in the adjacent groups on a group-ring. BookSim's
   * {@code neighbor} is a permutation instead: every packet to the node at +1 in every dimension at once, wrapping.
   */
  NEAREST_NEIGHBOUR("nearest-neighbour");

  private final String configName;

  TrafficPattern(String configName) {
    this.configName = configName;
  }

  /** The name scenario files use. */
  public String configName() {
    return configName;
  }

  /** Whether every node always sends to the same one destination (no random draw per packet). */
  public boolean isPermutation() {
    return this == TRANSPOSE || this == BIT_COMPLEMENT || this == BIT_REVERSE || this == SHUFFLE;
  }

  /** The pattern a scenario file names, or null when none has that name. */
  public static TrafficPattern fromConfigName(String name) {
    for (TrafficPattern p : values()) {
      if (p.configName.equals(name)) return p;
    }
    return null;
  }
}
