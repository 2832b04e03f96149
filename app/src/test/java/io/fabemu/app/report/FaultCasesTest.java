package io.fabemu.app.report;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabemu.collectives.Algorithm;
import io.fabemu.collectives.Collective;
import io.fabemu.collectives.WorkloadSpec;
import io.fabemu.core.fault.FaultEvent;
import io.fabemu.core.fault.FaultPlan;
import io.fabemu.core.fault.FaultSettings;
import io.fabemu.fabric.result.CaseResult;
import io.fabemu.fabric.result.CaseTouches;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The cases set against the fault events: labels, the text line, the markers of the timeline's cases lane. */
class FaultCasesTest {
  private static final WorkloadSpec WORKLOAD = WorkloadSpec.builder(Collective.ALLREDUCE,
      List.of(Algorithm.RING, Algorithm.RECURSIVE_DOUBLING), List.of(4L, 1_048_576L)).iterations(2).warmup(1).build();

  private static CaseResult caseOver(int index, long startPs, long endPs) {
    return CaseResult.builder(index, Algorithm.RING, 4, 1, 2).avgLatencyPs(10).minLatencyPs(10).maxLatencyPs(10)
        .startPs(startPs).endPs(endPs).build();
  }

  private static FaultCases faultCases() {
    FaultPlan plan = new FaultPlan(FaultSettings.DEFAULTS, List.of(
        FaultEvent.straggler(5_000_000L, "node host1", 1, 2.0),
        FaultEvent.straggler(500_000_000L, "node host1", 1, 1.0)));
    List<CaseResult> cases = List.of(caseOver(0, 0, 10_000_000L), caseOver(1, 10_000_000L, 30_000_000L),
        caseOver(2, 30_000_000L, 40_000_000L));
    return new FaultCases(plan, WORKLOAD, cases, null, CaseTouches.of(plan, cases, 600_000_000L));
  }

  @Test
  void shouldNameEachCaseByNumberCollectiveAlgorithmAndSize() {
    FaultCases f = faultCases();

    assertThat(f.label(1)).isEqualTo("1 (allreduce ring, 1 MiB)");
    assertThat(f.label(2)).isEqualTo("2 (allreduce recursive-doubling, 4 B)");
    assertThat(f.touchedText(0)).isEqualTo("0 (allreduce ring, 4 B)");
    assertThat(f.touchedText(1)).isEqualTo("none");
  }

  @Test
  void shouldPrintTheCasesEachEventTouchedOnOneLine() {
    assertThat(faultCases().textLine()).isEqualTo("# Cases touched: event 0: 0 (4 B); event 1: none\n");
  }

  @Test
  void shouldMarkEachCasesStartAndEndOnItsLaneAndEndTheAxisAtTheLastEnd() {
    FaultCases f = faultCases();
    List<TimelineChart.Marker> markers = f.markers(3);

    assertThat(markers).hasSize(6).allSatisfy(m -> assertThat(m.lane()).isEqualTo(3));
    assertThat(markers).extracting(m -> m.kind().label()).containsExactly("case start", "case end", "case start",
        "case end", "case start", "case end");
    assertThat(markers).extracting(TimelineChart.Marker::at).containsExactly(0.0, 10.0, 10.0, 30.0, 30.0, 40.0);
    assertThat(markers.get(3).tooltip()).isEqualTo("end of case 1 (allreduce ring, 1 MiB): 10.000 us to 30.000 us "
        + "(warm-up included)");
    assertThat(f.lastEndPs()).isEqualTo(40_000_000L);
    assertThat(new FaultCases(f.plan(), WORKLOAD, List.of(), null, List.of(List.of(), List.of())).lastEndPs())
        .isEqualTo(-1);
  }
}
