package io.fabemu.fabric;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabemu.collectives.Collective;
import io.fabemu.core.fault.FaultAction;
import io.fabemu.core.fault.FaultEvent;
import io.fabemu.core.fault.FaultPlan;
import io.fabemu.core.fault.FaultSettings;
import io.fabemu.core.optical.ConnectionFormula;
import io.fabemu.core.optical.OcsReport;
import io.fabemu.core.optical.OcsSpec;
import io.fabemu.core.time.Units;
import io.fabemu.core.topology.LinkSpec;
import io.fabemu.core.topology.OpticalSpec;
import io.fabemu.core.topology.OpticalSpec.IntraServer;
import io.fabemu.core.topology.Topology;
import io.fabemu.fabric.result.CaseResult;
import io.fabemu.fabric.result.RunResult;
import io.fabemu.switching.optical.OcsControllerCore;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The OCS controller (docs/optical.md, "The OCS controller"): circuits come up a reconfiguration delay after time 0,
 * traffic for a circuit not yet up waits at the NPU's optical port and leaves when it comes up, and a delay of 0
 * leaves the run as it was.
 */
class OcsControllerFabricTest {

  private static final LinkSpec INTRA = new LinkSpec(400 * Units.GBPS, 200_000L);
  private static final LinkSpec OPTICAL = new LinkSpec(100 * Units.GBPS, 1_000_000L);
  private static final List<Long> SIZES = List.of(4L, 4_004L, 40_004L);

  private static ScenarioSpec scenario(OpticalSpec topology, Collective collective, List<Long> sizes, int iterations,
                                       int warmup) {
    return TestScenarios.optical("ocs", topology, collective, sizes, iterations, warmup);
  }

  private static OpticalSpec optical(int servers, int npus, long delayPs) {
    return new OpticalSpec(servers, npus, IntraServer.FULL_MESH, INTRA, OPTICAL, ConnectionFormula.defaultFor(servers),
        new OcsSpec(delayPs));
  }

  /** Two servers of one NPU, one circuit, one Allreduce of one element measured once (no warm-up). */
  private static RunResult twoNpus(long delayPs) {
    return FabricTest.run(scenario(optical(2, 1, delayPs), Collective.ALLREDUCE, List.of(4L), 1, 0));
  }

  @Test
  void shouldDelayTrafficByTheReconfigurationDelayWhenItsCircuitIsNotUpYet() {
    RunResult up = twoNpus(0);
    RunResult tenUs = twoNpus(10 * Units.PS_PER_US);
    RunResult oneMs = twoNpus(Units.PS_PER_MS);
    assertThat(up.ocs()).isNull();
    CaseResult base = up.cases().get(0);
    // Each NPU's one packet was ready before the circuit came up and waited for it, to the picosecond: the case
    // takes exactly that wait longer, and a longer delay adds exactly the difference.
    OcsReport tenUsOcs = tenUs.ocs();
    assertThat(tenUsOcs.circuitsSetUp()).isEqualTo(1);
    assertThat(tenUsOcs.lastCircuitUpPs()).isEqualTo(10 * Units.PS_PER_US);
    assertThat(tenUsOcs.heldPackets()).isEqualTo(2);
    long waitPs = tenUsOcs.worstWaitPs();
    assertThat(tenUsOcs.totalWaitPs()).isEqualTo(2 * waitPs);
    assertThat(waitPs).isLessThan(10 * Units.PS_PER_US).isGreaterThan(9 * Units.PS_PER_US);
    assertThat(tenUs.cases().get(0).maxLatencyPs()).isEqualTo(base.maxLatencyPs() + waitPs);
    assertThat(tenUs.cases().get(0).minLatencyPs()).isEqualTo(base.minLatencyPs() + waitPs);
    assertThat(oneMs.ocs().worstWaitPs()).isEqualTo(waitPs + Units.PS_PER_MS - 10 * Units.PS_PER_US);
    assertThat(oneMs.cases().get(0).maxLatencyPs())
        .isEqualTo(tenUs.cases().get(0).maxLatencyPs() + Units.PS_PER_MS - 10 * Units.PS_PER_US);
    assertThat(oneMs.virtualEndPs()).isEqualTo(tenUs.virtualEndPs() + Units.PS_PER_MS - 10 * Units.PS_PER_US);
    assertThat(List.of(up, tenUs, oneMs)).allSatisfy(r -> assertThat(r.cases().get(0).wrongElements()).isZero());
  }

