package io.fabemu.core.routing;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Routes of any graph, precomputed with one breadth-first search per destination host: the general
 * {@link RoutingTable}, for graphs without a structure to compute routes from, and the reference the structured
 * routings are tested against.
 *
 * <p>Cost: building takes hosts x (vertices + links) steps, so it suits small or irregular graphs only (a
 * 100,000-host leaf-spine would take minutes; {@link LeafSpineRouting} computes the same routes from the
 * numbering). Memory: a vertex keeps a small table of its distinct next-hop port sets and, per destination host,
 * a 16-bit index into it; a vertex that uses a single port set for every destination (a host with one link, say)
 * keeps no per-destination index at all. Identical port sets are one shared array across all vertices. A
 * 4,096-host leaf-spine thus costs about {@code switches x hosts x 2} bytes.
 */
public final class ShortestPathTable extends RoutingTable {

  /** Local set index 0 is always the empty set: the route from a host to itself. */
  private static final int EMPTY_SET = 0;
  private static final int MAX_SETS_PER_VERTEX = Character.MAX_VALUE + 1;

  /** {@code neighbours[v][p]}: the vertex at the far end of port {@code p} of {@code v}. */
  private final int[][] neighbours;
  /** {@code portSets[v]}: the distinct next-hop port sets of {@code v}; entry 0 is empty. */
  private final int[][][] portSets;
  /**
   * {@code setIndex[v][d]}: index into {@code portSets[v]} for destination host {@code d}; null when {@code v}
   * uses {@code portSets[v][1]} for every destination other than itself.
   */
  private final char[][] setIndex;

  private ShortestPathTable(int hostCount, int[][] neighbours, int[][][] portSets, char[][] setIndex) {
    super(hostCount, neighbours.length);
    this.neighbours = neighbours;
    this.portSets = portSets;
    this.setIndex = setIndex;
  }

  /** See {@link RoutingTable#compute}. */
  public static ShortestPathTable compute(PortGraph graph) {
    return new Builder(graph, null).build();
  }

  /** See {@link RoutingTable#computeAvoiding}. */
  public static ShortestPathTable computeAvoiding(PortGraph graph, boolean[][] deadPorts) {
    if (deadPorts.length != graph.vertexCount()) {
      throw new IllegalArgumentException("dead ports for " + deadPorts.length + " vertices, the graph has "
          + graph.vertexCount());
    }
    return new Builder(graph, deadPorts).build();
  }

  @Override
  int[] ports(int vertex, int destinationHost) {
    char[] index = setIndex[vertex];
    int[][] sets = portSets[vertex];
    if (index == null) return vertex == destinationHost ? sets[EMPTY_SET] : sets[1];
    return sets[index[destinationHost]];
  }

  @Override
  int neighbour(int vertex, int port) {
    return neighbours[vertex][port];
  }

  /** One computation: BFS per destination, then each vertex's next-hop set interned into its table. */
  private static final class Builder {
    private final PortGraph graph;
    private final int hostCount;
    private final int vertexCount;
    private final int[][] neighbours;
    /** {@code portsByNeighbour[v]}: {@code v}'s ports sorted by (neighbour id, port), the order sets are listed in. */
    private final int[][] portsByNeighbour;
    /** Reverse adjacency as CSR: the senders of links into {@code v} are {@code inFrom[inStart[v]..inStart[v+1])}. */
    private final int[] inStart;
    private final int[] inFrom;
    /** Canonical port sets shared by all vertices. */
    private final Map<PortSetKey, PortSetKey> interned = new HashMap<>();
    private final VertexSets[] tables;
    /** {@code deadPorts[v][p]}: port p of v is down and carries nothing; null when every port works. */
    private final boolean[][] deadPorts;

    Builder(PortGraph graph, boolean[][] deadPorts) {
      this.graph = graph;
      this.deadPorts = deadPorts;
      this.hostCount = graph.hostCount();
      this.vertexCount = graph.vertexCount();
      this.neighbours = new int[vertexCount][];
      this.portsByNeighbour = new int[vertexCount][];
      int links = 0;
      for (int v = 0; v < vertexCount; v++) {
        int[] to = new int[graph.portCount(v)];
        for (int p = 0; p < to.length; p++) to[p] = graph.neighbour(v, p);
        neighbours[v] = to;
        portsByNeighbour[v] = alive(v, sortedByNeighbour(to));
        links += to.length;
      }
      inStart = new int[vertexCount + 1];
      for (int v = 0; v < vertexCount; v++) {
        for (int p : portsByNeighbour[v]) inStart[neighbours[v][p] + 1]++;
      }
      for (int v = 0; v < vertexCount; v++) inStart[v + 1] += inStart[v];
      inFrom = new int[links];
      int[] fill = Arrays.copyOf(inStart, vertexCount);
      for (int v = 0; v < vertexCount; v++) {
        for (int p : portsByNeighbour[v]) inFrom[fill[neighbours[v][p]]++] = v;
      }
      tables = new VertexSets[vertexCount];
      PortSetKey empty = intern(new PortSetKey().set(NO_PORTS, 0));
      for (int v = 0; v < vertexCount; v++) tables[v] = new VertexSets(empty);
    }

    /** {@code ports} without the dead ones of {@code v}: a dead port is on no route, nor does any route enter by it. */
    private int[] alive(int v, int[] ports) {
      if (deadPorts == null || deadPorts[v] == null) return ports;
      int n = 0;
      int[] kept = new int[ports.length];
      for (int p : ports) {
        if (p >= deadPorts[v].length || !deadPorts[v][p]) kept[n++] = p;
      }
      return Arrays.copyOf(kept, n);
    }

