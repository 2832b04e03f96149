package io.fabemu.collectives;

/**
 * An arithmetic list of world ranks that an algorithm runs on: index {@code i} is world rank
 * {@code first + i * stride}. The whole world is (0, 1, p); the ranks of node k with ppn ranks per node are
 * (k * ppn, 1, ...); the node leaders are (0, ppn, nodes). This is what lets algorithms compose.
 */
record RankGroup(int first, int stride, int size) {

  RankGroup {
    if (size < 1 || stride < 1 || first < 0) {
      throw new IllegalArgumentException("bad group: first " + first + ", stride " + stride + ", size " + size);
    }
  }

  static RankGroup ofWorld(int worldSize) {
    return new RankGroup(0, 1, worldSize);
  }

  /** World rank of group index {@code index}. */
  int world(int index) {
    return first + index * stride;
  }
}
