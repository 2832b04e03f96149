package io.fabemu.core.optical;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class ConnectionFormulaTest {

  private static final int X = ConnectionFormula.NO_CIRCUIT;

  @Test
  void shouldApplyFormula1AsWritten() {
    // node_dst = (dev_src - node_src + M) mod M ([0117]); the source itself means no circuit ([0125]).
    assertThat(ConnectionFormula.FORMULA_1.targetServer(8, 7, 0)).isEqualTo(1);
    assertThat(ConnectionFormula.FORMULA_1.targetServer(8, 3, 1)).isEqualTo(6);
    assertThat(ConnectionFormula.FORMULA_1.targetServer(8, 3, 6)).isEqualTo(X);
    assertThat(ConnectionFormula.FORMULA_1.targetServer(7, 0, 0)).isEqualTo(X);
    assertThat(ConnectionFormula.FORMULA_1.targetServer(7, 0, 7)).isEqualTo(X);
  }

  @Test
  void shouldApplyFormula3BranchesAsWritten() {
    ConnectionFormula f = ConnectionFormula.FORMULA_3;
    // (1) node_src = n = 7: even dev -> (dev + 8) / 2 mod 7; odd dev -> (dev + 1) / 2.
    assertThat(f.targetServer(8, 7, 6)).isEqualTo(0);
    assertThat(f.targetServer(8, 7, 5)).isEqualTo(3);
    // (2) r = (dev + 1 - node + 7) mod 7 equals node -> n: server 4, dev 0: r = 4.
    assertThat(f.targetServer(8, 4, 0)).isEqualTo(7);
    // (3) otherwise r: server 2, dev 5: (5 + 1 - 2 + 7) mod 7 = 4.
    assertThat(f.targetServer(8, 2, 5)).isEqualTo(4);
    // NPU n and above are idle ([0139], [0141]).
    assertThat(f.targetServer(8, 7, 7)).isEqualTo(X);
    assertThat(f.targetServer(8, 0, 9)).isEqualTo(X);
  }

  @Test
  void shouldMeetServerPairsOnTheClosedFormPlanes() {
    for (int m = 2; m <= 64; m++) {
      ConnectionPolicy f1 = ConnectionPolicy.byFormula(m, m, ConnectionFormula.FORMULA_1);
      for (int a = 0; a < m; a++) {
        for (int b = 0; b < m; b++) {
          if (a == b) continue;
          assertThat(f1.planeBetween(a, b)).isEqualTo((a + b) % m);
        }
      }
      if (m % 2 == 1) continue;
      int n = m - 1;
      ConnectionPolicy f3 = ConnectionPolicy.byFormula(m, n, ConnectionFormula.FORMULA_3);
      for (int a = 0; a < m; a++) {
        for (int b = 0; b < m; b++) {
          if (a == b) continue;
          int expected;
          if (a < n && b < n) {
            expected = (a + b - 1 + n) % n;
          } else {
            // The server below n meets server n on the plane d with 2s = d + 1 (mod n).
            int s = Math.min(a, b);
            expected = (2 * s - 1 + n) % n;
          }
          assertThat(f3.planeBetween(a, b)).as("M = %d, servers %d and %d", m, a, b).isEqualTo(expected);
        }
      }
    }
  }

  @Test
  void shouldAgreeWithTheTransformedFormula3OfParagraph133() {
    // [0133] for the last server: even dev other than n - 1 -> (dev + M) / 2 without mod; dev = n - 1 -> branch (3)'s
    // (dev + 1 - node + n) mod n; odd dev -> (dev + 1) / 2.
    for (int m = 2; m <= 64; m += 2) {
      int n = m - 1;
      for (int dev = 0; dev < n; dev++) {
        int variant;
        if (dev % 2 == 0 && dev != n - 1) {
          variant = (dev + m) / 2;
        } else if (dev % 2 == 0) {
          variant = (dev + 1 - n + n) % n;
        } else {
          variant = (dev + 1) / 2;
        }
        assertThat(ConnectionFormula.FORMULA_3.targetServer(m, n, dev)).as("M = %d, dev %d", m, dev)
            .isEqualTo(variant);
      }
    }
  }

  @Test
  void shouldNeedMPlanesForFormula1AndMMinusOneForFormula3() {
    assertThat(ConnectionFormula.FORMULA_1.planesNeeded(7)).isEqualTo(7);
    assertThat(ConnectionFormula.FORMULA_1.planesNeeded(8)).isEqualTo(8);
    assertThat(ConnectionFormula.FORMULA_3.planesNeeded(8)).isEqualTo(7);
    assertThat(ConnectionFormula.defaultFor(8)).isEqualTo(ConnectionFormula.FORMULA_3);
    assertThat(ConnectionFormula.defaultFor(7)).isEqualTo(ConnectionFormula.FORMULA_1);
    assertThat(ConnectionFormula.FORMULA_3.label()).isEqualTo("formula 3");
  }

  @Test
  void shouldRefuseFormula3ForOddMAndBadArguments() {
    assertThatThrownBy(() -> ConnectionPolicy.byFormula(7, 7, ConnectionFormula.FORMULA_3))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("formula 3 is for an even number of servers, but M = 7 (use formula 1)");
    assertThatThrownBy(() -> ConnectionFormula.FORMULA_1.targetServer(8, 8, 0))
        .hasMessage("server 8 is not in 0..7");
    assertThatThrownBy(() -> ConnectionFormula.FORMULA_3.targetServer(8, 0, -1))
        .hasMessage("NPU -1 is negative");
  }
}
