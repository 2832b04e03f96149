package io.fabemu.fabric;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabemu.collectives.Algorithm;
import io.fabemu.collectives.Collective;
import io.fabemu.collectives.PipelineSpec;
import io.fabemu.collectives.StageCollective;
import io.fabemu.collectives.WorkloadSpec;
import io.fabemu.core.data.DataType;
import io.fabemu.core.link.ForwardingMode;
import io.fabemu.core.optical.ConnectionFormula;
import io.fabemu.core.optical.OcsSpec;
import io.fabemu.core.optical.TransmissionCosts;
import io.fabemu.core.time.Units;
import io.fabemu.core.topology.LinkSpec;
import io.fabemu.core.topology.OpticalSpec;
import io.fabemu.core.topology.OpticalSpec.IntraServer;
import io.fabemu.fabric.result.CaseResult;
import io.fabemu.fabric.result.RunResult;
import io.fabemu.nic.NicSpec;
import io.fabemu.switching.SwitchSpec;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A pipeline iteration (the optical patent) on the emulated optical cluster: every transmission method with every stage
 * collective carried out by the NPUs, their links and circuits, exact on both intra-server kinds and with circuits
 * set up by the OCS controller during the run; the same digest twice; and the methods' measured order against the
 * cost model where it is clear-cut.
 */
class OpticalPipelineFabricTest {

  private static final LinkSpec INTRA = new LinkSpec(400 * Units.GBPS, 200_000L);
  private static final LinkSpec OPTICAL = new LinkSpec(100 * Units.GBPS, 1_000_000L);
  private static final TransmissionCosts COSTS = new TransmissionCosts(400 * Units.GBPS, 100 * Units.GBPS,
      1_000_000, 1_000_000, true);
  private static final List<Algorithm> METHODS = Algorithm.TRANSMISSION_METHODS;

  private static ScenarioSpec scenario(OpticalSpec topology, StageCollective stage, List<Algorithm> methods,
                                       List<Long> sizes) {
    DeviceSpec devices = new DeviceSpec(TestScenarios.SERVER_HOST, new NicSpec(2048, 64, 100_000L, 120_000L),
        new SwitchSpec(300_000L, ForwardingMode.CUT_THROUGH));
    PipelineSpec pipeline = new PipelineSpec(topology.servers(), topology.npusPerServer(), 2, stage, 8L * 24,
        COSTS);
    WorkloadSpec workload = WorkloadSpec.builder(Collective.PIPELINE, methods, sizes).warmup(1)
        .dataType(DataType.FLOAT64).pipeline(pipeline).build();
    return ScenarioSpec.builder("optical-pipeline", "test", 23, topology, devices, workload).build();
  }

  @ParameterizedTest
  @EnumSource(StageCollective.class)
  void shouldDeliverEveryBlockExactlyWhenEveryMethodRunsOnTheDevices(StageCollective stage) {
    List<Algorithm> methods = new ArrayList<>(METHODS);
    if (!stage.replicated()) methods.remove(Algorithm.SEND_BROADCAST);
    for (OpticalSpec topology : List.of(
        new OpticalSpec(3, 3, IntraServer.FULL_MESH, INTRA, OPTICAL, ConnectionFormula.FORMULA_1),
        new OpticalSpec(4, 4, IntraServer.SWITCH, INTRA, OPTICAL, ConnectionFormula.FORMULA_3))) {
      // 3 and 1,203 elements of 8 bytes per NPU, times 4 for an allgather stage (a multiple of N = 3 and 4 needed).
      int unit = stage == StageCollective.ALLGATHER ? 12 : 1;
      List<Long> sizes = List.of(8L * 3 * unit, 8L * 1_203 * unit);
      RunResult result = Fabric.build(scenario(topology, stage, methods, sizes)).runOnPlainEngine();
      String what = stage + " on " + topology;
      assertThat(result.complete()).as(what + ": " + result.incompleteReason()).isTrue();
      assertThat(result.cases()).as(what).hasSize(methods.size() * sizes.size()).allSatisfy(c -> {
        assertThat(c.wrongElements()).as(what).isZero();
        assertThat(c.checked()).isTrue();
        assertThat(c.partEndsPs()).hasSize(2);
        assertThat(c.partEndsPs()[0]).isPositive().isLessThan(c.partEndsPs()[1]);
        assertThat(c.partEndsPs()[1]).isLessThan(Math.round(c.maxLatencyPs()));
      });
    }
  }

