package io.fabemu.collectives;

import io.fabemu.core.optical.ConnectionPolicy;

/**
 * What the fabric tells the topology-aware algorithms about where the world's ranks sit.
 *
 * @param grid  the ranks on the fabric's mesh or torus, for {@link Algorithm#DIMENSION_RING}; null elsewhere
 * @param rings the fabric's ring embedding, for the algorithms {@link Algorithm#onEmbeddedRings}; null without one
 * @param optical the connection policy of an optical cluster, for {@link Collective#PIPELINE} (rank = server x N +
 *              NPU); null on other fabrics
 * @param ranksPerServer consecutive ranks that share a server (its hosts' ranks), which {@link Algorithm#TREE}
 *              chains; 0: a compute node's ranks ({@code workload.ppn})
 */
public record RankLayout(RankGrid grid, EmbeddedRings rings, ConnectionPolicy optical, int ranksPerServer) {
  /** No grid, no rings: the fabric is neither a mesh nor a torus, and embeds no rings. */
  public static final RankLayout NONE = new RankLayout(null, null, null);

  public RankLayout {
    if (ranksPerServer < 0) throw new IllegalArgumentException("ranks per server must not be negative");
  }

  /** A grid, rings and an optical policy; a server is a compute node. */
  public RankLayout(RankGrid grid, EmbeddedRings rings, ConnectionPolicy optical) {
    this(grid, rings, optical, 0);
  }

  /** A grid and rings, no optical policy. */
  public RankLayout(RankGrid grid, EmbeddedRings rings) {
    this(grid, rings, null);
  }

  /** The ranks of one server: {@link #ranksPerServer}, or {@code ppn} when it is 0. */
  public int ranksPerServer(int ppn) {
    return ranksPerServer > 0 ? ranksPerServer : ppn;
  }

  /** Only a grid (null for none). */
  public static RankLayout ofGrid(RankGrid grid) {
    return new RankLayout(grid, null);
  }
}
