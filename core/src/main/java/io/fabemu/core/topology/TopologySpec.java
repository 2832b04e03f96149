package io.fabemu.core.topology;

import io.fabemu.core.optical.ConnectionPolicy;
import io.fabemu.core.optical.OcsSpec;
import io.fabemu.core.routing.RouterRouting;
import io.fabemu.core.routing.RoutingTable;
import io.fabemu.core.traffic.NetworkShape;
import java.util.Optional;

/**
 * Which fabric to build: one record per topology kind, each with the fields only that kind has.
 *
 * <p>Contract: a spec names its kind as scenario files write it ({@link #configName()}) and builds its own {@link
 * Topology} ({@link #build()}), numbering vertices as {@link Topology} requires. Code outside a kind's record asks
 * the spec or the built topology, never a kind's fields, so a new kind is a new record here (and its wire
 * registration). Facts that only some kinds have are asked here too (their defaults answer for the other kinds),
 * so that no code outside this package tests a spec's kind (an architecture rule forbids {@code instanceof} on a
 * kind there; casts and class comparisons are as unwelcome, by review).
 */
public sealed interface TopologySpec permits LeafSpineSpec, LineSpec, RingSpec, FullMeshSpec, MeshSpec, TorusSpec,
    GroupRingSpec, PrismSpec, OpticalSpec, RailLeafSpineSpec, FatTreeSpec {

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
   * The router networks (mesh, torus, group-ring) are the exception that contract names: their routes are the one
   * port per hop of their {@link #routerRouting} (dimension order), which their deadlock freedom rests on. So is the
   * optical cluster: its routes are its connection policy's (through the gateway NPU, never a third server).
   *
   * @throws IllegalArgumentException when {@code topology} is not the one this spec builds
   */
  RoutingTable routing(Topology topology);

  /**
   * The router routing of {@code topology}, which {@link #build()} of this spec built, when this kind is a router
   * network (a router in every node, numbered as {@link RouterRouting} requires); empty for every other kind.
   *
   * @throws IllegalArgumentException when {@code topology} is not the one this spec builds
   */
  default Optional<RouterRouting> routerRouting(Topology topology) {
    return Optional.empty();
  }

  /**
   * The node layout of a router network (mesh, torus, group-ring): what traffic patterns and dimension-wise
   * algorithms need of its shape; empty for the other kinds.
   */
  default Optional<NetworkShape> networkShape() {
    return Optional.empty();
  }

  // Counts from the spec alone, without building the fabric: for the pre-flight estimate (ResourceEstimate) and the
  // placement of hosts on members. Rough where a kind's structure varies (hops), exact for counts.

  /** Switches or routers of the fabric; 0 where hosts are cabled to each other (line, ring, full mesh, prism). */
  default long switchCount() {
    return 0;
  }

  /** Cables of the fabric: by default up to four per host and one per switch (router networks, lines, prisms). */
  default long cableCount() {
    return 4L * hosts() + switchCount();
  }

  /** Average router hops of a trip on a router network (mesh, torus, group ring); 0 on a fabric of whole packets. */
  default double meanRouterHops() {
    return 0;
  }

  /**
   * Links a packet crosses on average between two ranks ({@code neighbours}: consecutive ranks, as a ring's); by
   * default a router network's hops, else the square root of the hosts halved (at least 2).
   */
  default double meanLinkHops(boolean neighbours) {
    double routerHops = meanRouterHops();
    return routerHops > 0 ? routerHops : Math.max(2, Math.sqrt(hosts()) / 2);
  }

  /**
   * The offered load (flits per node per cycle) at which uniform traffic is taken to saturate, for the estimate of
   * a traffic sweep; {@link Double#MAX_VALUE} where no bound is known (every load counted).
   */
  default double saturationLoadGuess() {
    return Double.MAX_VALUE;
  }

  /** Hosts of one placement group, which stay together on one member: a TOR's hosts, a server's NPUs, or 1. */
  default int hostsPerPlacementGroup() {
    return 1;
  }

  /**
   * Hosts in one server: consecutive hosts that share a server's intra-server fabric (an optical cluster's NPUs, a GPU
   * server's GPUs), which NCCL's tree chains inside the server; 1 where a host is a server of its own.
   */
  default int hostsPerServer() {
    return 1;
  }

  /**
   * Hosts of a server whose traffic to each other is GPU-direct: over NVLink through the server's switch, never over
   * their NICs' PCIe (a GPU server with a server switch: {@link #hostsPerServer()}). 0 where every host's traffic
   * crosses its PCIe.
   */
  default int gpuDirectHostsPerServer() {
    return 0;
  }

  // Facts of the optical cluster and the prism, with the answer of every other kind as the default.

  /**
   * The OCS controller's settings: for the optical cluster its {@code ocs}; {@link OcsSpec#NONE} (nothing set up
   * during the run, no policy change) for every other kind.
   */
  default OcsSpec ocs() {
    return OcsSpec.NONE;
  }

  /**
   * The connection policy in force at the start, which the compute nodes lay out their ranks over and the run's
   * header prints; empty for kinds without optical circuits.
   *
   * @throws IllegalArgumentException with one line when the optical cluster is refused (see
   *     {@link OpticalSpec#policy()})
   */
  default Optional<ConnectionPolicy> connectionPolicy() {
    return Optional.empty();
  }

  /**
   * The optical cluster, for what needs all of it (its servers, NPUs and links: a pipeline's stages and costs, the
   * OCS controller's policies and routes); empty for every other kind.
   */
  default Optional<OpticalSpec> opticalCluster() {
    return Optional.empty();
  }

  /** The prism, for what needs its layers (its face-rule rings, its drawing); empty for every other kind. */
  default Optional<PrismSpec> prism() {
    return Optional.empty();
  }
}