  @Test
  void shouldGiveTheSameDigestTwiceAndStayExactWithCircuitsComingUpDuringTheRun() {
    OpticalSpec plain = new OpticalSpec(4, 3, IntraServer.FULL_MESH, INTRA, OPTICAL, ConnectionFormula.FORMULA_3);
    ScenarioSpec spec = scenario(plain, StageCollective.ALLREDUCE, METHODS, List.of(8L * 300));
    RunResult first = Fabric.build(spec).runOnPlainEngine();
    RunResult second = Fabric.build(spec).runOnPlainEngine();
    assertThat(second.digest()).isEqualTo(first.digest());
    OpticalSpec withOcs = new OpticalSpec(4, 3, IntraServer.FULL_MESH, INTRA, OPTICAL, ConnectionFormula.FORMULA_3,
        new OcsSpec(20_000_000L));
    RunResult held = Fabric.build(scenario(withOcs, StageCollective.ALLREDUCE, METHODS, List.of(8L * 300)))
        .runOnPlainEngine();
    assertThat(held.complete()).isTrue();
    assertThat(held.wrongElements()).isZero();
    assertThat(held.ocs().heldPackets()).isPositive();
    assertThat(held.virtualEndPs()).isGreaterThan(first.virtualEndPs());
  }

  @Test
  void shouldStayExactWhenThePolicyChangesMidIteration() {
    // Formula 3 to formula 1 at 60 us, circuits 20 us later: the ranks keep the first policy's gateways, the NICs
    // route by the new one, and every block still arrives.
    OcsSpec change = new OcsSpec(20_000_000L, List.of(new OcsSpec.PolicyChange(60_000_000L,
        ConnectionFormula.FORMULA_1)));
    OpticalSpec topology = new OpticalSpec(4, 4, IntraServer.FULL_MESH, INTRA, OPTICAL, ConnectionFormula.FORMULA_3,
        change);
    RunResult result = Fabric.build(scenario(topology, StageCollective.NONE,
        List.of(Algorithm.SWITCH_SEND, Algorithm.P2P_BUS), List.of(8L * 2048))).runOnPlainEngine();
    assertThat(result.complete()).as(result.incompleteReason()).isTrue();
    assertThat(result.wrongElements()).isZero();
    assertThat(result.ocs().changes()).hasSize(1);
    assertThat(result.ocs().changes().get(0).heldPackets()).isPositive();
  }

  @Test
  void shouldMeasureTheOrderTheCostModelGivesOnReplicatedAndDistinctData() {
    // Method 1 sends one copy where the others send all N: on replicated data it is the fastest, as chosen; on
    // distinct data method 4 gathers to the gateway where method 3 all-gathers, and it is faster, as chosen.
    OpticalSpec topology = new OpticalSpec(4, 4, IntraServer.FULL_MESH, INTRA, OPTICAL, ConnectionFormula.FORMULA_3);
    RunResult replicated = Fabric.build(scenario(topology, StageCollective.ALLREDUCE, METHODS, List.of(8L * 4096)))
        .runOnPlainEngine();
    assertThat(fastest(replicated)).isEqualTo(Algorithm.SEND_BROADCAST);
    assertThat(new PipelineSpec(4, 4, 2, StageCollective.ALLREDUCE, 0, COSTS).choice(8L * 4096).chosen())
        .isEqualTo(Algorithm.SEND_BROADCAST.transmissionMethod());
    RunResult distinct = Fabric.build(scenario(topology, StageCollective.NONE,
        List.of(Algorithm.ALLGATHER_SEND_SCATTER, Algorithm.SWITCH_SEND), List.of(8L * 4096))).runOnPlainEngine();
    assertThat(fastest(distinct)).isEqualTo(Algorithm.SWITCH_SEND);
  }

  private static Algorithm fastest(RunResult result) {
    CaseResult best = null;
    for (CaseResult c : result.cases()) {
      if (best == null || c.maxLatencyPs() < best.maxLatencyPs()) best = c;
    }
    return best.algorithm();
  }
}
