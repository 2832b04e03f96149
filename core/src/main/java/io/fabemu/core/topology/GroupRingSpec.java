package io.fabemu.core.topology;

import io.fabemu.core.routing.GroupRingRouting;
import io.fabemu.core.routing.RouterNetworkRouting;
import io.fabemu.core.routing.RouterRouting;
import io.fabemu.core.routing.RoutingTable;
import io.fabemu.core.traffic.NetworkShape;
import java.util.Optional;

/**
 * The group-ring of the patent's parallel computer, a router in every node: groups fully connected inside, the nodes
 * at the same index of every group joined in a ring; routed in dimension order (the intra-group hop, then the
 * ring). See {@link Topologies#groupRing} for its numbering and port order.
 *
 * @param groups        number of groups, at least 2
 * @param nodesPerGroup nodes in each group, at least 1
 * @param link          every cable, host-router and router-router
 */
public record GroupRingSpec(int groups, int nodesPerGroup, LinkSpec link) implements TopologySpec {

  public static final String CONFIG_NAME = "group-ring";

  /** {@code groups * nodesPerGroup} (saturating at {@link Integer#MAX_VALUE}; {@link #build()} rejects that). */
  @Override
  public int hosts() {
    return Topologies.saturatedProduct(groups, nodesPerGroup, 1);
  }

  @Override
  public String configName() {
    return CONFIG_NAME;
  }

  @Override
  public Topology build() {
    return Topologies.groupRing(groups, nodesPerGroup, link);
  }

  /** The dimension-order route of {@link #routerRouting}, one port per hop (see {@link RouterNetworkRouting}). */
  @Override
  public RoutingTable routing(Topology topology) {
    return RouterNetworkRouting.of(topology, GroupRingRouting.of(topology, groups, nodesPerGroup));
  }

  @Override
  public Optional<RouterRouting> routerRouting(Topology topology) {
    return Optional.of(GroupRingRouting.of(topology, groups, nodesPerGroup));
  }

  @Override
  public Optional<NetworkShape> networkShape() {
    return Optional.of(NetworkShape.groupRing(groups, nodesPerGroup));
  }

  /** A router in every node. */
  @Override
  public long switchCount() {
    return hosts();
  }

  @Override
  public double meanRouterHops() {
    return groups / 4.0 + 2;
  }
}
