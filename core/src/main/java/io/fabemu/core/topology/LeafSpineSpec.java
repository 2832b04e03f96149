package io.fabemu.core.topology;

import io.fabemu.core.routing.LeafSpineRouting;
import io.fabemu.core.routing.RoutingTable;

/**
 * A two-tier leaf-spine (Clos) fabric; see {@link Topologies#leafSpine} for its numbering.
 *
 * @param hosts       number of hosts (compute nodes)
 * @param hostsPerTor hosts under each top-of-rack switch (the last TOR may have fewer)
 * @param spines      number of spine switches (every TOR links to every spine)
 * @param hostLink    host-TOR links
 * @param spineLink   TOR-spine links; may be null when {@code spines} is 0
 */
public record LeafSpineSpec(int hosts, int hostsPerTor, int spines, LinkSpec hostLink, LinkSpec spineLink)
    implements TopologySpec {

  public static final String CONFIG_NAME = "leaf-spine";

  @Override
  public String configName() {
    return CONFIG_NAME;
  }

  @Override
  public Topology build() {
    return Topologies.leafSpine(hosts, hostsPerTor, spines, hostLink, spineLink);
  }

  /** Routes from the numbering (constant time per lookup, no per-destination table). */
  @Override
  public RoutingTable routing(Topology topology) {
    return LeafSpineRouting.of(topology, hosts, hostsPerTor, spines);
  }
}
