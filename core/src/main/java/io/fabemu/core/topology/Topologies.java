package io.fabemu.core.topology;

import io.fabemu.core.optical.Circuit;
import io.fabemu.core.optical.ConnectionPolicy;
import io.fabemu.core.topology.Topology.Tier;
import java.util.List;

/**
 * Builders for the fabrics a scenario can name: a two-tier leaf-spine (Clos) network, the direct networks line,
 * ring and full mesh, the prism, the optical full interconnect, and the router networks mesh, torus and group-ring.
 * Each kind's {@link TopologySpec} record builds through its builder here.
 *
 * <p>Every builder numbers vertices the way {@link Topology} requires: hosts {@code host0..} first (so a host's
 * vertex id is its host index), then switches. In the direct networks there are no switches and the hosts forward
 * transit traffic themselves. Bad arguments are rejected with an {@link IllegalArgumentException} whose message
 * names the topology kind, the parameter and the offending value.
 *
 * <p>Router networks (mesh, torus, group-ring) put a router in every node, numbered as
 * {@code io.fabemu.core.routing.RouterRouting} requires: hosts {@code host0..host(n-1)}, then routers
 * {@code router0..router(n-1)} (switches of {@link Tier#NONE}), router vertex {@code n + h} being host {@code h}'s.
 * Every host is cabled to its router first, so a host's only port (0) leads to its router and every router's port 0
 * (the routing's {@code LOCAL_PORT}) to its host; the router-router cables follow, in the order each builder states,
 * which fixes every router's port order.
 */
public final class Topologies {

  /**
   * Most nodes a router network may have: its fabric has 3 devices per node (NIC, router, compute node), all
   * numbered by {@code int}.
   */
  static final int MAX_ROUTER_NODES = Integer.MAX_VALUE / 3;

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

  /**
   * The patent's prism (see {@link PrismSpec} and docs/prism.md): {@code layers} layers of {@code nodesPerLayer}
   * hosts, host {@code layer * nodesPerLayer + position}. In every layer, neighbours {@code position} and
   * {@code position + 1 (mod nodesPerLayer)} are joined by {@link PrismSpec#INTRA_LAYER_LINKS} parallel links, or
   * {@link PrismSpec#END_LAYER_LINKS} in the two end layers (layer 0 and the last); corresponding nodes of adjacent
   * layers by {@link PrismSpec#INTER_LAYER_LINKS} parallel links. Every node thus has 8 ports.
   *
   * <p>Cabling order: layer by layer, each layer's intra-layer links (positions in order, each to its next, all
   * parallel links of a pair together), then the inter-layer links up to the next layer (positions in order). So a
   * node's ports are: its links down to the previous layer (none in layer 0), its intra-layer links to the previous
   * position then to the next (position 0: to the next, then to the previous, cabled last in its layer), then its
   * links up to the next layer (none in the last). The host-host links are the only links: no switches.
   *
   * @param nodesPerLayer hosts in each layer, at least 3
   * @param layers        number of layers, at least 2
   * @param intraLayer    links within a layer
   * @param interLayer    links between layers
   */
  public static Topology prism(int nodesPerLayer, int layers, LinkSpec intraLayer, LinkSpec interLayer) {
    String kind = PrismSpec.CONFIG_NAME;
    requireAtLeast(kind, "nodes-per-layer", nodesPerLayer, 3);
    requireAtLeast(kind, "layers", layers, 2);
    long nodes = (long) nodesPerLayer * layers;
    if (nodes > MAX_ROUTER_NODES) {
      throw new IllegalArgumentException(kind + " of " + nodesPerLayer + " x " + layers + " is too large: at most "
          + MAX_ROUTER_NODES + " nodes");
    }
    requireLink(kind, "intra-layer link", intraLayer);
    requireLink(kind, "inter-layer link", interLayer);
    TopologyBuilder b = new TopologyBuilder();
    for (int h = 0; h < nodes; h++) b.addHost("host" + h);
    for (int layer = 0; layer < layers; layer++) {
      boolean end = layer == 0 || layer == layers - 1;
      int parallel = end ? PrismSpec.END_LAYER_LINKS : PrismSpec.INTRA_LAYER_LINKS;
      int first = layer * nodesPerLayer;
      for (int p = 0; p < nodesPerLayer; p++) {
        for (int k = 0; k < parallel; k++) b.connect(first + p, first + (p + 1) % nodesPerLayer, intraLayer);
      }
      if (layer + 1 < layers) {
        for (int p = 0; p < nodesPerLayer; p++) {
          for (int k = 0; k < PrismSpec.INTER_LAYER_LINKS; k++) {
            b.connect(first + p, first + nodesPerLayer + p, interLayer);
          }
        }
      }
    }
    return b.build(kind + ": " + layers + " layers of " + nodesPerLayer + " (" + nodes + " hosts)",
        new NodeGrid(nodesPerLayer, layers, 1));
  }

