package io.fabemu.fabric.fault;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabemu.core.fault.FaultAction;
import io.fabemu.core.fault.FaultEvent;
import io.fabemu.core.fault.FaultPlan;
import io.fabemu.core.topology.Topology;
import io.fabemu.fabric.Fabric;
import io.fabemu.fabric.ScenarioSpec;
import io.fabemu.fabric.result.CaseResult;
import io.fabemu.fabric.result.FaultImpact;
import io.fabemu.fabric.result.RunResult;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The extra latency of the collectives a fault touched, end to end on the plain engine: the spine a ring flow
 * crosses fails mid-iteration and comes back two iterations later, compared with the same scenario without faults.
 */
class FaultImpactRunTest {

  /** The spine fails at 150 us (in iteration 0) and comes back at {@link #UP_PS} (in iteration 1). */
  private static final long DOWN_PS = 150_000_000L;
  private static final long UP_PS = 600_000_000L;

  private static ScenarioSpec faulted() {
    ScenarioSpec base = LeafSpineFaultTest.scenario(4);
    Topology topology = base.topology().build();
    int spine = base.topology().routing(topology).path(3, 4).get(2);
    return base.withFaults(new FaultPlan(LeafSpineFaultTest.SETTINGS, List.of(
        FaultEvent.device(DOWN_PS, FaultAction.DOWN, "switch spine", spine, topology),
        FaultEvent.device(UP_PS, FaultAction.UP, "switch spine", spine, topology))));
  }

  private static RunResult compared(ScenarioSpec spec) {
    RunResult run = Fabric.build(spec).runOnPlainEngine();
    return FaultImpact.compare(run, Fabric.build(spec.baseline()).runOnPlainEngine());
  }

  @Test
  void shouldChargeTheIterationsTheSpineWasDownInAndNoOther() {
    ScenarioSpec spec = faulted();
    RunResult run = Fabric.build(spec).runOnPlainEngine();
    RunResult baseline = Fabric.build(spec.baseline()).runOnPlainEngine();
    RunResult result = FaultImpact.compare(run, baseline);
    CaseResult hit = result.cases().get(0);
    CaseResult clean = baseline.cases().get(0);
    assertThat(result.complete()).isTrue();
    assertThat(result.wrongElements()).isZero();
    // Where the iterations ran: the failure in iteration 0, the repair in iteration 1, iterations 2 and 3 after.
    assertThat(hit.iterationStartsPs()[0]).isLessThan(DOWN_PS);
    assertThat(hit.iterationEndsPs()[0]).isGreaterThan(DOWN_PS).isLessThan(UP_PS);
    assertThat(hit.iterationStartsPs()[1]).isLessThan(UP_PS);
    assertThat(hit.iterationEndsPs()[1]).isGreaterThan(UP_PS);
    assertThat(hit.iterationStartsPs()[2]).isGreaterThan(UP_PS + 5_000_000L);

    FaultImpact down = result.impactOf(0);
    FaultImpact up = result.impactOf(1);
    // The down lasts until the spine is back; the up until the routes are back over it (heartbeat, 1 us to the
    // management node, five updates of 100 ns, 1 us to the last).
    assertThat(down.windowEndPs()).isEqualTo(UP_PS);
    assertThat(up.windowEndPs()).isEqualTo(UP_PS + 5_000_000L + 1_000_000L + 5 * 100_000L + 1_000_000L);
    long extra0 = Math.round(hit.iterationLatenciesPs()[0] - clean.iterationLatenciesPs()[0]);
    long extra1 = Math.round(hit.iterationLatenciesPs()[1] - clean.iterationLatenciesPs()[1]);
    assertThat(down).isEqualTo(new FaultImpact(0, UP_PS, 2, extra0 + extra1, Math.max(extra0, extra1)));
    assertThat(up).isEqualTo(new FaultImpact(1, up.windowEndPs(), 1, extra1, extra1));
    // The iteration the spine died in waited for a retransmission (30 us timeout); the next one ran on one spine
    // and lost nothing: 33 ns slower. The baseline runs the same transport (its acknowledgements share the links
    // there too), so neither pays for that.
    assertThat(extra0).isEqualTo(30_624_710L);
    assertThat(extra1).isEqualTo(33_280L);
  }

  @Test
  void shouldGiveTheSameImpactsAndDigestTwice() {
    RunResult first = compared(faulted());
    RunResult second = compared(faulted());
    assertThat(second.faultImpacts()).isEqualTo(first.faultImpacts());
    assertThat(second.digest()).isEqualTo(first.digest());
    assertThat(first.digest()).isNotEqualTo(Fabric.build(faulted()).runOnPlainEngine().digest());
  }
}
