package io.fabemu.collectives;

import java.util.Arrays;

/**
 * World ranks laid out on a grid, for algorithms that work dimension by dimension (the dimension-wise ring
 * Allreduce of a torus). Rank {@code r} has coordinate {@code (r / stride(d)) % size(d)} in dimension {@code d},
 * {@code stride(0) = 1} and {@code stride(d) = stride(d-1) * size(d-1)}: dimension 0 varies fastest. On a mesh or
 * torus of X x Y (x Z) nodes with {@code ppn} ranks per node the grid is {@code ppn, X, Y(, Z)}: the ranks of a node
 * first (rank = local + ppn * node), then the node's x, y and z (node = x + X * (y + Y * z)).
 *
 * <p>Immutable. Dimensions of size 1 are allowed (an algorithm skips them).
 */
public final class RankGrid {
  private final int[] sizes;
  private final int rankCount;

  private RankGrid(int[] sizes) {
    long product = 1;
    for (int d = 0; d < sizes.length; d++) {
      if (sizes[d] < 1) {
        throw new IllegalArgumentException("grid dimension " + d + " must have at least 1 rank, got " + sizes[d]
            + " in " + Arrays.toString(sizes));
      }
      product *= sizes[d];
      if (product > Integer.MAX_VALUE) {
        throw new IllegalArgumentException("grid " + Arrays.toString(sizes) + " has more ranks than an int counts");
      }
    }
    if (sizes.length == 0) {
      throw new IllegalArgumentException("a grid needs at least one dimension");
    }
    this.sizes = sizes;
    this.rankCount = (int) product;
  }

  /** A grid of the given sizes, dimension 0 first. */
  public static RankGrid of(int... sizes) {
    return new RankGrid(sizes.clone());
  }

  /** The grid of {@code ppn} ranks per node on nodes laid out with {@code nodeSizes} (x first). */
  public static RankGrid ofNodes(int ppn, int... nodeSizes) {
    int[] sizes = new int[nodeSizes.length + 1];
    sizes[0] = ppn;
    System.arraycopy(nodeSizes, 0, sizes, 1, nodeSizes.length);
    return new RankGrid(sizes);
  }

  public int dimensions() {
    return sizes.length;
  }

  public int size(int dimension) {
    return sizes[dimension];
  }

  /** Ranks between neighbours along {@code dimension}. */
  public int stride(int dimension) {
    int stride = 1;
    for (int d = 0; d < dimension; d++) stride *= sizes[d];
    return stride;
  }

  /** Number of ranks: the product of the sizes. */
  public int rankCount() {
    return rankCount;
  }

  /** The coordinate of {@code rank} in {@code dimension}. */
  public int coordinate(int rank, int dimension) {
    return (rank / stride(dimension)) % sizes[dimension];
  }

  /** The ranks in {@code rank}'s line along {@code dimension}, in coordinate order. */
  RankGroup line(int rank, int dimension) {
    int stride = stride(dimension);
    return new RankGroup(rank - coordinate(rank, dimension) * stride, stride, sizes[dimension]);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof RankGrid g && Arrays.equals(sizes, g.sizes);
  }

  @Override
  public int hashCode() {
    return Arrays.hashCode(sizes);
  }

  @Override
  public String toString() {
    StringBuilder s = new StringBuilder();
    for (int d = 0; d < sizes.length; d++) s.append(d == 0 ? "" : "x").append(sizes[d]);
    return s.toString();
  }
}
