package io.fabemu.engine;

/**
 * Marker of every message that may cross cluster members. {@code reference.conf} binds it to
 * {@link KryoWireSerializer}; every class implementing it (and every class it carries) must also be listed under
 * {@code fabemu.wire.registrations}, or serializing it fails.
 */
public interface WireMessage {}
