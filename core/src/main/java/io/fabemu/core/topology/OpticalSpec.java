package io.fabemu.core.topology;

import io.fabemu.core.optical.ConnectionFormula;
import io.fabemu.core.optical.ConnectionPolicy;
import io.fabemu.core.optical.OcsSpec;
import io.fabemu.core.routing.OpticalRouting;
import io.fabemu.core.routing.RoutingTable;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The optical full interconnect of the optical patent (docs/optical.md, "Topology"): {@code servers} servers (M) of
 * {@code npusPerServer} NPUs (N) each, the NPUs of a server joined by an intra-server fabric, and the NPUs of
 * different servers joined by the optical circuits of a {@link ConnectionPolicy} made by {@code formula}. Every NPU
 * is a host, {@code host = server * N + npu}; the hosts forward transit traffic themselves. A circuit is modelled as
 * a direct full-duplex link between its two NPUs with the optical latency: the optical circuit switch is a
 * transparent light path once the circuit is set up; with a reconfiguration delay ({@code ocs}) the OCS controller
 * sets the circuits up during the run and the links carry nothing before, and with policy changes
 * ({@code ocs.changes()}) it tears circuits down and sets others up during the run, the NPUs switching to the new
 * policy's routes ({@link #routings}); the topology then has a link for every circuit of every policy of the run.
 * See {@link Topologies#optical} for the numbering and the port order.
 *
 * @param servers         M, at least 1
 * @param npusPerServer   N, at least the minimum n of {@link io.fabemu.core.optical.OpticalSizing} and the planes
 *                        {@code formula} uses
 * @param intraServer     how a server's NPUs are joined
 * @param intraServerLink the intra-server links (NPU-NPU in a full mesh, NPU-switch with a server switch)
 * @param optical         an NPU's optical port and the circuit through the OCS
 * @param formula         the connection policy's formula (formula 3 only for even M)
 * @param ocs             the OCS controller: how long a circuit takes to set up ({@link OcsSpec#NONE}: up from the
 *                        start) and the policy changes during the run
 */
public record OpticalSpec(int servers, int npusPerServer, IntraServer intraServer, LinkSpec intraServerLink,
                          LinkSpec optical, ConnectionFormula formula, OcsSpec ocs) implements TopologySpec {

  public static final String CONFIG_NAME = "optical";

  public OpticalSpec {
    if (ocs == null) throw new IllegalArgumentException("optical: the OCS settings must not be null");
  }

  /** A cluster whose circuits are up from the start ({@link OcsSpec#NONE}). */
  public OpticalSpec(int servers, int npusPerServer, IntraServer intraServer, LinkSpec intraServerLink,
                     LinkSpec optical, ConnectionFormula formula) {
    this(servers, npusPerServer, intraServer, intraServerLink, optical, formula, OcsSpec.NONE);
  }

  /** How the NPUs of one server are joined. */
  public enum IntraServer {
    /** Every pair of a server's NPUs joined by a direct link. */
    FULL_MESH("full-mesh"),
    /** Each NPU joined by one link to its server's switch. */
    SWITCH("switch");

    private final String configName;

    IntraServer(String configName) {
      this.configName = configName;
    }

    /** The name as {@code topology.intra-server.kind} writes it. */
    public String configName() {
      return configName;
    }
  }

  /** {@code servers * npusPerServer} (saturating at {@link Integer#MAX_VALUE}; {@link #build()} rejects that). */
  @Override
  public int hosts() {
    return Topologies.saturatedProduct(servers, npusPerServer, 1);
  }

  /** N: a server's NPUs share its intra-server fabric. */
  @Override
  public int hostsPerServer() {
    return npusPerServer;
  }

  /** The host of NPU {@code npu} (0 .. N-1) of server {@code server} (0 .. M-1). */
  public int host(int server, int npu) {
    return server * npusPerServer + npu;
  }

  /**
   * The connection policy: {@link ConnectionPolicy#byFormula} of M, N and the formula.
   *
   * @throws IllegalArgumentException with one line when the cluster is refused (n > N, or a formula that cannot
   *     connect it)
   */
  public ConnectionPolicy policy() {
    return ConnectionPolicy.byFormula(servers, npusPerServer, formula);
  }

  /**
   * The run's policies: the initial {@link #policy()}, then the one of each change of {@code ocs.changes()}, in
   * order.
   *
   * @throws IllegalArgumentException with one line when a formula cannot connect the cluster, or a change's policy is
   *     the one already in force (a change that would change nothing)
   */
  public List<ConnectionPolicy> policies() {
    List<ConnectionPolicy> policies = new ArrayList<>();
    policies.add(policy());
    for (OcsSpec.PolicyChange change : ocs.changes()) {
      ConnectionPolicy next = ConnectionPolicy.byFormula(servers, npusPerServer, change.formula());
      ConnectionPolicy previous = policies.get(policies.size() - 1);
      if (next.sameCircuits(previous)) {
        throw new IllegalArgumentException(change.formula().label() + " is the policy already in force then ("
            + previous.formula().map(ConnectionFormula::label).orElse("listed") + " makes the same circuits): a change"
            + " to it changes nothing");
      }
      policies.add(next);
    }
    return List.copyOf(policies);
  }

  @Override
  public String configName() {
    return CONFIG_NAME;
  }

  /**
   * The cluster: with policy changes, a link for every circuit of any of the run's {@link #policies()} (the OCS
   * controller keeps those not up holding); else the policy's circuits only.
   */
  @Override
  public Topology build() {
    return Topologies.optical(policies(), intraServer, intraServerLink, optical);
  }

  /**
   * The policy's routes ({@link OpticalRouting}): within a server over the intra-server fabric; to another server
   * through the NPU whose circuit reaches it, never through a third server (which hop counts alone would allow).
   */
  @Override
  public RoutingTable routing(Topology topology) {
    return OpticalRouting.of(topology, policies(), 0, intraServer == IntraServer.SWITCH);
  }

  /**
   * The routes of each of the run's {@link #policies()} on {@code topology}, which {@link #build()} built: the
   * initial policy's first (those of {@link #routing}), then each change's, which the NPUs (and server switches) take
   * at the change's time.
   */
  public List<RoutingTable> routings(Topology topology) {
    List<ConnectionPolicy> policies = policies();
    List<RoutingTable> out = new ArrayList<>();
    for (int i = 0; i < policies.size(); i++) {
      out.add(OpticalRouting.of(topology, policies, i, intraServer == IntraServer.SWITCH));
    }
    return List.copyOf(out);
  }

  /** A switch per server and the OCS. */
  @Override
  public long switchCount() {
    return servers() + 1L;
  }

  /** NPU to its server's switch or peer, to the gateway, over the OCS, and down: about four links. */
  @Override
  public double meanLinkHops(boolean neighbours) {
    return 4;
  }

  /** A server's NPUs when they reach each other through its switch; each NPU alone when they are cabled straight. */
  @Override
  public int hostsPerPlacementGroup() {
    return intraServer() == IntraServer.SWITCH ? npusPerServer() : 1;
  }

  /** {@link #policy()}. */
  @Override
  public Optional<ConnectionPolicy> connectionPolicy() {
    return Optional.of(policy());
  }

  /** This cluster. */
  @Override
  public Optional<OpticalSpec> opticalCluster() {
    return Optional.of(this);
  }
}
