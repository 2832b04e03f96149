package io.fabemu.core.traffic;

import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * A {@link TrafficPattern} made for one {@link NetworkShape}: the destination of each packet a node creates. The
 * shape is checked once, here, so a pattern that cannot apply (transpose on a non-square network, a bit pattern on
 * a node count that is not a power of two, a hot node outside the network) fails before any traffic runs.
 *
 * <p>Never picks the source itself (see {@link TrafficPattern}): a node whose permutation maps it to itself sends
 * nothing ({@link #sends} is false), and throughput is normalised by {@link #sendingNodeCount()}.
 *
 * <p>Immutable and safe to share between threads; the randomness is the caller's {@link SplittableRandom}, so a
 * seeded stream gives the same destinations every run. Permutations draw nothing from it.
 */
public final class DestinationPicker {
  private final TrafficPattern pattern;
  private final NetworkShape shape;
  private final int nodeCount;
  /** log2 of the node count for the bit patterns, 0 otherwise. */
  private final int addressBits;
  /** Hot nodes in increasing order (hot-spot only), so that the order a scenario lists them in does not matter. */
  private final int[] hotNodes;
  private final double hotFraction;
  private final int sendingNodeCount;

  private DestinationPicker(TrafficPattern pattern, NetworkShape shape, HotSpot hotSpot) {
    this.pattern = pattern;
    this.shape = shape;
    this.nodeCount = shape.nodeCount();
    this.addressBits = pattern == TrafficPattern.BIT_COMPLEMENT || pattern == TrafficPattern.BIT_REVERSE
        || pattern == TrafficPattern.SHUFFLE ? Integer.numberOfTrailingZeros(nodeCount) : 0;
    this.hotNodes = hotSpot == null ? new int[0] : hotSpot.hotNodes().stream().mapToInt(Integer::intValue).sorted()
        .toArray();
    this.hotFraction = hotSpot == null ? 0.0 : hotSpot.fraction();
    int sending = nodeCount;
    if (pattern.isPermutation()) {
      for (int node = 0; node < nodeCount; node++) {
        if (permute(node) == node) sending--;
      }
    }
    this.sendingNodeCount = sending;
  }

  /**
   * The picker of {@code pattern} on {@code shape}; {@code hotSpot} is required for {@link TrafficPattern#HOT_SPOT}
   * and must be null for the others.
   */
  public static DestinationPicker of(TrafficPattern pattern, NetworkShape shape, HotSpot hotSpot) {
    if (pattern == null) throw new IllegalArgumentException("traffic pattern must be given, got none");
    if (shape == null) throw new IllegalArgumentException("traffic needs a network shape, got none");
    int nodes = shape.nodeCount();
    switch (pattern) {
      case TRANSPOSE:
        if (!shape.isTwoDimensional() || shape.sizeX() != shape.sizeY()) {
          throw new IllegalArgumentException("traffic pattern transpose needs a square 2-D mesh or torus, got a "
              + shape);
        }
        break;
      case BIT_COMPLEMENT:
      case BIT_REVERSE:
      case SHUFFLE:
        if (Integer.bitCount(nodes) != 1) {
          throw new IllegalArgumentException("traffic pattern " + pattern.configName()
              + " needs a power-of-two node count, got " + nodes + " nodes (" + shape + ")");
        }
        break;
      case HOT_SPOT:
        if (hotSpot == null) {
          throw new IllegalArgumentException("traffic pattern hot-spot needs its hot nodes and fraction, got none");
        }
        for (int hot : hotSpot.hotNodes()) {
          if (hot >= nodes) {
            throw new IllegalArgumentException("hot-spot hot node must be in 0.." + (nodes - 1) + " of the " + shape
                + ", got " + hot);
          }
        }
        break;
      default:
        break;
    }
    if (pattern != TrafficPattern.HOT_SPOT && hotSpot != null) {
      throw new IllegalArgumentException("traffic pattern " + pattern.configName()
          + " takes no hot-spot parameters, got " + hotSpot);
    }
    return new DestinationPicker(pattern, shape, hotSpot);
  }

  public TrafficPattern pattern() {
    return pattern;
  }

  public NetworkShape shape() {
    return shape;
  }

  /** Whether {@code source} creates packets at all: false only at the fixed points of a permutation. */
  public boolean sends(int source) {
    shape.requireNode("source", source);
    return !pattern.isPermutation() || permute(source) != source;
  }

  /** Nodes that create packets: the denominator of per-node offered and accepted throughput. */
  public int sendingNodeCount() {
    return sendingNodeCount;
  }

  /**
   * The destination of the next packet {@code source} creates, never {@code source} itself; draws from
   * {@code random} unless the pattern is a permutation.
   *
   * @throws IllegalStateException when {@code source} sends nothing (see {@link #sends})
   */
  public int destination(int source, SplittableRandom random) {
    shape.requireNode("source", source);
    switch (pattern) {
      case UNIFORM:
        return uniformOther(source, random);
      case HOT_SPOT:
        return hotSpot(source, random);
      case NEAREST_NEIGHBOUR:
        int[] neighbours = shape.neighbours(source);
        return neighbours[random.nextInt(neighbours.length)];
      default:
        int destination = permute(source);
        if (destination == source) {
          throw new IllegalStateException("node " + source + " is a fixed point of " + pattern.configName()
              + " on the " + shape + " and sends nothing");
        }
        return destination;
    }
  }

  /** Uniform over the n - 1 nodes other than the source: draw among n - 1 and step over the source. */
  private int uniformOther(int source, SplittableRandom random) {
    int drawn = random.nextInt(nodeCount - 1);
    return drawn >= source ? drawn + 1 : drawn;
  }

  private int hotSpot(int source, SplittableRandom random) {
    if (random.nextDouble() >= hotFraction) return uniformOther(source, random);
    int sourceAt = Arrays.binarySearch(hotNodes, source);
    int candidates = sourceAt >= 0 ? hotNodes.length - 1 : hotNodes.length;
    if (candidates == 0) return uniformOther(source, random);
    int drawn = random.nextInt(candidates);
    return sourceAt >= 0 && drawn >= sourceAt ? hotNodes[drawn + 1] : hotNodes[drawn];
  }

  /** The image of {@code node} under a permutation pattern (the node itself at a fixed point). */
  private int permute(int node) {
    switch (pattern) {
      case TRANSPOSE:
        int[] at = shape.coordinates(node);
        return shape.node(at[1], at[0], 0);
      case BIT_COMPLEMENT:
        return ~node & (nodeCount - 1);
      case BIT_REVERSE:
        return Integer.reverse(node) >>> (Integer.SIZE - addressBits);
      case SHUFFLE:
        return ((node << 1) & (nodeCount - 1)) | (node >>> (addressBits - 1));
      default:
        throw new IllegalStateException(pattern.configName() + " is not a permutation");
    }
  }
}
