package io.fabemu.core.topology;

import io.fabemu.core.routing.RoutingTable;

/**
 * Which fabric to build: one record per topology kind, each with the fields only that kind has.
 *
 * <p>Contract: a spec names its kind as scenario files write it ({@link #configName()}) and builds its own {@link
 * Topology} ({@link #build()}), numbering vertices as {@link Topology} requires. Code outside a kind's record asks
 * the spec or the built topology, never a kind's fields, so a new kind is a new record here (and its wire
 * registration).
 */
public sealed interface TopologySpec permits LeafSpineSpec, LineSpec, RingSpec, FullMeshSpec {

  /** Number of hosts (compute nodes). */
  int hosts();

  /** The kind as {@code topology.kind} names it, e.g. {@code leaf-spine}. */
  String configName();

  /**
   * The fabric this spec describes.
   *
   * @throws IllegalArgumentException naming the kind, the parameter and the offending value when a field is out of
   *     range
   */
  Topology build();

  /**
   * The routes of {@code topology}, which {@link #build()} of this spec built: computed from the kind's numbering
   * where it has a structure to compute them from, else {@link RoutingTable#compute} (the full shortest-path
   * table, whose set-up grows with hosts x links). Whichever it is, the routes are those {@link RoutingTable}'s
   * contract defines, port array for port array, so the choice changes set-up time and memory, never a result.
   *
   * @throws IllegalArgumentException when {@code topology} is not the one this spec builds
   */
  RoutingTable routing(Topology topology);
}
