package io.fabemu.fabric.result;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabemu.collectives.Algorithm;
import io.fabemu.core.inc.IncCodes.FailCause;
import org.junit.jupiter.api.Test;

/** A case's figures as its builder makes them: the defaults, a copy with changes, the interval checked once. */
class CaseResultTest {

  @Test
  void shouldTakeEveryDefaultWhenTheBuilderIsGivenOnlyTheCase() {
    CaseResult c = CaseResult.builder(2, Algorithm.RING, 64, 16, 5).build();

    assertThat(c).isEqualTo(new CaseResult(2, Algorithm.RING, 64, 16, 5, 0.0, 0.0, 0.0, 0, true, null, null, null,
        null, null, null, -1, -1));
    assertThat(c.rankLatenciesPs()).isEmpty();
    assertThat(c.partEndsPs()).isEmpty();
    assertThat(c.caseTimed()).isFalse();
  }

  @Test
  void shouldCopyEveryComponentWhenToBuilderAndChangeOnlyTheOneSet() {
    CaseResult c = new CaseResult(1, Algorithm.INC_NODE, 8, 2, 3, 5.0, 4.0, 6.0, 1, false, FailCause.NONE,
        new double[] {4, 6}, new double[] {5, 5, 5}, new long[] {10, 20, 30}, new long[] {15, 25, 35},
        new long[] {12}, 0, 40);

    assertThat(c.toBuilder().build()).isEqualTo(c);
    CaseResult right = c.toBuilder().wrongElements(0).build();
    assertThat(right.wrongElements()).isZero();
    assertThat(right.toBuilder().wrongElements(1).build()).isEqualTo(c);
  }

  @Test
  void shouldRefuseAnIntervalWhenOnlyOneEndIsSet() {
    assertThatThrownBy(() -> CaseResult.builder(0, Algorithm.RING, 4, 1, 1).startPs(10).build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("case 0: interval [10, -1] ps is not an interval (both -1, or start <= end)");
  }
}
