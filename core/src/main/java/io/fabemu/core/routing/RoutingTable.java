package io.fabemu.core.routing;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * Shortest-path (hop count) routing with equal-cost multipath, for every (vertex, destination host) of a fabric.
 *
 * <p>Contract: {@link #nextHopPorts} lists every egress port of a vertex whose link leads one hop closer to the
 * destination (on router networks only the routing's one port, see below), sorted ascending by the neighbour's
 * vertex id (parallel links to one neighbour by port number). {@link #egressPort} picks one of them with a
 * per-flow hash, so all packets of a flow take the same path (no reordering) while different flows spread over the
 * equal-cost paths. Every hop strictly decreases the distance, so routes are loop-free. Everything is
 * deterministic: the same topology always yields the same routes.
 *
 * <p>Implementations differ only in how they find the ports, never in the ports they return. Each topology kind
 * chooses its own ({@code TopologySpec.routing}): the structured kinds compute routes from their numbering in
 * constant time and at most O(vertices) memory ({@link LeafSpineRouting}, {@link LineRouting}, {@link RingRouting},
 * {@link FullMeshRouting}, {@link FatTreeRouting}); {@link #compute} builds the full table by breadth-first search
 * for any graph ({@link ShortestPathTable}), which is the reference the arithmetic ones are tested against, array for
 * array.
 *
 * <p>The exception: on a router network (mesh, torus, group-ring: a router in every node) the route is the one
 * deterministic port its {@link RouterRouting} chooses ({@link RouterNetworkRouting}; dimension order), not every
 * shortest-path port, because the network's deadlock freedom rests on packets following exactly that routing. Those
 * routings are minimal, so each hop still decreases the distance by one and {@link #distance} is the shortest-path
 * hop count; only the ECMP choice is gone (one port, whatever the flow hash).
 *
 * <p>The other exception: on the optical full interconnect (the optical patent) the route is the connection policy's, one
 * port per hop ({@link OpticalRouting}): to another server only over the circuit that joins the two servers, never
 * through a third server, though such a path may be as short or shorter. Each hop decreases the distance along that
 * route, and {@link #distance} is its hop count.
 *
 * <p>And on a rail-optimized leaf-spine with server switches ({@link RailLeafSpineRouting}) traffic between rails goes
 * up through the spines, never through another GPU, though the graph has paths as short through a server switch:
 * its ports are shortest-path ports, but not every one; {@link #distance} is the shortest-path hop count.
 *
 * <p>Instances are immutable and safe to share between threads. Arrays returned by {@link #nextHopPorts} are
 * shared internal state and must not be modified.
 */
public abstract sealed class RoutingTable implements RouteView
    permits ShortestPathTable, LeafSpineRouting, LineRouting, RingRouting, FullMeshRouting, RouterNetworkRouting,
    OpticalRouting, RailLeafSpineRouting, FatTreeRouting {

  static final int[] NO_PORTS = new int[0];

  private final int hostCount;
  private final int vertexCount;

  RoutingTable(int hostCount, int vertexCount) {
    this.hostCount = hostCount;
    this.vertexCount = vertexCount;
  }

  /**
   * Computes the routes of {@code graph} with one breadth-first search per destination host: a full table, for
   * graphs without a structure to compute routes from. Time grows with vertices x links, memory with switches x
   * hosts; see {@link ShortestPathTable}.
   *
   * @throws IllegalArgumentException if some vertex cannot reach some host (a disconnected topology), or a vertex
   *                                  would need more than 65,536 distinct next-hop port sets
   */
  public static RoutingTable compute(PortGraph graph) {
    return ShortestPathTable.compute(graph);
  }

  /**
   * The routes of {@code graph} around what is down: as {@link #compute}, with the ports {@code deadPorts[v][p]}
   * (either direction of a cable that is down, or every port of and into a device that is) on no route. A vertex cut
   * off from a host has no route to it: {@link #reachable} is false, {@link #nextHopPorts} empty. Every port that
   * works keeps its number, so devices swap tables without renumbering. A fault's management node computes one per
   * view of what is down.
   *
   * @param deadPorts per vertex, per port: whether it is down (a null row: none of the vertex's ports is)
   */
  public static RoutingTable computeAvoiding(PortGraph graph, boolean[][] deadPorts) {
    return ShortestPathTable.computeAvoiding(graph, deadPorts);
  }

  /** Whether a packet at {@code vertex} can reach {@code destinationHost} (true at the destination itself). */
  @Override
  public final boolean reachable(int vertex, int destinationHost) {
    return vertex == destinationHost || nextHopPorts(vertex, destinationHost).length > 0;
  }

  /** Whether {@code vertex} has the same next hops toward every host in both tables (of one fabric). */
  @Override
  public final boolean sameRoutesAt(int vertex, RouteView other) {
    RoutingTable that = (RoutingTable) other;
    for (int d = 0; d < hostCount(); d++) {
      if (vertex != d && !Arrays.equals(nextHopPorts(vertex, d), that.nextHopPorts(vertex, d))) return false;
    }
    return true;
  }

  /**
   * The egress ports of {@code vertex} on a shortest path to {@code destinationHost}, sorted by neighbour vertex
   * id (on a router network, the routing's one port); empty when {@code vertex} is the destination. The returned
   * array is shared: do not modify it.
   *
   * @throws IndexOutOfBoundsException if {@code vertex} is no vertex or {@code destinationHost} no host
   */
  public final int[] nextHopPorts(int vertex, int destinationHost) {
    Objects.checkIndex(destinationHost, hostCount);
    Objects.checkIndex(vertex, vertexCount);
    return ports(vertex, destinationHost);
  }

  /** {@link #nextHopPorts} for indices already checked. */
  abstract int[] ports(int vertex, int destinationHost);

  /** The vertex at the far end of port {@code port} of {@code vertex}, for {@link #path} and {@link #distance}. */
  abstract int neighbour(int vertex, int port);

  /**
   * The port a packet of the flow with {@code flowHash} leaves {@code vertex} by on its way to
   * {@code destinationHost}: {@code ports[floorMod(flowHash, ports.length)]} of {@link #nextHopPorts}.
   *
   * @throws IllegalArgumentException if {@code vertex} is the destination (there is no egress)
   */
  public final int egressPort(int vertex, int destinationHost, int flowHash) {
    int[] ports = nextHopPorts(vertex, destinationHost);
    if (ports.length == 1) return ports[0];
    if (ports.length == 0) {
      throw new IllegalArgumentException("vertex " + vertex + " is the destination host; it has no egress port");
    }
    return ports[Math.floorMod(flowHash, ports.length)];
  }

  /**
   * The port lane {@code lane} of the flow from {@code sourceHost} to {@code destinationHost} leaves {@code vertex}
   * by: {@link #egressPort} with the flow's {@link #flowHash} plus the lane, i.e. the lane-th equal-cost port after
   * the flow's own. The NICs forward by it, and reports use it to say which parallel link a ring's hop takes.
   */
  public final int laneEgressPort(int vertex, int sourceHost, int destinationHost, int lane) {
    int[] ports = nextHopPorts(vertex, destinationHost);
    if (ports.length == 0) {
      throw new IllegalArgumentException("vertex " + vertex + " is the destination host; it has no egress port");
    }
    // Reduced before the lane is added: hash + lane could overflow past Integer.MAX_VALUE and wrap two lanes onto
    // one port. Lane 0 is exactly egressPort's choice.
    int own = Math.floorMod(flowHash(sourceHost, destinationHost), ports.length);
    return ports[(own + Math.floorMod(lane, ports.length)) % ports.length];
  }

  /**
   * The ECMP hash of the flow from {@code sourceHost} to {@code destinationHost}: murmur3's 32-bit finalizer of
   * {@code sourceHost * 31 + destinationHost}. It depends on the flow only, never on the packet, so every packet of
   * a flow takes the same path and a flow is never reordered; the finalizer's avalanche spreads neighbouring flows
   * over different ports.
   */
  public static int flowHash(int sourceHost, int destinationHost) {
    int h = sourceHost * 31 + destinationHost;
    h ^= h >>> 16;
    h *= 0x85ebca6b;
    h ^= h >>> 13;
    h *= 0xc2b2ae35;
    h ^= h >>> 16;
    return h;
  }

  /**
   * The vertices the flow from {@code sourceHost} to {@code destinationHost} visits, both ends included, following
   * {@link #egressPort} with {@link #flowHash}. For tests, documentation and reports, not for the hot path.
   */
  public final List<Integer> path(int sourceHost, int destinationHost) {
    Objects.checkIndex(sourceHost, hostCount);
    int hash = flowHash(sourceHost, destinationHost);
    List<Integer> path = new ArrayList<>();
    int v = sourceHost;
    path.add(v);
    while (v != destinationHost) {
      v = neighbour(v, egressPort(v, destinationHost, hash));
      path.add(v);
    }
    return path;
  }

  /** Hop count of a shortest path from {@code vertex} to {@code destinationHost}; takes O(distance) steps. */
  public final int distance(int vertex, int destinationHost) {
    Objects.checkIndex(destinationHost, hostCount);
    int hops = 0;
    // Any next hop is one hop closer, so following the first one reaches the destination in exactly distance hops.
    for (int v = vertex; v != destinationHost; hops++) v = neighbour(v, nextHopPorts(v, destinationHost)[0]);
    return hops;
  }

  public final int hostCount() {
    return hostCount;
  }

  public final int vertexCount() {
    return vertexCount;
  }

  /**
   * Checks that the structured routing of a kind's parameters is being paired with the graph those parameters
   * built: routes computed for another numbering would be silently wrong.
   */
  static void requireShape(PortGraph graph, String routing, int hostCount, int vertexCount) {
    if (graph.hostCount() != hostCount || graph.vertexCount() != vertexCount) {
      throw new IllegalArgumentException(routing + " expects " + hostCount + " hosts and " + vertexCount
          + " vertices, but " + graph.description() + " has " + graph.hostCount() + " and " + graph.vertexCount());
    }
  }

  /** {@code [p]} for every {@code p < count}: shared single-port sets, one array per port number. */
  static int[][] singletons(int count) {
    int[][] sets = new int[count][];
    for (int p = 0; p < count; p++) sets[p] = new int[] {p};
    return sets;
  }
}
