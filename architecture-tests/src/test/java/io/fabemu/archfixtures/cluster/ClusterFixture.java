package io.fabemu.archfixtures.cluster;

import io.fabemu.archfixtures.app.AppFixture;

/** Cycle between top-level packages: cluster uses app back (the violation). */
public final class ClusterFixture {
  public AppFixture app() {
    return new AppFixture();
  }
}
