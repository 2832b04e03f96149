package io.fabemu.archfixtures.core.topology;

/** One kind of the fixture's topology spec. */
public record RingKindSpec(int hosts) implements TopologySpec {
}
