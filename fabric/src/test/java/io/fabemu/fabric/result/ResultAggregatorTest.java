package io.fabemu.fabric.result;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.fabemu.collectives.Algorithm;
import io.fabemu.collectives.Collective;
import io.fabemu.collectives.WorkloadSpec;
import io.fabemu.core.data.DataType;
import io.fabemu.core.link.ForwardingMode;
import io.fabemu.core.sim.DeviceReport.RankResult;
import io.fabemu.core.sim.DeviceReport;
import io.fabemu.core.time.Units;
import io.fabemu.core.topology.LeafSpineSpec;
import io.fabemu.core.topology.LinkSpec;
import io.fabemu.core.topology.TopologySpec;
import io.fabemu.fabric.DeviceSpec;
import io.fabemu.fabric.Fabric;
import io.fabemu.fabric.ScenarioSpec;
import io.fabemu.nic.NicSpec;
import io.fabemu.node.HostSpec;
import io.fabemu.switching.SwitchSpec;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Per-case figures from per-rank results. */
class ResultAggregatorTest {

  private static ScenarioSpec spec(int hosts, Collective collective, Algorithm algorithm) {
    LinkSpec link = new LinkSpec(25 * Units.GBPS, 500_000L);
    TopologySpec topology = new LeafSpineSpec(hosts, hosts, 0, link, link);
    DeviceSpec devices = new DeviceSpec(
        HostSpec.builder().sendOverheadPs(300_000L).recvOverheadPs(300_000L).memoryLatencyPs(100_000L)
            .pcieBitsPerSecond(64 * Units.GBPS).pcieLatencyPs(250_000L).build(),
        new NicSpec(4096, 64, 150_000L, 100_000L),
        new SwitchSpec(500_000L, ForwardingMode.CUT_THROUGH));
    WorkloadSpec workload = WorkloadSpec.builder(collective, List.of(algorithm), List.of(4096L)).iterations(2).warmup(1)
        .dataType(DataType.INT32).build();
    return ScenarioSpec.builder("aggregate", "test", 9, topology, devices, workload).build();
  }

  /** Rank r measured two iterations of mean latency {@code meanPs[r]}. */
  private static List<DeviceReport> reports(long[] meanPs, long[] wrong) {
    List<RankResult> ranks = new java.util.ArrayList<>();
    for (int r = 0; r < meanPs.length; r++) {
      ranks.add(RankResult.builder(r, 0, 2).totalLatencyPs(2 * meanPs[r]).minLatencyPs(meanPs[r])
          .maxLatencyPs(meanPs[r]).wrongElements(wrong[r]).build());
    }
    return List.of(new DeviceReport(100, List.of(), ranks));
  }

  private static CaseResult aggregate(ScenarioSpec spec, long[] meanPs, long[] wrong) {
    RunResult result = ResultAggregator.aggregate(spec, meanPs.length, reports(meanPs, wrong), 1_000L, 1, 1, 0.0);
    assertThat(result.complete()).isTrue();
    return result.cases().get(0);
  }

  @Test
  void shouldReportTheInitiatorsRoundTripWhenSendrecvRunsOnFourRanks() {
    // Initiators 0 and 2 measure round trips; responders 1 and 3 about one way.
    CaseResult c = aggregate(spec(4, Collective.SENDRECV, Algorithm.PING_PONG),
        new long[] {10_000, 5_200, 12_000, 6_000}, new long[] {0, 3, 0, 4});

    assertThat(c.avgLatencyPs()).isEqualTo(11_000.0);
    assertThat(c.minLatencyPs()).isEqualTo(10_000.0);
    assertThat(c.maxLatencyPs()).isEqualTo(12_000.0);
    assertThat(c.wrongElements()).isEqualTo(7);
  }

  @Test
  void shouldReportTheSendersWindowWhenWindowedSendrecvRunsOnThreeRanks() {
    // osu_bw: rank 0 times the window and its acknowledgement; rank 1's receive side and idle rank 2 stay out.
    CaseResult c = aggregate(spec(3, Collective.SENDRECV, Algorithm.WINDOW), new long[] {50_000, 40_000, 0},
        new long[] {0, 0, 0});

    assertThat(c.avgLatencyPs()).isEqualTo(50_000.0);
    assertThat(c.rankLatenciesPs()).containsExactly(50_000.0);
  }

