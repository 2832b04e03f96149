package io.fabemu.core.topology;

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
}
