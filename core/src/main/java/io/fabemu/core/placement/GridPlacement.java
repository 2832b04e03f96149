package io.fabemu.core.placement;

import io.fabemu.core.topology.NodeGrid;
import io.fabemu.core.topology.Topology;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;

/**
 * The placement of a topology whose hosts lie on a {@link NodeGrid} (mesh, torus, group-ring, prism, optical cluster
 * of full-mesh servers): each member gets a block of the grid, and of the blocks that fit the member count the one
 * that cuts the fewest and slowest links wins. Plain and deterministic: a pure function of the topology and the
 * member count.
 *
 * <p>A <i>node</i> is a host with its compute node and, in a router network, its router (the switch cabled to that
 * host alone); it is never split. The candidates, in this order:
 * <ol>
 *   <li>every split of the grid into {@code p0 x p1 x p2 = members} blocks with {@code p_d} at most the size of
 *   dimension d, the slowest dimension split most first ({@code p2} descending, then {@code p1}); each dimension is
 *   cut into {@code p_d} ranges of consecutive coordinates whose lengths differ by at most one (the first ranges
 *   get the extra), and the block at range indices (b0, b1, b2) is member {@code b0 + p0 * (b1 + p1 * b2)};</li>
 *   <li>the nodes in numbering order cut into {@code members} runs whose lengths differ by at most one (the first
 *   runs get the extra), which fits any member count.</li>
 * </ol>
 * The plan is the first candidate with, in this order of importance: balance within a line (its largest member
 * holds at most a <i>line</i> more than {@code ceil(nodes / members)} nodes, a line being {@code sizeX} nodes: a
 * group-ring's group, a prism's layer, an optical server, but never more than half that share; so members differ by
 * at most about a line, as a leaf-spine's differ by at most a TOR group); the greatest least latency over the links
 * it cuts (the cross-member lookahead: cut the slowest links); the fewest nodes on its largest member (imbalance
 * within a line is taken only for a longer lookahead); the fewest cut links (directed links whose ends are on
 * different members). The runs in numbering order are balanced, so some candidate always is.
 */
final class GridPlacement {

  private GridPlacement() {}

  /**
   * The node of every vertex: host h is node h; a switch is the node of the one host it is cabled to.
   *
   * @throws IllegalArgumentException when a switch is cabled to no host or to several
   */
  static int[] nodeOfVertex(Topology topology) {
    int[] node = new int[topology.vertexCount()];
    for (int v = 0; v < topology.vertexCount(); v++) {
      if (topology.isHost(v)) {
        node[v] = v;
        continue;
      }
      int host = -1;
      for (Topology.Link link : topology.ports(v)) {
        if (!topology.isHost(link.to())) continue;
        if (host >= 0 && host != link.to()) {
          throw new IllegalArgumentException("placement: switch " + topology.vertexName(v) + " of "
              + topology.description() + " serves several hosts; a node of a grid has one");
        }
        host = link.to();
      }
      if (host < 0) {
        throw new IllegalArgumentException("placement: switch " + topology.vertexName(v) + " of "
            + topology.description() + " serves no host; every switch of a grid belongs to a node");
      }
      node[v] = host;
    }
    return node;
  }

  /**
   * The member of every node of {@code grid}: the best of the candidates (see the class comment).
   *
   * @param nodeOfVertex {@link #nodeOfVertex} of {@code topology}
   * @param members      at least 1, at most the grid's node count
   */
  static int[] memberOfNode(Topology topology, NodeGrid grid, int[] nodeOfVertex, int members) {
    int[] best = null;
    long[] bestScore = null;
    int share = (grid.nodeCount() - 1) / members + 1;
    int allowedLargest = share + Math.min(grid.sizeX(), share / 2);
    // One candidate at a time: a grid of millions of nodes holds two arrays of its size, not one per candidate.
    for (Supplier<int[]> next : candidates(grid, members)) {
      int[] candidate = next.get();
      long[] score = score(topology, nodeOfVertex, candidate, members, allowedLargest);
      if (bestScore == null || better(score, bestScore)) {
        best = candidate;
        bestScore = score;
      }
    }
    return best;
  }

  /** Block splits, slowest dimension split most first, then the runs in numbering order; each made when asked. */
  static List<Supplier<int[]>> candidates(NodeGrid grid, int members) {
    List<Supplier<int[]>> candidates = new ArrayList<>();
    for (int p2 = Math.min(members, grid.sizeZ()); p2 >= 1; p2--) {
      if (members % p2 != 0) continue;
      int rest = members / p2;
      for (int p1 = Math.min(rest, grid.sizeY()); p1 >= 1; p1--) {
        if (rest % p1 != 0) continue;
        int p0 = rest / p1;
        int split1 = p1;
        int split2 = p2;
        if (p0 <= grid.sizeX()) candidates.add(() -> blocks(grid, p0, split1, split2));
      }
    }
    candidates.add(() -> runs(grid.nodeCount(), members));
    return candidates;
  }

  private static int[] runs(int nodes, int members) {
    int[] member = new int[nodes];
    for (int n = 0; n < nodes; n++) {
      member[n] = range(n, nodes, members);
    }
    return member;
  }

  private static int[] blocks(NodeGrid grid, int p0, int p1, int p2) {
    int[] member = new int[grid.nodeCount()];
    for (int n = 0; n < member.length; n++) {
      int x = n % grid.sizeX();
      int y = n / grid.sizeX() % grid.sizeY();
      int z = n / grid.sizeX() / grid.sizeY();
      member[n] = range(x, grid.sizeX(), p0) + p0 * (range(y, grid.sizeY(), p1) + p1 * range(z, grid.sizeZ(), p2));
    }
    return member;
  }

  /** Which of {@code parts} ranges of consecutive values of 0..size-1 holds {@code c} (the first get the extra). */
  static int range(int c, int size, int parts) {
    int base = size / parts;
    int extra = size % parts;
    int longOnes = extra * (base + 1);
    return c < longOnes ? c / (base + 1) : extra + (c - longOnes) / base;
  }

  /**
   * {nodes on the largest member beyond {@code allowedLargest} (0 when within), minus the least cut latency (none:
   * minus Long.MAX_VALUE), nodes on the largest member, cut links}: the lower the better, first component first.
   */
  private static long[] score(Topology topology, int[] nodeOfVertex, int[] memberOfNode, int members,
                              int allowedLargest) {
    int[] nodes = new int[members];
    for (int m : memberOfNode) {
      nodes[m]++;
    }
    int largest = 0;
    for (int n : nodes) {
      largest = Math.max(largest, n);
    }
    long cut = 0;
    long leastLatencyPs = Long.MAX_VALUE;
    for (Topology.Link link : topology.links()) {
      if (memberOfNode[nodeOfVertex[link.from()]] != memberOfNode[nodeOfVertex[link.to()]]) {
        cut++;
        leastLatencyPs = Math.min(leastLatencyPs, link.spec().latencyPs());
      }
    }
    return new long[] {Math.max(0, largest - allowedLargest), -leastLatencyPs, largest, cut};
  }

  private static boolean better(long[] score, long[] than) {
    for (int i = 0; i < score.length; i++) {
      if (score[i] != than[i]) return score[i] < than[i];
    }
    return false;
  }
}
