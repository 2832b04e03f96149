package io.fabemu.cluster.scenario;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigValueFactory;
import io.fabemu.core.topology.TopologySpec;
import java.util.List;

/**
 * The {@code topology} section: the kind, the host count, and the kind's own keys and rules, which each kind keeps
 * in its {@link TopologyKindSection}. Puts a {@link CheckedTopology} in the draft and leaves the keys of other kinds
 * out of the echo; a router network's echo states the host count its shape gives.
 *
 * <p>Contract: keys of another kind are refused when the user wrote them, naming the kinds that use them. Every
 * kind's keys are read whatever the kind, so a bad value is named as such before it is refused as unused.
 */
final class TopologySection implements ScenarioSection {
  /** Every kind a scenario can name, in the order messages list them. */
  private static final List<TopologyKindSection<?>> KINDS = List.of(new LeafSpineSection(),
      DirectNetworkSection.LINE, DirectNetworkSection.RING, DirectNetworkSection.FULL_MESH,
      RouterNetworkSection.MESH, RouterNetworkSection.TORUS, RouterNetworkSection.GROUP_RING, new PrismSection(),
      new OpticalSection(), new RailLeafSpineSection(), new FatTreeSection());

  @Override
  public void read(ScenarioReader in, ScenarioDraft draft) {
    TopologyKindSection<?> kind = in.enumValue("topology.kind", TopologySection::kindNamed,
        KINDS.stream().map(TopologyKindSection::configName).toList());
    int hosts = in.intValue("topology.hosts", 1, ScenarioLoader.MAX_HOSTS);
    // Every kind's values first (see the contract); reading the chosen kind's again below cannot fail.
    for (TopologyKindSection<?> k : KINDS) k.read(in, hosts);
    CheckedTopology topology = checked(in, kind, hosts);
    draft.topology(topology);
    // Echo only what the run uses, so the echo is itself a valid scenario.
    Config echo = draft.echo();
    for (String key : otherKindsKeys(kind)) echo = echo.withoutPath("topology." + key);
    // A router network's, a prism's or an optical cluster's hosts follow from its shape: echo that count, not the
    // default's.
    if (kind.shapeGivesHosts()) {
      echo = echo.withValue("topology.hosts", ConfigValueFactory.fromAnyRef(topology.spec().hosts()));
    }
    draft.echo(echo);
  }

  /** For messages: the router network kinds, {@code is mesh, torus or group-ring}. */
  static String routerNetworkKinds() {
    return oneOf(KINDS.stream().filter(TopologyKindSection::routerNetwork).map(TopologyKindSection::configName)
        .toList());
  }

  /** The kind section named {@code name}, or null when there is none. */
  static TopologyKindSection<?> kindNamed(String name) {
    return KINDS.stream().filter(k -> k.configName().equals(name)).findFirst().orElse(null);
  }

  private static <S extends TopologySpec> CheckedTopology checked(ScenarioReader in, TopologyKindSection<S> kind,
                                                                  int hosts) {
    S spec = kind.read(in, hosts);
    kind.check(in, spec, note -> rejectOtherKindsKeys(in, kind, note));
    return new CheckedTopology(spec, kind.incRules(spec), kind.noIncReason(), kind.routerNetwork(),
        kind.routerVcClasses());
  }

  /** The keys other kinds read and {@code kind} does not, in kind order. */
  private static List<String> otherKindsKeys(TopologyKindSection<?> kind) {
    return KINDS.stream().flatMap(k -> k.keys().stream()).distinct().filter(key -> !kind.keys().contains(key))
        .toList();
  }

  private static void rejectOtherKindsKeys(ScenarioReader in, TopologyKindSection<?> kind, String note) {
    for (String key : otherKindsKeys(kind)) {
      String path = "topology." + key;
      if (in.writtenByUser(path)) {
        List<String> users = KINDS.stream().filter(k -> k.keys().contains(key)).map(TopologyKindSection::configName)
            .toList();
        throw in.error(path, "only used when kind " + oneOf(users) + " (" + note + ")");
      }
    }
  }

  /** {@code = leaf-spine}, or {@code is line, ring or full-mesh}. */
  private static String oneOf(List<String> kinds) {
    if (kinds.size() == 1) return "= " + kinds.get(0);
    return "is " + String.join(", ", kinds.subList(0, kinds.size() - 1)) + " or " + kinds.get(kinds.size() - 1);
  }
}
