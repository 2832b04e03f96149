package io.fabemu.archfixtures.switching;

/** A switch class. */
public final class SwitchFixture {
}
