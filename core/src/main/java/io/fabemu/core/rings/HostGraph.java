package io.fabemu.core.rings;

import io.fabemu.core.topology.Topology;
import java.util.Arrays;

/**
 * The hosts of a topology and the arcs between them, for ring embedding: a directed ring can only use links that
 * join two hosts directly (a switch is no ring member).
 *
 * <p>Contract: {@link #arcs(int, int)} is the number of directed links from host {@code u} to host {@code v}: a full
 * duplex cable gives one arc each way, so parallel cables give parallel arcs. Immutable.
 */
public final class HostGraph {

  private final int[][] arcs;
  private final int minOutArcs;

  private HostGraph(int[][] arcs) {
    this.arcs = arcs;
    int min = Integer.MAX_VALUE;
    for (int u = 0; u < arcs.length; u++) {
      int out = 0;
      int in = 0;
      for (int v = 0; v < arcs.length; v++) {
        out += arcs[u][v];
        in += arcs[v][u];
      }
      min = Math.min(min, Math.min(out, in));
    }
    this.minOutArcs = arcs.length == 0 ? 0 : min;
  }

  /** The host-to-host arcs of {@code topology}. */
  public static HostGraph of(Topology topology) {
    int hosts = topology.hostCount();
    int[][] arcs = new int[hosts][hosts];
    for (Topology.Link link : topology.links()) {
      if (link.from() < hosts && link.to() < hosts) arcs[link.from()][link.to()]++;
    }
    return new HostGraph(arcs);
  }

  /**
   * A graph from an arc-count matrix: {@code arcs[u][v]} directed links from {@code u} to {@code v}.
   *
   * @throws IllegalArgumentException when the matrix is not square, has a negative count or a self-loop
   */
  public static HostGraph ofArcs(int[][] arcs) {
    int[][] copy = new int[arcs.length][];
    for (int u = 0; u < arcs.length; u++) {
      if (arcs[u].length != arcs.length) throw new IllegalArgumentException("arc matrix is not square");
      copy[u] = Arrays.copyOf(arcs[u], arcs.length);
      for (int v = 0; v < arcs.length; v++) {
        if (copy[u][v] < 0 || (u == v && copy[u][v] != 0)) {
          throw new IllegalArgumentException("bad arc count " + copy[u][v] + " from " + u + " to " + v);
        }
      }
    }
    return new HostGraph(copy);
  }

  /** Number of hosts. */
  public int hosts() {
    return arcs.length;
  }

  /** Directed links from host {@code u} to host {@code v}. */
  public int arcs(int u, int v) {
    return arcs[u][v];
  }

  /**
   * The fewest arcs leaving or entering any host: no set of arc-disjoint Hamiltonian rings can be larger, since each
   * ring leaves and enters every host once.
   */
  public int ringUpperBound() {
    return minOutArcs;
  }

  /** A copy of the arc-count matrix. */
  int[][] arcMatrix() {
    int[][] copy = new int[arcs.length][];
    for (int u = 0; u < arcs.length; u++) copy[u] = Arrays.copyOf(arcs[u], arcs.length);
    return copy;
  }
}
