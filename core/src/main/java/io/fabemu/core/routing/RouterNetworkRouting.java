package io.fabemu.core.routing;

import java.util.Objects;

/**
 * A router network's {@link RouterRouting} as a {@link RoutingTable}, so the packet-level machinery (paths,
 * distances, per-flow egress) works on mesh, torus and group-ring fabrics: a host's only next hop is port 0, to its
 * router (none when it is the destination); a router's is the single port {@link RouterRouting#outputPort} chooses
 * ({@link RouterRouting#LOCAL_PORT} when the destination is its own host).
 *
 * <p>Unlike the other tables it lists one port, not every shortest-path port: a router network's deadlock freedom
 * rests on packets following exactly its routing (dimension order), and every routing it wraps is minimal, so
 * {@link #distance} is still the hop count of a shortest path. Constant time per lookup; it keeps the graph for
 * {@link #neighbour}, and one shared single-port array per port number.
 */
public final class RouterNetworkRouting extends RoutingTable {

  private final PortGraph graph;
  private final RouterRouting routing;
  /** {@code [p]} for every port number of the graph's vertices. */
  private final int[][] singlePort;

  private RouterNetworkRouting(PortGraph graph, RouterRouting routing, int maxPorts) {
    super(routing.hostCount(), 2 * routing.hostCount());
    this.graph = graph;
    this.routing = routing;
    this.singlePort = singletons(maxPorts);
  }

  /**
   * The routes of {@code graph} under {@code routing}, whose factory checked it against the graph.
   *
   * @throws IllegalArgumentException if {@code graph} does not have the routing's hosts and as many routers
   */
  public static RouterNetworkRouting of(PortGraph graph, RouterRouting routing) {
    Objects.requireNonNull(routing, "routing");
    int hosts = routing.hostCount();
    requireShape(graph, "router-network routing of " + hosts + " hosts", hosts, 2 * hosts);
    int maxPorts = 1;
    for (int v = 0; v < graph.vertexCount(); v++) maxPorts = Math.max(maxPorts, graph.portCount(v));
    return new RouterNetworkRouting(graph, routing, maxPorts);
  }

  /** The routing this table follows. */
  public RouterRouting routerRouting() {
    return routing;
  }

  @Override
  int[] ports(int vertex, int destinationHost) {
    if (vertex < hostCount()) return vertex == destinationHost ? NO_PORTS : singlePort[0];
    return singlePort[routing.outputPort(vertex, destinationHost)];
  }

  @Override
  int neighbour(int vertex, int port) {
    return graph.neighbour(vertex, port);
  }
}
