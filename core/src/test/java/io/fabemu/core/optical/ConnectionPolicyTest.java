package io.fabemu.core.optical;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class ConnectionPolicyTest {

  private static final int X = ConnectionPolicy.NO_CIRCUIT;

  @Test
  void shouldFullyInterconnectEveryMUpTo1024ByBothFormulas() {
    for (int m = 1; m <= 1024; m++) {
      // byFormula checks both ends of every circuit and the full interconnect, and throws otherwise.
      ConnectionPolicy f1 = ConnectionPolicy.byFormula(m, m, ConnectionFormula.FORMULA_1);
      assertThat(f1.circuitCount()).isEqualTo(m * (m - 1) / 2);
      assertThat(f1.planesUsed()).isEqualTo(m == 1 ? 0 : m);
      if (m % 2 == 0) {
        ConnectionPolicy f3 = ConnectionPolicy.byFormula(m, m - 1, ConnectionFormula.FORMULA_3);
        assertThat(f3.circuitCount()).isEqualTo(m * (m - 1) / 2);
        assertThat(f3.planesUsed()).isEqualTo(m - 1);
      }
    }
  }

  @Test
  void shouldFindTheCheckerSilentOnFormulaPoliciesAndItsLookupsConsistent() {
    for (int m = 2; m <= 40; m++) {
      List<ConnectionPolicy> policies = new ArrayList<>();
      policies.add(ConnectionPolicy.byFormula(m, m, ConnectionFormula.FORMULA_1));
      if (m % 2 == 0) policies.add(ConnectionPolicy.byFormula(m, m - 1, ConnectionFormula.FORMULA_3));
      for (ConnectionPolicy p : policies) {
        assertThat(p.fullInterconnectProblems()).isEmpty();
        for (int a = 0; a < m; a++) {
          for (int b = 0; b < m; b++) {
            int plane = p.planeBetween(a, b);
            if (a == b) {
              assertThat(plane).isEqualTo(X);
              continue;
            }
            assertThat(plane).isEqualTo(p.planeBetween(b, a));
            assertThat(p.gatewayNpu(a, b)).isEqualTo(plane);
            assertThat(p.peerServer(a, plane)).isEqualTo(b);
            assertThat(p.peerServer(b, plane)).isEqualTo(a);
          }
        }
      }
    }
  }

  @Test
  void shouldConnectOneServerWithNoCircuit() {
    ConnectionPolicy policy = ConnectionPolicy.byDefaultFormula(1, 1);
    assertThat(policy.formula()).contains(ConnectionFormula.FORMULA_1);
    assertThat(policy.circuits()).isEmpty();
    assertThat(policy.peerServer(0, 0)).isEqualTo(X);
    assertThat(policy.planeBetween(0, 0)).isEqualTo(X);
    assertThat(policy.fullInterconnectProblems()).isEmpty();
    assertThat(policy.summary()).isEqualTo("formula 1: M = 1 server, N = 1 NPU per server, n = 1, 0 circuits");
  }

  @Test
  void shouldConnectTwoServersOnPlane0ByFormula3AndPlane1ByFormula1() {
    ConnectionPolicy f3 = ConnectionPolicy.byDefaultFormula(2, 1);
    assertThat(f3.circuits()).containsExactly(new Circuit(0, 1, 0));
    assertThat(f3.gatewayNpu(1, 0)).isEqualTo(0);
    assertThatThrownBy(() -> ConnectionPolicy.byFormula(2, 1, ConnectionFormula.FORMULA_1))
        .hasMessage("formula 1 cannot connect M = 2 servers with N = 1 NPUs per server: for even M it leaves one plane"
            + " idle in every server and so needs M = 2 NPUs (formula 3 needs n = 1)");
    ConnectionPolicy f1 = ConnectionPolicy.byFormula(2, 2, ConnectionFormula.FORMULA_1);
    assertThat(f1.circuits()).containsExactly(new Circuit(0, 1, 1));
    assertThat(f1.peerServer(0, 0)).isEqualTo(X);
    assertThat(f1.peerServer(1, 0)).isEqualTo(X);
    assertThat(f1.peerServer(0, 1)).isEqualTo(1);
  }

  @Test
  void shouldLeaveNpusBeyondTheFormulasPlanesIdle() {
    ConnectionPolicy policy = ConnectionPolicy.byFormula(4, 6, ConnectionFormula.FORMULA_3);
    assertThat(policy.circuits()).containsExactly(
        new Circuit(0, 1, 0), new Circuit(2, 3, 0),
        new Circuit(0, 2, 1), new Circuit(1, 3, 1),
        new Circuit(0, 3, 2), new Circuit(1, 2, 2));
    for (int s = 0; s < 4; s++) {
      for (int d = 3; d < 6; d++) assertThat(policy.peerServer(s, d)).isEqualTo(X);
    }
  }

  @Test
  void shouldReportAPairJoinedByNoCircuitAndOneJoinedTwice() {
    ConnectionPolicy policy = ConnectionPolicy.of(3, 3, List.of(
        new Circuit(0, 1, 0), new Circuit(1, 0, 2), new Circuit(1, 2, 1)));
    assertThat(policy.fullInterconnectProblems()).containsExactly(
        "servers 0 and 1 are joined by 2 circuits",
        "servers 0 and 2 are joined by no circuit");
    assertThat(policy.planeBetween(1, 0)).isEqualTo(0);
    assertThat(policy.planeBetween(0, 2)).isEqualTo(X);
    assertThatThrownBy(policy::requireFullInterconnect)
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("the connection policy for M = 3 servers is no full interconnect: servers 0 and 1 are joined by 2"
            + " circuits (and more: servers 0 and 2 are joined by no circuit)");
  }

  @Test
  void shouldReportAnNpuInTwoCircuits() {
    ConnectionPolicy policy = ConnectionPolicy.of(3, 2, List.of(
        new Circuit(0, 1, 0), new Circuit(0, 2, 0), new Circuit(1, 2, 1)));
    assertThat(policy.fullInterconnectProblems()).containsExactly("NPU 0 of server 0 is in 2 circuits");
    // The lookups keep the first circuit of an NPU.
    assertThat(policy.peerServer(0, 0)).isEqualTo(1);
    assertThat(policy.peerServer(2, 0)).isEqualTo(0);
  }

  @Test
  void shouldReportAPlaneBeyondNAndAServerBeyondM() {
    ConnectionPolicy policy = ConnectionPolicy.of(2, 2, List.of(new Circuit(0, 1, 2), new Circuit(0, 5, 0)));
    assertThat(policy.fullInterconnectProblems()).containsExactly(
        "circuit 0 (servers 0 and 1) is on plane 2, but servers have N = 2 NPUs (planes 0..1)",
        "circuit 1 (servers 0 and 5, plane 0) names server 5, not in 0..1",
        "servers 0 and 1 are joined by no circuit");
    assertThat(policy.peerServer(0, 0)).isEqualTo(X);
    assertThat(policy.summary()).isEqualTo("listed: M = 2 servers, N = 2 NPUs per server, n = 1, 2 circuits on"
        + " planes 0..2");
  }

  @Test
  void shouldCapTheProblemLinesAndCountTheRest() {
    List<String> problems = ConnectionPolicy.of(10, 9, List.of()).fullInterconnectProblems();
    assertThat(problems).hasSize(ConnectionPolicy.MAX_PROBLEM_LINES + 1);
    assertThat(problems.get(0)).isEqualTo("servers 0 and 1 are joined by no circuit");
    assertThat(problems.get(ConnectionPolicy.MAX_PROBLEM_LINES)).isEqualTo("... and 25 more problems");
  }

  @Test
  void shouldNormalizeACircuitAndRefuseOneToItself() {
    Circuit c = new Circuit(5, 2, 3);
    assertThat(c.serverA()).isEqualTo(2);
    assertThat(c.serverB()).isEqualTo(5);
    assertThat(c).isEqualTo(new Circuit(2, 5, 3));
    assertThat(c.otherEnd(5)).isEqualTo(2);
    assertThatThrownBy(() -> c.otherEnd(4)).hasMessage("server 4 is no end of Circuit[serverA=2, serverB=5, plane=3]");
    assertThatThrownBy(() -> new Circuit(1, 1, 0))
        .hasMessage("a circuit joins two servers, not server 1 to itself");
    assertThatThrownBy(() -> new Circuit(0, 1, -1))
        .hasMessage("a circuit has no negative server or plane: servers 0 and 1, plane -1");
  }

  @Test
  void shouldRefuseLookupsOutOfRange() {
    ConnectionPolicy policy = ConnectionPolicy.byDefaultFormula(4, 3);
    assertThatThrownBy(() -> policy.peerServer(4, 0)).hasMessage("server 4 is not in 0..3");
    assertThatThrownBy(() -> policy.peerServer(0, 3)).hasMessage("NPU 3 is not in 0..2");
    assertThatThrownBy(() -> policy.planeBetween(0, -1)).hasMessage("server -1 is not in 0..3");
  }
}
