package io.fabemu.core.routing;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The detours of a router network around its dead channels, as the router patent's management node computes them:
 * for every pair of hosts whose route (the network's own, dimension order) crosses a dead channel, a via node such
 * that the route to the via node's router and the route from there to the destination both avoid every dead
 * channel; of those, the one with the fewest router-to-router hops in all, and of equal ones the lowest-numbered. A
 * pair no single via node joins is cut off ({@link #reachable} false): one via node per pair, as in the patent.
 *
 * <p>Only the hosts' NICs use it (they put the via node in the packets they inject, {@link DetourRouting}); the
 * routers keep routing by dimension order, so they never need an update.
 *
 * <p>Cost: a route walk per pair of routers ({@code hosts^2} walks of at most the diameter) when some
 * router-to-router channel is dead, and for each pair needing a detour a scan of every host as via node; memory
 * {@code hosts^2} shorts while computing, then only the pairs not on the direct route (a node's failure leaves some
 * {@code hosts^1.5} of them on a 2-D mesh). Meant for networks of up to some thousands of nodes. Immutable.
 */
public final class DetourTable implements RouteView {
  /** {@link #via}'s answer for a pair on the direct route. */
  public static final int DIRECT = -1;
  /** {@link #via}'s answer for a pair no route joins. */
  public static final int CUT_OFF = -2;

  private final int hosts;
  /**
   * Per source host, sparse (a failure leaves most pairs direct): the destinations not on the direct route, in
   * ascending order, and each one's via node ({@link #CUT_OFF} or a host); null rows: every pair direct.
   */
  private final int[][] destinationsBySource;
  private final int[][] viasBySource;
  private final int detours;

  private DetourTable(int hosts, int[][] destinationsBySource, int[][] viasBySource) {
    this.hosts = hosts;
    this.destinationsBySource = destinationsBySource;
    this.viasBySource = viasBySource;
    int count = 0;
    for (int[] row : viasBySource) {
      if (row == null) continue;
      for (int via : row) {
        if (via >= 0) count++;
      }
    }
    this.detours = count;
  }

  /** The table of a network with everything up: every pair on the direct route. */
  public static DetourTable direct(int hosts) {
    return new DetourTable(hosts, new int[hosts][], new int[hosts][]);
  }

  /**
   * The detours of {@code graph} (a router network built for {@code routing}) around {@code deadPorts}:
   * {@code deadPorts[v][p]} when the channel leaving vertex {@code v} by port {@code p} is dead ({@code deadPorts[v]}
   * null: none of {@code v}'s).
   */
  public static DetourTable compute(PortGraph graph, RouterRouting routing, boolean[][] deadPorts) {
    int n = routing.hostCount();
    RoutingTable.requireShape(graph, "detours of a router network of " + n + " hosts", n, 2 * n);
    boolean[] injects = new boolean[n];
    boolean[] ejects = new boolean[n];
    boolean routerChannelDead = false;
    for (int h = 0; h < n; h++) {
      injects[h] = !dead(deadPorts, h, 0);
      ejects[h] = !dead(deadPorts, routing.routerOf(h), RouterRouting.LOCAL_PORT);
      boolean[] ports = deadPorts[routing.routerOf(h)];
      if (ports == null) continue;
      for (int p = 1; p < ports.length; p++) routerChannelDead |= ports[p];
    }
    // Router-to-router route lengths, -1 where the route crosses a dead channel.
    short[] hops = routerChannelDead ? routeHops(graph, routing, deadPorts, n) : null;
    int[][] destinationsBySource = new int[n][];
    int[][] viasBySource = new int[n][];
    int[] destinations = new int[n];
    int[] vias = new int[n];
    for (int s = 0; s < n; s++) {
      int count = 0;
      for (int d = 0; d < n; d++) {
        if (d == s) continue;
        int via;
        if (!injects[s] || !ejects[d]) {
          via = CUT_OFF;
        } else if (hops == null || hops[s * n + d] >= 0) {
          via = DIRECT;
        } else {
          via = bestVia(hops, n, s, d);
        }
        if (via == DIRECT) continue;
        destinations[count] = d;
        vias[count++] = via;
      }
      if (count > 0) {
        destinationsBySource[s] = Arrays.copyOf(destinations, count);
        viasBySource[s] = Arrays.copyOf(vias, count);
      }
    }
    return new DetourTable(n, destinationsBySource, viasBySource);
  }

  private static boolean dead(boolean[][] deadPorts, int vertex, int port) {
    return deadPorts[vertex] != null && port < deadPorts[vertex].length && deadPorts[vertex][port];
  }

  /** For each pair of routers (by host), the hops of the route from one to the other; -1 if it crosses a dead one. */
  private static short[] routeHops(PortGraph graph, RouterRouting routing, boolean[][] deadPorts, int n) {
    short[] hops = new short[n * n];
    for (int a = 0; a < n; a++) {
      for (int b = 0; b < n; b++) {
        int router = routing.routerOf(a);
        int count = 0;
        while (true) {
          int port = routing.outputPort(router, b);
          if (port == RouterRouting.LOCAL_PORT) break;
          if (dead(deadPorts, router, port)) {
            count = -1;
            break;
          }
          router = graph.neighbour(router, port);
          count++;
        }
        hops[a * n + b] = (short) count;
      }
    }
    return hops;
  }

  /** The via node with the fewest hops in all whose legs avoid every dead channel (lowest first); else cut off. */
  private static int bestVia(short[] hops, int n, int s, int d) {
    int best = CUT_OFF;
    int bestHops = Integer.MAX_VALUE;
    for (int v = 0; v < n; v++) {
      if (v == s || v == d) continue;
      int first = hops[s * n + v];
      int second = hops[v * n + d];
      if (first < 0 || second < 0) continue;
      if (first + second < bestHops) {
        bestHops = first + second;
        best = v;
      }
    }
    return best;
  }

  /** Hosts (and routers) of the network. */
  public int hostCount() {
    return hosts;
  }

  /** The via node from {@code sourceHost} to {@code destinationHost}: a host, {@link #DIRECT} or {@link #CUT_OFF}. */
  public int via(int sourceHost, int destinationHost) {
    int[] row = destinationsBySource[sourceHost];
    if (row == null) return DIRECT;
    int i = Arrays.binarySearch(row, destinationHost);
    return i < 0 ? DIRECT : viasBySource[sourceHost][i];
  }

  /** Pairs on a detour. */
  public int detourCount() {
    return detours;
  }

  /** Every detour, as {source, destination, via} in source then destination order. */
  public List<int[]> detours() {
    List<int[]> out = new ArrayList<>(detours);
    for (int s = 0; s < hosts; s++) {
      int[] row = destinationsBySource[s];
      if (row == null) continue;
      for (int i = 0; i < row.length; i++) {
        if (viasBySource[s][i] >= 0) out.add(new int[] {s, row[i], viasBySource[s][i]});
      }
    }
    return out;
  }

  /** Whether host {@code vertex} reaches {@code destinationHost}; routers are not asked (they route every packet). */
  @Override
  public boolean reachable(int vertex, int destinationHost) {
    return vertex == destinationHost || (vertex < hosts && via(vertex, destinationHost) != CUT_OFF);
  }

  /** A host's routes are its via nodes; a router's never change. */
  @Override
  public boolean sameRoutesAt(int vertex, RouteView other) {
    if (vertex >= hosts) return true;
    DetourTable that = (DetourTable) other;
    return Arrays.equals(destinationsBySource[vertex], that.destinationsBySource[vertex])
        && Arrays.equals(viasBySource[vertex], that.viasBySource[vertex]);
  }
}