  /**
   * The optical full interconnect of the optical patent (see {@link OpticalSpec} and docs/optical.md): M servers of N NPUs,
   * M and N those of {@code policy}. Every NPU is a host, {@code host = server * N + npu} (names {@code host0..}); with
   * a server switch, switch {@code switch<s>} of server {@code s} is vertex {@code M * N + s} (a switch outside any
   * tier). Inside a server, a full mesh joins every pair of NPUs, or a switch joins each NPU by one link; every
   * circuit of {@code policy} is one direct link between its two NPUs (same plane, servers {@code serverA} and
   * {@code serverB}) with the optical link's rate and latency.
   *
   * <p>Cabling order: server by server, its intra-server links (full mesh: pairs in order, each NPU to the later
   * ones; switch: NPU 0 .. N-1 to the switch), then the circuits in the policy's order. So a host's ports are its
   * intra-server ports first (full mesh: {@code 0 .. N-2}, port {@code p} to NPU {@code p < npu ? p : p + 1} of its
   * server; switch: port 0 to the switch), then its circuit, if it has one (port {@code N - 1}, or 1 with a switch);
   * a server switch's port {@code d} goes to NPU {@code d}.
   *
   * @param policy          the circuits, and M and N
   * @param intraServer     full mesh or a server switch
   * @param intraServerLink every intra-server link
   * @param opticalLink     every circuit
   */
  public static Topology optical(ConnectionPolicy policy, OpticalSpec.IntraServer intraServer,
                                 LinkSpec intraServerLink, LinkSpec opticalLink) {
    return optical(List.of(policy), intraServer, intraServerLink, opticalLink);
  }

  /**
   * The optical cluster of a run whose connection policy changes ({@code topology.ocs.reconfigure}): as
   * {@link #optical(ConnectionPolicy, OpticalSpec.IntraServer, LinkSpec, LinkSpec)}, with a link for every circuit
   * of any of {@code policies} (the union: a circuit in several policies is one link). Each NPU has one optical port
   * in the machine; here each circuit it takes part in during the run is a link of its own, and the OCS controller
   * keeps every one that is not up holding (docs/optical.md, "The OCS controller"). Cabling order: as for one
   * policy, then the circuits of the first policy in its order, then those of each later policy that no earlier one
   * has; so a host's circuit ports follow its intra-server ports in the order its circuits first appear. With one
   * policy this is exactly the one-policy cluster.
   *
   * @param policies        the run's policies, the initial first; all of the same M and N
   * @param intraServer     full mesh or a server switch
   * @param intraServerLink every intra-server link
   * @param opticalLink     every circuit
   */
  public static Topology optical(List<ConnectionPolicy> policies, OpticalSpec.IntraServer intraServer,
                                 LinkSpec intraServerLink, LinkSpec opticalLink) {
    String kind = OpticalSpec.CONFIG_NAME;
    if (policies.isEmpty()) throw new IllegalArgumentException(kind + " needs a connection policy, got none");
    ConnectionPolicy policy = policies.get(0);
    int servers = policy.servers();
    int npus = policy.npusPerServer();
    for (ConnectionPolicy other : policies) {
      if (other.servers() != servers || other.npusPerServer() != npus) {
        throw new IllegalArgumentException(kind + ": every policy of a run must be for " + servers + " servers x "
            + npus + " NPUs, got " + other.summary());
      }
    }
    long hosts = (long) servers * npus;
    if (hosts > MAX_ROUTER_NODES) {
      throw new IllegalArgumentException(kind + " of " + servers + " servers x " + npus + " NPUs is too large: at"
          + " most " + MAX_ROUTER_NODES + " NPUs");
    }
    if (intraServer == null) throw new IllegalArgumentException(kind + " needs an intra-server kind, got none");
    requireLink(kind, "intra-server link", intraServerLink);
    requireLink(kind, "optical link", opticalLink);
    boolean serverSwitch = intraServer == OpticalSpec.IntraServer.SWITCH;
    TopologyBuilder b = new TopologyBuilder();
    for (int h = 0; h < hosts; h++) b.addHost("host" + h);
    if (serverSwitch) {
      for (int s = 0; s < servers; s++) b.addSwitch("switch" + s, Tier.NONE);
    }
    for (int s = 0; s < servers; s++) {
      int first = s * npus;
      for (int d = 0; d < npus; d++) {
        if (serverSwitch) {
          b.connect(first + d, (int) hosts + s, intraServerLink);
        } else {
          for (int e = d + 1; e < npus; e++) b.connect(first + d, first + e, intraServerLink);
        }
      }
    }
    for (Circuit c : ConnectionPolicy.unionOfCircuits(policies)) {
      b.connect(c.serverA() * npus + c.plane(), c.serverB() * npus + c.plane(), opticalLink);
    }
    StringBuilder description = new StringBuilder(kind + ": " + count(servers, "server") + " x " + count(npus, "NPU")
        + " (" + hosts + " hosts), intra-server " + (serverSwitch ? "switch" : "full mesh") + "; " + policy.summary());
    for (int i = 1; i < policies.size(); i++) description.append("; then ").append(policies.get(i).summary());
    // A server switch serves all its NPUs, so that cluster is placed by its switches (as TORs), not as a grid.
    return serverSwitch ? b.build(description.toString())
        : b.build(description.toString(), new NodeGrid(npus, servers, 1));
  }

