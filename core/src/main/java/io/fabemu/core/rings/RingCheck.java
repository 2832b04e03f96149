package io.fabemu.core.rings;

import java.util.ArrayList;
import java.util.List;

/**
 * Checks a set of directed rings against a {@link HostGraph}: each must be Hamiltonian (every host exactly once),
 * every hop must be an arc, and the rings should be arc-disjoint (together use no arc pair {@code u -> v} more often
 * than there are parallel arcs). Sharing is allowed but reported: the rings that share an arc share its bandwidth.
 */
public final class RingCheck {

  private RingCheck() {}

  /**
   * What the check found.
   *
   * @param errors       why the rings cannot be used (not Hamiltonian, a hop with no link), one line each; empty
   *                     when they can
   * @param warnings     one line per shared arc pair, naming the hosts, the rings using it and its arc count
   * @param sharedArcs   arc pairs {@code u -> v} used more often than they have arcs
   * @param maxSharing   the most rings on one arc (1 when arc-disjoint; the worst slowdown of a shared arc)
   */
  public record Result(List<String> errors, List<String> warnings, int sharedArcs, int maxSharing) {

    /** Whether the rings are usable: no errors (warnings allowed). */
    public boolean valid() {
      return errors.isEmpty();
    }

    /** Whether the rings are usable and arc-disjoint. */
    public boolean arcDisjoint() {
      return errors.isEmpty() && sharedArcs == 0;
    }
  }

  /**
   * Checks {@code rings} (each a cyclic sequence of hosts: the hop from the last back to the first closes it).
   * Rings are numbered from 0 in messages.
   */
  public static Result check(HostGraph graph, List<List<Integer>> rings) {
    int n = graph.hosts();
    List<String> errors = new ArrayList<>();
    int[][] used = new int[n][n];
    for (int r = 0; r < rings.size(); r++) {
      List<Integer> ring = rings.get(r);
      String error = ringError(graph, ring);
      if (error != null) {
        errors.add("ring " + r + " " + error);
        continue;
      }
      for (int i = 0; i < n; i++) used[ring.get(i)][ring.get((i + 1) % n)]++;
    }
    List<String> warnings = new ArrayList<>();
    int shared = 0;
    int maxSharing = rings.isEmpty() ? 0 : 1;
    for (int u = 0; u < n; u++) {
      for (int v = 0; v < n; v++) {
        if (used[u][v] <= graph.arcs(u, v)) continue;
        shared++;
        // k rings on a arcs: the busiest arc carries ceil(k / a) rings.
        int sharing = (used[u][v] + graph.arcs(u, v) - 1) / graph.arcs(u, v);
        maxSharing = Math.max(maxSharing, sharing);
        warnings.add("host " + u + " -> host " + v + " is used by " + used[u][v] + " rings " + ringsUsing(rings, u, v)
            + " but has " + graph.arcs(u, v) + (graph.arcs(u, v) == 1 ? " link" : " links") + ": up to " + sharing
            + " rings share one link's bandwidth");
      }
    }
    return new Result(List.copyOf(errors), List.copyOf(warnings), shared, maxSharing);
  }

  /** Why {@code ring} is no directed Hamiltonian ring of {@code graph}, or null when it is one. */
  static String ringError(HostGraph graph, List<Integer> ring) {
    int n = graph.hosts();
    if (ring.size() != n) {
      return "has " + ring.size() + " hosts, but a ring must visit all " + n + " hosts once";
    }
    boolean[] seen = new boolean[n];
    for (int host : ring) {
      if (host < 0 || host >= n) return "names host " + host + ", not in 0.." + (n - 1);
      if (seen[host]) return "visits host " + host + " twice";
      seen[host] = true;
    }
    for (int i = 0; i < n; i++) {
      int u = ring.get(i);
      int v = ring.get((i + 1) % n);
      if (graph.arcs(u, v) == 0) return "hops from host " + u + " to host " + v + ", which no link joins";
    }
    return null;
  }

  private static List<Integer> ringsUsing(List<List<Integer>> rings, int u, int v) {
    List<Integer> using = new ArrayList<>();
    for (int r = 0; r < rings.size(); r++) {
      List<Integer> ring = rings.get(r);
      int n = ring.size();
      for (int i = 0; i < n; i++) {
        if (ring.get(i) == u && ring.get((i + 1) % n) == v) using.add(r);
      }
    }
    return using;
  }
}
