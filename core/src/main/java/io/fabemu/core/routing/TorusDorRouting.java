package io.fabemu.core.routing;

import java.util.Objects;

/**
 * Dimension-order routing of a 2-D or 3-D torus with a router in every node, with dateline virtual-channel
 * classes. A packet corrects X, then Y, then Z; in each dimension it goes the shorter way round the ring, and when
 * both ways are equally short (exactly half-way round an even ring) it goes the + way (increasing coordinate). Every
 * route is therefore a shortest path, and the same for every packet of a pair.
 *
 * <p>Deadlock freedom: the wrap-around cables close every ring into a cycle of channels, so one class per channel
 * could deadlock. The dateline of a dimension is its wrap-around channel, from coordinate {@code size - 1} to 0 the
 * + way and from 0 to {@code size - 1} the - way. A packet takes class 0 on the channels of a dimension until it
 * takes that dimension's dateline channel, which and every later channel of the same dimension it takes in class 1;
 * entering a new dimension (or being injected) starts again in class 0, and the way out to the local NIC is class 0.
 * Since a shortest route crosses a dimension's dateline at most once, the channel dependencies within a class of a
 * ring form a chain, and dimension order orders the dimensions, so the channel dependency graph is acyclic. A
 * dimension of 2 nodes is a single cable with no wrap-around, so it has no dateline (class 1 is then never used in
 * it).
 *
 * <p>Numbering and port order: those of {@code Topologies.torus}, described in {@link GridLayout}: per dimension the
 * -d cable then the +d cable, except at coordinate 0 of a dimension of at least 3 nodes, where the +d cable comes
 * first. Constant time per call, no per-router memory.
 */
public final class TorusDorRouting implements RouterRouting {

  private final GridLayout grid;

  private TorusDorRouting(GridLayout grid) {
    this.grid = grid;
  }

  /**
   * The routing of {@code graph}, which {@code Topologies.torus(sizeX, sizeY, sizeZ, ..)} built.
   *
   * @throws IllegalArgumentException if a size is out of range, or {@code graph} is not numbered and cabled as that
   *                                  torus (every port is checked, in time linear in the links)
   */
  public static TorusDorRouting of(PortGraph graph, int sizeX, int sizeY, int sizeZ) {
    GridLayout grid = new GridLayout("torus routing", sizeX, sizeY, sizeZ, true);
    grid.requireGraph(graph, "torus routing of " + grid.shape());
    return new TorusDorRouting(grid);
  }

  @Override
  public int hostCount() {
    return grid.nodes();
  }

  @Override
  public int outputPort(int router, int destinationHost) {
    int node = Objects.checkIndex(router - grid.nodes(), grid.nodes());
    Objects.checkIndex(destinationHost, grid.nodes());
    for (int d = 0; d < GridLayout.DIMENSIONS; d++) {
      int here = grid.coordinate(node, d);
      int there = grid.coordinate(destinationHost, d);
      if (here != there) {
        int size = grid.size(d);
        int plusHops = Math.floorMod(there - here, size);
        // The + way when it is no longer than the - way (size - plusHops): ties go the + way.
        return grid.port(node, d, 2 * plusHops <= size);
      }
    }
    return LOCAL_PORT;
  }

  /** 2: class 0 before a dimension's dateline, class 1 from it on. */
  @Override
  public int vcClasses() {
    return 2;
  }

  @Override
  public int outputVcClass(int router, int inputPort, int inputVcClass, int outputPort, int destinationHost) {
    if (outputPort == LOCAL_PORT) return 0;
    int node = Objects.checkIndex(router - grid.nodes(), grid.nodes());
    int dimension = grid.dimensionOfPort(node, outputPort);
    if (grid.wraps(dimension)) {
      int coordinate = grid.coordinate(node, dimension);
      boolean plus = grid.isPlus(node, dimension, outputPort);
      if (plus ? coordinate == grid.size(dimension) - 1 : coordinate == 0) return 1; // the dateline channel
    }
    boolean sameDimension = inputPort != LOCAL_PORT && grid.dimensionOfPort(node, inputPort) == dimension;
    return sameDimension ? inputVcClass : 0;
  }
}
