package io.fabemu.engine;

import io.fabemu.core.sim.RunBlueprint;

/**
 * What the engine's distributed tests send their members to build from: a gossip fabric of {@link GossipCore}s by
 * its seed, plain or in zones, with {@code hops} hops and {@code elements} per packet when both are above 0 (registered
 * with the wire serializer in the tests' {@code application-test.conf}).
 *
 * @param seed     the gossip's seed
 * @param zoned    the zoned fabric (members own zones) instead of the plain one
 * @param hops     hops per packet of the zoned fabric with big packets, or 0
 * @param elements elements per packet of the zoned fabric with big packets, or 0
 */
record GossipBlueprint(long seed, boolean zoned, int hops, int elements) implements RunBlueprint {

  static GossipBlueprint plain(long seed) {
    return new GossipBlueprint(seed, false, 0, 0);
  }

  static GossipBlueprint zoned(long seed) {
    return new GossipBlueprint(seed, true, 0, 0);
  }

  static GossipBlueprint bigPackets(long seed, int hops, int elements) {
    return new GossipBlueprint(seed, true, hops, elements);
  }

  /** Whether the zoned fabric carries big packets (both counts given). */
  boolean big() {
    return hops > 0 && elements > 0;
  }
}
