package io.fabemu.fabric;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabemu.collectives.Collective;
import io.fabemu.core.optical.Circuit;
import io.fabemu.core.optical.ConnectionFormula;
import io.fabemu.core.optical.ConnectionPolicy;
import io.fabemu.core.optical.OcsReport;
import io.fabemu.core.optical.OcsReport.ChangeCost;
import io.fabemu.core.optical.OcsSpec;
import io.fabemu.core.optical.OcsSpec.PolicyChange;
import io.fabemu.core.sim.DeviceReport.LinkCounters;
import io.fabemu.core.time.Units;
import io.fabemu.core.topology.LinkSpec;
import io.fabemu.core.topology.OpticalSpec;
import io.fabemu.core.topology.OpticalSpec.IntraServer;
import io.fabemu.fabric.result.CaseResult;
import io.fabemu.fabric.result.RunResult;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Connection-policy changes during a run (docs/optical.md, "The OCS controller"): the routes switch, circuits are torn
 * down (after draining) and set up, every collective stays exact, and the cost shows in the results.
 */
class OcsReconfigurationFabricTest {

  private static final LinkSpec INTRA = new LinkSpec(400 * Units.GBPS, 200_000L);
  private static final LinkSpec OPTICAL = new LinkSpec(100 * Units.GBPS, 1_000_000L);
  private static final List<Long> SIZES = List.of(4L, 4_004L, 40_004L);
  private static final long DELAY_PS = 10 * Units.PS_PER_US;
  private static final long FIRST_PS = 15 * Units.PS_PER_US;
  private static final long SECOND_PS = 30 * Units.PS_PER_US;

  private static ScenarioSpec scenario(OpticalSpec topology, Collective collective, List<Long> sizes, int iterations,
                                       int warmup) {
    return TestScenarios.optical("ocs-reconfigure", topology, collective, sizes, iterations, warmup);
  }

  private static OpticalSpec optical(int servers, int npus, IntraServer intra, LinkSpec opticalLink,
                                     ConnectionFormula initial, PolicyChange... changes) {
    return new OpticalSpec(servers, npus, intra, INTRA, opticalLink, initial, new OcsSpec(DELAY_PS, List.of(changes)));
  }

  /** M = 4, N = 4: formula 3, formula 1 at 15 us, formula 3 again at 30 us (no circuit in both). */
  private static OpticalSpec thereAndBack(IntraServer intra) {
    return optical(4, 4, intra, OPTICAL, ConnectionFormula.FORMULA_3, new PolicyChange(FIRST_PS,
        ConnectionFormula.FORMULA_1), new PolicyChange(SECOND_PS, ConnectionFormula.FORMULA_3));
  }

  @ParameterizedTest
  @EnumSource(value = Collective.class, names = "PIPELINE", mode = EnumSource.Mode.EXCLUDE)
  void shouldGiveExactResultsAcrossPolicyChanges(Collective collective) {
    for (IntraServer intra : IntraServer.values()) {
      ScenarioSpec spec = scenario(thereAndBack(intra), collective, SIZES, 2, 1);
      RunResult result = FabricTest.run(spec);
      assertThat(result.complete()).as(collective + ": " + result.incompleteReason()).isTrue();
      assertThat(result.cases()).hasSize(SIZES.size()).allSatisfy(c -> assertThat(c.wrongElements()).isZero());
      OcsReport ocs = result.ocs();
      assertThat(ocs.circuitsSetUp()).isEqualTo(6);
      assertThat(ocs.lastCircuitUpPs()).isEqualTo(DELAY_PS);
      // Traffic crossed both changes: packets waited for the new circuits of each.
      assertThat(ocs.changes()).hasSize(2);
      assertThat(ocs.changes()).extracting(ChangeCost::atPs).containsExactly(FIRST_PS, SECOND_PS);
      assertThat(ocs.changes()).allSatisfy(c -> {
        assertThat(c.circuitsTornDown()).isEqualTo(6);
        assertThat(c.circuitsSetUp()).isEqualTo(6);
        assertThat(c.lastCircuitUpPs()).isGreaterThanOrEqualTo(c.atPs() + DELAY_PS);
        assertThat(c.heldPackets()).isPositive();
        assertThat(c.worstWaitPs()).isPositive();
        assertThat(c.totalWaitPs()).isGreaterThanOrEqualTo(c.worstWaitPs());
      });
      assertThat(result.virtualEndPs()).isGreaterThan(SECOND_PS + DELAY_PS);
      assertThat(FabricTest.run(spec).digest()).as("same digest twice").isEqualTo(result.digest());
    }
  }

