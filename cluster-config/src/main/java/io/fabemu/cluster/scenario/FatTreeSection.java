package io.fabemu.cluster.scenario;

import io.fabemu.core.topology.FatTreeSpec;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * The three-tier fat-tree: {@code pods}, {@code leaves-per-pod}, {@code aggregations-per-pod}, {@code cores} and
 * {@code hosts-per-leaf} give the shape (and so the host count), {@code host-link}, {@code leaf-link} and
 * {@code core-link} the three cable classes. The rules across the counts are the spec's own
 * ({@link FatTreeSpec#shapeProblem()}), reported here at their key; the limits on its cables are the leaf-spine's.
 * No INC: the switch INC aggregates in two tiers (TOR, SPINE), and a fat-tree has a third between them.
 */
final class FatTreeSection implements TopologyKindSection<FatTreeSpec> {

  @Override
  public String configName() {
    return FatTreeSpec.CONFIG_NAME;
  }

  @Override
  public List<String> keys() {
    return List.of("pods", "leaves-per-pod", "aggregations-per-pod", "cores", "hosts-per-leaf", "host-link",
        "leaf-link", "core-link");
  }

  @Override
  public boolean shapeGivesHosts() {
    return true;
  }

  /** The shape's spec; {@code hosts} is unused, the shape gives the host count ({@link #check} compares them). */
  @Override
  public FatTreeSpec read(ScenarioReader in, int hosts) {
    return FatTreeSpec.builder()
        .pods(in.intValue("topology.pods", 1, ScenarioLoader.MAX_HOSTS))
        .leavesPerPod(in.intValue("topology.leaves-per-pod", 1, ScenarioLoader.MAX_HOSTS))
        .aggregationsPerPod(in.intValue("topology.aggregations-per-pod", 1, ScenarioLoader.MAX_SPINES))
        .cores(in.intValue("topology.cores", 0, ScenarioLoader.MAX_SPINES))
        .hostsPerLeaf(in.intValue("topology.hosts-per-leaf", 1, ScenarioLoader.MAX_HOSTS))
        .hostLink(in.link("topology.host-link"))
        .leafLink(in.link("topology.leaf-link"))
        .coreLink(in.link("topology.core-link"))
        .build();
  }

  @Override
  public void check(ScenarioReader in, FatTreeSpec spec, Consumer<String> rejectOtherKindsKeys) {
    rejectOtherKindsKeys.accept("fat-tree uses host-link, leaf-link and core-link");
    long hosts = (long) spec.pods() * spec.leavesPerPod() * spec.hostsPerLeaf();
    if (hosts > ScenarioLoader.MAX_HOSTS) {
      throw in.error("topology.pods", spec.pods() + " pods x " + spec.leavesPerPod() + " leaves x "
          + spec.hostsPerLeaf() + " hosts = " + hosts + " hosts is above the limit of " + ScenarioLoader.MAX_HOSTS);
    }
    long leafCables = (long) spec.pods() * spec.leavesPerPod() * spec.aggregationsPerPod();
    if (leafCables > ScenarioLoader.MAX_TOR_SPINE_CABLES) {
      throw in.error("topology.aggregations-per-pod", spec.pods() + " pods x " + spec.leavesPerPod() + " leaves x "
          + spec.aggregationsPerPod() + " aggregations = " + leafCables + " leaf-aggregation cables is above the limit"
          + " of " + ScenarioLoader.MAX_TOR_SPINE_CABLES);
    }
    long coreCables = (long) spec.pods() * spec.cores();
    if (coreCables > ScenarioLoader.MAX_TOR_SPINE_CABLES) {
      throw in.error("topology.cores", spec.pods() + " pods x " + spec.cores() + " cores = " + coreCables
          + " aggregation-core cables is above the limit of " + ScenarioLoader.MAX_TOR_SPINE_CABLES);
    }
    spec.shapeProblem().ifPresent(p -> {
      throw in.error("topology." + p.key(), p.reason());
    });
    if (in.writtenByUser("topology.hosts")) {
      int written = in.intValue("topology.hosts", 1, ScenarioLoader.MAX_HOSTS);
      if (written != spec.hosts()) {
        throw in.error("topology.hosts", written + " does not match " + spec.pods() + " pods x "
            + spec.leavesPerPod() + " leaves x " + spec.hostsPerLeaf() + " hosts per leaf, which make "
            + spec.hosts() + " hosts (leave hosts out: a fat-tree's host count follows from its shape)");
      }
    }
  }

  @Override
  public Optional<IncRules> incRules(FatTreeSpec spec) {
    return Optional.empty();
  }

  @Override
  public String noIncReason() {
    return "the switch INC aggregates in two tiers (TOR, SPINE), and a fat-tree has a third, its aggregation"
        + " switches, between its leaves and its cores";
  }
}
