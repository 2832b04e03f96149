package io.fabemu.core.traffic;

import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The parameters of the {@link TrafficPattern#HOT_SPOT} pattern: which nodes are hot, and the fraction of every
 * source's packets sent to them on top of the uniform share they get anyway. Immutable.
 *
 * @param hotNodes the hot nodes, at least one, distinct, each at least 0 (checked against the network's node count
 *                 when a {@link DestinationPicker} is made)
 * @param fraction the probability, in [0, 1], that a packet goes to a hot node chosen uniformly (other than its
 *                 source); the other packets go uniformly to any other node, hot nodes included
 */
public record HotSpot(List<Integer> hotNodes, double fraction) {

  public HotSpot {
    if (hotNodes == null || hotNodes.isEmpty()) {
      throw new IllegalArgumentException("hot-spot hot-nodes must name at least one node, got " + hotNodes);
    }
    Set<Integer> seen = new HashSet<>();
    for (Integer node : hotNodes) {
      if (node == null || node < 0) {
        throw new IllegalArgumentException("hot-spot hot-nodes must be nodes (0 or more), got " + node);
      }
      if (!seen.add(node)) {
        throw new IllegalArgumentException("hot-spot hot-nodes must be distinct, got " + node + " twice");
      }
    }
    hotNodes = List.copyOf(hotNodes);
    if (!(fraction >= 0.0 && fraction <= 1.0)) {
      throw new IllegalArgumentException("hot-spot fraction must be in [0, 1], got " + fraction);
    }
  }
}
