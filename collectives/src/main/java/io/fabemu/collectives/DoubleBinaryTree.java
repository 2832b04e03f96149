package io.fabemu.collectives;

import static io.fabemu.collectives.ScheduleBuilder.chunkCount;
import static io.fabemu.collectives.ScheduleBuilder.chunkStart;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * NCCL's tree Allreduce: a double binary tree across servers and a chain inside each server, the vector cut in two
 * halves, one per tree, each half cut into chunks that stream up the tree (reduced at every hop) and back down
 * (broadcast), pipelined (NCCL's {@code ncclGetBtree} and {@code ncclGetDtree} in {@code src/graph/trees.cc}; Sanders,
 * Speck and Träff, "Two-tree algorithms for full bandwidth broadcast, reduction and scan", Parallel Computing 35(12),
 * 2009).
 *
 * <p><b>The trees.</b> Servers are the world's ranks in blocks of {@code serverSize} (the last block may be
 * smaller). Across servers, tree 0 is NCCL's binary tree over the server indices ({@link #btree}) and tree 1 its
 * mirror (an even number of servers) or its shift by one (an odd number), so that a server that is a leaf in one tree
 * is mostly inside the other ({@link #dtree}). Inside a server the ranks form a chain whose head joins the tree across
 * servers: tree 0's head is the server's first rank and its chain runs first to last, tree 1's head is the last rank
 * and its chain runs back, so the two halves leave each server through different ranks (different NICs, on a server
 * with one NIC per GPU). With one server the trees are the two chains.
 *
 * <p><b>The pipeline.</b> Each half is cut into chunks of about {@value #CHUNK_ELEMENTS} elements. With {@code h} the
 * rank's height in the tree (0 for a leaf) and {@code d} its depth (0 for the root), chunk {@code j} is, on this
 * rank: received from its children and reduced in step {@code j + 2h}; sent to its parent in step {@code j + 2h + 1};
 * received back from its parent (replacing the partial sum) in step {@code j + D + 2d}, where {@code D} is
 * {@code 2 x} the root's height plus a window of {@value #WINDOW_CHUNKS} chunks, and sent to its children the step
 * after (the root sends chunk {@code j} down in step {@code j + 2h + 1}, as soon as it is reduced). A step waits for
 * its receives only, so these offsets make every message's send come at least one step before the step that receives
 * it, on every rank: no rank waits for a step another rank has not reached yet, the two trees share the steps without
 * deadlock, and a rank keeps up to {@code D + 2d - 2h} chunks in flight, as NCCL's FIFO slots do. Each tree's
 * messages use their own phase (tree 0: 0 up, 1 down; tree 1: 2 up, 3 down) and lane (the tree's index), the chunk
 * as the round.
 */
public final class DoubleBinaryTree {

  /** Elements per chunk: 128 KiB of 4-byte elements, NCCL's tree chunk order of magnitude. */
  public static final int CHUNK_ELEMENTS = 1 << 15;
  /** Extra chunks a rank may stream up before the first returns, beyond what the tree's depth needs. */
  static final int WINDOW_CHUNKS = 4;

  /** Trees kept between ranks, which all build the same ones: building one costs O(p), every rank needs two. */
  private static final Map<TreeKey, RankTree> TREES = new ConcurrentHashMap<>();
  /** Trees kept at most; a run uses a few (its world, server size and the two trees). */
  private static final int MAX_KEPT_TREES = 64;

  private record TreeKey(int ranks, int serverSize, int tree) {}

  private DoubleBinaryTree() {}

  /** {@link RankTree#of}, built once per world, server size and tree (never changed once built). */
  static RankTree rankTree(int p, int serverSize, int tree) {
    if (TREES.size() > MAX_KEPT_TREES) TREES.clear();
    return TREES.computeIfAbsent(new TreeKey(p, serverSize, tree), k -> RankTree.of(p, serverSize, tree));
  }

  /** A vertex of a binary tree over {@code n} indices: its parent and two children, -1 where absent. */
  record Links(int parent, int child0, int child1) {}

  /** NCCL's {@code ncclGetBtree}: the binary tree over 0..n-1 rooted at 0, as NCCL builds it. */
  static Links btree(int n, int index) {
    int bit = 1;
    while (bit < n && (bit & index) == 0) bit <<= 1;
    if (index == 0) {
      return new Links(-1, -1, n > 1 ? bit >> 1 : -1);
    }
    int up = (index ^ bit) | (bit << 1);
    if (up >= n) up = index ^ bit;
    int lowbit = bit >> 1;
    int down0 = lowbit == 0 ? -1 : index - lowbit;
    int down1 = lowbit == 0 ? -1 : index + lowbit;
    while (down1 >= n) {
      down1 = lowbit == 0 ? -1 : index + lowbit;
      lowbit >>= 1;
    }
    return new Links(up, down0, down1);
  }

  /** NCCL's {@code ncclGetDtree}: tree 0 is {@link #btree}, tree 1 its mirror (n even) or its shift by one (n odd). */
  static Links dtree(int n, int index, int tree) {
    if (tree == 0) return btree(n, index);
    if (n % 2 == 1) {
      Links l = btree(n, (index - 1 + n) % n);
      return new Links(shift(l.parent(), n), shift(l.child0(), n), shift(l.child1(), n));
    }
    Links l = btree(n, n - 1 - index);
    return new Links(mirror(l.parent(), n), mirror(l.child0(), n), mirror(l.child1(), n));
  }

  private static int shift(int i, int n) {
    return i == -1 ? -1 : (i + 1) % n;
  }

  private static int mirror(int i, int n) {
    return i == -1 ? -1 : n - 1 - i;
  }

  /**
   * One tree over the ranks of group {@code g}: each rank's parent (-1 for the root), children, depth and height,
   * indices being positions in the group.
   */
  record RankTree(int root, int[] parent, int[][] children, int[] depth, int[] height) {

    static RankTree of(int p, int serverSize, int tree) {
      int servers = (p + serverSize - 1) / serverSize;
      int[] parent = new int[p];
      List<List<Integer>> children = new ArrayList<>(p);
      for (int r = 0; r < p; r++) children.add(new ArrayList<>(3));
      int root = -1;
      for (int r = 0; r < p; r++) {
        int server = r / serverSize;
        int position = position(r, serverSize, p, tree);
        if (position > 0) {
          parent[r] = rankAt(server, position - 1, serverSize, p, tree);
        } else {
          int up = dtree(servers, server, tree).parent();
          parent[r] = up == -1 ? -1 : rankAt(up, 0, serverSize, p, tree);
          if (up == -1) root = r;
        }
        if (parent[r] >= 0) children.get(parent[r]).add(r);
      }
      int[][] childArrays = new int[p][];
      for (int r = 0; r < p; r++) childArrays[r] = children.get(r).stream().mapToInt(Integer::intValue).toArray();
      // Depth from the root down, in breadth-first order; height from that order backwards.
      int[] order = new int[p];
      int[] depth = new int[p];
      int size = 0;
      order[size++] = root;
      for (int i = 0; i < size; i++) {
        for (int c : childArrays[order[i]]) {
          depth[c] = depth[order[i]] + 1;
          order[size++] = c;
        }
      }
      if (size != p) throw new IllegalStateException("tree " + tree + " over " + p + " ranks reaches " + size);
      int[] height = new int[p];
      for (int i = p - 1; i >= 0; i--) {
        int r = order[i];
        if (parent[r] >= 0) height[parent[r]] = Math.max(height[parent[r]], height[r] + 1);
      }
      return new RankTree(root, parent, childArrays, depth, height);
    }

    /** The rank's place in its server's chain for {@code tree} (0: the head). */
    private static int position(int r, int serverSize, int p, int tree) {
      int first = r / serverSize * serverSize;
      int local = r - first;
      int size = Math.min(serverSize, p - first);
      return tree == 0 ? local : size - 1 - local;
    }

    private static int rankAt(int server, int position, int serverSize, int p, int tree) {
      int first = server * serverSize;
      int size = Math.min(serverSize, p - first);
      return first + (tree == 0 ? position : size - 1 - position);
    }
  }

  /**
   * Appends rank {@code me}'s schedule of the allreduce of {@code count} elements of OUTPUT (which already holds its
   * contribution) over group {@code g} in servers of {@code serverSize} ranks; {@code phaseBase} is the first of the
   * four phases it uses.
   */
  static void allreduce(ScheduleBuilder b, RankGroup g, int me, int count, int serverSize, int phaseBase) {
    int p = g.size();
    if (p == 1 || count == 0) return;
    if (serverSize < 1) throw new IllegalArgumentException("a tree needs at least 1 rank per server");
    int half = (count + 1) / 2;
    int[] offsets = {0, half};
    int[] counts = {half, count - half};
    List<List<Runnable>> steps = new ArrayList<>();
    for (int tree = 0; tree < 2; tree++) {
      if (counts[tree] == 0) continue;
      RankTree t = rankTree(p, Math.min(serverSize, p), tree);
      int chunks = (counts[tree] + CHUNK_ELEMENTS - 1) / CHUNK_ELEMENTS;
      int up = phaseBase + 2 * tree;
      int down = up + 1;
      int h = t.height()[me];
      int downLag = 2 * t.height()[t.root()] + WINDOW_CHUNKS + 2 * t.depth()[me];
      int parent = t.parent()[me];
      int[] children = t.children()[me];
      for (int j = 0; j < chunks; j++) {
        int offset = offsets[tree] + chunkStart(counts[tree], chunks, j);
        int n = chunkCount(counts[tree], chunks, j);
        int chunk = j;
        int lane = tree;
        for (int c : children) {
          at(steps, j + 2 * h).add(() -> b.phase(up).receive(g.world(c), BufferId.OUTPUT, offset, n, true, chunk,
              lane));
        }
        if (parent >= 0) {
          at(steps, j + 2 * h + 1).add(() -> b.phase(up).send(g.world(parent), BufferId.OUTPUT, offset, n, chunk,
              lane));
          at(steps, j + downLag).add(() -> b.phase(down).receive(g.world(parent), BufferId.OUTPUT, offset, n, false,
              chunk, lane));
        }
        int sendDown = parent >= 0 ? j + downLag + 1 : j + 2 * h + 1;
        for (int c : children) {
          at(steps, sendDown).add(() -> b.phase(down).send(g.world(c), BufferId.OUTPUT, offset, n, chunk, lane));
        }
      }
    }
    for (List<Runnable> step : steps) {
      for (Runnable transfer : step) transfer.run();
      b.endStep();
    }
    b.phase(phaseBase);
  }

  private static List<Runnable> at(List<List<Runnable>> steps, int index) {
    while (steps.size() <= index) steps.add(new ArrayList<>());
    return steps.get(index);
  }
}
