package io.fabemu.cluster.scenario;

import com.typesafe.config.ConfigList;
import com.typesafe.config.ConfigObject;
import com.typesafe.config.ConfigValue;
import io.fabemu.core.optical.ConnectionFormula;
import io.fabemu.core.optical.ConnectionPolicy;
import io.fabemu.core.optical.OcsSpec;
import io.fabemu.core.optical.OpticalSizing;
import io.fabemu.core.topology.OpticalSpec;
import io.fabemu.core.topology.OpticalSpec.IntraServer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.TreeSet;
import java.util.function.Consumer;

/**
 * The optical full interconnect (the optical patent, docs/optical.md): {@code servers} (M) and {@code npus-per-server} (N)
 * give the shape (and so the host count, M x N), {@code intra-server} how a server's NPUs are joined (its
 * {@code kind}, full-mesh or switch, and the links' rate and latency), {@code optical} every NPU's optical port and
 * circuit, {@code formula} the connection policy's formula (auto: formula 3 for even M, formula 1 for odd M). The
 * management device's refusals come here with the line of the key they concern: too few NPUs (n > N) at
 * {@code npus-per-server}, a formula that cannot connect the cluster at {@code formula}.
 * {@code ocs.reconfiguration-delay} is the OCS controller's circuit setup time (0: the circuits are up from the
 * start); {@code ocs.reconfigure} lists the connection-policy changes during the run, each {@code { at, formula }}:
 * at least one delay apart (the first at least one delay after time 0), a formula that can connect the cluster and
 * that changes the circuits in force, and only with a positive delay. No TOR or spine, so no INC.
 */
final class OpticalSection implements TopologyKindSection<OpticalSpec> {

  /** Most NPUs (hosts) of an optical cluster, as for the prism. */
  static final int MAX_OPTICAL_HOSTS = 16_384;

  /** {@code topology.formula}'s names; {@code auto} first. */
  private static final List<String> FORMULA_NAMES = List.of("auto", "formula-1", "formula-3");

  /** The policy changes' key path. */
  static final String RECONFIGURE = "topology.ocs.reconfigure";
  /** Most policy changes in one run. */
  static final int MAX_POLICY_CHANGES = 100;
  private static final String CHANGE_EXAMPLE = "{ at = 20 ms, formula = formula-1 }";
  /** A change's keys, in the order messages list them. */
  private static final List<String> CHANGE_KEYS = List.of("at", "formula");
  /** A change's formula names: a change names its policy ({@code auto} would be the formula already in force). */
  private static final List<String> CHANGE_FORMULA_NAMES = List.of("formula-1", "formula-3");

  @Override
  public String configName() {
    return OpticalSpec.CONFIG_NAME;
  }

  @Override
  public List<String> keys() {
    return List.of("servers", "npus-per-server", "intra-server", "optical", "formula", "ocs");
  }

  @Override
  public boolean shapeGivesHosts() {
    return true;
  }

  /** The shape's spec; {@code hosts} is unused, the shape gives the host count ({@link #check} compares them). */
  @Override
  public OpticalSpec read(ScenarioReader in, int hosts) {
    int servers = in.intValue("topology.servers", 1, MAX_OPTICAL_HOSTS);
    int npus = in.intValue("topology.npus-per-server", 1, MAX_OPTICAL_HOSTS);
    IntraServer intraServer = in.enumValue("topology.intra-server.kind", OpticalSection::intraServerNamed,
        Arrays.stream(IntraServer.values()).map(IntraServer::configName).toList());
    Optional<ConnectionFormula> formula = in.enumValue("topology.formula", OpticalSection::formulaNamed,
        FORMULA_NAMES);
    long delayPs = in.durationPs("topology.ocs.reconfiguration-delay", false);
    return new OpticalSpec(servers, npus, intraServer, in.link("topology.intra-server"),
        in.link("topology.optical"), formula.orElseGet(() -> ConnectionFormula.defaultFor(servers)),
        new OcsSpec(delayPs, policyChanges(in, delayPs)));
  }

