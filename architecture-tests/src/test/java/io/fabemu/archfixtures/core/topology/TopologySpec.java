package io.fabemu.archfixtures.core.topology;

/** A topology spec with two kinds; only this package may test which one a spec is. */
public sealed interface TopologySpec permits RingKindSpec, LineKindSpec {

  /** Allowed: a test of the kind inside core.topology. */
  static boolean isRing(TopologySpec spec) {
    return spec instanceof RingKindSpec;
  }
}
