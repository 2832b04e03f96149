package io.fabemu.core.optical;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/**
 * The patent's figures 10-13 (the optical patent, [0124]-[0144]) as circuit tables. The figures themselves are drawings; the
 * text gives the cluster, the formula and the rows it works through, and the tables below are those rows completed
 * by hand from the formula. Row s, column d: the server that NPU d of server s reaches (to that server's NPU d,
 * formula 2); {@code X}: the NPU joins no circuit.
 */
class ConnectionFiguresTest {

  private static final int X = ConnectionPolicy.NO_CIRCUIT;

  // FIG. 10 ([0124]-[0126]): M = 7 servers of N = 7 NPUs, formula 1: node_dst = (dev - node + 7) mod 7.
  private static final int[][] FIG_10 = {
      {X, 1, 2, 3, 4, 5, 6},
      {6, 0, X, 2, 3, 4, 5},
      {5, 6, 0, 1, X, 3, 4},
      {4, 5, 6, 0, 1, 2, X},
      {3, X, 5, 6, 0, 1, 2},
      {2, 3, 4, X, 6, 0, 1},
      {1, 2, 3, 4, 5, X, 0},
  };

  // FIG. 11 ([0127]-[0129]): M = 8 servers of N = 8 NPUs, formula 1: node_dst = (dev - node + 8) mod 8. Each server
  // has one idle NPU, so formula 1 uses all 8 NPUs ([0142] calls this "seven NPUs", counting by the highest index).
  private static final int[][] FIG_11 = {
      {X, 1, 2, 3, 4, 5, 6, 7},
      {7, 0, X, 2, 3, 4, 5, 6},
      {6, 7, 0, 1, X, 3, 4, 5},
      {5, 6, 7, 0, 1, 2, X, 4},
      {X, 5, 6, 7, 0, 1, 2, 3},
      {3, 4, X, 6, 7, 0, 1, 2},
      {2, 3, 4, 5, X, 7, 0, 1},
      {1, 2, 3, 4, 5, 6, X, 0},
  };

  // FIG. 12 ([0136]-[0142]): M = 8 servers of N = 8 NPUs, formula 3 with n = 7: NPU 7 of every server is idle
  // ([0139], [0141]); [0142] calls the 7 used NPUs "six", counting by the highest index.
  private static final int[][] FIG_12 = {
      {1, 2, 3, 4, 5, 6, 7, X},
      {0, 7, 2, 3, 4, 5, 6, X},
      {6, 0, 1, 7, 3, 4, 5, X},
      {5, 6, 0, 1, 2, 7, 4, X},
      {7, 5, 6, 0, 1, 2, 3, X},
      {3, 4, 7, 6, 0, 1, 2, X},
      {2, 3, 4, 5, 7, 0, 1, X},
      {4, 1, 5, 2, 6, 3, 0, X},
  };

  // FIG. 13 ([0143]-[0144]): M = 8 servers of N = 7 NPUs, formula 3: FIG. 12 without its idle NPU 7.
  private static final int[][] FIG_13 = {
      {1, 2, 3, 4, 5, 6, 7},
      {0, 7, 2, 3, 4, 5, 6},
      {6, 0, 1, 7, 3, 4, 5},
      {5, 6, 0, 1, 2, 7, 4},
      {7, 5, 6, 0, 1, 2, 3},
      {3, 4, 7, 6, 0, 1, 2},
      {2, 3, 4, 5, 7, 0, 1},
      {4, 1, 5, 2, 6, 3, 0},
  };

  @Test
  void shouldReproduceFigure10() {
    ConnectionPolicy policy = ConnectionPolicy.byFormula(7, 7, ConnectionFormula.FORMULA_1);
    assertThat(table(policy)).isEqualTo(FIG_10);
    // [0125]: NPU 0 of server 0 gives target server 0, so it joins no other server; the others reach 1..6.
    assertThat(policy.peerServer(0, 0)).isEqualTo(X);
    assertThat(policy.circuitCount()).isEqualTo(21);
    assertThat(policy.summary()).isEqualTo("formula 1: M = 7 servers, N = 7 NPUs per server, n = 7, 21 circuits on"
        + " planes 0..6");
  }

  @Test
  void shouldReproduceFigure11() {
    ConnectionPolicy policy = ConnectionPolicy.byFormula(8, 8, ConnectionFormula.FORMULA_1);
    assertThat(table(policy)).isEqualTo(FIG_11);
    // [0128]: NPU 0 of server 7 reaches NPU 0 of server 1.
    assertThat(policy.peerServer(7, 0)).isEqualTo(1);
    assertThat(policy.peerServer(1, 0)).isEqualTo(7);
    assertThat(policy.circuitCount()).isEqualTo(28);
    assertThat(policy.planesUsed()).isEqualTo(8);
  }

  @Test
  void shouldReproduceFigure12() {
    ConnectionPolicy policy = ConnectionPolicy.byFormula(8, 8, ConnectionFormula.FORMULA_3);
    assertThat(table(policy)).isEqualTo(FIG_12);
    // [0139]: server 7 = n takes branch (1): NPU 0 reaches server (0 + 8) / 2 mod 7 = 4, NPU 1 server (1 + 1) / 2 = 1,
    // NPU 7 joins nothing.
    assertThat(policy.peerServer(7, 0)).isEqualTo(4);
    assertThat(policy.peerServer(7, 1)).isEqualTo(1);
    assertThat(policy.peerServer(7, 7)).isEqualTo(X);
    // [0141]: server 0 takes branch (3): NPU 0 reaches server 1, NPU 1 server 2 (the text then says "server 1", a slip:
    // (1 + 1 - 0 + 7) mod 7 = 2), NPU 7 joins nothing.
    assertThat(policy.peerServer(0, 0)).isEqualTo(1);
    assertThat(policy.peerServer(0, 1)).isEqualTo(2);
    assertThat(policy.peerServer(0, 7)).isEqualTo(X);
    // [0108]: 28 circuits; 7 planes of 4.
    assertThat(policy.circuitCount()).isEqualTo(28);
    assertThat(policy.planesUsed()).isEqualTo(7);
  }

  @Test
  void shouldReproduceFigure13WithFormula3AndRefuseFormula1() {
    ConnectionPolicy policy = ConnectionPolicy.byFormula(8, 7, ConnectionFormula.FORMULA_3);
    assertThat(table(policy)).isEqualTo(FIG_13);
    assertThat(ConnectionPolicy.byDefaultFormula(8, 7).formula()).contains(ConnectionFormula.FORMULA_3);
    assertThat(policy.summary()).isEqualTo("formula 3: M = 8 servers, N = 7 NPUs per server, n = 7, 28 circuits on"
        + " planes 0..6");
    // [0143] says formula 1 would do too, but formula 1 joins servers a and b on plane (a + b) mod 8, so pairs
    // {0,7}, {1,6}, {2,5}, {3,4} need an NPU 7 that these servers lack: we refuse it.
    assertThatThrownBy(() -> ConnectionPolicy.byFormula(8, 7, ConnectionFormula.FORMULA_1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("formula 1 cannot connect M = 8 servers with N = 7 NPUs per server: for even M it leaves one plane"
            + " idle in every server and so needs M = 8 NPUs (formula 3 needs n = 7)");
  }

  private static int[][] table(ConnectionPolicy policy) {
    int[][] table = new int[policy.servers()][policy.npusPerServer()];
    for (int s = 0; s < policy.servers(); s++) {
      for (int d = 0; d < policy.npusPerServer(); d++) table[s][d] = policy.peerServer(s, d);
    }
    return table;
  }
}
