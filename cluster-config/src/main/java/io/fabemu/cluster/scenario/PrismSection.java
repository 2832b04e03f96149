package io.fabemu.cluster.scenario;

import io.fabemu.core.topology.PrismSpec;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * The prism (the ring patent, docs/prism.md): {@code nodes-per-layer} and {@code layers} give the shape (and so the host
 * count, as a router network's shape does), {@code intra-layer} and {@code inter-layer} the two link classes. The
 * hosts are cabled to each other directly, no switches, so no INC.
 */
final class PrismSection implements TopologyKindSection<PrismSpec> {

  /** Most hosts of a prism: its routes are a full shortest-path table, which grows as hosts squared. */
  static final int MAX_PRISM_HOSTS = 16_384;

  @Override
  public String configName() {
    return PrismSpec.CONFIG_NAME;
  }

  @Override
  public List<String> keys() {
    return List.of("nodes-per-layer", "layers", "intra-layer", "inter-layer");
  }

  @Override
  public boolean shapeGivesHosts() {
    return true;
  }

  /** The shape's spec; {@code hosts} is unused, the shape gives the host count ({@link #check} compares them). */
  @Override
  public PrismSpec read(ScenarioReader in, int hosts) {
    int perLayer = in.intValue("topology.nodes-per-layer", 3, MAX_PRISM_HOSTS);
    int layers = in.intValue("topology.layers", 2, MAX_PRISM_HOSTS);
    long nodes = (long) perLayer * layers;
    if (nodes > MAX_PRISM_HOSTS) {
      throw in.error("topology.layers", layers + " layers x " + perLayer + " nodes per layer = " + nodes
          + " hosts is above the limit of " + MAX_PRISM_HOSTS + " for a prism (its routes are a full shortest-path"
          + " table)");
    }
    return new PrismSpec(perLayer, layers, in.link("topology.intra-layer"), in.link("topology.inter-layer"));
  }

  @Override
  public void check(ScenarioReader in, PrismSpec spec, Consumer<String> rejectOtherKindsKeys) {
    rejectOtherKindsKeys.accept("this topology is " + PrismSpec.CONFIG_NAME);
    if (in.writtenByUser("topology.hosts")) {
      int written = in.intValue("topology.hosts", 1, ScenarioLoader.MAX_HOSTS);
      if (written != spec.hosts()) {
        throw in.error("topology.hosts", written + " does not match " + spec.layers() + " layers of "
            + spec.nodesPerLayer() + ", which make " + spec.hosts() + " hosts (leave hosts out: a prism's host count"
            + " follows from nodes-per-layer and layers)");
      }
    }
  }

  @Override
  public Optional<IncRules> incRules(PrismSpec spec) {
    return Optional.empty();
  }
}
