package io.fabemu.fabric.result;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabemu.collectives.Algorithm;
import io.fabemu.collectives.Collective;
import io.fabemu.collectives.WorkloadSpec;
import io.fabemu.core.data.DataType;
import io.fabemu.core.fault.FaultAction;
import io.fabemu.core.fault.FaultEvent;
import io.fabemu.core.fault.FaultPlan;
import io.fabemu.core.fault.FaultRecord;
import io.fabemu.core.fault.FaultReport;
import io.fabemu.core.fault.FaultSettings;
import io.fabemu.core.fault.FaultTally;
import io.fabemu.core.link.ForwardingMode;
import io.fabemu.core.protocol.DirectedLink;
import io.fabemu.core.time.Units;
import io.fabemu.core.topology.LeafSpineSpec;
import io.fabemu.core.topology.LinkSpec;
import io.fabemu.fabric.DeviceSpec;
import io.fabemu.fabric.ScenarioSpec;
import io.fabemu.nic.NicSpec;
import io.fabemu.node.HostSpec;
import io.fabemu.switching.SwitchSpec;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Windows of fault events, the collectives they touch and their extra latency, on results built by hand. */
class FaultImpactTest {
  private static final long END_PS = 1_000;

  /**
   * A cable down at 100 and up at 400, a straggler from 200 restored at 500, a lossy link from 600 never restored
   * (event ids in time order: 0 down, 1 straggler, 2 up, 3 straggler restored, 4 lossy).
   */
  private static ScenarioSpec scenario(boolean baseline) {
    LinkSpec link = new LinkSpec(25 * Units.GBPS, 500_000L);
    DeviceSpec devices = new DeviceSpec(HostSpec.builder().build(), new NicSpec(4096, 64, 150_000L, 100_000L),
        new SwitchSpec(500_000L, ForwardingMode.CUT_THROUGH));
    WorkloadSpec workload = WorkloadSpec.builder(Collective.ALLREDUCE, List.of(Algorithm.RING), List.of(4096L, 8192L))
        .iterations(5).dataType(DataType.INT32).build();
    FaultPlan plan = new FaultPlan(FaultSettings.DEFAULTS.withBaseline(baseline), List.of(
        FaultEvent.link(100, FaultAction.DOWN, "link host0-tor0", 0, 4),
        FaultEvent.straggler(200, "node host1", 1, 2.0),
        FaultEvent.link(400, FaultAction.UP, "link tor0-host0", 4, 0),
        FaultEvent.straggler(500, "node host1", 1, 1.0),
        FaultEvent.lossy(600, "link host2-tor0", List.of(new DirectedLink(2, 4)), 0.1, 0)));
    return ScenarioSpec.builder("impact", "test", 3, new LeafSpineSpec(4, 4, 0, link, link), devices, workload).build()
        .withFaults(plan);
  }

  /** A case whose iterations ran over {@code intervals} ({start, end} each) with mean latencies {@code meansPs}. */
  private static CaseResult timedCase(int caseIndex, long[][] intervals, double[] meansPs) {
    long[] starts = new long[intervals.length];
    long[] ends = new long[intervals.length];
    for (int i = 0; i < intervals.length; i++) {
      starts[i] = intervals[i][0];
      ends[i] = intervals[i][1];
    }
    return CaseResult.builder(caseIndex, Algorithm.RING, 4096, 1024, intervals.length).avgLatencyPs(0).minLatencyPs(0)
        .maxLatencyPs(0).rankLatenciesPs(new double[0]).iterationLatenciesPs(meansPs).iterationStartsPs(starts)
        .iterationEndsPs(ends).build();
  }

  private static final long[][] INTERVALS = {{0, 100}, {110, 300}, {400, 450}, {560, 700}, {800, 900}};

  private static RunResult faulted(boolean baseline) {
    FaultTally tally = new FaultTally(5);
    tally.messageResent(0, 150);
    tally.messageResent(3, 550);
    tally.messageResent(3, 520);
    FaultReport report = new FaultReport(tally, List.of(new FaultRecord(0, 110, 4, 130, 2),
        new FaultRecord(2, 401, 4, 420, 2)), null, List.of());
    // Case 1 was not finished by the baseline: it is not compared.
    List<CaseResult> cases = List.of(timedCase(0, INTERVALS, new double[] {50, 200, 40, 120, 60}),
        timedCase(1, new long[][] {{910, 990}}, new double[] {80}));
    return RunResult.builder(scenario(baseline)).cases(cases).links(List.of()).complete(true).virtualEndPs(END_PS)
        .windows(1).events(1).wallSeconds(0.0).digest("ab12").part(report).build();
  }

