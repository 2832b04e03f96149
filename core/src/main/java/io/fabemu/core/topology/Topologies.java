package io.fabemu.core.topology;

import io.fabemu.core.topology.Topology.Tier;

/**
 * Builders for the fabrics a scenario can name: a two-tier leaf-spine (Clos) network and the direct networks
 * line, ring and full mesh. Each kind's {@link TopologySpec} record builds through its builder here.
 *
 * <p>Every builder numbers vertices the way {@link Topology} requires: hosts {@code host0..} first (so a host's
 * vertex id is its host index), then switches. In the direct networks there are no switches and the hosts forward
 * transit traffic themselves. Bad arguments are rejected with an {@link IllegalArgumentException} whose message
 * names the topology kind, the parameter and the offending value.
 */
public final class Topologies {

  private Topologies() {}

  /**
   * A two-tier leaf-spine fabric: {@code ceil(hosts / hostsPerTor)} top-of-rack switches, each cabled to its hosts
   * and to every spine.
   *
   * <p>Vertex order: hosts {@code host0..} (tier 0), then TORs {@code tor0..} (tier 1), then spines {@code spine0..}
   * (tier 2). Host {@code h} hangs off TOR {@code h / hostsPerTor}, so only the last TOR may have fewer hosts. Port
   * order: a host's only port (0) goes to its TOR; a TOR's ports are its hosts in host order, then the spines in
   * spine order; a spine's ports are the TORs in TOR order.
   *
   * @param hosts       number of hosts, at least 1
   * @param hostsPerTor hosts under each TOR, at least 1
   * @param spines      number of spines, at least 0; 0 only when there is a single TOR (a one-switch star)
   * @param hostLink    host-TOR cables
   * @param spineLink   TOR-spine cables; may be null when {@code spines} is 0
   */
  public static Topology leafSpine(int hosts, int hostsPerTor, int spines, LinkSpec hostLink, LinkSpec spineLink) {
    String kind = LeafSpineSpec.CONFIG_NAME;
    requireAtLeast(kind, "hosts", hosts, 1);
    requireAtLeast(kind, "hosts-per-tor", hostsPerTor, 1);
    requireAtLeast(kind, "spines", spines, 0);
    // (hosts - 1) / hostsPerTor + 1 is the ceiling without the overflow of hosts + hostsPerTor - 1.
    int tors = (hosts - 1) / hostsPerTor + 1;
    if (spines == 0 && tors > 1) {
      throw new IllegalArgumentException(kind + " with 0 spines needs a single TOR, but " + hosts + " hosts at "
          + hostsPerTor + " per TOR need " + tors + " TORs");
    }
    requireLink(kind, "host link", hostLink);
    if (spines > 0) requireLink(kind, "spine link", spineLink);

    TopologyBuilder b = new TopologyBuilder();
    for (int h = 0; h < hosts; h++) b.addHost("host" + h);
    int firstTor = hosts;
    for (int t = 0; t < tors; t++) b.addSwitch("tor" + t, Tier.TOR);
    int firstSpine = firstTor + tors;
    for (int s = 0; s < spines; s++) b.addSwitch("spine" + s, Tier.SPINE);
    // All host cables first: that gives every TOR its host ports before any spine port.
    for (int h = 0; h < hosts; h++) b.connect(h, firstTor + h / hostsPerTor, hostLink);
    for (int t = 0; t < tors; t++) {
      for (int s = 0; s < spines; s++) b.connect(firstTor + t, firstSpine + s, spineLink);
    }
    return b.build(leafSpineDescription(hosts, hostsPerTor, tors, spines));
  }

  private static String leafSpineDescription(int hosts, int hostsPerTor, int tors, int spines) {
    String perTor;
    if (tors == 1) {
      perTor = "(" + count(hosts, "host") + ")";
    } else {
      int lastTorHosts = hosts - (tors - 1) * hostsPerTor;
      perTor = "(" + count(hostsPerTor, "host") + " each"
          + (lastTorHosts == hostsPerTor ? "" : ", last has " + lastTorHosts) + ")";
    }
    return "leaf-spine: " + count(hosts, "host") + ", " + count(tors, "TOR") + " " + perTor + ", "
        + count(spines, "spine");
  }

  /** Hosts in a chain: host {@code i} is cabled to host {@code i + 1}. Ports in neighbour order (left, then right). */
  public static Topology line(int hosts, LinkSpec link) {
    String kind = LineSpec.CONFIG_NAME;
    TopologyBuilder b = directHosts(kind, hosts, link);
    for (int h = 0; h + 1 < hosts; h++) b.connect(h, h + 1, link);
    return b.build(kind + ": " + count(hosts, "host"));
  }

  /**
   * A line closed into a cycle by a cable from the last host back to host 0. A ring of 2 hosts is a single cable (a
   * second one would duplicate it); a ring of 1 host has none. Port order: cables in the order line then closing
   * cable, so host 0's ports are host 1 then the last host.
   */
  public static Topology ring(int hosts, LinkSpec link) {
    String kind = RingSpec.CONFIG_NAME;
    TopologyBuilder b = directHosts(kind, hosts, link);
    for (int h = 0; h + 1 < hosts; h++) b.connect(h, h + 1, link);
    if (hosts > 2) b.connect(hosts - 1, 0, link);
    return b.build(kind + ": " + count(hosts, "host"));
  }

  /**
   * Every pair of hosts cabled directly. Host {@code i}'s port {@code p} goes to host {@code p < i ? p : p + 1},
   * i.e. ports are in neighbour order.
   */
  public static Topology fullMesh(int hosts, LinkSpec link) {
    String kind = FullMeshSpec.CONFIG_NAME;
    TopologyBuilder b = directHosts(kind, hosts, link);
    for (int a = 0; a < hosts; a++) {
      for (int c = a + 1; c < hosts; c++) b.connect(a, c, link);
    }
    return b.build(kind + ": " + count(hosts, "host"));
  }

  /** Validates a direct network's arguments and adds its hosts. */
  private static TopologyBuilder directHosts(String kind, int hosts, LinkSpec link) {
    requireAtLeast(kind, "hosts", hosts, 1);
    requireLink(kind, "link", link);
    TopologyBuilder b = new TopologyBuilder();
    for (int h = 0; h < hosts; h++) b.addHost("host" + h);
    return b;
  }

  private static void requireAtLeast(String kind, String parameter, int value, int min) {
    if (value < min) {
      throw new IllegalArgumentException(kind + " needs " + parameter + " >= " + min + ", got " + value);
    }
  }

  private static void requireLink(String kind, String role, LinkSpec link) {
    if (link == null) {
      throw new IllegalArgumentException(kind + " needs a " + role + " spec, got none");
    }
    if (link.bandwidthBitsPerSecond() <= 0 || link.latencyPs() <= 0) {
      throw new IllegalArgumentException(kind + " " + role + " needs positive bandwidth and latency, got "
          + link.bandwidthBitsPerSecond() + " bit/s and " + link.latencyPs() + " ps");
    }
  }

  private static String count(int n, String noun) {
    return n + " " + noun + (n == 1 ? "" : "s");
  }
}
