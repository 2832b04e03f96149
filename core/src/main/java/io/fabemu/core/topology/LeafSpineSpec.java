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

  /** TORs, plus the spines when there is more than one TOR (a single TOR is the whole fabric). */
  @Override
  public long switchCount() {
    long tors = tors();
    return tors == 1 ? 1 : tors + spines;
  }

  /** A cable per host, and one from every TOR to every spine when there is more than one TOR. */
  @Override
  public long cableCount() {
    long tors = tors();
    return hosts + (tors == 1 ? 0 : tors * spines);
  }

  /**
   * Within the TOR: host link, TOR, host link; else up through a spine and down. A ring's neighbours leave their TOR
   * only at its last host; any other partner is as likely anywhere.
   */
  @Override
  public double meanLinkHops(boolean neighbours) {
    double away = hosts <= hostsPerTor ? 0 : neighbours ? 1.0 / hostsPerTor : 1 - (double) hostsPerTor / hosts;
    return 2 + 2 * away;
  }

  @Override
  public int hostsPerPlacementGroup() {
    return Math.min(hosts, hostsPerTor);
  }

  private long tors() {
    return (hosts + (long) hostsPerTor - 1) / hostsPerTor;
  }
}