  /**
   * A mesh of {@code sizeX x sizeY x sizeZ} nodes ({@code sizeZ == 1}: a 2-D mesh), each a host and a router; the
   * routers are cabled to their neighbours along X, Y and Z. Node (host) index {@code x + sizeX * (y + sizeY * z)}.
   *
   * <p>Cabling order: hosts to routers, then every X cable (nodes in index order, each to its +X neighbour), then
   * every Y cable, then every Z cable. So a router's ports are 0 = its host, then, per dimension in order X, Y, Z,
   * the cable to its -d neighbour then the one to its +d neighbour, each only where it exists (a node on a face of
   * the mesh lacks one): an interior node of a 3-D mesh has {@code 0=host, 1=-X, 2=+X, 3=-Y, 4=+Y, 5=-Z, 6=+Z}.
   *
   * @param sizeX nodes along X, at least 2
   * @param sizeY nodes along Y, at least 2
   * @param sizeZ nodes along Z: 1 for a 2-D mesh, else at least 2
   * @param link  every cable, host-router and router-router
   */
  public static Topology mesh(int sizeX, int sizeY, int sizeZ, LinkSpec link) {
    return grid(MeshSpec.CONFIG_NAME, sizeX, sizeY, sizeZ, link, false);
  }

  /**
   * A torus: the mesh of {@link #mesh} with, in every dimension of at least 3 nodes, a wrap-around cable from the
   * node at coordinate {@code size - 1} to the one at coordinate 0. A dimension of exactly 2 nodes gets a single
   * cable between them, as {@link #ring} of 2 hosts does: its wrap-around cable would duplicate it (so such a
   * dimension is a mesh's).
   *
   * <p>Cabling order: as the mesh's, the wrap-around cable of a node at coordinate {@code size - 1} being cabled in
   * that node's turn. So per dimension a router's ports are the -d then the +d cable, except at coordinate 0 of a
   * dimension with a wrap-around cable, where the +d cable comes first (its -d cable is the wrap-around, cabled
   * later); a dimension of 2 nodes gives its routers one port (to the other node). With every dimension at least 3,
   * a router has ports {@code 0=host}, then 2 per dimension: {@code 1, 2} for X, {@code 3, 4} for Y, {@code 5, 6}
   * for Z, in the order just stated.
   *
   * @param sizeX nodes along X, at least 2
   * @param sizeY nodes along Y, at least 2
   * @param sizeZ nodes along Z: 1 for a 2-D torus, else at least 2
   * @param link  every cable, host-router and router-router
   */
  public static Topology torus(int sizeX, int sizeY, int sizeZ, LinkSpec link) {
    return grid(TorusSpec.CONFIG_NAME, sizeX, sizeY, sizeZ, link, true);
  }

  private static Topology grid(String kind, int sizeX, int sizeY, int sizeZ, LinkSpec link, boolean wrap) {
    requireAtLeast(kind, "size-x", sizeX, 2);
    requireAtLeast(kind, "size-y", sizeY, 2);
    if (sizeZ < 1) {
      throw new IllegalArgumentException(kind + " needs size-z >= 1 (1 for a 2-D " + kind + "), got " + sizeZ);
    }
    String shape = sizeX + "x" + sizeY + (sizeZ == 1 ? "" : "x" + sizeZ);
    int nodes = routerNodeCount(kind, shape, sizeX, sizeY, sizeZ);
    requireLink(kind, "link", link);
    TopologyBuilder b = routerNodes(nodes, link);
    int[] sizes = {sizeX, sizeY, sizeZ};
    int stride = 1;
    for (int size : sizes) {
      for (int node = 0; node < nodes; node++) {
        int coordinate = node / stride % size;
        if (coordinate + 1 < size) {
          b.connect(nodes + node, nodes + node + stride, link);
        } else if (wrap && size >= 3) {
          b.connect(nodes + node, nodes + node - (size - 1) * stride, link);
        }
      }
      stride *= size;
    }
    return b.build(kind + ": " + shape + " (" + nodes + " nodes, each a host and a router)",
        new NodeGrid(sizeX, sizeY, sizeZ));
  }

