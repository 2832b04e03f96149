package io.fabemu.core.topology;

import io.fabemu.core.routing.RailLeafSpineRouting;
import io.fabemu.core.routing.RoutingTable;
import io.fabemu.core.topology.Topology.Tier;
import java.util.Optional;

/**
 * A rail-optimized leaf-spine of GPU servers (docs/gpu-clusters.md, "Rail-optimized leaf-spine"): {@code servers}
 * (S) servers of {@code nicsPerServer} (R) GPUs, each GPU a host with its own NIC; NIC {@code r} of every server is
 * on rail {@code r}. The servers are cut into groups of {@code serversPerLeaf} (P); rail {@code r} of group
 * {@code g} is one leaf switch (a TOR) cabled to NIC {@code r} of each of the group's servers, and every leaf to
 * every spine. With a server switch (an NVSwitch) in every server, each of its GPUs is also cabled to it.
 *
 * <p>Numbering: hosts {@code host = server * R + nic} ({@code 0 .. S*R-1}), then the rail leaves
 * {@code leaf<g>.<r>}, vertex {@code S*R + g*R + r} (tier TOR), then the spines (tier SPINE), then the server
 * switches {@code nvswitch<s>} ({@link Tier#NONE}). Port order: with a server switch a host's port 0 goes to its
 * server switch and port 1 to its rail leaf, else its only port (0) goes to the rail leaf; a leaf's ports are its
 * servers' NICs in server order ({@code 0 .. P-1}), then the spines in spine order; a spine's port {@code l} goes to
 * leaf {@code l}; a server switch's port {@code r} to its GPU {@code r}. So the automatic placement (by the switch of
 * a host's first port) keeps a server together when it has a server switch, a rail leaf's hosts otherwise.
 *
 * <p>Build it with {@link #builder}: it has an optional part. The rules across fields (S a multiple of P; no spine
 * only with a single group, and then only with one rail or a server switch) are checked by {@link #build()}.
 *
 * @param servers          S, at least 1
 * @param nicsPerServer    R, the rails: GPUs (hosts, NICs) per server, at least 1
 * @param serversPerLeaf   P, servers under one rail leaf; S must be a multiple of it
 * @param spines           spines, every rail leaf cabled to each; 0 only with one group ({@code P = S})
 * @param hostLink         NIC to rail leaf
 * @param spineLink        rail leaf to spine; may be null when {@code spines} is 0
 * @param serverSwitchLink GPU to its server switch; null: no server switch
 */