  @Test
  void shouldKeepEachMeasuringRanksMeanAndEachIterationsMeanOverTheMeasuringRanks() {
    // Ping-pong on four ranks: initiators 0 and 2 measure; the responders' figures must not enter either array.
    List<RankResult> ranks = List.of(
        RankResult.builder(0, 0, 2).totalLatencyPs(30_000).minLatencyPs(10_000).maxLatencyPs(20_000)
            .iterationLatenciesPs(new long[] {10_000, 20_000}).build(),
        RankResult.builder(1, 0, 2).totalLatencyPs(9_000).minLatencyPs(4_000).maxLatencyPs(5_000)
            .iterationLatenciesPs(new long[] {4_000, 5_000}).build(),
        RankResult.builder(2, 0, 2).totalLatencyPs(50_000).minLatencyPs(20_000).maxLatencyPs(30_000)
            .iterationLatenciesPs(new long[] {30_000, 20_000}).build(),
        RankResult.builder(3, 0, 2).totalLatencyPs(9_000).minLatencyPs(4_000).maxLatencyPs(5_000)
            .iterationLatenciesPs(new long[] {5_000, 4_000}).build());
    RunResult result = ResultAggregator.aggregate(spec(4, Collective.SENDRECV, Algorithm.PING_PONG), 4,
        List.of(new DeviceReport(100, List.of(), ranks)), 1_000L, 1, 1, 0.0);
    CaseResult c = result.cases().get(0);

    assertThat(c.rankLatenciesPs()).containsExactly(15_000.0, 25_000.0);
    assertThat(c.iterationLatenciesPs()).containsExactly(20_000.0, 20_000.0);
    assertThat(c.avgLatencyPs()).isEqualTo(20_000.0);
  }

  @Test
  void shouldSpanEachIterationFromTheFirstRanksStartToTheLastRanksCompletionOverEveryRank() {
    // Ping-pong: the responders do not measure, but they take part in the collective, so its interval covers them.
    List<RankResult> ranks = List.of(
        RankResult.builder(0, 0, 2).totalLatencyPs(30_000).minLatencyPs(10_000).maxLatencyPs(20_000)
            .iterationLatenciesPs(new long[] {10_000, 20_000}).iterationStartsPs(new long[] {100, 50_000}).build(),
        RankResult.builder(1, 0, 2).totalLatencyPs(9_000).minLatencyPs(4_000).maxLatencyPs(5_000)
            .iterationLatenciesPs(new long[] {4_000, 5_000}).iterationStartsPs(new long[] {90, 49_000}).build(),
        RankResult.builder(2, 0, 2).totalLatencyPs(50_000).minLatencyPs(20_000).maxLatencyPs(30_000)
            .iterationLatenciesPs(new long[] {30_000, 20_000}).iterationStartsPs(new long[] {200, 50_100}).build(),
        RankResult.builder(3, 0, 2).totalLatencyPs(9_000).minLatencyPs(4_000).maxLatencyPs(5_000)
            .iterationLatenciesPs(new long[] {5_000, 4_000}).iterationStartsPs(new long[] {300, 80_000}).build());
    RunResult result = ResultAggregator.aggregate(spec(4, Collective.SENDRECV, Algorithm.PING_PONG), 4,
        List.of(new DeviceReport(100, List.of(), ranks)), 1_000L, 1, 1, 0.0);
    CaseResult c = result.cases().get(0);

    assertThat(c.timed()).isTrue();
    assertThat(c.iterationStartsPs()).containsExactly(90L, 49_000L);
    // Iteration 0 ends with rank 2 (200 + 30,000), iteration 1 with rank 3 (80,000 + 4,000).
    assertThat(c.iterationEndsPs()).containsExactly(30_200L, 84_000L);
  }

