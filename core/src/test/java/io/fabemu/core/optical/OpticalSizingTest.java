package io.fabemu.core.optical;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class OpticalSizingTest {

  @Test
  void shouldGiveTheSeedsExamples() {
    // [0108], [0110]: M = 8 needs 7 NPUs per server; M = 7 needs 7.
    assertThat(OpticalSizing.minimumNpusPerServer(8)).isEqualTo(7);
    assertThat(OpticalSizing.minimumNpusPerServer(7)).isEqualTo(7);
    assertThat(OpticalSizing.minimumNpusPerServer(1)).isEqualTo(1);
    assertThat(OpticalSizing.minimumNpusPerServer(2)).isEqualTo(1);
    assertThat(OpticalSizing.minimumNpusPerServer(3)).isEqualTo(3);
    assertThat(OpticalSizing.minimumNpusPerServer(64)).isEqualTo(63);
  }

  @Test
  void shouldMatchThePlaneCountingBoundForEveryMUpTo64() {
    for (int m = 2; m <= 64; m++) {
      // A plane is a matching: at most floor(M / 2) circuits; M(M - 1) / 2 pairs; every server needs M - 1 NPUs.
      int pairs = m * (m - 1) / 2;
      int perPlane = m / 2;
      int bound = Math.max((pairs + perPlane - 1) / perPlane, m - 1);
      assertThat(OpticalSizing.minimumNpusPerServer(m)).as("M = %d", m).isEqualTo(bound);
    }
  }

  @Test
  void shouldAcceptNAtTheMinimumAndRefuseOneBelowForEveryMUpTo64() {
    for (int servers = 1; servers <= 64; servers++) {
      int m = servers;
      int n = OpticalSizing.minimumNpusPerServer(m);
      assertThat(OpticalSizing.requireEnoughNpus(m, n)).isEqualTo(n);
      assertThat(OpticalSizing.requireEnoughNpus(m, n + 5)).isEqualTo(n);
      // The default formula really connects the cluster with n NPUs, so n is reached, not just a bound.
      ConnectionPolicy policy = ConnectionPolicy.byDefaultFormula(m, n);
      assertThat(policy.planesUsed()).as("M = %d", m).isEqualTo(m == 1 ? 0 : n);
      if (n > 1) {
        int few = n - 1;
        String rule = m % 2 == 1 ? "M for odd M" : "M - 1 for even M";
        assertThatThrownBy(() -> OpticalSizing.requireEnoughNpus(m, few))
            .isInstanceOf(IllegalArgumentException.class)
            .hasMessage("M = " + m + " servers with N = " + few + " NPUs per server cannot be fully interconnected:"
                + " each server needs n = " + n + " NPUs (n = " + rule + ")");
      }
    }
  }

  @Test
  void shouldRefuseEightServersOfSixNpusInOneLine() {
    assertThatThrownBy(() -> ConnectionPolicy.byDefaultFormula(8, 6))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("M = 8 servers with N = 6 NPUs per server cannot be fully interconnected: each server needs"
            + " n = 7 NPUs (n = M - 1 for even M)")
        .hasMessageNotContaining("\n");
  }

  @Test
  void shouldRefuseNonPositiveSizes() {
    assertThatThrownBy(() -> OpticalSizing.minimumNpusPerServer(0))
        .hasMessage("an optical cluster needs M >= 1 servers, got M = 0");
    assertThatThrownBy(() -> OpticalSizing.requireEnoughNpus(4, 0))
        .hasMessage("an optical cluster needs N >= 1 NPUs per server, got N = 0");
  }
}
