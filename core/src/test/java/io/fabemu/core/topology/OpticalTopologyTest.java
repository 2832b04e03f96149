package io.fabemu.core.topology;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabemu.core.optical.Circuit;
import io.fabemu.core.optical.ConnectionFormula;
import io.fabemu.core.optical.ConnectionPolicy;
import io.fabemu.core.optical.OcsSpec;
import io.fabemu.core.routing.RoutingTable;
import io.fabemu.core.topology.OpticalSpec.IntraServer;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The optical full interconnect of the optical patent: its cabling by the connection policy and the policy's routes. */
class OpticalTopologyTest {

  private static final LinkSpec INTRA = new LinkSpec(400_000_000_000L, 200_000);
  private static final LinkSpec OPTICAL = new LinkSpec(100_000_000_000L, 1_000_000);

  private static OpticalSpec spec(int servers, int npus, IntraServer intra, ConnectionFormula formula) {
    return new OpticalSpec(servers, npus, intra, INTRA, OPTICAL, formula);
  }

  @ParameterizedTest
  @CsvSource({"8, 8, FULL_MESH, FORMULA_3", "8, 7, SWITCH, FORMULA_3", "5, 5, FULL_MESH, FORMULA_1",
      "5, 6, SWITCH, FORMULA_1", "4, 4, FULL_MESH, FORMULA_1", "1, 3, SWITCH, FORMULA_1", "2, 1, FULL_MESH, FORMULA_3"})
  void shouldCableEveryCircuitOfThePolicyAndTheIntraServerFabric(int servers, int npus, IntraServer intra,
                                                                 ConnectionFormula formula) {
    OpticalSpec spec = spec(servers, npus, intra, formula);
    Topology t = spec.build();
    ConnectionPolicy policy = spec.policy();
    boolean serverSwitch = intra == IntraServer.SWITCH;
    assertThat(t.hostCount()).isEqualTo(servers * npus);
    assertThat(t.vertexCount()).isEqualTo(servers * npus + (serverSwitch ? servers : 0));
    int intraCables = serverSwitch ? servers * npus : servers * npus * (npus - 1) / 2;
    assertThat(t.links()).hasSize(2 * (intraCables + servers * (servers - 1) / 2));
    // Every cross-server link is a circuit of the policy (same plane at both ends), with the optical spec.
    List<Circuit> cabled = new ArrayList<>();
    for (Topology.Link link : t.links()) {
      boolean crossServer = t.isHost(link.from()) && t.isHost(link.to()) && link.from() / npus != link.to() / npus;
      assertThat(link.spec()).isEqualTo(crossServer ? OPTICAL : INTRA);
      if (crossServer && link.from() < link.to()) {
        assertThat(link.from() % npus).isEqualTo(link.to() % npus);
        cabled.add(new Circuit(link.from() / npus, link.to() / npus, link.from() % npus));
      }
    }
    assertThat(cabled).containsExactlyInAnyOrderElementsOf(policy.circuits());
    // Ports: the intra-server ones, then the circuit where the NPU has one.
    for (int s = 0; s < servers; s++) {
      for (int d = 0; d < npus; d++) {
        int host = spec.host(s, d);
        int intraPorts = serverSwitch ? 1 : npus - 1;
        boolean joined = policy.peerServer(s, d) != ConnectionPolicy.NO_CIRCUIT;
        assertThat(t.portCount(host)).as("host %d", host).isEqualTo(intraPorts + (joined ? 1 : 0));
        if (joined) {
          assertThat(t.neighbour(host, intraPorts)).isEqualTo(spec.host(policy.peerServer(s, d), d));
        }
        if (serverSwitch) {
          assertThat(t.neighbour(host, 0)).isEqualTo(servers * npus + s);
          assertThat(t.neighbour(servers * npus + s, d)).isEqualTo(host);
        }
      }
    }
    assertThat(t.vertex(0).name()).isEqualTo("host0");
    if (serverSwitch) assertThat(t.vertex(servers * npus).name()).isEqualTo("switch0");
  }