public record RailLeafSpineSpec(int servers, int nicsPerServer, int serversPerLeaf, int spines, LinkSpec hostLink,
                                LinkSpec spineLink, LinkSpec serverSwitchLink) implements TopologySpec {

  public static final String CONFIG_NAME = "rail-leaf-spine";

  /** A builder with {@code serversPerLeaf} = all servers (one leaf per rail), no spine and no server switch. */
  public static Builder builder(int servers, int nicsPerServer, LinkSpec hostLink) {
    return new Builder(servers, nicsPerServer, hostLink);
  }

  /** The optional parts of a {@link RailLeafSpineSpec}. */
  public static final class Builder {
    private final int servers;
    private final int nicsPerServer;
    private final LinkSpec hostLink;
    private int serversPerLeaf;
    private int spines;
    private LinkSpec spineLink;
    private LinkSpec serverSwitchLink;

    private Builder(int servers, int nicsPerServer, LinkSpec hostLink) {
      this.servers = servers;
      this.nicsPerServer = nicsPerServer;
      this.hostLink = hostLink;
      this.serversPerLeaf = servers;
    }

    /** P: servers under one rail leaf (default: all, one leaf per rail). */
    public Builder serversPerLeaf(int serversPerLeaf) {
      this.serversPerLeaf = serversPerLeaf;
      return this;
    }

    /** {@code spines} spines, each cabled to every rail leaf by {@code spineLink}. */
    public Builder spines(int spines, LinkSpec spineLink) {
      this.spines = spines;
      this.spineLink = spineLink;
      return this;
    }

    /** A server switch in every server, each GPU cabled to it by {@code link}; null: none. */
    public Builder serverSwitch(LinkSpec link) {
      this.serverSwitchLink = link;
      return this;
    }

    public RailLeafSpineSpec build() {
      return new RailLeafSpineSpec(servers, nicsPerServer, serversPerLeaf, spines, hostLink, spineLink,
          serverSwitchLink);
    }
  }

  @Override
  public String configName() {
    return CONFIG_NAME;
  }

  /** {@code servers * nicsPerServer} (saturating at {@link Integer#MAX_VALUE}; {@link #build()} rejects that). */
  @Override
  public int hosts() {
    return Topologies.saturatedProduct(servers, nicsPerServer, 1);
  }

  /** Whether every server has a server switch joining its GPUs. */
  public boolean hasServerSwitch() {
    return serverSwitchLink != null;
  }

  /** The GPU-to-server-switch link; empty without a server switch. */
  public Optional<LinkSpec> serverSwitch() {
    return Optional.ofNullable(serverSwitchLink);
  }

  /** Groups of {@code serversPerLeaf} servers, each with one leaf per rail (rounded up, for counts of bad specs). */
  public int groups() {
    return serversPerLeaf < 1 ? 0 : (servers + serversPerLeaf - 1) / serversPerLeaf;
  }

  /** Rail leaves: one per rail per group. */
  public long leaves() {
    return (long) groups() * nicsPerServer;
  }

  /** The host of GPU (NIC) {@code nic} of server {@code server}. */
  public int host(int server, int nic) {
    return server * nicsPerServer + nic;
  }

  /**
   * The fabric; see the class comment for its numbering.
   *
   * @throws IllegalArgumentException naming the kind, the parameter and the value when a field is out of range or the
   *     fields do not fit together
   */
  @Override
  public Topology build() {
    String kind = CONFIG_NAME;
    requireAtLeast("servers", servers, 1);
    requireAtLeast("nics-per-server", nicsPerServer, 1);
    requireAtLeast("servers-per-leaf", serversPerLeaf, 1);
    requireAtLeast("spines", spines, 0);
    if (servers % serversPerLeaf != 0) {
      throw new IllegalArgumentException(kind + " needs servers (" + servers + ") to be a multiple of servers-per-leaf"
          + " (" + serversPerLeaf + ")");
    }
    long hostCount = (long) servers * nicsPerServer;
    if (hostCount > Topologies.MAX_ROUTER_NODES) {
      throw new IllegalArgumentException(kind + " of " + servers + " servers x " + nicsPerServer + " NICs is too"
          + " large: at most " + Topologies.MAX_ROUTER_NODES + " hosts");
    }
    int groups = servers / serversPerLeaf;
    if (spines == 0 && groups > 1) {
      throw new IllegalArgumentException(kind + " with 0 spines needs a single group of servers, but " + servers
          + " servers at " + serversPerLeaf + " per leaf make " + groups);
    }
    if (spines == 0 && nicsPerServer > 1 && !hasServerSwitch()) {
      throw new IllegalArgumentException(kind + " with 0 spines and no server switch leaves its " + nicsPerServer
          + " rails unconnected to each other");
    }
    requireLink("host link", hostLink);
    if (spines > 0) requireLink("spine link", spineLink);
    if (hasServerSwitch()) requireLink("server-switch link", serverSwitchLink);

    int hosts = (int) hostCount;
    int rails = nicsPerServer;
    int leaves = groups * rails;
    TopologyBuilder b = new TopologyBuilder();
    for (int h = 0; h < hosts; h++) b.addHost("host" + h);
    int firstLeaf = hosts;
    for (int g = 0; g < groups; g++) {
      for (int r = 0; r < rails; r++) b.addSwitch("leaf" + g + "." + r, Tier.TOR);
    }
    int firstSpine = firstLeaf + leaves;
    for (int s = 0; s < spines; s++) b.addSwitch("spine" + s, Tier.SPINE);
    int firstServerSwitch = firstSpine + spines;
    if (hasServerSwitch()) {
      for (int s = 0; s < servers; s++) b.addSwitch("nvswitch" + s, Tier.NONE);
      // First: that makes each GPU's port 0 its server switch's, and a server switch's ports its GPUs in order.
      for (int h = 0; h < hosts; h++) b.connect(h, firstServerSwitch + h / rails, serverSwitchLink);
    }
    // Hosts in order: a leaf's NIC ports are its servers in server order, before any spine port.
    for (int h = 0; h < hosts; h++) b.connect(h, firstLeaf + leafOf(h), hostLink);
    for (int l = 0; l < leaves; l++) {
      for (int s = 0; s < spines; s++) b.connect(firstLeaf + l, firstSpine + s, spineLink);
    }
    return b.build(kind + ": " + count(servers, "server") + " x " + count(rails, "NIC") + " (" + hosts + " hosts), "
        + count(leaves, "rail leaf") + " (" + count(serversPerLeaf, "server") + " each), " + count(spines, "spine")
        + (hasServerSwitch() ? ", a server switch per server" : ""));
  }

  /** The rail leaf (0-based, among the leaves) of host {@code host}: its group's leaf of its rail. */
  private int leafOf(int host) {
    return host / nicsPerServer / serversPerLeaf * nicsPerServer + host % nicsPerServer;
  }

  /**
   * Routes from the numbering ({@link RailLeafSpineRouting}): within a server through its server switch; else on the
   * rail, up through the spines (ECMP) when the rails or groups differ, never through another GPU while there are
   * spines.
   */
  @Override
  public RoutingTable routing(Topology topology) {
    return RailLeafSpineRouting.of(topology, servers, nicsPerServer, serversPerLeaf, spines, hasServerSwitch());
  }

  /** The rail leaves, the spines and the server switches, as built. */
  @Override
  public long switchCount() {
    return leaves() + spines + (hasServerSwitch() ? servers : 0);
  }

  /** A cable per NIC, one per GPU to its server switch, and one from every rail leaf to every spine. */
  @Override
  public long cableCount() {
    long hosts = (long) servers * nicsPerServer;
    return hosts * (hasServerSwitch() ? 2 : 1) + leaves() * spines;
  }

  /**
   * Two links to a partner reached through one switch (the server switch, or a shared rail leaf), four through a
   * spine. A ring's neighbours share a server but for one in R, so with a server switch they are two links apart,
   * the server's last GPU four from the next server's first (another rail); without it, every neighbour of more
   * than one rail is on another rail, four links away. One rail is a plain leaf-spine.
   */
  @Override
  public double meanLinkHops(boolean neighbours) {
    double hosts = (double) servers * nicsPerServer;
    if (nicsPerServer == 1) {
      double away = servers <= serversPerLeaf ? 0 : neighbours ? 1.0 / serversPerLeaf
          : 1 - (double) serversPerLeaf / servers;
      return 2 + 2 * away;
    }
    if (hasServerSwitch()) {
      return neighbours ? 2 + 2.0 / nicsPerServer : 4 - 2 * (nicsPerServer + serversPerLeaf - 1) / hosts;
    }
    return neighbours ? 4 : 4 - 2 * serversPerLeaf / hosts;
  }

  /**
   * A server's GPUs when it has a server switch (their NVLink traffic, the heaviest, then stays on one member), else a
   * rail leaf's NICs: the automatic placement keeps together the hosts of the switch each host's first port reaches.
   */
  @Override
  public int hostsPerPlacementGroup() {
    return hasServerSwitch() ? nicsPerServer : Math.min(servers, serversPerLeaf);
  }

  /** R: a server's GPUs, which NCCL's tree chains inside the server. */
  @Override
  public int hostsPerServer() {
    return nicsPerServer;
  }

  /** R with a server switch (NVLink between a server's GPUs), else 0: their traffic to each other crosses PCIe. */
  @Override
  public int gpuDirectHostsPerServer() {
    return hasServerSwitch() ? nicsPerServer : 0;
  }

  private static void requireAtLeast(String parameter, int value, int min) {
    if (value < min) {
      throw new IllegalArgumentException(CONFIG_NAME + " needs " + parameter + " >= " + min + ", got " + value);
    }
  }

  private static void requireLink(String role, LinkSpec link) {
    if (link == null) throw new IllegalArgumentException(CONFIG_NAME + " needs a " + role + " spec, got none");
    if (link.bandwidthBitsPerSecond() <= 0 || link.latencyPs() <= 0) {
      throw new IllegalArgumentException(CONFIG_NAME + " " + role + " needs positive bandwidth and latency, got "
          + link.bandwidthBitsPerSecond() + " bit/s and " + link.latencyPs() + " ps");
    }
  }

  private static String count(long n, String noun) {
    String plural = noun.endsWith("leaf") ? noun.substring(0, noun.length() - 1) + "ves" : noun + "s";
    return n + " " + (n == 1 ? noun : plural);
  }
}