  @Test
  void shouldSpanTheCaseFromTheFirstRanksStartToTheLastRanksEndWhenEveryRankReportsIt() {
    List<RankResult> ranks = List.of(
        RankResult.builder(0, 0, 1).totalLatencyPs(10).minLatencyPs(10).maxLatencyPs(10).caseStartPs(40).caseEndPs(900)
            .build(),
        RankResult.builder(1, 0, 1).totalLatencyPs(10).minLatencyPs(10).maxLatencyPs(10).caseStartPs(30).caseEndPs(950)
            .build(),
        RankResult.builder(0, 1, 1).totalLatencyPs(10).minLatencyPs(10).maxLatencyPs(10).caseStartPs(900)
            .caseEndPs(1_500).build(),
        RankResult.builder(1, 1, 1).totalLatencyPs(10).minLatencyPs(10).maxLatencyPs(10).caseStartPs(950)
            .caseEndPs(1_400).build());
    WorkloadSpec w = WorkloadSpec.builder(Collective.ALLREDUCE, List.of(Algorithm.RING), List.of(4096L, 8192L))
        .dataType(DataType.INT32).build();
    ScenarioSpec one = spec(2, Collective.ALLREDUCE, Algorithm.RING);
    ScenarioSpec twoCases = ScenarioSpec.builder("aggregate", "test", 9, one.topology(), one.devices(), w).build();
    RunResult result = ResultAggregator.aggregate(twoCases, 2,
        List.of(new DeviceReport(100, List.of(), ranks)), 2_000L, 1, 1, 0.0);

    assertThat(result.cases()).extracting(CaseResult::startPs).containsExactly(30L, 900L);
    assertThat(result.cases()).extracting(CaseResult::endPs).containsExactly(950L, 1_500L);
    // A rank without its interval leaves the case without one.
    RunResult partial = ResultAggregator.aggregate(spec(2, Collective.ALLREDUCE, Algorithm.RING), 2,
        List.of(new DeviceReport(100, List.of(), List.of(ranks.get(0),
            RankResult.builder(1, 0, 1).totalLatencyPs(10).minLatencyPs(10).maxLatencyPs(10)
                .build()))), 2_000L, 1, 1, 0.0);
    assertThat(partial.cases().get(0).caseTimed()).isFalse();
    assertThat(partial.cases().get(0).startPs()).isEqualTo(-1);
  }

  @Test
  void shouldShowNoIterationLatenciesWhenARankDidNotReportThem() {
    CaseResult c = aggregate(spec(2, Collective.ALLREDUCE, Algorithm.RING), new long[] {10_000, 12_000},
        new long[] {0, 0});

    assertThat(c.iterationLatenciesPs()).isEmpty();
    assertThat(c.timed()).isFalse();
    assertThat(c.rankLatenciesPs()).containsExactly(10_000.0, 12_000.0);
  }

  @Test
  void shouldLeaveOutTheIdleLastRankWhenSendrecvRunsOnThreeRanks() {
    // Rank 2 has no partner and records nothing; rank 1 answers rank 0.
    CaseResult c = aggregate(spec(3, Collective.SENDRECV, Algorithm.PING_PONG),
        new long[] {10_000, 5_200, 0}, new long[] {1, 2, 0});

    assertThat(c.avgLatencyPs()).isEqualTo(10_000.0);
    assertThat(c.minLatencyPs()).isEqualTo(10_000.0);
    assertThat(c.maxLatencyPs()).isEqualTo(10_000.0);
    assertThat(c.wrongElements()).isEqualTo(3);
  }

  @Test
  void shouldAggregateOverEveryRankWhenCollectiveIsNotSendrecv() {
    CaseResult c = aggregate(spec(4, Collective.ALLREDUCE, Algorithm.RING),
        new long[] {10_000, 5_000, 12_000, 1_000}, new long[] {0, 3, 0, 4});

    assertThat(c.avgLatencyPs()).isEqualTo(7_000.0);
    assertThat(c.minLatencyPs()).isEqualTo(1_000.0);
    assertThat(c.maxLatencyPs()).isEqualTo(12_000.0);
    assertThat(c.wrongElements()).isEqualTo(7);
  }

  @Test
  void shouldGiveTheSameRoundTripForEveryPairWhenPingPongRunsOnAnIdleFabric() {
    for (int hosts : new int[] {3, 4}) {
      RunResult result = Fabric.build(spec(hosts, Collective.SENDRECV, Algorithm.PING_PONG)).runOnPlainEngine();
      assertThat(result.complete()).as(result.incompleteReason()).isTrue();
      CaseResult c = result.cases().get(0);

      assertThat(c.wrongElements()).isZero();
      // Every pair's round trip is the same on a star: min, avg and max agree (no responder, no idle rank).
      assertThat(c.minLatencyPs()).as("%d hosts", hosts).isPositive().isCloseTo(c.maxLatencyPs(),
          within(c.maxLatencyPs() * 0.01));
      assertThat(c.avgLatencyPs()).isCloseTo(c.maxLatencyPs(), within(c.maxLatencyPs() * 0.01));
    }
  }
}