  @ParameterizedTest
  @CsvSource({"8, 8, FULL_MESH, FORMULA_3", "8, 7, SWITCH, FORMULA_3", "5, 5, FULL_MESH, FORMULA_1",
      "7, 8, SWITCH, FORMULA_1", "4, 4, FULL_MESH, FORMULA_1", "4, 4, SWITCH, FORMULA_1", "1, 3, SWITCH, FORMULA_1",
      "1, 3, FULL_MESH, FORMULA_1", "6, 5, SWITCH, FORMULA_3"})
  void shouldRouteThroughTheGatewayNpuOverTheServersOwnCircuit(int servers, int npus, IntraServer intra,
                                                               ConnectionFormula formula) {
    OpticalSpec spec = spec(servers, npus, intra, formula);
    Topology t = spec.build();
    ConnectionPolicy policy = spec.policy();
    RoutingTable routes = spec.routing(t);
    boolean serverSwitch = intra == IntraServer.SWITCH;
    int hosts = servers * npus;
    for (int src = 0; src < hosts; src++) {
      for (int dst = 0; dst < hosts; dst++) {
        int a = src / npus;
        int b = dst / npus;
        List<Integer> expected = new ArrayList<>();
        expected.add(src);
        if (a == b) {
          if (src != dst) {
            if (serverSwitch) expected.add(hosts + a);
            expected.add(dst);
          }
        } else {
          int g = policy.gatewayNpu(a, b);
          if (src % npus != g) {
            if (serverSwitch) expected.add(hosts + a);
            expected.add(spec.host(a, g));
          }
          expected.add(spec.host(b, g));
          if (dst % npus != g) {
            if (serverSwitch) expected.add(hosts + b);
            expected.add(dst);
          }
        }
        assertThat(walk(t, routes, src, dst)).as("%d to %d", src, dst).isEqualTo(expected);
        assertThat(routes.path(src, dst)).isEqualTo(expected);
        assertThat(routes.distance(src, dst)).isEqualTo(expected.size() - 1);
        // No third server on the way: every host on the path is in server a or b.
        for (int v : expected) {
          int server = v < hosts ? v / npus : v - hosts;
          assertThat(server).isIn(a, b);
        }
      }
    }
  }

  /** Follows the routes' one port per hop over the topology's own cabling, checking every hop has one port. */
  private static List<Integer> walk(Topology t, RoutingTable routes, int src, int dst) {
    List<Integer> path = new ArrayList<>();
    int v = src;
    path.add(v);
    while (v != dst) {
      int[] ports = routes.nextHopPorts(v, dst);
      assertThat(ports).hasSize(1);
      v = t.neighbour(v, ports[0]);
      path.add(v);
      assertThat(path.size()).isLessThanOrEqualTo(7);
    }
    return path;
  }

  @Test
  void shouldRouteSwitchTrafficForEveryHostOnTheSameRules() {
    OpticalSpec spec = spec(4, 3, IntraServer.SWITCH, ConnectionFormula.FORMULA_3);
    Topology t = spec.build();
    RoutingTable routes = spec.routing(t);
    ConnectionPolicy policy = spec.policy();
    for (int s = 0; s < 4; s++) {
      int sw = 12 + s;
      for (int dst = 0; dst < 12; dst++) {
        int b = dst / 3;
        int expectedNpu = b == s ? dst % 3 : policy.gatewayNpu(s, b);
        assertThat(routes.nextHopPorts(sw, dst)).containsExactly(expectedNpu);
      }
    }
  }

  @Test
  void shouldKeepTrafficOffAThirdServerWhereHopCountsAloneWouldTakeIt() {
    // With server switches, NPU i of a reaching c by its circuit and NPU j of c reaching b make a 4-hop path through
    // c; the pair's own circuit takes 5 hops (switch, gateway, circuit, switch, NPU). The policy's routes take it.
    OpticalSpec spec = spec(8, 7, IntraServer.SWITCH, ConnectionFormula.FORMULA_3);
    Topology t = spec.build();
    ConnectionPolicy policy = spec.policy();
    int a = 0;
    int b = 1;
    int g = policy.gatewayNpu(a, b);
    int i = (g + 1) % 7;
    int c = policy.peerServer(a, i);
    int j = policy.gatewayNpu(c, b);
    assertThat(j).isNotEqualTo(g);
    int src = spec.host(a, i);
    int dst = spec.host(b, j);
    assertThat(RoutingTable.compute(t).distance(src, dst)).isEqualTo(4);
    assertThat(RoutingTable.compute(t).path(src, dst)).contains(spec.host(c, i));
    assertThat(spec.routing(t).path(src, dst)).containsExactly(src, 56, spec.host(a, g), spec.host(b, g), 57, dst);
  }

  @Test
  void shouldNameThePolicyInTheDescription() {
    assertThat(spec(8, 8, IntraServer.FULL_MESH, ConnectionFormula.FORMULA_3).build().description())
        .isEqualTo("optical: 8 servers x 8 NPUs (64 hosts), intra-server full mesh; formula 3: M = 8 servers, N = 8"
            + " NPUs per server, n = 7, 28 circuits on planes 0..6");
  }

