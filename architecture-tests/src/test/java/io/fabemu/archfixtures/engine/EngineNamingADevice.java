package io.fabemu.archfixtures.engine;

import io.fabemu.archfixtures.node.NodeCoreFixture;

/** The engine naming a device class (the violation). */
public final class EngineNamingADevice {
  public NodeCoreFixture device;
}
