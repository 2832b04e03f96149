package io.fabemu.archfixtures.core.sim;

import io.fabemu.archfixtures.core.time.TimeFixture;

/** Cycle inside core: core.sim uses core.time back (the violation). */
public final class SimFixture {
  public TimeFixture time() {
    return new TimeFixture();
  }
}