  /**
   * {@code topology.ocs.reconfigure}: each change an object with {@code at} and {@code formula}, no other key; the
   * times each at least one reconfiguration delay after the one before (the first after time 0, when the initial
   * circuits are started), so only with a positive delay. Whether each formula connects the cluster and changes the
   * circuits is checked by {@link #check}, after the cluster's own checks.
   */
  private static List<OcsSpec.PolicyChange> policyChanges(ScenarioReader in, long delayPs) {
    ConfigList list = in.list(RECONFIGURE, "[" + CHANGE_EXAMPLE + "]");
    if (list.isEmpty()) return List.of();
    if (delayPs == 0) {
      throw in.error(RECONFIGURE, list, "policy changes need the OCS controller: set "
          + "topology.ocs.reconfiguration-delay above 0 (the time a circuit takes to come up)");
    }
    if (list.size() > MAX_POLICY_CHANGES) {
      throw in.error(RECONFIGURE, list, list.size() + " policy changes are above the limit of "
          + MAX_POLICY_CHANGES);
    }
    List<OcsSpec.PolicyChange> changes = new ArrayList<>();
    long previousPs = 0;
    for (int i = 0; i < list.size(); i++) {
      String path = RECONFIGURE + "[" + i + "]";
      ConfigValue item = list.get(i);
      if (!(item instanceof ConfigObject change)) {
        throw in.itemError(path, item, "expected a policy change such as " + CHANGE_EXAMPLE + ", got "
            + ScenarioReader.describe(item));
      }
      for (String key : new TreeSet<>(change.keySet())) {
        if (CHANGE_KEYS.contains(key)) continue;
        String hint = Suggestions.closest(key, CHANGE_KEYS).map(k -> " (did you mean '" + k + "'?)")
            .orElse(" (a change has " + String.join(" and ", CHANGE_KEYS) + ")");
        throw in.error(path + "." + key, change.get(key), "unknown key" + hint);
      }
      ConfigValue atValue = change.get("at");
      if (atValue == null) throw in.itemError(path, item, "missing at: when the policy changes, e.g. at = 20 ms");
      long atPs = in.durationOf(path + ".at", atValue, true);
      String at = "'" + ScenarioReader.text(atValue) + "'";
      if (i > 0 && atPs <= previousPs) {
        throw in.error(path + ".at", atValue, at + " is not after the change before (at "
            + Quantities.formatDuration(previousPs) + "): changes are listed in time order");
      }
      if (atPs - previousPs < delayPs) {
        String since = i == 0 ? "after the start, when the initial circuits are set up"
            : "after the change before (at " + Quantities.formatDuration(previousPs) + ")";
        throw in.error(path + ".at", atValue, at + " is less than the reconfiguration delay ("
            + Quantities.formatDuration(delayPs) + ") " + since + ": each change must come at least one "
            + "reconfiguration delay after the one before, once its circuits are up");
      }
      ConfigValue formulaValue = change.get("formula");
      if (formulaValue == null) {
        throw in.itemError(path, item, "missing formula: the new policy's, " + String.join(" or ",
            CHANGE_FORMULA_NAMES));
      }
      Optional<ConnectionFormula> formula = in.enumOf(path + ".formula", formulaValue,
          name -> name.equals("auto") ? null : formulaNamed(name), CHANGE_FORMULA_NAMES);
      changes.add(new OcsSpec.PolicyChange(atPs, formula.orElseThrow()));
      previousPs = atPs;
    }
    return List.copyOf(changes);
  }