  /** Bytes sent on the links of the circuits of {@code circuits}, both directions (hosts {@code server * 4 + npu}). */
  private static long circuitBytes(RunResult result, List<Circuit> circuits) {
    Set<Long> keys = new HashSet<>();
    for (Circuit c : circuits) {
      int a = c.serverA() * 4 + c.plane();
      int b = c.serverB() * 4 + c.plane();
      keys.add((long) a << 32 | b);
      keys.add((long) b << 32 | a);
    }
    long bytes = 0;
    for (LinkCounters link : result.links()) {
      if (keys.contains((long) link.fromDevice() << 32 | link.toDevice())) bytes += link.bytes();
    }
    return bytes;
  }

  @Test
  void shouldSendTrafficByTheNewPolicysCircuitsOnceThePolicyChanges() {
    OpticalSpec changing = optical(4, 4, IntraServer.FULL_MESH, OPTICAL, ConnectionFormula.FORMULA_3,
        new PolicyChange(FIRST_PS, ConnectionFormula.FORMULA_1));
    List<ConnectionPolicy> policies = changing.policies();
    List<Circuit> formula3 = policies.get(0).circuits();
    List<Circuit> formula1 = policies.get(1).circuits();
    assertThat(new HashSet<>(formula3)).doesNotContainAnyElementsOf(formula1);
    OpticalSpec staying = optical(4, 4, IntraServer.FULL_MESH, OPTICAL, ConnectionFormula.FORMULA_3);
    RunResult changed = FabricTest.run(scenario(changing, Collective.ALLREDUCE, SIZES, 2, 1));
    RunResult stayed = FabricTest.run(scenario(staying, Collective.ALLREDUCE, SIZES, 2, 1));
    // The cluster has the circuits of both policies: 12 circuits, 24 more directed links than formula 3's 6.
    assertThat(changed.links()).hasSize(stayed.links().size() + 12);
    // Formula 3's circuits carried what was sent before 15 us; everything after went over formula 1's.
    long oldBytes = circuitBytes(changed, formula3);
    long newBytes = circuitBytes(changed, formula1);
    assertThat(oldBytes).isPositive().isLessThan(circuitBytes(stayed, formula3) / 10);
    assertThat(newBytes).isGreaterThan(9 * oldBytes);
    assertThat(changed.cases()).allSatisfy(c -> assertThat(c.wrongElements()).isZero());
  }

