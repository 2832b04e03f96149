package io.fabemu.core.sim;

/**
 * What every member of a distributed run builds its devices from: the coordinator sends it to each member once, and
 * each member builds the same devices from it (keeping those the placement gives it). It crosses the wire, so an
 * implementation is registered with the wire serializer by the module that owns it (a scenario in {@code fabric},
 * small blueprints of their own in the engine's tests). The engine never reads it; it only carries it, typed, so that
 * nothing else can be sent in its place.
 */
public interface RunBlueprint {}
