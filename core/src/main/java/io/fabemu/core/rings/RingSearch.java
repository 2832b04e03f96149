package io.fabemu.core.rings;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;

/**
 * A search for the most arc-disjoint directed Hamiltonian rings of any {@link HostGraph}, by backtracking with a
 * step limit (steps, not wall time, so that the same graph and limit always give the same answer).
 *
 * <p>Each ring is a cyclic sequence of hosts starting at host 0; a set is searched in lexicographically
 * non-decreasing ring order (so no set is tried twice in another order), using each arc pair {@code u -> v} at most
 * as often as it has parallel arcs. The search stops at the first set reaching {@link HostGraph#ringUpperBound}, or
 * when it has tried every set (then the answer is the maximum: {@link Result#exhaustive}), or at the step limit
 * (then the answer is the best set found so far).
 */
public final class RingSearch {

  /**
   * The search's answer.
   *
   * @param rings      the largest arc-disjoint set found, each ring a cyclic sequence of hosts from host 0
   * @param exhaustive whether no larger set exists (the search finished or reached the upper bound)
   * @param steps      search steps taken (one per host appended to a ring)
   * @param upperBound {@link HostGraph#ringUpperBound} of the graph, capped by the number asked for
   */
  public record Result(List<List<Integer>> rings, boolean exhaustive, long steps, int upperBound) {

    /** One line for users: how many rings, whether that is the maximum, or why there are none. */
    public String message() {
      if (rings.isEmpty()) {
        return exhaustive ? "no directed Hamiltonian ring exists on this topology (searched all, " + steps
            + " steps)" : "no directed Hamiltonian ring found within the step limit (" + steps + " steps); "
            + "list the rings in the scenario or raise the limit";
      }
      String count = rings.size() + " arc-disjoint directed Hamiltonian ring" + (rings.size() == 1 ? "" : "s");
      if (!exhaustive) return count + " found; the step limit (" + steps + " steps) ended the search, more may exist";
      return count + (rings.size() == upperBound ? " (the upper bound: the fewest links leaving a host)"
          : " (the maximum: every set was tried in " + steps + " steps)");
    }
  }

  private final HostGraph graph;
  private final int n;
  private final int[][] free;
  /** Per host, the hosts with an arc into it, and those it has an arc to: {@link #feasible} looks at no other. */
  private final int[][] inNeighbours;
  private final int[][] outNeighbours;
  private final int wanted;
  private final long stepLimit;
  private final int[][] current;
  private final boolean[][] visited;
  private long steps;
  private boolean stopped;
  private List<List<Integer>> best = List.of();

  private RingSearch(HostGraph graph, int wanted, long stepLimit) {
    this.graph = graph;
    this.n = graph.hosts();
    this.free = graph.arcMatrix();
    this.inNeighbours = new int[n][];
    this.outNeighbours = new int[n][];
    for (int v = 0; v < n; v++) {
      final int host = v;
      inNeighbours[v] = IntStream.range(0, n).filter(u -> free[u][host] > 0).toArray();
      outNeighbours[v] = IntStream.range(0, n).filter(u -> free[host][u] > 0).toArray();
    }
    this.wanted = wanted;
    this.stepLimit = stepLimit;
    this.current = new int[Math.max(wanted, 0)][n];
    this.visited = new boolean[Math.max(wanted, 0)][n];
  }

  /**
   * Searches {@code graph} for up to {@code maxRings} arc-disjoint directed Hamiltonian rings.
   *
   * @param maxRings  most rings wanted (at least 1)
   * @param stepLimit most search steps (at least 1)
   */
  public static Result search(HostGraph graph, int maxRings, long stepLimit) {
    if (maxRings < 1) throw new IllegalArgumentException("maxRings must be at least 1, got " + maxRings);
    if (stepLimit < 1) throw new IllegalArgumentException("stepLimit must be at least 1, got " + stepLimit);
    int bound = Math.min(maxRings, graph.ringUpperBound());
    if (graph.hosts() < 2 || bound == 0) return new Result(List.of(), true, 0, bound);
    RingSearch s = new RingSearch(graph, bound, stepLimit);
    s.ring(0);
    boolean exhaustive = !s.stopped || s.best.size() == bound;
    return new Result(s.best, exhaustive, s.steps, bound);
  }

  /** Tries every ring number {@code r} compatible with rings {@code 0..r-1}, recursing to ring {@code r + 1}. */
  private void ring(int r) {
    if (r > best.size()) record(r);
    if (r == wanted || stopped) return;
    current[r][0] = 0;
    visited[r][0] = true;
    extend(r, 1, r > 0);
    visited[r][0] = false;
  }

  /**
   * Extends ring {@code r} at position {@code pos}; {@code tied}: its prefix equals ring {@code r - 1}'s, so it may
   * not go below it (the non-decreasing order).
   */
  private void extend(int r, int pos, boolean tied) {
    if (stopped) return;
    int last = current[r][pos - 1];
    if (pos == n) {
      if (free[last][0] == 0) return;
      free[last][0]--;
      ring(r + 1);
      free[last][0]++;
      return;
    }
    int lowest = tied ? current[r - 1][pos] : 0;
    for (int next = lowest; next < n && !stopped; next++) {
      if (visited[r][next] || free[last][next] == 0) continue;
      if (++steps >= stepLimit) {
        stopped = true;
        return;
      }
      free[last][next]--;
      visited[r][next] = true;
      current[r][pos] = next;
      if (feasible(visited[r], next)) extend(r, pos + 1, tied && next == current[r - 1][pos]);
      visited[r][next] = false;
      free[last][next]++;
    }
  }

  /**
   * Whether the ring being built can still close: every unvisited host has a free arc in from the path's end or
   * another unvisited host, and a free arc out to another unvisited host or host 0.
   */
  private boolean feasible(boolean[] visited, int end) {
    for (int v = 0; v < n; v++) {
      if (visited[v]) continue;
      // Only the graph's neighbours of v can have a free arc with it: on a sparse graph this keeps a step near
      // O(hosts) rather than O(hosts^2) (a ring of 4096 hosts took minutes).
      boolean in = free[end][v] > 0;
      for (int i = 0; i < inNeighbours[v].length && !in; i++) {
        int u = inNeighbours[v][i];
        if (!visited[u] && free[u][v] > 0) in = true;
      }
      if (!in) return false;
      boolean out = free[v][0] > 0;
      for (int i = 0; i < outNeighbours[v].length && !out; i++) {
        int u = outNeighbours[v][i];
        if (!visited[u] && free[v][u] > 0) out = true;
      }
      if (!out) return false;
    }
    return true;
  }

  private void record(int rings) {
    List<List<Integer>> found = new ArrayList<>(rings);
    for (int r = 0; r < rings; r++) {
      List<Integer> ring = new ArrayList<>(n);
      for (int h : current[r]) ring.add(h);
      found.add(List.copyOf(ring));
    }
    best = List.copyOf(found);
    if (rings == wanted) stopped = true;
  }
}
