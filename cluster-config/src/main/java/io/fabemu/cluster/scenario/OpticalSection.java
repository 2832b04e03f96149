package io.fabemu.cluster.scenario;

import io.fabemu.core.optical.ConnectionFormula;
import io.fabemu.core.optical.ConnectionPolicy;
import io.fabemu.core.optical.OcsSpec;
import io.fabemu.core.optical.OpticalSizing;
import io.fabemu.core.topology.OpticalSpec;
import io.fabemu.core.topology.OpticalSpec.IntraServer;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * The optical full interconnect (seed 004, docs/optical.md): {@code servers} (M) and {@code npus-per-server} (N)
 * give the shape (and so the host count, M x N), {@code intra-server} how a server's NPUs are joined (its
 * {@code kind}, full-mesh or switch, and the links' rate and latency), {@code optical} every NPU's optical port and
 * circuit, {@code formula} the connection policy's formula (auto: formula 3 for even M, formula 1 for odd M). The
 * management device's refusals come here with the line of the key they concern: too few NPUs (n > N) at
 * {@code npus-per-server}, a formula that cannot connect the cluster at {@code formula}.
 * {@code ocs.reconfiguration-delay} is the OCS controller's circuit setup time (0: the circuits are up from the
 * start). No TOR or spine, so no INC.
 */
final class OpticalSection implements TopologyKindSection<OpticalSpec> {

  /** Most NPUs (hosts) of an optical cluster, as for the prism. */
  static final int MAX_OPTICAL_HOSTS = 16_384;

  /** {@code topology.formula}'s names; {@code auto} first. */
  private static final List<String> FORMULA_NAMES = List.of("auto", "formula-1", "formula-3");

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
    return new OpticalSpec(servers, npus, intraServer, in.link("topology.intra-server"),
        in.link("topology.optical"), formula.orElseGet(() -> ConnectionFormula.defaultFor(servers)),
        new OcsSpec(in.durationPs("topology.ocs.reconfiguration-delay", false)));
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
    // The management device's checks (seed 004, S801-S802), each refusal one line at the key it concerns.
    try {
      OpticalSizing.requireEnoughNpus(spec.servers(), spec.npusPerServer());
    } catch (IllegalArgumentException e) {
      throw in.error("topology.npus-per-server", e.getMessage());
    }
    try {
      ConnectionPolicy.byFormula(spec.servers(), spec.npusPerServer(), spec.formula());
    } catch (IllegalArgumentException e) {
      throw in.error("topology.formula", e.getMessage());
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
