package io.fabemu.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabemu.cluster.scenario.ScenarioLoader;
import io.fabemu.core.placement.PlacementPlan;
import io.fabemu.core.placement.PlacementReport;
import io.fabemu.fabric.Fabric;
import io.fabemu.fabric.ScenarioSpec;
import org.junit.jupiter.api.Test;

/** {@link ScenarioRunner#placementReport}: the delays over cut links are those the run's global window takes. */
class PlacementReportScenarioTest {

  private static ScenarioSpec scenario(String topology) {
    return ScenarioLoader.parse("""
        name = placement-report
        topology { %s }
        workload { collective = allreduce, algorithms = [ring], sizes = [4 B], iterations = 1 }
        """.formatted(topology), "placement-report.conf").spec();
  }

  @Test
  void shouldTakeTheSpineLinkAndPipelineAsTheRunsWindowDoesWhenLeafSpine() {
    Fabric fabric = Fabric.build(scenario("kind = leaf-spine, hosts = 12, hosts-per-tor = 4, spines = 2"));
    PlacementPlan plan = PlacementPlan.compute(fabric.topology(), fabric.devices().length, 3);
    PlacementReport report = ScenarioRunner.placementReport(fabric.scenario(), fabric.topology(), plan);
    assertThat(report.cutLookaheadPs()).hasValue(ScenarioRunner.crossLookaheadPs(fabric, plan));
    assertThat(report.cutLinks()).isPositive();
  }

  @Test
  void shouldTakeTheFabricsLookaheadWhenRouterNetwork() {
    Fabric fabric = Fabric.build(scenario("kind = torus, dimensions = [4, 4, 4]"));
    PlacementPlan plan = PlacementPlan.compute(fabric.topology(), fabric.devices().length, 2);
    PlacementReport report = ScenarioRunner.placementReport(fabric.scenario(), fabric.topology(), plan);
    assertThat(report.cutLookaheadPs()).hasValue(fabric.lookaheadPs())
        .hasValue(ScenarioRunner.crossLookaheadPs(fabric, plan));
    // Slabs z = 0-1 | 2-3: 16 cables between z = 1 and 2, 16 wrapping from z = 3 to 0, two links each.
    assertThat(report.cutLinks()).isEqualTo(64);
    assertThat(report.links()).isEqualTo(512);
  }
}
