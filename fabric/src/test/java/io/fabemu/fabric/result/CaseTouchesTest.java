package io.fabemu.fabric.result;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabemu.collectives.Algorithm;
import io.fabemu.core.fault.FaultAction;
import io.fabemu.core.fault.FaultEvent;
import io.fabemu.core.fault.FaultPlan;
import io.fabemu.core.fault.FaultSettings;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Which cases fault events touch, from the cases' intervals, on results built by hand. */
class CaseTouchesTest {

  private static CaseResult caseOver(int index, long startPs, long endPs) {
    return CaseResult.builder(index, Algorithm.RING, 4, 1, 1).avgLatencyPs(10).minLatencyPs(10).maxLatencyPs(10)
        .startPs(startPs).endPs(endPs).build();
  }

  private static final List<CaseResult> CASES = List.of(caseOver(0, 0, 90), caseOver(1, 95, 300),
      caseOver(2, 350, 600), caseOver(3, 650, 900));

  @Test
  void shouldTouchEveryCaseAnOutageOverlapsWhenADownIsUpLater() {
    FaultPlan plan = new FaultPlan(FaultSettings.DEFAULTS, List.of(
        FaultEvent.link(100, FaultAction.DOWN, "link host0-tor0", 0, 4),
        FaultEvent.link(400, FaultAction.UP, "link tor0-host0", 4, 0),
        FaultEvent.straggler(700, "node host1", 1, 2.0),
        FaultEvent.straggler(92, "node host2", 2, 2.0)));

    // Event ids in time order: 0 straggler at 92 (between cases 0 and 1), 1 down, 2 up, 3 straggler at 700.
    assertThat(CaseTouches.of(plan, CASES, 1_000)).containsExactly(List.of(), List.of(1, 2), List.of(2), List.of(3));
    assertThat(CaseTouches.outageEndPs(plan, plan.event(1), 1_000)).isEqualTo(400);
  }

  @Test
  void shouldRunAnOutageToTheEndWhenNoUpComes() {
    FaultPlan plan = new FaultPlan(FaultSettings.DEFAULTS, List.of(
        FaultEvent.link(300, FaultAction.DOWN, "link host0-tor0", 0, 4),
        // An up of another cable does not end it.
        FaultEvent.link(10, FaultAction.DOWN, "link host1-tor0", 1, 4),
        FaultEvent.link(500, FaultAction.UP, "link host1-tor0", 1, 4)));

    assertThat(CaseTouches.outageEndPs(plan, plan.event(1), 950)).isEqualTo(950);
    assertThat(CaseTouches.of(plan, CASES, 950)).containsExactly(List.of(0, 1, 2), List.of(1, 2, 3), List.of(2));
  }

  @Test
  void shouldTouchNothingWhenTheCasesHaveNoInterval() {
    FaultPlan plan = new FaultPlan(FaultSettings.DEFAULTS, List.of(FaultEvent.straggler(50, "node host1", 1, 2.0)));
    CaseResult untimed = CaseResult.builder(0, Algorithm.RING, 4, 1, 1).avgLatencyPs(10).minLatencyPs(10)
        .maxLatencyPs(10).build();

    assertThat(CaseTouches.of(plan, List.of(untimed), 100)).containsExactly(List.of());
    assertThat(CaseTouches.of(plan, CASES, 100)).containsExactly(List.of(0));
  }
}
