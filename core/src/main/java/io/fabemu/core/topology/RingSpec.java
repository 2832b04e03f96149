package io.fabemu.core.topology;

import io.fabemu.core.routing.RingRouting;
import io.fabemu.core.routing.RoutingTable;

/**
 * A ring of hosts (a line closed into a cycle), which forward transit traffic themselves; see
 * {@link Topologies#ring}.
 *
 * @param hosts number of hosts (compute nodes)
 * @param link  host-to-host links
 */
public record RingSpec(int hosts, LinkSpec link) implements TopologySpec {

  public static final String CONFIG_NAME = "ring";

  @Override
  public String configName() {
    return CONFIG_NAME;
  }

  @Override
  public Topology build() {
    return Topologies.ring(hosts, link);
  }

  /** Routes from the numbering (constant time per lookup, no per-destination table). */
  @Override
  public RoutingTable routing(Topology topology) {
    return RingRouting.of(topology, hosts);
  }

  @Override
  public double meanLinkHops(boolean neighbours) {
    return Math.max(1, hosts / 4.0);
  }
}
