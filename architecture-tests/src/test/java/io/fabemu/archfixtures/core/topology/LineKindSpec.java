package io.fabemu.archfixtures.core.topology;

/** Another kind of the fixture's topology spec. */
public record LineKindSpec(int hosts) implements TopologySpec {
}