  private static RunResult baseline() {
    return RunResult.builder(scenario(true).baseline())
        .cases(List.of(timedCase(0, new long[][] {{0, 90}, {95, 250}, {255, 310}, {315, 420}, {425, 500}},
            new double[] {50, 150, 45, 100, 60})))
        .links(List.of()).complete(true).virtualEndPs(600).windows(1).events(1).wallSeconds(0.0).digest("cd34")
        .build();
  }

  @Test
  void shouldEndEachWindowAtTheLatestOfRerouteRestoreAndLastResend() {
    RunResult run = faulted(true);
    FaultPlan plan = run.scenario().faults();
    // The down: rerouted at 130, resent at 150, back up at 400.
    assertThat(FaultImpact.windowEndPs(plan, run.faults(), 0, END_PS)).isEqualTo(400);
    // The straggler: restored by the straggler event of the same host at 500.
    assertThat(FaultImpact.windowEndPs(plan, run.faults(), 1, END_PS)).isEqualTo(500);
    // The up: restores by itself; rerouted back at 420.
    assertThat(FaultImpact.windowEndPs(plan, run.faults(), 2, END_PS)).isEqualTo(420);
    // The straggler back to 1: restores by itself; its last resend (of two) at 550.
    assertThat(FaultImpact.windowEndPs(plan, run.faults(), 3, END_PS)).isEqualTo(550);
    // The lossy link is never restored: to the end of the run.
    assertThat(FaultImpact.windowEndPs(plan, run.faults(), 4, END_PS)).isEqualTo(END_PS);
    // Without a report only the plan counts.
    assertThat(FaultImpact.windowEndPs(plan, null, 2, END_PS)).isEqualTo(400);
  }

  @Test
  void shouldTouchTheCollectivesOverlappingEachWindowAndSumTheirExtraLatency() {
    List<FaultImpact> impacts = FaultImpact.of(faulted(true), baseline());

    // Extra latencies per iteration: 0, +50, -5, +20, 0. Iteration 0 ends at 100, when the down happens: untouched;
    // iteration 2 starts at 400, when the down's window ends: touched.
    assertThat(impacts).containsExactly(
        new FaultImpact(0, 400, 2, 45, 50),
        new FaultImpact(1, 500, 2, 45, 50),
        new FaultImpact(2, 420, 1, -5, -5),
        new FaultImpact(3, 550, 0, 0, 0),
        new FaultImpact(4, END_PS, 2, 20, 20));
  }

  @Test
  void shouldKeepTheRunAndExtendItsDigestWhenComparedWithItsBaseline() {
    RunResult run = faulted(true);
    RunResult compared = FaultImpact.compare(run, baseline());

    assertThat(compared.faultImpacts()).isEqualTo(FaultImpact.of(run, baseline()));
    assertThat(compared.impactOf(2)).isEqualTo(new FaultImpact(2, 420, 1, -5, -5));
    assertThat(compared.cases()).isEqualTo(run.cases());
    assertThat(compared.faults()).isEqualTo(run.faults());
    assertThat(compared.digest()).hasSize(64).isNotEqualTo(run.digest())
        .isEqualTo(FaultImpact.compare(faulted(true), baseline()).digest())
        .isEqualTo(FaultImpact.digest("ab12", compared.faultImpacts()));
    assertThat(FaultImpact.digest("ab13", compared.faultImpacts())).isNotEqualTo(compared.digest());
    assertThat(run.faultImpacts()).isNull();
    assertThat(run.impactOf(0)).isNull();
  }

  @Test
  void shouldLeaveARunWithoutFaultsAsItIs() {
    RunResult clean = baseline();
    assertThat(FaultImpact.compare(clean, clean)).isSameAs(clean);
  }

  @Test
  void shouldRunTheBaselineOnlyForAFaultedScenarioThatKeepsIt() {
    assertThat(scenario(true).runsBaseline()).isTrue();
    assertThat(scenario(false).runsBaseline()).isFalse();
    assertThat(scenario(true).baseline().hasFaults()).isFalse();
    assertThat(scenario(true).baseline().runsBaseline()).isFalse();
    assertThat(scenario(true).baseline().workload()).isEqualTo(scenario(true).workload());
  }
}
