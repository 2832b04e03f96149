package io.fabemu.core.routing;

/**
 * Routes of a ring of hosts computed from its numbering, in constant time and memory: the shorter way round, both
 * ways (ECMP) to the antipode of an even ring; the same port arrays as {@link ShortestPathTable} computes for that
 * topology.
 *
 * <p>Numbering (that of {@code Topologies.ring}): the cables of a line, then one from the last host back to host 0.
 * Host 0's ports go to host 1 then the last host; the last host's to its left neighbour then host 0; every other
 * host's to its left then its right neighbour. So the port to the right (successor, {@code v + 1 mod n}) is 1 except
 * at host 0 (0), and the port to the left (predecessor) is 0 except at host 0 (1). Rings of 1 and 2 hosts are a
 * line (a second cable between two hosts would duplicate the first).
 */
public final class RingRouting extends RoutingTable {

  private static final int[] PORT_0 = {0};
  private static final int[] PORT_1 = {1};
  /** Both ways, sorted by neighbour id: the left neighbour first, except at the last host, whose right is host 0. */
  private static final int[] BOTH_LEFT_FIRST = {0, 1};
  private static final int[] BOTH_LAST_HOST = {1, 0};

  private final int hosts;

  private RingRouting(int hosts) {
    super(hosts, hosts);
    this.hosts = hosts;
  }

  /**
   * The routes of {@code graph}, which {@code Topologies.ring(hosts, ..)} built.
   *
   * @throws IllegalArgumentException if {@code graph} does not have {@code hosts} hosts and no switch
   */
  public static RingRouting of(PortGraph graph, int hosts) {
    requireShape(graph, "ring routing of " + hosts + " hosts", hosts, hosts);
    return new RingRouting(hosts);
  }

  @Override
  int[] ports(int vertex, int destinationHost) {
    if (destinationHost == vertex) return NO_PORTS;
    if (hosts <= 2) return PORT_0;
    int rightHops = Math.floorMod(destinationHost - vertex, hosts);
    int leftHops = hosts - rightHops;
    if (rightHops < leftHops) return vertex == 0 ? PORT_0 : PORT_1;
    if (leftHops < rightHops) return vertex == 0 ? PORT_1 : PORT_0;
    return vertex == hosts - 1 ? BOTH_LAST_HOST : BOTH_LEFT_FIRST;
  }

  @Override
  int neighbour(int vertex, int port) {
    if (hosts <= 2) return 1 - vertex;
    if (vertex == 0) return port == 0 ? 1 : hosts - 1;
    return port == 0 ? vertex - 1 : (vertex + 1) % hosts;
  }
}
