package io.fabemu.core.routing;

/**
 * Routes of a three-tier fat-tree computed from its numbering (up to the lowest level the source and the destination
 * share, through any aggregation and any core by ECMP, then down), in constant time per lookup and O(the largest
 * port count) memory, whatever the size: the same port arrays, in the same order, as {@link ShortestPathTable}
 * computes for that topology.
 *
 * <p>Numbering (that of {@code FatTreeSpec.build}): P pods of L leaves with H hosts each, A aggregations per pod, C
 * cores. Hosts {@code 0..P*L*H-1}, host {@code h} under leaf {@code h / H} of pod {@code h / (L*H)}; then the leaves,
 * the aggregations ({@code pod * A + j}) and the cores. A leaf's ports are its H hosts, then its pod's A aggregations;
 * an aggregation's ports are its pod's L leaves, then its C/A cores {@code j*C/A ..}; core {@code c}'s port {@code p}
 * leads to pod {@code p}'s aggregation {@code c / (C/A)}. Every pair of vertices shares at most one cable.
 *
 * <p>Next hops towards host {@code d} under leaf {@code l_d} of pod {@code p_d}: a host other than {@code d} sends on
 * its only port; leaf {@code l_d} on {@code d}'s port; any other leaf on every aggregation port (in its pod each
 * aggregation is 2 hops from {@code l_d}; in another pod each is 3, through any of its cores, and its own hosts are
 * farther); an aggregation of pod {@code p_d} on {@code l_d}'s port; an aggregation of another pod on every core port
 * (each core reaches pod {@code p_d}'s aggregation of the same index); a core on port {@code p_d}. All these lists are
 * already in neighbour order, since every kind of neighbour is numbered and cabled in order.
 */
public final class FatTreeRouting extends RoutingTable {

  private final int hostsPerLeaf;
  private final int leavesPerPod;
  private final int aggregationsPerPod;
  private final int coresPerAggregation;
  private final int firstLeaf;
  private final int firstAggregation;
  private final int firstCore;
  /** {@code [p]} for every port number a single-port route can use (a leaf's host port, a down port, a core's). */
  private final int[][] singlePort;
  /** Every leaf's aggregation ports, {@code H .. H+A-1}. */
  private final int[] aggregationPorts;
  /** Every aggregation's core ports, {@code L .. L+C/A-1}. */
  private final int[] corePorts;

  private FatTreeRouting(PortGraph graph, int pods, int leavesPerPod, int aggregationsPerPod, int cores,
                         int hostsPerLeaf) {
    super(pods * leavesPerPod * hostsPerLeaf,
        pods * leavesPerPod * hostsPerLeaf + pods * (leavesPerPod + aggregationsPerPod) + cores);
    this.hostsPerLeaf = hostsPerLeaf;
    this.leavesPerPod = leavesPerPod;
    this.aggregationsPerPod = aggregationsPerPod;
    this.coresPerAggregation = cores / aggregationsPerPod;
    this.firstLeaf = hostCount();
    this.firstAggregation = firstLeaf + pods * leavesPerPod;
    this.firstCore = firstAggregation + pods * aggregationsPerPod;
    String routing = "fat-tree routing of " + pods + " pods x " + leavesPerPod + " leaves x " + hostsPerLeaf
        + " hosts, " + aggregationsPerPod + " aggregations per pod, " + cores + " cores";
    requireShape(graph, routing, hostCount(), vertexCount());
    // Vertex counts alone can agree for other shapes (2 pods x 4 leaves against 4 pods x 2): check the ports.
    int leafPorts = hostsPerLeaf + aggregationsPerPod;
    int aggregationPortCount = leavesPerPod + coresPerAggregation;
    if (graph.portCount(firstLeaf) != leafPorts || graph.portCount(firstAggregation) != aggregationPortCount
        || cores > 0 && graph.portCount(firstCore) != pods) {
      throw new IllegalArgumentException(routing + " expects " + leafPorts + " ports on the first leaf, "
          + aggregationPortCount + " on the first aggregation and " + (cores > 0 ? pods : 0) + " on the first core,"
          + " but " + graph.description() + " has " + graph.portCount(firstLeaf) + ", "
          + graph.portCount(firstAggregation) + " and " + (cores > 0 ? graph.portCount(firstCore) : 0));
    }
    this.singlePort = singletons(Math.max(Math.max(hostsPerLeaf, leavesPerPod), pods));
    this.aggregationPorts = range(hostsPerLeaf, aggregationsPerPod);
    this.corePorts = range(leavesPerPod, coresPerAggregation);
  }

  /**
   * The routes of {@code graph}, which {@code FatTreeSpec.build()} built with these parameters.
   *
   * @throws IllegalArgumentException if {@code graph} does not have the vertices and ports those parameters give
   */
  public static FatTreeRouting of(PortGraph graph, int pods, int leavesPerPod, int aggregationsPerPod, int cores,
                                  int hostsPerLeaf) {
    return new FatTreeRouting(graph, pods, leavesPerPod, aggregationsPerPod, cores, hostsPerLeaf);
  }

  private static int[] range(int first, int count) {
    int[] ports = new int[count];
    for (int i = 0; i < count; i++) ports[i] = first + i;
    return ports;
  }

  @Override
  int[] ports(int vertex, int destinationHost) {
    if (vertex < firstLeaf) return vertex == destinationHost ? NO_PORTS : singlePort[0];
    int destinationLeaf = destinationHost / hostsPerLeaf;
    int destinationPod = destinationLeaf / leavesPerPod;
    if (vertex < firstAggregation) {
      int leaf = vertex - firstLeaf;
      return leaf == destinationLeaf ? singlePort[destinationHost - leaf * hostsPerLeaf] : aggregationPorts;
    }
    if (vertex < firstCore) {
      int pod = (vertex - firstAggregation) / aggregationsPerPod;
      return pod == destinationPod ? singlePort[destinationLeaf - pod * leavesPerPod] : corePorts;
    }
    return singlePort[destinationPod];
  }

  @Override
  int neighbour(int vertex, int port) {
    if (vertex < firstLeaf) return firstLeaf + vertex / hostsPerLeaf;
    if (vertex < firstAggregation) {
      int leaf = vertex - firstLeaf;
      if (port < hostsPerLeaf) return leaf * hostsPerLeaf + port;
      return firstAggregation + leaf / leavesPerPod * aggregationsPerPod + port - hostsPerLeaf;
    }
    if (vertex < firstCore) {
      int aggregation = vertex - firstAggregation;
      int pod = aggregation / aggregationsPerPod;
      if (port < leavesPerPod) return firstLeaf + pod * leavesPerPod + port;
      return firstCore + aggregation % aggregationsPerPod * coresPerAggregation + port - leavesPerPod;
    }
    return firstAggregation + port * aggregationsPerPod + (vertex - firstCore) / coresPerAggregation;
  }
}
