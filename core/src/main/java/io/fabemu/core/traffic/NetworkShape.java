package io.fabemu.core.traffic;

import java.util.Arrays;
import java.util.Locale;

/**
 * The facts about a router network that synthetic traffic patterns need: its kind, its sizes, how nodes are
 * numbered and which nodes are directly cabled to which. Immutable.
 *
 * <p>Numbering. On a mesh or torus of sizes (X, Y, Z) node {@code x + X*(y + Y*z)} sits at (x, y, z); a 2-D network
 * has Z = 1. On a group-ring of G groups of P nodes node {@code group*P + index} is the {@code index}-th node of
 * group {@code group}. A group-ring is stored with {@code sizeX = P}, {@code sizeY = G}, {@code sizeZ = 1}, so that
 * the same formula holds with x the index in the group and y the group: {@link #coordinates} works for every kind.
 *
 * <p>Neighbours (the nodes a node's router is directly cabled to). Mesh: the nodes at +-1 in each dimension that
 * exist. Torus: +-1 in each dimension, wrapping around. Group-ring: every other node of its group, and the node of
 * the same index in the previous and in the next group on the ring. A neighbour is listed once even when two
 * channels lead to it (a torus dimension of size 2, a ring of 2 groups).
 *
 * @param kind  mesh, torus or group-ring
 * @param sizeX nodes along x (mesh, torus) or nodes per group (group-ring), at least 1
 * @param sizeY nodes along y (mesh, torus) or groups (group-ring), at least 1
 * @param sizeZ nodes along z (mesh, torus; 1 for a 2-D network); 1 for a group-ring
 */
public record NetworkShape(Kind kind, int sizeX, int sizeY, int sizeZ) {

  /** The kinds of router network traffic patterns are defined on. */
  public enum Kind { MESH, TORUS, GROUP_RING }

  public NetworkShape {
    if (kind == null) throw new IllegalArgumentException("network shape needs a kind, got none");
    requirePositive("sizeX", sizeX);
    requirePositive("sizeY", sizeY);
    requirePositive("sizeZ", sizeZ);
    if (kind == Kind.GROUP_RING && sizeZ != 1) {
      throw new IllegalArgumentException("a group-ring shape has sizeZ 1, got " + sizeZ);
    }
    long nodes = (long) sizeX * sizeY * sizeZ;
    if (nodes < 2) {
      throw new IllegalArgumentException("a network shape needs at least 2 nodes for traffic, got " + nodes);
    }
    if (nodes > Integer.MAX_VALUE) {
      throw new IllegalArgumentException("a network shape has at most " + Integer.MAX_VALUE + " nodes, got " + nodes);
    }
  }

  private static void requirePositive(String name, int value) {
    if (value < 1) throw new IllegalArgumentException("network shape " + name + " must be at least 1, got " + value);
  }

  /** A mesh of sizes (x, y, z); z = 1 for a 2-D mesh. */
  public static NetworkShape mesh(int sizeX, int sizeY, int sizeZ) {
    return new NetworkShape(Kind.MESH, sizeX, sizeY, sizeZ);
  }

  /** A torus of sizes (x, y, z); z = 1 for a 2-D torus. */
  public static NetworkShape torus(int sizeX, int sizeY, int sizeZ) {
    return new NetworkShape(Kind.TORUS, sizeX, sizeY, sizeZ);
  }

  /** A group-ring of {@code groups} groups of {@code nodesPerGroup} nodes each. */
  public static NetworkShape groupRing(int groups, int nodesPerGroup) {
    return new NetworkShape(Kind.GROUP_RING, nodesPerGroup, groups, 1);
  }

  public int nodeCount() {
    return sizeX * sizeY * sizeZ;
  }

  /** Whether this is a mesh or torus with z = 1. */
  public boolean isTwoDimensional() {
    return kind != Kind.GROUP_RING && sizeZ == 1;
  }

  /** Groups of a group-ring. */
  public int groups() {
    requireGroupRing("groups");
    return sizeY;
  }

  /** Nodes per group of a group-ring. */
  public int nodesPerGroup() {
    requireGroupRing("nodesPerGroup");
    return sizeX;
  }

  private void requireGroupRing(String what) {
    if (kind != Kind.GROUP_RING) throw new IllegalStateException(what + " is defined on a group-ring, not a " + this);
  }

  /** (x, y, z) of a node; on a group-ring (index in group, group, 0). */
  public int[] coordinates(int node) {
    requireNode("node", node);
    return new int[] {node % sizeX, (node / sizeX) % sizeY, node / (sizeX * sizeY)};
  }

  /** The node at (x, y, z); on a group-ring (index in group, group, 0). */
  public int node(int x, int y, int z) {
    if (x < 0 || x >= sizeX || y < 0 || y >= sizeY || z < 0 || z >= sizeZ) {
      throw new IllegalArgumentException("coordinates (" + x + ", " + y + ", " + z + ") are outside the " + this);
    }
    return x + sizeX * (y + sizeY * z);
  }

  /**
   * The distinct nodes directly cabled to {@code node}, in a fixed order: mesh and torus dimension by dimension
   * (x, y, z), the -1 side before the +1 side; group-ring the other nodes of the group by index, then the previous
   * group's node, then the next group's.
   */
  public int[] neighbours(int node) {
    requireNode("node", node);
    int[] found = new int[kind == Kind.GROUP_RING ? sizeX + 1 : 6];
    int count = 0;
    if (kind == Kind.GROUP_RING) {
      int group = node / sizeX;
      int index = node % sizeX;
      for (int other = 0; other < sizeX; other++) {
        if (other != index) found[count++] = group * sizeX + other;
      }
      if (sizeY > 1) {
        found[count++] = Math.floorMod(group - 1, sizeY) * sizeX + index;
        int next = ((group + 1) % sizeY) * sizeX + index;
        if (next != found[count - 1]) found[count++] = next;
      }
      return Arrays.copyOf(found, count);
    }
    int[] at = coordinates(node);
    int[] sizes = {sizeX, sizeY, sizeZ};
    for (int dimension = 0; dimension < 3; dimension++) {
      int size = sizes[dimension];
      if (size == 1) continue;
      int[] lower = at.clone();
      int[] upper = at.clone();
      lower[dimension] = at[dimension] - 1;
      upper[dimension] = at[dimension] + 1;
      if (kind == Kind.TORUS) {
        lower[dimension] = Math.floorMod(lower[dimension], size);
        upper[dimension] = upper[dimension] % size;
      }
      int lowerNode = lower[dimension] >= 0 ? node(lower[0], lower[1], lower[2]) : -1;
      int upperNode = upper[dimension] < size ? node(upper[0], upper[1], upper[2]) : -1;
      if (lowerNode >= 0) found[count++] = lowerNode;
      if (upperNode >= 0 && upperNode != lowerNode) found[count++] = upperNode;
    }
    return Arrays.copyOf(found, count);
  }

  void requireNode(String name, int node) {
    if (node < 0 || node >= nodeCount()) {
      throw new IllegalArgumentException(name + " must be in 0.." + (nodeCount() - 1) + " of the " + this + ", got "
          + node);
    }
  }

  /** "4x4 mesh", "4x4x2 torus", "group-ring of 4 groups x 8 nodes". */
  @Override
  public String toString() {
    switch (kind) {
      case MESH:
      case TORUS:
        return sizeX + "x" + sizeY + (sizeZ > 1 ? "x" + sizeZ : "") + " " + kind.name().toLowerCase(Locale.ROOT);
      default:
        return "group-ring of " + sizeY + " groups x " + sizeX + " nodes";
    }
  }
}
