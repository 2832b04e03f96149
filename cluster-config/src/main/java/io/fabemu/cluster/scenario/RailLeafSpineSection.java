package io.fabemu.cluster.scenario;

import com.typesafe.config.ConfigValue;
import com.typesafe.config.ConfigValueType;
import io.fabemu.core.topology.LinkSpec;
import io.fabemu.core.topology.RailLeafSpineSpec;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * The rail-optimized leaf-spine (docs/gpu-clusters.md, "Rail-optimized leaf-spine"): {@code servers} (S) and
 * {@code nics-per-server} (R, the rails) give the shape and so the host count (S x R); {@code servers-per-leaf}
 * (P, {@code all} by default: one leaf per rail) the servers under one rail leaf; {@code spines}, {@code host-link}
 * and {@code spine-link} as for the leaf-spine; {@code server-switch} a switch in every server joining its GPUs
 * ({@code enabled}, and its GPUs' {@code link}). {@code servers}, {@code spines} and the two links are the keys the
 * optical cluster and the leaf-spine read too (so their ranges are theirs). The rules: S a multiple of P; spines
 * for more than one group, and for more than one rail without a server switch; no INC (see {@link #NO_INC}).
 */
final class RailLeafSpineSection implements TopologyKindSection<RailLeafSpineSpec> {

  /** Most NICs (GPUs) of one server: today's servers have 4 or 8; 64 leaves room and keeps a leaf's name short. */
  static final int MAX_NICS_PER_SERVER = 64;

  /**
   * Why in-network computing is refused: the INC layout ({@code IncLayout}) puts a TOR's hosts in consecutive host
   * numbers (hosts-per-tor of them), and a rail leaf holds one NIC of each of its servers (hosts r, r + R, ...).
   */
  static final String NO_INC = "a rail leaf holds one NIC of each of its servers (hosts r, r + R, r + 2R, ...), but"
      + " the INC layout needs each TOR's hosts numbered consecutively; in-network reduction on rail fabrics"
      + " (CollNet/SHARP, NVLS) is a later step";

  @Override
  public String configName() {
    return RailLeafSpineSpec.CONFIG_NAME;
  }

  @Override
  public List<String> keys() {
    return List.of("servers", "nics-per-server", "servers-per-leaf", "spines", "host-link", "spine-link",
        "server-switch");
  }

  @Override
  public boolean shapeGivesHosts() {
    return true;
  }

  /** The shape's spec; {@code hosts} is unused, the shape gives the host count ({@link #check} compares them). */
  @Override
  public RailLeafSpineSpec read(ScenarioReader in, int hosts) {
    int servers = in.intValue("topology.servers", 1, OpticalSection.MAX_OPTICAL_HOSTS);
    int rails = in.intValue("topology.nics-per-server", 1, MAX_NICS_PER_SERVER);
    boolean serverSwitch = in.boolValue("topology.server-switch.enabled");
    LinkSpec serverSwitchLink = in.link("topology.server-switch.link");
    return RailLeafSpineSpec.builder(servers, rails, in.link("topology.host-link"))
        .serversPerLeaf(serversPerLeaf(in, servers))
        .spines(in.intValue("topology.spines", 0, ScenarioLoader.MAX_SPINES), in.link("topology.spine-link"))
        .serverSwitch(serverSwitch ? serverSwitchLink : null).build();
  }

  /** {@code all} (every server under one leaf per rail), or a whole number of servers, at least 1. */
  private static int serversPerLeaf(ScenarioReader in, int servers) {
    String path = "topology.servers-per-leaf";
    ConfigValue v = in.value(path);
    if (v.valueType() == ConfigValueType.STRING && ScenarioReader.text(v).strip().equals("all")) return servers;
    boolean text = v.valueType() == ConfigValueType.STRING;
    if (text ? !ScenarioReader.text(v).strip().matches("-?[0-9]+") : v.valueType() != ConfigValueType.NUMBER) {
      throw in.error(path, v, "expected all or a whole number of servers, got " + ScenarioReader.describe(v));
    }
    return in.intValue(path, 1, OpticalSection.MAX_OPTICAL_HOSTS);
  }

  @Override
  public void check(ScenarioReader in, RailLeafSpineSpec spec, Consumer<String> rejectOtherKindsKeys) {
    rejectOtherKindsKeys.accept("this topology is " + RailLeafSpineSpec.CONFIG_NAME);
    long hosts = (long) spec.servers() * spec.nicsPerServer();
    if (hosts > ScenarioLoader.MAX_HOSTS) {
      throw in.error("topology.nics-per-server", spec.servers() + " servers x " + spec.nicsPerServer() + " NICs = "
          + hosts + " hosts is above the limit of " + ScenarioLoader.MAX_HOSTS);
    }
    if (in.writtenByUser("topology.hosts")) {
      int written = in.intValue("topology.hosts", 1, ScenarioLoader.MAX_HOSTS);
      if (written != hosts) {
        throw in.error("topology.hosts", written + " does not match " + spec.servers() + " servers of "
            + spec.nicsPerServer() + " NICs, which make " + hosts + " hosts (leave hosts out: a rail-leaf-spine's"
            + " host count follows from servers and nics-per-server)");
      }
    }
    if (spec.servers() % spec.serversPerLeaf() != 0) {
      throw in.error("topology.servers-per-leaf", spec.serversPerLeaf() + " does not divide servers ("
          + spec.servers() + "): every rail leaf holds the same number of servers");
    }
    int groups = spec.servers() / spec.serversPerLeaf();
    if (spec.spines() == 0 && groups > 1) {
      throw in.error("topology.spines", "must be at least 1: " + spec.servers() + " servers at "
          + spec.serversPerLeaf() + " per leaf make " + groups + " groups, whose leaves reach each other only"
          + " through spines");
    }
    if (spec.spines() == 0 && spec.nicsPerServer() > 1 && !spec.hasServerSwitch()) {
      throw in.error("topology.spines", "must be at least 1 without a server switch: the " + spec.nicsPerServer()
          + " rails reach each other only through spines (or set server-switch.enabled = true)");
    }
    long cables = spec.leaves() * spec.spines();
    if (cables > ScenarioLoader.MAX_TOR_SPINE_CABLES) {
      throw in.error("topology.spines", spec.leaves() + " rail leaves x " + spec.spines() + " spines = " + cables
          + " leaf-spine cables is above the limit of " + ScenarioLoader.MAX_TOR_SPINE_CABLES);
    }
    if (in.boolValue("devices.inc.enabled")) {
      throw in.error("devices.inc.enabled", "INC is not available on a " + RailLeafSpineSpec.CONFIG_NAME + ": "
          + NO_INC);
    }
  }

  /** Refuses every in-network algorithm, with the reason ({@link #NO_INC}). */
  @Override
  public Optional<IncRules> incRules(RailLeafSpineSpec spec) {
    return Optional.of((in, path, algorithm, mode, ppn, socketsPerNode) -> {
      throw in.error(path, algorithm.configName() + " is not available on a " + RailLeafSpineSpec.CONFIG_NAME
          + ": " + NO_INC);
    });
  }
}
