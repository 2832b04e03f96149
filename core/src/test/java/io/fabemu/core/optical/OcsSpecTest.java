package io.fabemu.core.optical;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabemu.core.optical.OcsReport.ChangeCost;
import io.fabemu.core.optical.OcsSpec.PolicyChange;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The OCS controller's settings (its policy changes' times) and the merge of its report's parts. */
class OcsSpecTest {

  @Test
  void shouldKeepChangesAtLeastOneDelayApartFromTheStart() {
    OcsSpec spec = new OcsSpec(10L, List.of(new PolicyChange(10L, ConnectionFormula.FORMULA_1),
        new PolicyChange(20L, ConnectionFormula.FORMULA_3)));
    assertThat(spec.changesPolicy()).isTrue();
    assertThat(new OcsSpec(10L).changesPolicy()).isFalse();
    assertThat(new OcsSpec(10L).changes()).isEmpty();
    assertThatThrownBy(() -> new OcsSpec(10L, List.of(new PolicyChange(9L, ConnectionFormula.FORMULA_1))))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("the policy change at 9 ps comes less than the reconfiguration delay of 10 ps after 0 ps");
    assertThatThrownBy(() -> new OcsSpec(10L, List.of(new PolicyChange(10L, ConnectionFormula.FORMULA_1),
        new PolicyChange(19L, ConnectionFormula.FORMULA_3)))).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("the policy change at 19 ps comes less than the reconfiguration delay of 10 ps after 10 ps");
    assertThatThrownBy(() -> new OcsSpec(0L, List.of(new PolicyChange(10L, ConnectionFormula.FORMULA_1))))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("policy changes need a positive reconfiguration delay");
    assertThatThrownBy(() -> new PolicyChange(0L, ConnectionFormula.FORMULA_1))
        .isInstanceOf(IllegalArgumentException.class).hasMessage("a policy change must be after time 0, got 0 ps");
  }

  @Test
  void shouldMergeEachChangesPartsByItsTime() {
    // The controller counts circuits and gives the nominal up time; the ports give waits and their real up times.
    OcsReport controller = new OcsReport(28, 10L, 0L, 0L, 0L,
        List.of(new ChangeCost(20L, 16, 16, 30L, 0L, 0L, 0L), new ChangeCost(40L, 16, 16, 50L, 0L, 0L, 0L)));
    OcsReport port1 = new OcsReport(0, 0L, 2L, 14L, 9L, List.of(new ChangeCost(20L, 0, 0, 33L, 1L, 5L, 5L)));
    OcsReport port2 = new OcsReport(0, 0L, 1L, 3L, 3L,
        List.of(new ChangeCost(20L, 0, 0, 30L, 2L, 8L, 6L), new ChangeCost(40L, 0, 0, 50L, 1L, 1L, 1L)));
    assertThat(OcsReport.merge(List.of(port2, controller, port1))).isEqualTo(new OcsReport(28, 10L, 3L, 17L, 9L,
        List.of(new ChangeCost(20L, 16, 16, 33L, 3L, 13L, 6L), new ChangeCost(40L, 16, 16, 50L, 1L, 1L, 1L))));
    assertThat(OcsReport.merge(List.of(new OcsReport(6, 5L, 0L, 0L, 0L)))).isEqualTo(new OcsReport(6, 5L, 0L, 0L, 0L));
  }
}