    private static int[] sortedByNeighbour(int[] to) {
      long[] keyed = new long[to.length];
      for (int p = 0; p < to.length; p++) keyed[p] = ((long) to[p] << 32) | p;
      Arrays.sort(keyed);
      int[] ports = new int[to.length];
      for (int i = 0; i < ports.length; i++) ports[i] = (int) keyed[i];
      return ports;
    }

    ShortestPathTable build() {
      int[] distance = new int[vertexCount];
      int[] queue = new int[vertexCount];
      int[] scratch = new int[maxDegree()];
      PortSetKey probe = new PortSetKey();
      for (int d = 0; d < hostCount; d++) {
        distancesTo(d, distance, queue);
        for (int v = 0; v < vertexCount; v++) {
          if (v == d) continue; // the empty set, index 0: the default of a fresh index array
          if (distance[v] < 0) {
            if (deadPorts != null) {
              // Cut off by what is down: no route, which the devices treat as "drop".
              tables[v].record(v, d, probe.set(scratch, 0));
              continue;
            }
            throw new IllegalArgumentException("topology is disconnected: " + graph.vertexName(v)
                + " cannot reach " + graph.vertexName(d) + " (" + graph.description() + ")");
          }
          int n = 0;
          for (int p : portsByNeighbour[v]) {
            if (distance[neighbours[v][p]] == distance[v] - 1) scratch[n++] = p;
          }
          tables[v].record(v, d, probe.set(scratch, n));
        }
      }
      int[][][] portSets = new int[vertexCount][][];
      char[][] setIndex = new char[vertexCount][];
      for (int v = 0; v < vertexCount; v++) {
        List<PortSetKey> sets = tables[v].sets;
        portSets[v] = new int[sets.size()][];
        for (int i = 0; i < portSets[v].length; i++) portSets[v][i] = sets.get(i).ports;
        setIndex[v] = tables[v].index;
      }
      return new ShortestPathTable(hostCount, neighbours, portSets, setIndex);
    }

    private int maxDegree() {
      int max = 0;
      for (int[] n : neighbours) max = Math.max(max, n.length);
      return max;
    }

    /** Sets {@code distance[v]} to the hop count from {@code v} to host {@code d} (-1: none); BFS on reversed links. */
    private void distancesTo(int d, int[] distance, int[] queue) {
      Arrays.fill(distance, -1);
      distance[d] = 0;
      queue[0] = d;
      int head = 0;
      int tail = 1;
      while (head < tail) {
        int u = queue[head++];
        for (int i = inStart[u]; i < inStart[u + 1]; i++) {
          int v = inFrom[i];
          if (distance[v] < 0) {
            distance[v] = distance[u] + 1;
            queue[tail++] = v;
          }
        }
      }
    }

    private PortSetKey intern(PortSetKey probe) {
      PortSetKey canonical = interned.get(probe);
      if (canonical == null) {
        canonical = new PortSetKey().set(Arrays.copyOf(probe.ports, probe.length), probe.length);
        interned.put(canonical, canonical);
      }
      return canonical;
    }

    /** One vertex's distinct port sets and, once it has more than one non-empty set, its per-destination index. */
    private final class VertexSets {
      final List<PortSetKey> sets = new ArrayList<>();
      final Map<PortSetKey, Integer> localIndex = new HashMap<>();
      /** Last set recorded: consecutive destinations usually share a set, which skips the hash lookup. */
      int last = EMPTY_SET;
      char[] index;

      VertexSets(PortSetKey empty) {
        sets.add(empty);
        localIndex.put(empty, EMPTY_SET);
      }

      void record(int vertex, int destination, PortSetKey probe) {
        int local = probe.equals(sets.get(last)) ? last : lookupOrAdd(vertex, probe);
        last = local;
        if (index != null) {
          index[destination] = (char) local;
        } else if (local != 1) {
          // A second distinct non-empty set: from now on every destination needs its own entry. All earlier
          // destinations except the vertex itself used set 1.
          index = new char[hostCount];
          Arrays.fill(index, 0, destination, (char) 1);
          if (vertex < destination) index[vertex] = EMPTY_SET;
          index[destination] = (char) local;
        }
      }

      private int lookupOrAdd(int vertex, PortSetKey probe) {
        Integer known = localIndex.get(probe);
        if (known != null) return known;
        if (sets.size() == MAX_SETS_PER_VERTEX) {
          throw new IllegalArgumentException(graph.vertexName(vertex) + " needs more than "
              + MAX_SETS_PER_VERTEX + " distinct next-hop port sets; routing supports at most that many per vertex");
        }
        PortSetKey canonical = intern(probe);
        int local = sets.size();
        sets.add(canonical);
        localIndex.put(canonical, local);
        return local;
      }
    }
  }

  /**
   * A port set as a hash key. Lookups reuse one mutable probe over a scratch buffer so the hot build loop does not
   * allocate; stored keys own an exact-length array.
   */
  private static final class PortSetKey {
    int[] ports;
    int length;
    int hash;

    PortSetKey set(int[] ports, int length) {
      this.ports = ports;
      this.length = length;
      int h = 1;
      for (int i = 0; i < length; i++) h = 31 * h + ports[i];
      this.hash = h;
      return this;
    }

    @Override
    public int hashCode() {
      return hash;
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof PortSetKey k && k.hash == hash
          && Arrays.equals(ports, 0, length, k.ports, 0, k.length);
    }
  }
}
