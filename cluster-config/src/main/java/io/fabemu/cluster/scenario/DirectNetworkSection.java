package io.fabemu.cluster.scenario;

import io.fabemu.core.topology.FullMeshSpec;
import io.fabemu.core.topology.LineSpec;
import io.fabemu.core.topology.LinkSpec;
import io.fabemu.core.topology.RingSpec;
import io.fabemu.core.topology.TopologySpec;
import java.util.List;
import java.util.Optional;
import java.util.function.BiFunction;
import java.util.function.Consumer;

/**
 * The direct networks (line, ring, full mesh): hosts cabled to hosts by {@code link}, no switches, so no INC. They
 * differ in their spec and in how many hosts they take.
 */
final class DirectNetworkSection implements TopologyKindSection<TopologySpec> {
  static final DirectNetworkSection LINE =
      new DirectNetworkSection(LineSpec.CONFIG_NAME, LineSpec::new, ScenarioLoader.MAX_HOSTS, "");
  static final DirectNetworkSection RING =
      new DirectNetworkSection(RingSpec.CONFIG_NAME, RingSpec::new, ScenarioLoader.MAX_HOSTS, "");
  static final DirectNetworkSection FULL_MESH = new DirectNetworkSection(FullMeshSpec.CONFIG_NAME, FullMeshSpec::new,
      ScenarioLoader.MAX_FULL_MESH_HOSTS, " for a full mesh (its cables grow as hosts squared)");

  private final String configName;
  private final BiFunction<Integer, LinkSpec, TopologySpec> specOf;
  private final int maxHosts;
  private final String maxHostsReason;

  /**
   * @param specOf         the kind's spec from hosts and link
   * @param maxHosts       most hosts of the kind, at most {@link ScenarioLoader#MAX_HOSTS}
   * @param maxHostsReason ends the message refusing more hosts (empty when {@code maxHosts} is everyone's limit)
   */
  private DirectNetworkSection(String configName, BiFunction<Integer, LinkSpec, TopologySpec> specOf, int maxHosts,
                               String maxHostsReason) {
    this.configName = configName;
    this.specOf = specOf;
    this.maxHosts = maxHosts;
    this.maxHostsReason = maxHostsReason;
  }

  @Override
  public String configName() {
    return configName;
  }

  @Override
  public List<String> keys() {
    return List.of("link");
  }

  @Override
  public TopologySpec read(ScenarioReader in, int hosts) {
    return specOf.apply(hosts, in.link("topology.link"));
  }

  @Override
  public void check(ScenarioReader in, TopologySpec spec, Consumer<String> rejectOtherKindsKeys) {
    if (spec.hosts() > maxHosts) {
      throw in.error("topology.hosts", spec.hosts() + " is above the limit of " + maxHosts + maxHostsReason);
    }
    rejectOtherKindsKeys.accept("this topology is " + configName);
  }

  @Override
  public Optional<IncRules> incRules(TopologySpec spec) {
    return Optional.empty();
  }
}
