package io.fabemu.core.topology;

import io.fabemu.core.routing.MeshDorRouting;
import io.fabemu.core.routing.RouterNetworkRouting;
import io.fabemu.core.routing.RouterRouting;
import io.fabemu.core.routing.RoutingTable;
import io.fabemu.core.traffic.NetworkShape;
import java.util.Optional;

/**
 * A 2-D or 3-D mesh with a router in every node, routed in dimension order (X, then Y, then Z); see
 * {@link Topologies#mesh} for its numbering and port order.
 *
 * @param sizeX nodes along X, at least 2
 * @param sizeY nodes along Y, at least 2
 * @param sizeZ nodes along Z: 1 for a 2-D mesh, else at least 2
 * @param link  every cable, host-router and router-router
 */
public record MeshSpec(int sizeX, int sizeY, int sizeZ, LinkSpec link) implements TopologySpec {

  public static final String CONFIG_NAME = "mesh";

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
    return Topologies.mesh(sizeX, sizeY, sizeZ, link);
  }

  /** The dimension-order route of {@link #routerRouting}, one port per hop (see {@link RouterNetworkRouting}). */
  @Override
  public RoutingTable routing(Topology topology) {
    return RouterNetworkRouting.of(topology, MeshDorRouting.of(topology, sizeX, sizeY, sizeZ));
  }

  @Override
  public Optional<RouterRouting> routerRouting(Topology topology) {
    return Optional.of(MeshDorRouting.of(topology, sizeX, sizeY, sizeZ));
  }

  @Override
  public Optional<NetworkShape> networkShape() {
    return Optional.of(NetworkShape.mesh(sizeX, sizeY, sizeZ));
  }

  /** A router in every node. */
  @Override
  public long switchCount() {
    return hosts();
  }

  @Override
  public double meanRouterHops() {
    return (sizeX + sizeY + sizeZ) / 3.0;
  }

  /**
   * The bisection bound (4/k on a k-ary mesh, k the longest side) times the share dimension-order wormhole routing
   * with two virtual channels reached in the examples (0.74 on the 8x8 mesh).
   */
  @Override
  public double saturationLoadGuess() {
    return 0.75 * 4.0 / Math.max(sizeX, Math.max(sizeY, sizeZ));
  }
}
