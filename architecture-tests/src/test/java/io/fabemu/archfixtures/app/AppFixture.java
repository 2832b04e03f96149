package io.fabemu.archfixtures.app;

import io.fabemu.archfixtures.cluster.ClusterFixture;

/** Cycle between top-level packages: app uses cluster, and cluster uses app. */
public final class AppFixture {
  public ClusterFixture cluster() {
    return new ClusterFixture();
  }
}
