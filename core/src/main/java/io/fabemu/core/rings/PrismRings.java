package io.fabemu.core.rings;

import io.fabemu.core.topology.PrismSpec;
import java.util.ArrayList;
import java.util.List;

/**
 * The patent's constructive rings on a prism (the face rule, docs/prism.md "Rings"): one ring per edge {@code c} of
 * the prism. Its first part starts in layer 0 at position {@code c + 1} and snakes up the prism: in each layer it
 * walks the layer's ring from {@code c + 1} to {@code c - 1} (every position but {@code c}), forwards in even
 * layers and backwards in odd ones, and climbs to the next layer where it stands. Its second part steps to position
 * {@code c} in the last layer and comes back down edge {@code c} to layer 0, whose link to {@code c + 1} closes the
 * ring. On the triangular prism the first part uses exactly the face opposite edge {@code c}, as the patent's claim 1
 * says; with more nodes per layer it uses every face but the two beside edge {@code c}.
 */
public final class PrismRings {

  private PrismRings() {}

  /** The face-rule ring returning down edge {@code c}, as a cyclic sequence of hosts. */
  public static List<Integer> faceRing(PrismSpec prism, int c) {
    int n = prism.nodesPerLayer();
    if (c < 0 || c >= n) throw new IllegalArgumentException("edge " + c + " is not in 0.." + (n - 1));
    List<Integer> ring = new ArrayList<>(prism.hosts());
    for (int layer = 0; layer < prism.layers(); layer++) {
      for (int k = 1; k < n; k++) {
        int step = layer % 2 == 0 ? k : n - k;
        ring.add(prism.node(layer, (c + step) % n));
      }
    }
    for (int layer = prism.layers() - 1; layer >= 0; layer--) ring.add(prism.node(layer, c));
    return List.copyOf(ring);
  }

  /**
   * The face rule's rings: one per edge, then, when the doubled set is arc-disjoint on the prism, the same rings
   * reversed (the other direction of every link). The rings of one direction are arc-disjoint on the triangular
   * prism and on the prism of 4 nodes per layer; with more, they share the intra-layer links (see
   * {@link RingCheck}).
   */
  public static List<List<Integer>> faceRule(PrismSpec prism) {
    List<List<Integer>> rings = new ArrayList<>();
    for (int c = 0; c < prism.nodesPerLayer(); c++) rings.add(faceRing(prism, c));
    List<List<Integer>> both = new ArrayList<>(rings);
    for (List<Integer> ring : rings) both.add(reversed(ring));
    HostGraph graph = HostGraph.of(prism.build());
    return RingCheck.check(graph, both).arcDisjoint() ? List.copyOf(both) : List.copyOf(rings);
  }

  /** {@code ring} travelled the other way round. */
  public static List<Integer> reversed(List<Integer> ring) {
    List<Integer> reversed = new ArrayList<>(ring.size());
    for (int i = ring.size() - 1; i >= 0; i--) reversed.add(ring.get(i));
    return List.copyOf(reversed);
  }
}
