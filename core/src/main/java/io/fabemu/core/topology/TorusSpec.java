package io.fabemu.core.topology;

import io.fabemu.core.routing.RouterNetworkRouting;
import io.fabemu.core.routing.RouterRouting;
import io.fabemu.core.routing.RoutingTable;
import io.fabemu.core.routing.TorusDorRouting;
import io.fabemu.core.traffic.NetworkShape;
import java.util.Optional;

/**
 * A 2-D or 3-D torus with a router in every node, routed in dimension order the shorter way round with dateline
 * virtual-channel classes; see {@link Topologies#torus} for its numbering and port order. A dimension of size 2
 * gets a single cable between its two nodes (its wrap-around cable would duplicate it), as a ring of 2 does.
 *
 * @param sizeX nodes along X, at least 2
 * @param sizeY nodes along Y, at least 2
 * @param sizeZ nodes along Z: 1 for a 2-D torus, else at least 2
 * @param link  every cable, host-router and router-router
 */
public record TorusSpec(int sizeX, int sizeY, int sizeZ, LinkSpec link) implements TopologySpec {

  public static final String CONFIG_NAME = "torus";

  /** {@code sizeX * sizeY * sizeZ} (saturating at {@link Integer#MAX_VALUE}; {@link #build()} rejects that). */
  @Override
  public int hosts() {
    return Topologies.saturatedProduct(sizeX, sizeY, sizeZ);
  }

  @Override
  public String configName() {
    return CONFIG_NAME;
  }

  @Override
  public Topology build() {
    return Topologies.torus(sizeX, sizeY, sizeZ, link);
  }

  /** The dimension-order route of {@link #routerRouting}, one port per hop (see {@link RouterNetworkRouting}). */
  @Override
  public RoutingTable routing(Topology topology) {
    return RouterNetworkRouting.of(topology, TorusDorRouting.of(topology, sizeX, sizeY, sizeZ));
  }

  @Override
  public Optional<RouterRouting> routerRouting(Topology topology) {
    return Optional.of(TorusDorRouting.of(topology, sizeX, sizeY, sizeZ));
  }

  @Override
  public Optional<NetworkShape> networkShape() {
    return Optional.of(NetworkShape.torus(sizeX, sizeY, sizeZ));
  }

  /** A router in every node. */
  @Override
  public long switchCount() {
    return hosts();
  }

  @Override
  public double meanRouterHops() {
    return (sizeX + sizeY + sizeZ) / 4.0;
  }

  /**
   * The bisection bound (8/k on a k-ary torus, k the longest side) times the share dimension-order wormhole routing
   * with two virtual channels reached in the examples (0.29 on the 8x8 torus: its dateline classes halve what each
   * direction can use).
   */
  @Override
  public double saturationLoadGuess() {
    return 0.3 * 8.0 / Math.max(sizeX, Math.max(sizeY, sizeZ));
  }
}
