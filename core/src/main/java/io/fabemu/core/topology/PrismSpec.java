package io.fabemu.core.topology;

import io.fabemu.core.routing.RoutingTable;
import java.util.Optional;

/**
 * The patent's multi-faceted prism of processing nodes (docs/prism.md, "The topology"): {@code layers} stacked layers
 * of {@code nodesPerLayer} hosts, each layer a ring of intra-layer links, corresponding nodes of adjacent layers
 * joined by inter-layer links along the prism's edges, the two end layers rewired (claim 5) so that their
 * neighbours have one intra-layer link more. The hosts forward transit traffic themselves (direct ports, one per
 * link). See {@link Topologies#prism} for the numbering, the multiplicities and the port order.
 *
 * @param nodesPerLayer hosts in each layer, at least 3 (3: the triangular prism)
 * @param layers        number of layers, at least 2
 * @param intraLayer    the links between neighbours in a layer
 * @param interLayer    the links between corresponding nodes of adjacent layers
 */
public record PrismSpec(int nodesPerLayer, int layers, LinkSpec intraLayer, LinkSpec interLayer)
    implements TopologySpec {

  public static final String CONFIG_NAME = "prism";

  /** Parallel intra-layer links between neighbours of an intermediate layer (claims 1 and 3: two). */
  public static final int INTRA_LAYER_LINKS = 2;

  /** Parallel intra-layer links between neighbours of an end layer (claim 4: three). */
  public static final int END_LAYER_LINKS = 3;

  /**
   * Parallel inter-layer links between corresponding nodes of adjacent layers: two, so that the rewiring of claim 5
   * keeps every node's port count (8) — see docs/prism.md.
   */
  public static final int INTER_LAYER_LINKS = 2;

  /** {@code nodesPerLayer * layers} (saturating at {@link Integer#MAX_VALUE}; {@link #build()} rejects that). */
  @Override
  public int hosts() {
    return Topologies.saturatedProduct(nodesPerLayer, layers, 1);
  }

  /** The host at {@code position} (0 .. nodesPerLayer-1) of {@code layer} (0 .. layers-1). */
  public int node(int layer, int position) {
    return layer * nodesPerLayer + position;
  }

  @Override
  public String configName() {
    return CONFIG_NAME;
  }

  @Override
  public Topology build() {
    return Topologies.prism(nodesPerLayer, layers, intraLayer, interLayer);
  }

  /** The full shortest-path table: a prism's parallel links make ECMP sets the arithmetic routings lack. */
  @Override
  public RoutingTable routing(Topology topology) {
    return RoutingTable.compute(topology);
  }

  /**
   * Nodes linked straight to each other, no switch: a ring's neighbour is one link away, the rings being embedded on
   * the prism's links.
   */
  @Override
  public double meanLinkHops(boolean neighbours) {
    return neighbours ? 1 : Math.max(2, Math.sqrt(hosts()) / 2);
  }

  /** This prism. */
  @Override
  public Optional<PrismSpec> prism() {
    return Optional.of(this);
  }
}
