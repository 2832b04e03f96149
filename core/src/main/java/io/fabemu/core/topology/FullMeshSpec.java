package io.fabemu.core.topology;

import io.fabemu.core.routing.FullMeshRouting;
import io.fabemu.core.routing.RoutingTable;

/**
 * A full mesh of hosts: every pair cabled directly; see {@link Topologies#fullMesh}.
 *
 * @param hosts number of hosts (compute nodes)
 * @param link  host-to-host links
 */
public record FullMeshSpec(int hosts, LinkSpec link) implements TopologySpec {

  public static final String CONFIG_NAME = "full-mesh";

  @Override
  public String configName() {
    return CONFIG_NAME;
  }

  @Override
  public Topology build() {
    return Topologies.fullMesh(hosts, link);
  }

  /** Routes from the numbering (constant time per lookup, no per-destination table). */
  @Override
  public RoutingTable routing(Topology topology) {
    return FullMeshRouting.of(topology, hosts);
  }

  /** A cable between every two hosts. */
  @Override
  public long cableCount() {
    return (long) hosts * (hosts - 1) / 2;
  }

  /** Every host is one link from every other. */
  @Override
  public double meanLinkHops(boolean neighbours) {
    return 1;
  }
}
