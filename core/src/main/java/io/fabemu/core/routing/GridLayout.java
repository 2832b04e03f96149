package io.fabemu.core.routing;

/**
 * The coordinates and router port order of a mesh or torus as {@code Topologies.mesh} and {@code Topologies.torus}
 * number them, computed in constant time and memory; shared by {@link MeshDorRouting} and {@link TorusDorRouting}.
 *
 * <p>Node {@code i} (host {@code i}, router vertex {@code n + i}) has coordinate {@code i / stride(d) % size(d)} in
 * dimension {@code d} (0 = X, 1 = Y, 2 = Z; strides 1, sizeX, sizeX * sizeY). A router's port 0 is its host; then,
 * per dimension in order X, Y, Z, its cables in that dimension: the -d cable then the +d cable, each only where it
 * exists (a mesh node at coordinate 0 has no -d cable, one at {@code size - 1} no +d cable), except that at
 * coordinate 0 of a dimension with a wrap-around cable (a torus dimension of at least 3 nodes) the +d cable comes
 * first, because the wrap-around cable, its -d cable, is cabled last. A torus dimension of 2 nodes is a single
 * cable, as in a mesh.
 */
final class GridLayout {

  static final int DIMENSIONS = 3;
  private static final String[] AXES = {"x", "y", "z"};

  private final String kind;
  private final int nodes;
  private final int[] sizes;
  private final int[] strides;
  private final boolean torus;

  /**
   * @throws IllegalArgumentException naming the size when one is out of range (X and Y at least 2, Z at least 1), or
   *                                  when the network would have too many nodes
   */
  GridLayout(String kind, int sizeX, int sizeY, int sizeZ, boolean torus) {
    this.kind = kind;
    this.torus = torus;
    requireAtLeast("size-x", sizeX, 2);
    requireAtLeast("size-y", sizeY, 2);
    requireAtLeast("size-z", sizeZ, 1);
    long product = (long) sizeX * sizeY;
    if (product <= RouterNetworkShape.MAX_NODES) product *= sizeZ;
    if (product > RouterNetworkShape.MAX_NODES) {
      throw new IllegalArgumentException(kind + " of " + sizeX + "x" + sizeY + "x" + sizeZ + " is too large: at most "
          + RouterNetworkShape.MAX_NODES + " nodes");
    }
    this.nodes = (int) product;
    this.sizes = new int[] {sizeX, sizeY, sizeZ};
    this.strides = new int[] {1, sizeX, sizeX * sizeY};
  }

  private void requireAtLeast(String parameter, int value, int min) {
    if (value < min) throw new IllegalArgumentException(kind + " needs " + parameter + " >= " + min + ", got " + value);
  }

  int nodes() {
    return nodes;
  }

  int size(int dimension) {
    return sizes[dimension];
  }

  int coordinate(int node, int dimension) {
    return node / strides[dimension] % sizes[dimension];
  }

  /** The node one step along {@code dimension}, wrapping round on a torus; the direction must exist at the node. */
  int step(int node, int dimension, boolean plus) {
    int size = sizes[dimension];
    int coordinate = coordinate(node, dimension);
    int next = plus ? (coordinate + 1 == size ? 0 : coordinate + 1) : (coordinate == 0 ? size - 1 : coordinate - 1);
    return node + (next - coordinate) * strides[dimension];
  }

  /** True when {@code dimension} has a wrap-around cable (coordinate {@code size - 1} to 0): a torus, size >= 3. */
  boolean wraps(int dimension) {
    return torus && sizes[dimension] >= 3;
  }

  boolean hasMinus(int node, int dimension) {
    return wraps(dimension) || coordinate(node, dimension) > 0;
  }

  boolean hasPlus(int node, int dimension) {
    return wraps(dimension) || coordinate(node, dimension) < sizes[dimension] - 1;
  }

  /** Ports {@code node}'s router has in {@code dimension}: 0 (a 2-D network's Z), 1 or 2. */
  int portCount(int node, int dimension) {
    return (hasMinus(node, dimension) ? 1 : 0) + (hasPlus(node, dimension) ? 1 : 0);
  }

  /** Ports of {@code node}'s router, its host's included. */
  int routerPortCount(int node) {
    int ports = 1;
    for (int d = 0; d < DIMENSIONS; d++) ports += portCount(node, d);
    return ports;
  }

  /** The first port of {@code node}'s router in {@code dimension}. */
  int firstPort(int node, int dimension) {
    int port = 1;
    for (int d = 0; d < dimension; d++) port += portCount(node, d);
    return port;
  }

  /** True when the +d cable comes first among the node's two cables in {@code dimension}: the wrap-around case. */
  private boolean plusFirst(int node, int dimension) {
    return wraps(dimension) && coordinate(node, dimension) == 0;
  }

  /** The port of {@code node}'s router towards {@code plus ? +d : -d}; that direction must exist at the node. */
  int port(int node, int dimension, boolean plus) {
    int first = firstPort(node, dimension);
    if (portCount(node, dimension) == 1) return first;
    return plus == plusFirst(node, dimension) ? first : first + 1;
  }

  /** The dimension of router port {@code port} (not 0, the host's) of {@code node}. */
  int dimensionOfPort(int node, int port) {
    int end = 1;
    for (int d = 0; d < DIMENSIONS && port >= 1; d++) {
      end += portCount(node, d);
      if (port < end) return d;
    }
    throw new IllegalArgumentException(kind + ": the router of node " + node + " has router ports 1.."
        + (routerPortCount(node) - 1) + ", not " + port);
  }

  /** True when router port {@code port} of {@code node}, in {@code dimension}, leads the + way. */
  boolean isPlus(int node, int dimension, int port) {
    if (portCount(node, dimension) == 1) return hasPlus(node, dimension);
    return (port == firstPort(node, dimension)) == plusFirst(node, dimension);
  }

  /**
   * Checks that {@code graph} is the network this layout describes: the router-network numbering, and every router
   * port leading where the port order says.
   *
   * @throws IllegalArgumentException naming the first difference
   */
  void requireGraph(PortGraph graph, String routing) {
    RouterNetworkShape.requireHostsAndLocalPorts(graph, routing, nodes);
    for (int node = 0; node < nodes; node++) {
      int router = nodes + node;
      RouterNetworkShape.requirePortCount(graph, routing, router, routerPortCount(node));
      for (int d = 0; d < DIMENSIONS; d++) {
        if (hasMinus(node, d)) {
          RouterNetworkShape.requirePort(graph, routing, router, port(node, d, false), nodes + step(node, d, false),
              "-" + AXES[d]);
        }
        if (hasPlus(node, d)) {
          RouterNetworkShape.requirePort(graph, routing, router, port(node, d, true), nodes + step(node, d, true),
              "+" + AXES[d]);
        }
      }
    }
  }

  /** {@code 4x4} or {@code 4x4x2}, as the builders describe the shape. */
  String shape() {
    return sizes[0] + "x" + sizes[1] + (sizes[2] == 1 ? "" : "x" + sizes[2]);
  }
}
