package io.fabemu.archfixtures.traces;

import io.fabemu.archfixtures.node.NodeCoreFixture;

/** The trace reader naming a device class (the violation). */
public final class TraceNamingADevice {
  public NodeCoreFixture device;
}
