package io.fabemu.archfixtures.core.time;

import io.fabemu.archfixtures.core.sim.SimFixture;

/** Cycle inside core: core.time uses core.sim, which uses core.time. */
public final class TimeFixture {
  public SimFixture sim() {
    return new SimFixture();
  }
}
