package io.fabemu.core.routing;

/**
 * Routes of a full mesh computed from its numbering, in constant time and O(hosts) memory: every host straight to
 * the destination; the same port arrays as {@link ShortestPathTable} computes for that topology.
 *
 * <p>Numbering (that of {@code Topologies.fullMesh}): host {@code v}'s port {@code p} goes to host
 * {@code p < v ? p : p + 1}, so the port to host {@code d} is {@code d < v ? d : d - 1}.
 */
public final class FullMeshRouting extends RoutingTable {

  /** {@code [p]} for every port number: shared single-port sets. */
  private final int[][] singlePort;

  private FullMeshRouting(int hosts) {
    super(hosts, hosts);
    this.singlePort = singletons(Math.max(hosts - 1, 0));
  }

  /**
   * The routes of {@code graph}, which {@code Topologies.fullMesh(hosts, ..)} built.
   *
   * @throws IllegalArgumentException if {@code graph} does not have {@code hosts} hosts and no switch
   */
  public static FullMeshRouting of(PortGraph graph, int hosts) {
    requireShape(graph, "full-mesh routing of " + hosts + " hosts", hosts, hosts);
    return new FullMeshRouting(hosts);
  }

  @Override
  int[] ports(int vertex, int destinationHost) {
    if (destinationHost == vertex) return NO_PORTS;
    return singlePort[destinationHost < vertex ? destinationHost : destinationHost - 1];
  }

  @Override
  int neighbour(int vertex, int port) {
    return port < vertex ? port : port + 1;
  }
}
