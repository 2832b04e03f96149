package io.fabemu.app.sweep;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabemu.app.Fixtures;
import io.fabemu.app.output.ResultsWriter;
import io.fabemu.app.report.SweepPoint;
import io.fabemu.fabric.result.RunResult;
import java.util.List;
import org.junit.jupiter.api.Test;

class SweepSummaryTest {

  @Test
  void shouldRenameAVariedKeyThatIsAlsoAResultsColumn() {
    SweepSummary summary = new SweepSummary(SweepPlan.of(List.of("topology={ hosts = 4 },{ hosts = 8 }", "seed=1")));

    assertThat(summary.csvHeader().subList(0, 4)).containsExactly("point", "varied:topology", "seed", "scenario");
  }

  @Test
  void shouldShowNotApplicableWrongElementsForASyntheticPointAndTheWholeDigestInTheCsv() {
    SweepPlan plan = SweepPlan.of(List.of("seed=1"));
    SweepSummary summary = new SweepSummary(plan);
    RunResult synthetic = Fixtures.syntheticResult();
    SweepPoint point = new SweepPoint(1, "seed=1", List.of("1"), "points/1-seed=1", 0, synthetic,
        ResultsWriter.caseFigures(synthetic, null), null);

    assertThat(summary.row(point))
        .isEqualTo("      1  1           2      n/a        2.6 ms          3.146280     0  ab12\n");
    assertThat(summary.csv(List.of(point)).lines().toList()).hasSize(3)
        .allMatch(l -> l.startsWith("point,") || l.startsWith("1,1,golden,leaf-spine,4,"));
  }
}
