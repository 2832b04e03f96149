package io.fabemu.core.topology;

/**
 * How a topology's hosts lie on a grid of up to three dimensions, as its kind numbers them: host
 * {@code x + sizeX * (y + sizeY * z)} sits at (x, y, z), so x varies fastest and z slowest. Placement cuts such a
 * topology into blocks of the grid ({@code io.fabemu.core.placement.PlacementPlan}).
 *
 * <p>What the dimensions are is the kind's: a mesh or torus (x, y, z); a group-ring (index in the group, group); a
 * prism (position in the layer, layer); an optical cluster of full-mesh servers (NPU, server). A router network's
 * node is its host with its router (the switch cabled to that host alone).
 *
 * @param sizeX hosts along x, at least 1
 * @param sizeY hosts along y, at least 1
 * @param sizeZ hosts along z, at least 1
 */
public record NodeGrid(int sizeX, int sizeY, int sizeZ) {

  public NodeGrid {
    if (sizeX < 1 || sizeY < 1 || sizeZ < 1) {
      throw new IllegalArgumentException("a node grid needs sizes of at least 1, got " + sizeX + " x " + sizeY + " x "
          + sizeZ);
    }
    if ((long) sizeX * sizeY * sizeZ > Integer.MAX_VALUE) {
      throw new IllegalArgumentException("a node grid has at most " + Integer.MAX_VALUE + " nodes, got " + sizeX
          + " x " + sizeY + " x " + sizeZ);
    }
  }

  /** {@code sizeX * sizeY * sizeZ}. */
  public int nodeCount() {
    return sizeX * sizeY * sizeZ;
  }

  /** The size of dimension {@code d} (0 = x, 1 = y, 2 = z). */
  public int size(int d) {
    return switch (d) {
      case 0 -> sizeX;
      case 1 -> sizeY;
      case 2 -> sizeZ;
      default -> throw new IllegalArgumentException("a node grid has dimensions 0 to 2, not " + d);
    };
  }
}
