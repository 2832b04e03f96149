package io.fabemu.cluster.scenario;

import com.typesafe.config.ConfigList;
import io.fabemu.core.router.RouterSpec;
import io.fabemu.core.topology.GroupRingSpec;
import io.fabemu.core.topology.LinkSpec;
import io.fabemu.core.topology.MeshSpec;
import io.fabemu.core.topology.TopologySpec;
import io.fabemu.core.topology.TorusSpec;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * The router networks (mesh, torus, group-ring): a router in every node, channels between routers. A kind's shape
 * keys ({@code dimensions}, or {@code groups} and {@code nodes-per-group}) give its host count, so
 * {@code topology.hosts} may be left out and, when written, must equal it. Every channel is the router section's
 * {@link RouterSpec#channel()} (one flit per cycle, {@code link-latency-cycles}), so these kinds have no
 * {@code link} key. There are no switches, so no INC.
 *
 * <p>Contract: {@link #read} checks the shape (sizes in range, at most {@link ScenarioLoader#MAX_HOSTS} hosts) and
 * builds the spec with the router's channel; {@link #check} refuses a written host count that differs from the
 * shape's, and a {@code devices.router.virtual-channels} that the kind's virtual-channel classes cannot share
 * equally (a torus and a group-ring route with 2 classes, split at a dateline).
 *
 * @param <S> the kind's spec
 */
final class RouterNetworkSection<S extends TopologySpec> implements TopologyKindSection<S> {
  static final RouterNetworkSection<MeshSpec> MESH = new RouterNetworkSection<>(MeshSpec.CONFIG_NAME,
      List.of("dimensions"), grid(MeshSpec::new), s -> dimensions(s.sizeX(), s.sizeY(), s.sizeZ()), "its dimensions",
      1, "");
  static final RouterNetworkSection<TorusSpec> TORUS = new RouterNetworkSection<>(TorusSpec.CONFIG_NAME,
      List.of("dimensions"), grid(TorusSpec::new), s -> dimensions(s.sizeX(), s.sizeY(), s.sizeZ()),
      "its dimensions", 2, "a torus routes with 2 virtual-channel classes, split at a dateline on every ring so "
          + "that routes around the wrap-around cannot deadlock");
  static final RouterNetworkSection<GroupRingSpec> GROUP_RING = new RouterNetworkSection<>(GroupRingSpec.CONFIG_NAME,
      List.of("groups", "nodes-per-group"), RouterNetworkSection::groupRing,
      s -> "groups = " + s.groups() + " x nodes-per-group = " + s.nodesPerGroup(), "groups and nodes-per-group", 2,
      "a group-ring routes with 2 virtual-channel classes, split at a dateline on every ring joining its groups so "
          + "that routes around a ring cannot deadlock");

  private static final String DIMENSIONS = "topology.dimensions";

  /** Reads a kind's shape keys and builds its spec with {@code channel} for every channel. */
  @FunctionalInterface
  private interface ShapeReader<S> {
    S read(ScenarioReader in, LinkSpec channel);
  }

  /** A grid kind's spec from its sizes ({@code sizeZ} 1 for 2-D) and its channel. */
  @FunctionalInterface
  private interface GridSpecOf<S> {
    S of(int sizeX, int sizeY, int sizeZ, LinkSpec channel);
  }

  private final String configName;
  private final List<String> keys;
  private final ShapeReader<S> shapeReader;
  private final Function<S, String> shapeText;
  private final String shapeKeys;
  private final int vcClasses;
  private final String vcClassesReason;

  /**
   * @param shapeText       the shape as the user wrote it, for messages: {@code dimensions [8, 8]}
   * @param shapeKeys       the keys the host count follows from, for messages
   * @param vcClasses       virtual-channel classes the kind's routing needs
   * @param vcClassesReason why, for the message refusing virtual channels it cannot share (empty when 1)
   */
  private RouterNetworkSection(String configName, List<String> keys, ShapeReader<S> shapeReader,
                               Function<S, String> shapeText, String shapeKeys, int vcClasses,
                               String vcClassesReason) {
    this.configName = configName;
    this.keys = keys;
    this.shapeReader = shapeReader;
    this.shapeText = shapeText;
    this.shapeKeys = shapeKeys;
    this.vcClasses = vcClasses;
    this.vcClassesReason = vcClassesReason;
  }

  @Override
  public String configName() {
    return configName;
  }

  @Override
  public List<String> keys() {
    return keys;
  }

  @Override
  public boolean routerNetwork() {
    return true;
  }

  @Override
  public int routerVcClasses() {
    return vcClasses;
  }

  /** The shape's spec; {@code hosts} is unused, the shape gives the host count ({@link #check} compares them). */
  @Override
  public S read(ScenarioReader in, int hosts) {
    return shapeReader.read(in, RouterSection.spec(in).channel());
  }

  @Override
  public void check(ScenarioReader in, S spec, Consumer<String> rejectOtherKindsKeys) {
    rejectOtherKindsKeys.accept("this topology is " + configName + ", whose channels come from devices.router");
    if (in.writtenByUser("topology.hosts")) {
      int written = in.intValue("topology.hosts", 1, ScenarioLoader.MAX_HOSTS);
      if (written != spec.hosts()) {
        throw in.error("topology.hosts", written + " does not match " + shapeText.apply(spec) + ", which make "
            + spec.hosts() + " hosts (leave hosts out: a " + configName + "'s host count follows from " + shapeKeys
            + ")");
      }
    }
    int virtualChannels = RouterSection.spec(in).virtualChannels();
    if (virtualChannels % vcClasses != 0) {
      throw in.error("devices.router.virtual-channels", virtualChannels + " is not a multiple of " + vcClasses + ": "
          + vcClassesReason + ", each class taking an equal share of the virtual channels");
    }
  }

  @Override
  public Optional<IncRules> incRules(S spec) {
    return Optional.empty();
  }

  /** Mesh and torus: {@code dimensions}, 2 or 3 sizes of at least 2 routers. */
  private static <S> ShapeReader<S> grid(GridSpecOf<S> specOf) {
    return (in, channel) -> {
      ConfigList list = in.list(DIMENSIONS, "[8, 8] or [4, 4, 4]");
      if (list.size() < 2 || list.size() > 3) {
        throw in.error(DIMENSIONS, list, "has " + list.size() + (list.size() == 1 ? " size" : " sizes")
            + "; give 2 (x, y) or 3 (x, y, z), e.g. [8, 8] or [4, 4, 4]");
      }
      int[] sizes = {1, 1, 1};
      for (int i = 0; i < list.size(); i++) {
        sizes[i] = in.intOf(DIMENSIONS + "[" + i + "]", list.get(i), 2, ScenarioLoader.MAX_HOSTS);
      }
      // At most (2^20)^3: inside a long.
      long hosts = (long) sizes[0] * sizes[1] * sizes[2];
      if (hosts > ScenarioLoader.MAX_HOSTS) {
        throw in.error(DIMENSIONS, list, dimensions(sizes[0], sizes[1], sizes[2]) + " make " + hosts
            + " hosts, above the limit of " + ScenarioLoader.MAX_HOSTS);
      }
      return specOf.of(sizes[0], sizes[1], sizes[2], channel);
    };
  }

  private static GroupRingSpec groupRing(ScenarioReader in, LinkSpec channel) {
    // A ring needs two groups; a group of one router makes the group-ring a ring of routers.
    int groups = in.intValue("topology.groups", 2, ScenarioLoader.MAX_HOSTS);
    int nodesPerGroup = in.intValue("topology.nodes-per-group", 1, ScenarioLoader.MAX_HOSTS);
    long hosts = (long) groups * nodesPerGroup;
    if (hosts > ScenarioLoader.MAX_HOSTS) {
      throw in.error("topology.nodes-per-group", groups + " groups x " + nodesPerGroup + " nodes per group = "
          + hosts + " hosts is above the limit of " + ScenarioLoader.MAX_HOSTS);
    }
    return new GroupRingSpec(groups, nodesPerGroup, channel);
  }

  /** {@code dimensions [8, 8]} or {@code dimensions [4, 4, 4]}, as written: a 2-D network has {@code sizeZ} 1. */
  private static String dimensions(int sizeX, int sizeY, int sizeZ) {
    return "dimensions [" + sizeX + ", " + sizeY + (sizeZ == 1 ? "" : ", " + sizeZ) + "]";
  }
}