  @Override
  public void check(ScenarioReader in, OpticalSpec spec, Consumer<String> rejectOtherKindsKeys) {
    rejectOtherKindsKeys.accept("this topology is " + OpticalSpec.CONFIG_NAME);
    long npus = (long) spec.servers() * spec.npusPerServer();
    if (npus > MAX_OPTICAL_HOSTS) {
      throw in.error("topology.npus-per-server", spec.servers() + " servers x " + spec.npusPerServer()
          + " NPUs per server = " + npus + " NPUs is above the limit of " + MAX_OPTICAL_HOSTS + " for an optical"
          + " cluster");
    }
    if (spec.intraServer() == IntraServer.FULL_MESH && spec.npusPerServer() > ScenarioLoader.MAX_FULL_MESH_HOSTS) {
      throw in.error("topology.npus-per-server", spec.npusPerServer() + " is above the limit of "
          + ScenarioLoader.MAX_FULL_MESH_HOSTS + " for an intra-server full mesh (its links grow as NPUs squared; use"
          + " intra-server.kind = switch)");
    }
    if (in.writtenByUser("topology.hosts")) {
      int written = in.intValue("topology.hosts", 1, ScenarioLoader.MAX_HOSTS);
      if (written != spec.hosts()) {
        throw in.error("topology.hosts", written + " does not match " + spec.servers() + " servers of "
            + spec.npusPerServer() + " NPUs, which make " + spec.hosts() + " hosts (leave hosts out: an optical"
            + " cluster's host count follows from servers and npus-per-server)");
      }
    }
    // The management device's checks (the optical patent, S801-S802), each refusal one line at the key it concerns.
    try {
      OpticalSizing.requireEnoughNpus(spec.servers(), spec.npusPerServer());
    } catch (IllegalArgumentException e) {
      throw in.error("topology.npus-per-server", e.getMessage());
    }
    ConnectionPolicy inForce;
    try {
      inForce = ConnectionPolicy.byFormula(spec.servers(), spec.npusPerServer(), spec.formula());
    } catch (IllegalArgumentException e) {
      throw in.error("topology.formula", e.getMessage());
    }
    checkPolicyChanges(in, spec, inForce);
  }

  /**
   * Each policy change's formula connects the cluster (the management device's refusal, one line at the change's
   * formula) and makes other circuits than the policy in force then (else the change is no change).
   */
  private static void checkPolicyChanges(ScenarioReader in, OpticalSpec spec, ConnectionPolicy initial) {
    List<OcsSpec.PolicyChange> changes = spec.ocs().changes();
    if (changes.isEmpty()) return;
    ConfigList list = in.list(RECONFIGURE, "[" + CHANGE_EXAMPLE + "]");
    ConnectionPolicy inForce = initial;
    String since = "since the start";
    for (int i = 0; i < changes.size(); i++) {
      String path = RECONFIGURE + "[" + i + "].formula";
      ConfigValue formulaValue = ((ConfigObject) list.get(i)).get("formula");
      OcsSpec.PolicyChange change = changes.get(i);
      ConnectionPolicy next;
      try {
        next = ConnectionPolicy.byFormula(spec.servers(), spec.npusPerServer(), change.formula());
      } catch (IllegalArgumentException e) {
        throw in.error(path, formulaValue, e.getMessage());
      }
      if (next.sameCircuits(inForce)) {
        throw in.error(path, formulaValue, change.formula().label() + " is the policy already in force (" + since
            + "): a change to it would change nothing");
      }
      inForce = next;
      since = "since the change at " + Quantities.formatDuration(change.atPs());
    }
  }

  @Override
  public Optional<IncRules> incRules(OpticalSpec spec) {
    return Optional.empty();
  }

  private static IntraServer intraServerNamed(String name) {
    return Arrays.stream(IntraServer.values()).filter(k -> k.configName().equals(name)).findFirst().orElse(null);
  }

  /** {@code auto}: empty (the default for M); {@code formula-1}, {@code formula-3}; null for an unknown name. */
  private static Optional<ConnectionFormula> formulaNamed(String name) {
    switch (name) {
      case "auto" -> {
        return Optional.empty();
      }
      case "formula-1" -> {
        return Optional.of(ConnectionFormula.FORMULA_1);
      }
      case "formula-3" -> {
        return Optional.of(ConnectionFormula.FORMULA_3);
      }
      default -> {
        return null;
      }
    }
  }
}
