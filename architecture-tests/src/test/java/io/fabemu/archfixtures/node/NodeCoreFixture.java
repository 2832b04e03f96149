package io.fabemu.archfixtures.node;

/** A device class. */
public final class NodeCoreFixture {
}
