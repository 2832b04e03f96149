package io.fabemu.core.routing;

import java.util.Objects;

/**
 * Dimension-order routing of a 2-D or 3-D mesh with a router in every node: a packet first moves along X until its
 * X coordinate is the destination's, then along Y, then along Z, always towards the destination, so every route is
 * a shortest path and the same for every packet of a pair. It needs one virtual-channel class: dimension order on a
 * mesh has no cyclic channel dependency (a packet never turns from a later dimension back to an earlier one, and
 * within a dimension it never reverses).
 *
 * <p>Numbering and port order: those of {@code Topologies.mesh}, described in {@link GridLayout}: node {@code i} is
 * host {@code i} and router vertex {@code n + i}, at {@code x + sizeX * (y + sizeY * z)}; a router's ports are 0 = its
 * host, then per dimension X, Y, Z the -d cable then the +d cable, each where it exists. Constant time per call, no
 * per-router memory.
 */
public final class MeshDorRouting implements RouterRouting {

  private final GridLayout grid;

  private MeshDorRouting(GridLayout grid) {
    this.grid = grid;
  }

  /**
   * The routing of {@code graph}, which {@code Topologies.mesh(sizeX, sizeY, sizeZ, ..)} built.
   *
   * @throws IllegalArgumentException if a size is out of range, or {@code graph} is not numbered and cabled as that
   *                                  mesh (every port is checked, in time linear in the links)
   */
  public static MeshDorRouting of(PortGraph graph, int sizeX, int sizeY, int sizeZ) {
    GridLayout grid = new GridLayout("mesh routing", sizeX, sizeY, sizeZ, false);
    grid.requireGraph(graph, "mesh routing of " + grid.shape());
    return new MeshDorRouting(grid);
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
      if (here != there) return grid.port(node, d, there > here);
    }
    return LOCAL_PORT;
  }

  /** 1: dimension order on a mesh is deadlock-free without classes. */
  @Override
  public int vcClasses() {
    return 1;
  }

  /** Always 0, the only class. */
  @Override
  public int outputVcClass(int router, int inputPort, int inputVcClass, int outputPort, int destinationHost) {
    return 0;
  }
}
