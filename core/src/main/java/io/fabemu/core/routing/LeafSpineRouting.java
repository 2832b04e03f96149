package io.fabemu.core.routing;

/**
 * Routes of a two-tier leaf-spine fabric computed from its numbering (up to the destination's TOR, through any
 * spine by ECMP, down), in constant time per lookup and O(TORs + hosts per TOR) memory, whatever the size: the
 * same port arrays, in the same order, as {@link ShortestPathTable} computes for that topology.
 *
 * <p>Numbering (that of {@code Topologies.leafSpine}): hosts {@code 0..H-1}, TORs {@code H..H+T-1} with
 * {@code T = ceil(H / hostsPerTor)}, spines after them. Host {@code h} hangs off TOR {@code h / hostsPerTor} by its
 * only port (0). A TOR's ports are its hosts in host order, then the spines in spine order; a spine's ports are the
 * TORs in TOR order. Every pair of vertices is joined by at most one cable, so there are no parallel links.
 *
 * <p>Next hops towards host {@code d} under TOR {@code t_d}: a host other than {@code d} sends on its only port; a
 * TOR {@code t_d} sends on {@code d}'s port; any other TOR (3 hops away) sends on every spine port, which are its
 * only neighbours 2 hops away (its own hosts are 4 away), already in neighbour order since spines are numbered and
 * cabled in order; a spine sends on {@code t_d}'s port. With no spine there is a single TOR (a star).
 */
public final class LeafSpineRouting extends RoutingTable {

  private final int hostsPerTor;
  private final int tors;
  private final int firstTor;
  private final int firstSpine;
  /** {@code [p]} for every port number a single-port route can use (a TOR's host port, a spine's TOR port). */
  private final int[][] singlePort;
  /** A full TOR's spine ports (from port {@code hostsPerTor}); every TOR but possibly the last. */
  private final int[] spinePorts;
  /** The last TOR's spine ports: it may have fewer hosts, so its spine ports start earlier. */
  private final int[] lastTorSpinePorts;

  private LeafSpineRouting(PortGraph graph, int hosts, int hostsPerTor, int spines) {
    super(hosts, hosts + ((hosts - 1) / hostsPerTor + 1) + spines);
    this.hostsPerTor = hostsPerTor;
    this.tors = (hosts - 1) / hostsPerTor + 1;
    this.firstTor = hosts;
    this.firstSpine = hosts + tors;
    String routing = "leaf-spine routing of " + hosts + " hosts, " + hostsPerTor + " per TOR, " + spines + " spines";
    requireShape(graph, routing, hosts, firstSpine + spines);
    // Vertex counts alone can agree for other shapes (64 hosts by 8 with 4 spines, by 16 with 8): check the ports.
    int firstTorPorts = Math.min(hosts, hostsPerTor) + spines;
    if (graph.portCount(firstTor) != firstTorPorts || spines > 0 && graph.portCount(firstSpine) != tors) {
      throw new IllegalArgumentException(routing + " expects " + firstTorPorts + " ports on the first TOR and "
          + tors + " on each spine, but " + graph.description() + " has " + graph.portCount(firstTor) + " and "
          + (spines > 0 ? graph.portCount(firstSpine) : 0));
    }
    this.singlePort = singletons(Math.max(Math.min(hosts, hostsPerTor), tors));
    this.spinePorts = range(hostsPerTor, spines);
    int lastTorHosts = hosts - (tors - 1) * hostsPerTor;
    this.lastTorSpinePorts = lastTorHosts == hostsPerTor ? spinePorts : range(lastTorHosts, spines);
  }

  /**
   * The routes of {@code graph}, which {@code Topologies.leafSpine(hosts, hostsPerTor, spines, ..)} built.
   *
   * @throws IllegalArgumentException if {@code graph} does not have the vertices those parameters give
   */
  public static LeafSpineRouting of(PortGraph graph, int hosts, int hostsPerTor, int spines) {
    return new LeafSpineRouting(graph, hosts, hostsPerTor, spines);
  }

  private static int[] range(int first, int count) {
    int[] ports = new int[count];
    for (int i = 0; i < count; i++) ports[i] = first + i;
    return ports;
  }

  @Override
  int[] ports(int vertex, int destinationHost) {
    if (vertex < firstTor) return vertex == destinationHost ? NO_PORTS : singlePort[0];
    int destinationTor = destinationHost / hostsPerTor;
    if (vertex >= firstSpine) return singlePort[destinationTor];
    int tor = vertex - firstTor;
    if (tor == destinationTor) return singlePort[destinationHost - tor * hostsPerTor];
    return tor == tors - 1 ? lastTorSpinePorts : spinePorts;
  }

  @Override
  int neighbour(int vertex, int port) {
    if (vertex < firstTor) return firstTor + vertex / hostsPerTor;
    if (vertex >= firstSpine) return firstTor + port;
    int tor = vertex - firstTor;
    int torHosts = Math.min(hostsPerTor, hostCount() - tor * hostsPerTor);
    return port < torHosts ? tor * hostsPerTor + port : firstSpine + port - torHosts;
  }
}
