package io.fabemu.core.topology;

import io.fabemu.core.routing.LineRouting;
import io.fabemu.core.routing.RoutingTable;

/**
 * A line of hosts (a chain), which forward transit traffic themselves; see {@link Topologies#line}.
 *
 * @param hosts number of hosts (compute nodes)
 * @param link  host-to-host links
 */
public record LineSpec(int hosts, LinkSpec link) implements TopologySpec {

  public static final String CONFIG_NAME = "line";

  @Override
  public String configName() {
    return CONFIG_NAME;
  }

  @Override
  public Topology build() {
    return Topologies.line(hosts, link);
  }

  /** Routes from the numbering (constant time per lookup, no per-destination table). */
  @Override
  public RoutingTable routing(Topology topology) {
    return LineRouting.of(topology, hosts);
  }

  @Override
  public double meanLinkHops(boolean neighbours) {
    return Math.max(1, hosts / 3.0);
  }
}