  @Test
  void shouldLeaveTheRunAsItWasWhenTheDelayIsZero() {
    ScenarioSpec zero = scenario(optical(4, 3, 0), Collective.ALLREDUCE, SIZES, 2, 1);
    ScenarioSpec built = scenario(new OpticalSpec(4, 3, IntraServer.FULL_MESH, INTRA, OPTICAL,
        ConnectionFormula.FORMULA_3), Collective.ALLREDUCE, SIZES, 2, 1);
    Fabric fabric = Fabric.build(zero);
    assertThat(fabric.ocsDevice()).isEqualTo(-1);
    assertThat(fabric.devices()).hasSize(fabric.topology().deviceCount());
    RunResult result = FabricTest.run(zero);
    assertThat(result.digest()).isEqualTo(FabricTest.run(built).digest());
    assertThat(result.ocs()).isNull();
  }

  @ParameterizedTest
  @EnumSource(value = Collective.class, names = "PIPELINE", mode = EnumSource.Mode.EXCLUDE)
  void shouldGiveExactResultsWhenCircuitsComeUpDuringTheRun(Collective collective) {
    // M = 4 by formula 3 (6 circuits on planes 0..2) and M = 3 by formula 1, circuits up after 20 us: traffic within
    // a server goes at once, traffic across waits; every element is still exact.
    for (OpticalSpec topology : List.of(optical(4, 3, 20 * Units.PS_PER_US), optical(3, 3, 20 * Units.PS_PER_US))) {
      ScenarioSpec spec = scenario(topology, collective, SIZES, 2, 1);
      RunResult result = FabricTest.run(spec);
      assertThat(result.complete()).as(collective + ": " + result.incompleteReason()).isTrue();
      assertThat(result.cases()).hasSize(SIZES.size()).allSatisfy(c -> assertThat(c.wrongElements()).isZero());
      int circuits = topology.policy().circuits().size();
      assertThat(result.ocs().circuitsSetUp()).isEqualTo(circuits);
      assertThat(result.ocs().lastCircuitUpPs()).isEqualTo(20 * Units.PS_PER_US);
      assertThat(result.ocs().heldPackets()).isPositive();
      assertThat(result.ocs().worstWaitPs()).isPositive().isLessThanOrEqualTo(20 * Units.PS_PER_US);
      assertThat(result.virtualEndPs()).isGreaterThan(20 * Units.PS_PER_US);
      assertThat(FabricTest.run(spec).digest()).as("same digest twice").isEqualTo(result.digest());
    }
  }

  @Test
  void shouldBuildTheControllerLastAndLowerTheLookaheadToTheDelay() {
    ScenarioSpec spec = scenario(optical(4, 3, 100_000L), Collective.ALLREDUCE, SIZES, 1, 0);
    Fabric fabric = Fabric.build(spec);
    assertThat(fabric.ocsDevice()).isEqualTo(fabric.topology().deviceCount());
    // The counts a placement needs, without building the fabric.
    assertThat(Fabric.deviceCount(spec, fabric.topology())).isEqualTo(fabric.devices().length);
    assertThat(Fabric.lookaheadPs(spec, fabric.topology())).isEqualTo(100_000L);
    assertThat(fabric.devices()[fabric.ocsDevice()]).isInstanceOf(OcsControllerCore.class);
    assertThat(fabric.lookaheadPs()).isEqualTo(100_000L);
    assertThat(fabric.startEvents()).filteredOn(e -> e.targetDevice() == fabric.ocsDevice()).hasSize(1)
        .allSatisfy(e -> assertThat(e.timePs()).isZero());
  }

  @Test
  void shouldRefuseADelayWithAFaultPlan() {
    ScenarioSpec spec = scenario(optical(4, 3, 100_000L), Collective.ALLREDUCE, SIZES, 1, 0);
    Topology topology = spec.topology().build();
    FaultSettings settings = new FaultSettings(5_000_000L, 3, 1_000_000L, 100_000L, 30_000_000L, 10);
    ScenarioSpec faulted = spec.withFaults(new FaultPlan(settings,
        List.of(FaultEvent.device(30_000_000L, FaultAction.DOWN, "host5", 5, topology))));
    assertThatThrownBy(() -> Fabric.build(faulted)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("an OCS reconfiguration delay does not combine with faults yet");
  }
}
