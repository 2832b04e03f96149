package io.fabemu.core.routing;

/**
 * Routes of a rail-optimized leaf-spine ({@code RailLeafSpineSpec}) computed from its numbering, in constant time per
 * lookup and O(spines + servers per leaf) memory: within a server through its server switch; to another server on
 * the same rail through the rail leaf (and the spines when the groups differ); to another rail up through the
 * spines (ECMP over all of them, as {@link LeafSpineRouting}) and down the destination's rail. While there are spines
 * no packet crosses another GPU.
 *
 * <p>Numbering ({@code RailLeafSpineSpec}'s): S servers of R GPUs, P servers per rail leaf, G = S / P groups; host
 * {@code server * R + rail} ({@code H = S*R} hosts); leaf {@code l = group * R + rail} is vertex {@code H + l}; spine
 * {@code s} is vertex {@code H + G*R + s}; server switch {@code k} (when there are any) vertex
 * {@code H + G*R + spines + k}. A host's ports: with a server switch 0 to it and 1 to its rail leaf, else 0 to its
 * rail leaf. A leaf's ports: {@code i < P} to NIC {@code rail} of server {@code group * P + i}, then the spines in
 * order; a spine's port {@code l} to leaf {@code l}; a server switch's port {@code r} to its GPU {@code r}.
 *
 * <p>These are shortest paths, and where the graph has no shortcut through a GPU they are all of them, port array
 * for port array ({@link ShortestPathTable}'s, tested so). With a server switch the graph has such shortcuts of the
 * same length, which this routing leaves out: a GPU on another rail than the destination's, in the destination's
 * group, could also go through its server switch to its server's GPU on that rail (PXN's path), and a rail leaf
 * could go down to the destination's server on its own rail and across that server's switch. With no spine (one
 * group, allowed only with a server switch or one rail) there is no other way between rails: a packet for another
 * rail crosses its source's server switch to the GPU on the destination's rail, then that rail (a leaf on another
 * rail, which never sees such a packet, would send it down to the destination's server).
 */
public final class RailLeafSpineRouting extends RoutingTable {

  private final int rails;
  private final int serversPerLeaf;
  private final int spines;
  private final boolean serverSwitch;
  private final int firstLeaf;
  private final int firstSpine;
  private final int firstServerSwitch;
  /** A host's port to its rail leaf: after its server switch's, when it has one. */
  private final int leafPort;
  /** {@code [p]} for every port number a single-port route can use. */
  private final int[][] singlePort;
  /** A leaf's spine ports (from port {@code serversPerLeaf}). */
  private final int[] spinePorts;

  private RailLeafSpineRouting(PortGraph graph, int servers, int rails, int serversPerLeaf, int spines,
                               boolean serverSwitch) {
    super(servers * rails, servers * rails + servers / serversPerLeaf * rails + spines
        + (serverSwitch ? servers : 0));
    this.rails = rails;
    this.serversPerLeaf = serversPerLeaf;
    this.spines = spines;
    this.serverSwitch = serverSwitch;
    int hosts = servers * rails;
    int leaves = servers / serversPerLeaf * rails;
    this.firstLeaf = hosts;
    this.firstSpine = hosts + leaves;
    this.firstServerSwitch = firstSpine + spines;
    this.leafPort = serverSwitch ? 1 : 0;
    String routing = "rail-leaf-spine routing of " + servers + " servers x " + rails + " NICs, " + serversPerLeaf
        + " per leaf, " + spines + " spines" + (serverSwitch ? ", server switches" : "");
    requireShape(graph, routing, hosts, vertexCount());
    // Vertex counts alone can agree for other shapes: check the ports of a host, a leaf and a spine.
    int leafPorts = serversPerLeaf + spines;
    if (graph.portCount(0) != leafPort + 1 || graph.portCount(firstLeaf) != leafPorts
        || spines > 0 && graph.portCount(firstSpine) != leaves) {
      throw new IllegalArgumentException(routing + " expects " + (leafPort + 1) + " ports on a host, " + leafPorts
          + " on a leaf and " + leaves + " on a spine, but " + graph.description() + " has " + graph.portCount(0)
          + ", " + graph.portCount(firstLeaf) + " and " + (spines > 0 ? graph.portCount(firstSpine) : 0));
    }
    this.singlePort = singletons(Math.max(Math.max(serversPerLeaf, leaves), Math.max(rails, 2)));
    this.spinePorts = new int[spines];
    for (int s = 0; s < spines; s++) spinePorts[s] = serversPerLeaf + s;
  }

  /**
   * The routes of {@code graph}, which {@code RailLeafSpineSpec} of these parameters built.
   *
   * @throws IllegalArgumentException if {@code graph} does not have the vertices and ports those parameters give
   */
  public static RailLeafSpineRouting of(PortGraph graph, int servers, int rails, int serversPerLeaf, int spines,
                                        boolean serverSwitch) {
    return new RailLeafSpineRouting(graph, servers, rails, serversPerLeaf, spines, serverSwitch);
  }

  @Override
  int[] ports(int vertex, int destinationHost) {
    int destinationServer = destinationHost / rails;
    int destinationRail = destinationHost % rails;
    if (vertex < firstLeaf) {
      if (vertex == destinationHost) return NO_PORTS;
      if (!serverSwitch) return singlePort[0];
      int server = vertex / rails;
      if (server == destinationServer) return singlePort[0];
      // Another server: on the own rail while there are spines (or the rails agree), else across the server switch.
      return vertex % rails == destinationRail || spines > 0 ? singlePort[leafPort] : singlePort[0];
    }
    if (vertex < firstSpine) {
      int leaf = vertex - firstLeaf;
      int destinationGroup = destinationServer / serversPerLeaf;
      int positionInLeaf = destinationServer % serversPerLeaf;
      if (leaf == destinationGroup * rails + destinationRail) return singlePort[positionInLeaf];
      // Without spines (one group) only the destination's server switch joins the rails: down to that server.
      return spines > 0 ? spinePorts : singlePort[positionInLeaf];
    }
    if (vertex < firstServerSwitch) {
      return singlePort[destinationServer / serversPerLeaf * rails + destinationRail];
    }
    // A server switch: its GPU on the destination's rail (the destination itself in its own server).
    return singlePort[destinationRail];
  }

  @Override
  int neighbour(int vertex, int port) {
    if (vertex < firstLeaf) {
      int server = vertex / rails;
      if (serverSwitch && port == 0) return firstServerSwitch + server;
      return firstLeaf + server / serversPerLeaf * rails + vertex % rails;
    }
    if (vertex < firstSpine) {
      int leaf = vertex - firstLeaf;
      if (port >= serversPerLeaf) return firstSpine + port - serversPerLeaf;
      return (leaf / rails * serversPerLeaf + port) * rails + leaf % rails;
    }
    if (vertex < firstServerSwitch) return firstLeaf + port;
    return (vertex - firstServerSwitch) * rails + port;
  }
}
