package io.fabemu.cluster.scenario;

import io.fabemu.collectives.Algorithm;
import io.fabemu.collectives.IncLayout;
import io.fabemu.collectives.IncMode;
import io.fabemu.core.topology.LeafSpineSpec;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * The leaf-spine kind: {@code hosts-per-tor}, {@code spines}, {@code host-link} and {@code spine-link}; the rules on
 * TORs and spines; and the INC rules, the only ones that count hosts per TOR.
 */
final class LeafSpineSection implements TopologyKindSection<LeafSpineSpec> {
  /**
   * Most TORs, and most leaders under one TOR, of an in-network algorithm: its control payload counts each in 16 bits
   * (the INC paper, table 2).
   */
  static final int MAX_INC_COUNT = 0xFFFF;

  @Override
  public String configName() {
    return LeafSpineSpec.CONFIG_NAME;
  }

  @Override
  public List<String> keys() {
    return List.of("hosts-per-tor", "spines", "host-link", "spine-link");
  }

  @Override
  public LeafSpineSpec read(ScenarioReader in, int hosts) {
    return new LeafSpineSpec(hosts, in.intValue("topology.hosts-per-tor", 1, Integer.MAX_VALUE),
        in.intValue("topology.spines", 0, ScenarioLoader.MAX_SPINES), in.link("topology.host-link"),
        in.link("topology.spine-link"));
  }

  @Override
  public void check(ScenarioReader in, LeafSpineSpec spec, Consumer<String> rejectOtherKindsKeys) {
    rejectOtherKindsKeys.accept("leaf-spine uses host-link and spine-link");
    int tors = tors(spec);
    if (tors > 1 && spec.spines() == 0) {
      throw in.error("topology.spines", "must be at least 1: " + spec.hosts() + " hosts at " + spec.hostsPerTor()
          + " per TOR need " + tors + " TORs, which reach each other only through spines");
    }
    long cables = (long) tors * spec.spines();
    if (cables > ScenarioLoader.MAX_TOR_SPINE_CABLES) {
      throw in.error("topology.spines", tors + " TORs x " + spec.spines() + " spines = " + cables
          + " TOR-spine cables is above the limit of " + ScenarioLoader.MAX_TOR_SPINE_CABLES);
    }
  }

  /** The last TOR may hold fewer hosts: the ceiling without the overflow of hosts + hostsPerTor - 1. */
  private static int tors(LeafSpineSpec spec) {
    return (spec.hosts() - 1) / spec.hostsPerTor() + 1;
  }

  @Override
  public Optional<IncRules> incRules(LeafSpineSpec spec) {
    return Optional.of((in, path, algorithm, mode, ppn, socketsPerNode) ->
        checkIncLayout(in, path, spec, algorithm, mode, ppn, socketsPerNode));
  }

  private static void checkIncLayout(ScenarioReader in, String path, LeafSpineSpec spec, Algorithm algorithm,
                                     IncMode mode, int ppn, int socketsPerNode) {
    IncLayout layout;
    try {
      layout = IncLayout.of(mode, spec.hosts(), ppn, socketsPerNode, spec.hostsPerTor());
    } catch (IllegalArgumentException e) {
      throw in.error(path, e.getMessage());
    }
    // The control payload counts TORs and the leaders under one TOR in 16 bits (the INC paper, table 2).
    if (layout.torCount() > MAX_INC_COUNT) {
      throw in.error(path, algorithm.configName() + " counts TORs in 16 bits: " + layout.torCount()
          + " TORs is above " + MAX_INC_COUNT);
    }
    long leadersPerTor = (long) spec.hostsPerTor() * layout.groupCount();
    if (leadersPerTor > MAX_INC_COUNT) {
      throw in.error(path, algorithm.configName() + " counts the leaders under a TOR in 16 bits: " + leadersPerTor
          + " (hosts-per-tor x groups) is above " + MAX_INC_COUNT);
    }
  }
}