  @Test
  void shouldRefuseAClusterThePolicyCannotConnect() {
    assertThatThrownBy(() -> spec(8, 6, IntraServer.FULL_MESH, ConnectionFormula.FORMULA_3).build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("M = 8 servers with N = 6 NPUs per server cannot be fully interconnected: each server needs n = 7"
            + " NPUs (n = M - 1 for even M)");
    assertThatThrownBy(() -> spec(7, 7, IntraServer.SWITCH, ConnectionFormula.FORMULA_3).build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("formula 3 is for an even number of servers, but M = 7 (use formula 1)");
  }

  @Test
  void shouldRefuseRoutesForAnotherShape() {
    OpticalSpec mesh = spec(4, 4, IntraServer.FULL_MESH, ConnectionFormula.FORMULA_3);
    Topology withSwitches = spec(4, 4, IntraServer.SWITCH, ConnectionFormula.FORMULA_3).build();
    assertThatThrownBy(() -> mesh.routing(withSwitches)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("optical routing of 4 servers x 4 NPUs");
  }

  /** The cluster of a run that changes from {@code formulas[0]} through the others, 10 us apart. */
  private static OpticalSpec changing(int servers, int npus, IntraServer intra, ConnectionFormula... formulas) {
    List<OcsSpec.PolicyChange> changes = new ArrayList<>();
    for (int i = 1; i < formulas.length; i++) changes.add(new OcsSpec.PolicyChange(i * 10_000_000L, formulas[i]));
    return new OpticalSpec(servers, npus, intra, INTRA, OPTICAL, formulas[0], new OcsSpec(10_000_000L, changes));
  }

  @ParameterizedTest
  @CsvSource({"4, 4, FULL_MESH, FORMULA_3, FORMULA_1", "4, 4, SWITCH, FORMULA_3, FORMULA_1",
      "8, 8, FULL_MESH, FORMULA_3, FORMULA_1", "6, 6, SWITCH, FORMULA_1, FORMULA_3",
      "2, 2, FULL_MESH, FORMULA_3, FORMULA_1"})
  void shouldCableEveryPolicysCircuitsAndRouteEachPolicyOverItsOwn(int servers, int npus, IntraServer intra,
                                                                  ConnectionFormula from, ConnectionFormula to) {
    OpticalSpec spec = changing(servers, npus, intra, from, to, from);
    Topology t = spec.build();
    List<ConnectionPolicy> policies = spec.policies();
    assertThat(policies).hasSize(3);
    assertThat(policies.get(0).formula()).contains(from);
    assertThat(policies.get(1).formula()).contains(to);
    // Every circuit of either policy is one link (both directions), cabled after the intra-server fabric.
    List<Circuit> union = ConnectionPolicy.unionOfCircuits(policies);
    Set<Circuit> both = new HashSet<>(policies.get(0).circuits());
    both.retainAll(policies.get(1).circuits());
    assertThat(union).hasSize(2 * servers * (servers - 1) / 2 - both.size())
        .startsWith(policies.get(0).circuits().toArray(new Circuit[0]));
    boolean serverSwitch = intra == IntraServer.SWITCH;
    int intraCables = serverSwitch ? servers * npus : servers * npus * (npus - 1) / 2;
    assertThat(t.links()).hasSize(2 * (intraCables + union.size()));
    List<RoutingTable> routings = spec.routings(t);
    assertThat(routings).hasSize(3);
    assertThat(spec.routing(t).path(0, servers * npus - 1)).isEqualTo(routings.get(0).path(0, servers * npus - 1));
    // Each policy's routes on the cluster of both take exactly the paths of that policy's own cluster.
    for (int k = 0; k < 3; k++) {
      OpticalSpec alone = spec(servers, npus, intra, k == 1 ? to : from);
      RoutingTable own = alone.routing(alone.build());
      for (int src = 0; src < servers * npus; src++) {
        for (int dst = 0; dst < servers * npus; dst++) {
          assertThat(walk(t, routings.get(k), src, dst)).as("policy %d, %d to %d", k, src, dst)
              .isEqualTo(own.path(src, dst));
        }
      }
    }
    assertThat(t.description()).isEqualTo(spec(servers, npus, intra, from).build().description() + "; then "
        + policies.get(1).summary() + "; then " + policies.get(0).summary());
  }

  @Test
  void shouldGiveEachNpuItsCircuitPortsInTheOrderItsCircuitsFirstAppear() {
    // M = 4 by formula 3 then formula 1 (no circuit in common): NPU 1 of server 0 (host 1) first joins server 2
    // (formula 3: plane (0 + 2 - 1) mod 3 = 1), then server 1 (formula 1: plane (0 + 1) mod 4 = 1). NPU 0 of server 0
    // is idle in formula 1 (plane 0 joins server 0 to itself) and NPU 3 in formula 3 (planes 0..2 only).
    Topology t = changing(4, 4, IntraServer.FULL_MESH, ConnectionFormula.FORMULA_3, ConnectionFormula.FORMULA_1)
        .build();
    assertThat(t.portCount(1)).isEqualTo(5);
    assertThat(t.neighbour(1, 3)).isEqualTo(9);
    assertThat(t.neighbour(1, 4)).isEqualTo(5);
    assertThat(t.portCount(0)).isEqualTo(4);
    assertThat(t.neighbour(0, 3)).isEqualTo(4);
    assertThat(t.portCount(3)).isEqualTo(4);
    assertThat(t.neighbour(3, 3)).isEqualTo(15);
  }

  @Test
  void shouldRefuseAChangeToThePolicyInForce() {
    assertThatThrownBy(() -> changing(8, 8, IntraServer.FULL_MESH, ConnectionFormula.FORMULA_3,
        ConnectionFormula.FORMULA_3).policies()).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("formula 3 is the policy already in force then (formula 3 makes the same circuits): a change to it"
            + " changes nothing");
    assertThatThrownBy(() -> changing(8, 7, IntraServer.FULL_MESH, ConnectionFormula.FORMULA_3,
        ConnectionFormula.FORMULA_1).build()).isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("formula 1 cannot connect M = 8 servers with N = 7 NPUs per server");
  }
}
