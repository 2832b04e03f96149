package io.fabemu.collectives;

/**
 * What the fabric tells the topology-aware algorithms about where the world's ranks sit.
 *
 * @param grid  the ranks on the fabric's mesh or torus, for {@link Algorithm#DIMENSION_RING}; null elsewhere
 * @param rings the fabric's ring embedding, for the algorithms {@link Algorithm#onEmbeddedRings}; null without one
 */
public record RankLayout(RankGrid grid, EmbeddedRings rings) {
  /** No grid, no rings: the fabric is neither a mesh nor a torus, and embeds no rings. */
  public static final RankLayout NONE = new RankLayout(null, null);

  /** Only a grid (null for none). */
  public static RankLayout ofGrid(RankGrid grid) {
    return new RankLayout(grid, null);
  }
}
