package io.fabemu.core.routing;

/**
 * Routes of a line of hosts computed from its numbering, in constant time and memory: the same port arrays as
 * {@link ShortestPathTable} computes for that topology. A line has exactly one path between two hosts.
 *
 * <p>Numbering (that of {@code Topologies.line}): host {@code i} is cabled to host {@code i + 1}; host 0's only
 * port (0) goes to host 1, every other host's port 0 goes to its left neighbour and port 1 (if any) to its right.
 */
public final class LineRouting extends RoutingTable {

  private static final int[] PORT_0 = {0};
  private static final int[] PORT_1 = {1};

  private LineRouting(int hosts) {
    super(hosts, hosts);
  }

  /**
   * The routes of {@code graph}, which {@code Topologies.line(hosts, ..)} built.
   *
   * @throws IllegalArgumentException if {@code graph} does not have {@code hosts} hosts and no switch
   */
  public static LineRouting of(PortGraph graph, int hosts) {
    requireShape(graph, "line routing of " + hosts + " hosts", hosts, hosts);
    return new LineRouting(hosts);
  }

  @Override
  int[] ports(int vertex, int destinationHost) {
    if (destinationHost == vertex) return NO_PORTS;
    // Leftwards is always port 0; rightwards is port 1, except at host 0, whose only port leads right.
    return destinationHost < vertex || vertex == 0 ? PORT_0 : PORT_1;
  }

  @Override
  int neighbour(int vertex, int port) {
    return vertex == 0 || port == 1 ? vertex + 1 : vertex - 1;
  }
}
