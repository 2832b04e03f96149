package io.fabemu.collectives;

import io.fabemu.core.optical.ConnectionPolicy;

/**
 * What the fabric tells the topology-aware algorithms about where the world's ranks sit.
 *
 * @param grid  the ranks on the fabric's mesh or torus, for {@link Algorithm#DIMENSION_RING}; null elsewhere
 * @param rings the fabric's ring embedding, for the algorithms {@link Algorithm#onEmbeddedRings}; null without one
 * @param optical the connection policy of an optical cluster, for {@link Collective#PIPELINE} (rank = server x N +
 *              NPU); null on other fabrics
 */
public record RankLayout(RankGrid grid, EmbeddedRings rings, ConnectionPolicy optical) {
  /** No grid, no rings: the fabric is neither a mesh nor a torus, and embeds no rings. */
  public static final RankLayout NONE = new RankLayout(null, null, null);

  /** A grid and rings, no optical policy. */
  public RankLayout(RankGrid grid, EmbeddedRings rings) {
    this(grid, rings, null);
  }

  /** Only a grid (null for none). */
  public static RankLayout ofGrid(RankGrid grid) {
    return new RankLayout(grid, null);
  }
}
