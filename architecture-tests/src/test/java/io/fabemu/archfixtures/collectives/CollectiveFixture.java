package io.fabemu.archfixtures.collectives;

import io.fabemu.archfixtures.fabric.Fabric;

/** A collective reaching up into fabric (the violation of "nothing below fabric depends on it"). */
public final class CollectiveFixture {
  public Fabric fabric;
}
