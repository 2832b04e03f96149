package io.fabemu.cluster.scenario;

import io.fabemu.collectives.Algorithm;
import io.fabemu.collectives.IncMode;
import io.fabemu.core.topology.TopologySpec;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * One topology kind's part of the {@link TopologySection}: the keys under {@code topology} only it reads, the spec
 * they make, the rules across them, and what in-network computing needs of the kind.
 *
 * <p>Contract: {@link #read} checks each value of the kind's keys (type, unit, range) and nothing across them, so
 * the topology section may read every kind's keys whatever the kind; {@link #check} applies the kind's rules to the
 * spec {@link #read} gave. Adding a topology kind means adding its spec record in core and an implementation here,
 * listed in {@link TopologySection}.
 *
 * @param <S> the kind's spec
 */
interface TopologyKindSection<S extends TopologySpec> {

  /** The kind as {@code topology.kind} names it. */
  String configName();

  /** The keys under {@code topology} this kind reads, besides {@code kind} and {@code hosts}, in defaults order. */
  List<String> keys();

  /**
   * Whether this kind is a router network: a router in every node, its host count following from its shape (so
   * {@code topology.hosts} may be left out), its channels from {@code devices.router}, and no switches for
   * {@code devices.switch}. False for the other kinds.
   */
  default boolean routerNetwork() {
    return false;
  }

  /**
   * The virtual-channel classes a router network's routing needs (its {@code RouterRouting.vcClasses()}), known from
   * the kind alone so that rules on them run before the topology is built; 0 for the other kinds.
   */
  default int routerVcClasses() {
    return 0;
  }

  /**
   * Whether this kind's shape gives its host count (so {@code topology.hosts} may be left out, and the echo states
   * the count the shape gives): the router networks, the prism and the optical cluster.
   */
  default boolean shapeGivesHosts() {
    return routerNetwork();
  }

  /** The spec of this kind with {@code hosts} hosts (a router network's shape gives its own), from its keys. */
  S read(ScenarioReader in, int hosts);

  /**
   * Applies this kind's rules to {@code spec}.
   *
   * @param rejectOtherKindsKeys refuses the keys of other kinds the user wrote; called where those errors come among
   *                             the kind's own, with the note that ends their messages (in parentheses)
   */
  void check(ScenarioReader in, S spec, Consumer<String> rejectOtherKindsKeys);

  /** The INC rules of {@code spec}; empty when the kind has no TOR and SPINE switches to hold INC units. */
  Optional<IncRules> incRules(S spec);

  /**
   * Why INC is refused on this kind, beyond its lacking a leaf-spine's two tiers, for the end of the one line that
   * refuses it; empty when there is nothing to add (the kinds without switches, or without tiers).
   */
  default String noIncReason() {
    return "";
  }

  /** The rules an in-network algorithm's rank placement must meet on one topology. */
  @FunctionalInterface
  interface IncRules {

    /**
     * Checks that {@code algorithm} in {@code mode} can place {@code ppn} ranks per host on {@code socketsPerNode}
     * sockets; problems are reported at {@code path}.
     */
    void check(ScenarioReader in, String path, Algorithm algorithm, IncMode mode, int ppn, int socketsPerNode);
  }
}