  /**
   * The group-ring of the patent's parallel computer: {@code groups} groups of {@code nodesPerGroup} nodes, each a
   * host and a router; inside a group every pair of routers is cabled (a full mesh), and between groups the routers
   * at the same index form a ring, one per index (with 2 groups a single cable per index, with 3 or more a cycle).
   * Node (host) index {@code group * nodesPerGroup + index}.
   *
   * <p>Cabling order: hosts to routers; then each group's full mesh (group by group, pairs in order); then the rings
   * (group by group, each router to the same index in the next group, the last group's closing the ring). So router
   * {@code (g, i)} has ports 0 = its host, then {@code 1 .. nodesPerGroup-1} to the other routers of its group in
   * index order (index {@code j} on port {@code 1 + (j < i ? j : j - 1)}), then its ring ports: with 3 or more groups
   * port {@code nodesPerGroup} to the previous group and {@code nodesPerGroup + 1} to the next, except in group 0,
   * where port {@code nodesPerGroup} goes to group 1 and {@code nodesPerGroup + 1} to the last group (the closing
   * cable is cabled last); with 2 groups the single port {@code nodesPerGroup} to the other group.
   *
   * @param groups        number of groups, at least 2 (so there is a ring)
   * @param nodesPerGroup nodes in each group, at least 1
   * @param link          every cable, host-router and router-router
   */
  public static Topology groupRing(int groups, int nodesPerGroup, LinkSpec link) {
    String kind = GroupRingSpec.CONFIG_NAME;
    requireAtLeast(kind, "groups", groups, 2);
    requireAtLeast(kind, "nodes-per-group", nodesPerGroup, 1);
    int nodes = routerNodeCount(kind, groups + " groups of " + nodesPerGroup, groups, nodesPerGroup, 1);
    requireLink(kind, "link", link);
    TopologyBuilder b = routerNodes(nodes, link);
    for (int g = 0; g < groups; g++) {
      int first = nodes + g * nodesPerGroup;
      for (int a = 0; a < nodesPerGroup; a++) {
        for (int c = a + 1; c < nodesPerGroup; c++) b.connect(first + a, first + c, link);
      }
    }
    for (int g = 0; g < groups; g++) {
      if (g + 1 == groups && groups == 2) break; // a ring of 2 is one cable per index, already made
      int next = (g + 1) % groups;
      for (int i = 0; i < nodesPerGroup; i++) {
        b.connect(nodes + g * nodesPerGroup + i, nodes + next * nodesPerGroup + i, link);
      }
    }
    return b.build(kind + ": " + groups + " groups of " + nodesPerGroup + " (" + nodes
        + " nodes, each a host and a router)", new NodeGrid(nodesPerGroup, groups, 1));
  }

  /** The product of router-network sizes, all already at least 1; rejected when over {@link #MAX_ROUTER_NODES}. */
  private static int routerNodeCount(String kind, String shape, int a, int b, int c) {
    long product = (long) a * b;
    if (product <= MAX_ROUTER_NODES) product *= c;
    if (product > MAX_ROUTER_NODES) {
      throw new IllegalArgumentException(kind + " of " + shape + " is too large: at most " + MAX_ROUTER_NODES
          + " nodes");
    }
    return (int) product;
  }

  /**
   * The product of a spec's sizes for its {@code hosts()}, before {@code build()} has checked them: saturates at
   * {@link Integer#MAX_VALUE} rather than wrapping, so an oversized spec never looks small.
   */
  static int saturatedProduct(int a, int b, int c) {
    long product = (long) a * b;
    if (Math.abs(product) > Integer.MAX_VALUE) return Integer.MAX_VALUE;
    product *= c;
    return Math.abs(product) > Integer.MAX_VALUE ? Integer.MAX_VALUE : (int) product;
  }

  /** Hosts, then their routers, each host cabled to its router (host port 0, router port 0). */
  private static TopologyBuilder routerNodes(int nodes, LinkSpec link) {
    TopologyBuilder b = new TopologyBuilder();
    for (int h = 0; h < nodes; h++) b.addHost("host" + h);
    for (int h = 0; h < nodes; h++) b.addSwitch("router" + h, Tier.NONE);
    for (int h = 0; h < nodes; h++) b.connect(h, nodes + h, link);
    return b;
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