  @Test
  void shouldBringANewCircuitUpOnlyOnceTheNpusTornDownCircuitDrained() {
    // 1 Gbps circuits, formula 1 then formula 3 at 15 us: NPUs with a circuit in both policies (NPU 1 of server 0
    // joins server 1, then server 2) have far more queued on their formula-1 circuit than it sends in the 10 us delay,
    // so their formula-3 circuit comes up only when the old one has drained, well after 25 us.
    LinkSpec slow = new LinkSpec(Units.GBPS, 1_000_000L);
    List<Long> size = List.of(40_004L);
    RunResult fourServers = FabricTest.run(scenario(optical(4, 4, IntraServer.FULL_MESH, slow,
        ConnectionFormula.FORMULA_1, new PolicyChange(FIRST_PS, ConnectionFormula.FORMULA_3)), Collective.ALLREDUCE,
        size, 1, 0));
    ChangeCost drained = fourServers.ocs().changes().get(0);
    assertThat(drained.lastCircuitUpPs()).isGreaterThan(FIRST_PS + 5 * DELAY_PS);
    assertThat(fourServers.cases()).allSatisfy(c -> assertThat(c.wrongElements()).isZero());
    // Two servers of two NPUs: formula 3 joins NPUs 0, formula 1 NPUs 1, so no NPU drains one circuit while another
    // waits: the new circuit is up exactly a delay after the change, however much the old one still sends.
    RunResult twoServers = FabricTest.run(scenario(optical(2, 2, IntraServer.FULL_MESH, slow,
        ConnectionFormula.FORMULA_1, new PolicyChange(FIRST_PS, ConnectionFormula.FORMULA_3)), Collective.ALLREDUCE,
        size, 1, 0));
    ChangeCost direct = twoServers.ocs().changes().get(0);
    assertThat(direct).extracting(ChangeCost::circuitsTornDown, ChangeCost::circuitsSetUp, ChangeCost::lastCircuitUpPs)
        .containsExactly(1, 1, FIRST_PS + DELAY_PS);
    assertThat(twoServers.cases()).allSatisfy(c -> assertThat(c.wrongElements()).isZero());
  }

  @Test
  void shouldCostNothingButTheRunsEndWhenThePolicyChangesAfterTheTraffic() {
    // One Allreduce of one element ends well before 500 us; the change then tears down and sets up circuits no packet
    // needs: every case is as without it, and the run ends when the new circuits are up.
    long latePs = 500 * Units.PS_PER_US;
    OpticalSpec late = optical(4, 4, IntraServer.FULL_MESH, OPTICAL, ConnectionFormula.FORMULA_3,
        new PolicyChange(latePs, ConnectionFormula.FORMULA_1));
    OpticalSpec never = optical(4, 4, IntraServer.FULL_MESH, OPTICAL, ConnectionFormula.FORMULA_3);
    RunResult changed = FabricTest.run(scenario(late, Collective.ALLREDUCE, List.of(4L), 1, 0));
    RunResult unchanged = FabricTest.run(scenario(never, Collective.ALLREDUCE, List.of(4L), 1, 0));
    assertThat(unchanged.virtualEndPs()).isLessThan(latePs);
    CaseResult before = unchanged.cases().get(0);
    CaseResult after = changed.cases().get(0);
    assertThat(after.maxLatencyPs()).isEqualTo(before.maxLatencyPs());
    assertThat(after.minLatencyPs()).isEqualTo(before.minLatencyPs());
    assertThat(after.wrongElements()).isZero();
    assertThat(changed.ocs().changes())
        .containsExactly(new ChangeCost(latePs, 6, 6, latePs + DELAY_PS, 0L, 0L, 0L));
    assertThat(changed.virtualEndPs()).isEqualTo(latePs + DELAY_PS);
  }

  @Test
  void shouldBuildTheControllerLastAndLeaveTheLookaheadAsWithoutChanges() {
    // The controller sends its whole schedule at time 0: changes do not shorten the window (the links' 200 ns).
    Fabric fabric = Fabric.build(scenario(thereAndBack(IntraServer.SWITCH), Collective.ALLREDUCE, SIZES, 1, 0));
    assertThat(fabric.lookaheadPs()).isEqualTo(200_000L).isEqualTo(Fabric.build(scenario(optical(4, 4,
        IntraServer.SWITCH, OPTICAL, ConnectionFormula.FORMULA_3), Collective.ALLREDUCE, SIZES, 1, 0)).lookaheadPs());
    assertThat(fabric.ocsDevice()).isEqualTo(fabric.topology().deviceCount());
    // 16 NPUs to their server switch (both directions) and 12 circuits.
    assertThat(fabric.topology().links()).hasSize(2 * (16 + 12));
  }
}
