package io.fabemu.app.output;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.fabemu.app.Fixtures;
import io.fabemu.collectives.Algorithm;
import io.fabemu.collectives.Collective;
import io.fabemu.collectives.WorkloadSpec;
import io.fabemu.core.fault.FaultReport;
import io.fabemu.core.fault.FaultTally;
import io.fabemu.fabric.result.CaseResult;
import io.fabemu.fabric.result.RunResult;
import java.util.List;
import org.junit.jupiter.api.Test;

class ReportFormatterTest {

  @Test
  void shouldPrintHeaderWithScenarioTopologyRanksAndSeed() {
    assertThat(ReportFormatter.header(Fixtures.spec(), "leaf-spine: 4 hosts, 1 TOR (4 hosts), 0 spines"))
        .isEqualTo("""
            # fabemu run: golden (golden.conf)
            # Topology: leaf-spine: 4 hosts, 1 TOR (4 hosts), 0 spines
            # Ranks: 4 (4 hosts x 1 per host), seed 42
            # Workload: allreduce float32 sum, 1 algorithm x 2 sizes, 10 iterations + 2 warm-up
            """);
  }

  @Test
  void shouldSayNothingIsCheckedInTheHeaderWhenPayloadIsSynthetic() {
    assertThat(ReportFormatter.header(Fixtures.syntheticResult().scenario(), "star")).endsWith("""
        # Workload: allreduce float32 sum, 1 algorithm x 2 sizes, 10 iterations + 2 warm-up
        # Payload: synthetic (sizes only; outputs not checked)
        """);
    assertThat(ReportFormatter.header(Fixtures.spec(), "star")).doesNotContain("Payload");
  }

  @Test
  void shouldPrintNotApplicableAsWrongWhenCasesWereNotChecked() {
    RunResult r = Fixtures.syntheticResult();

    assertThat(ReportFormatter.bandwidthTable(r, 0)).isEqualTo(
        "# fabemu allreduce nccl-tests table (all_reduce_perf), algorithm ring\n" + Fixtures.NCCL_COLUMN_HEADER + """
                   4             1     float     sum      -1     5.43    0.00    0.00    N/A
             1048576        262144     float     sum      -1   250.00    4.19    6.29    N/A
        # Out of bounds values : 0 OK
        # Avg bus bandwidth    : 3.14628\s
        """);
    assertThat(ReportFormatter.summary(r)).doesNotContain("WRONG");
  }

  @Test
  void shouldLayOutLatencyTableAsOsuAllreduceDoes() {
    RunResult r = Fixtures.result();

    assertThat(ReportFormatter.latencyTable(r.scenario().workload(), 0, r.cases())).isEqualTo("""
        # fabemu allreduce latency, algorithm ring
        # Size       Avg Latency(us)   Min Latency(us)   Max Latency(us)  Iterations
        4                       5.43              5.10              5.90          10
        1048576               250.00            249.00            251.50          10
        """);
  }

  @Test
  void shouldLayOutBandwidthBlockAsNcclTestsDoesWithOnlyTheOutOfPlaceHalfWhenOnlyThatWasMeasured() {
    RunResult r = Fixtures.result();

    assertThat(ReportFormatter.bandwidthTable(r, 0)).isEqualTo(
        "# fabemu allreduce nccl-tests table (all_reduce_perf), algorithm ring\n" + Fixtures.NCCL_COLUMN_HEADER + """
                   4             1     float     sum      -1     5.43    0.00    0.00       0
             1048576        262144     float     sum      -1   250.00    4.19    6.29       0
        # Out of bounds values : 0 OK
        # Avg bus bandwidth    : 3.14628\s
        """);
  }

  @Test
  void shouldPrintSummaryWithVirtualEndWindowsEventsRateAndDigest() {
    assertThat(ReportFormatter.summary(Fixtures.result())).isEqualTo(
        "# Run: virtual end 2.6 ms, 1234 windows, 56789 events, 113578 events/s (wall 0.500 s), digest ab12\n");
  }

  @Test
  void shouldPrintTheOcsSetUpAndALinePerPolicyChange() {
    assertThat(ReportFormatter.summary(Fixtures.ocsResult()).lines()).containsExactly(
        "# Run: virtual end 2.6 ms, 1234 windows, 56789 events, 113578 events/s (wall 0.500 s), digest ab12",
        "# OCS: 6 circuits set up, the last up at 10 us; 16 packets waited for their circuit, 100.88 us in total, worst"
            + " 6.545 us",
        "# OCS: policy change at 20 us to formula 1: 6 circuits torn down, 6 set up, the last up at 30.5 us; 12 packets"
            + " waited for them, 85.072 us in total, worst 9.3 us");
  }

  @Test
  void shouldFlagIncompleteAndWrongWhenTheRunFailed() {
    RunResult ok = Fixtures.result();
    CaseResult wrong = CaseResult.builder(0, Algorithm.RING, 4, 1, 10).avgLatencyPs(5_430_000.0)
        .minLatencyPs(5_100_000.0).maxLatencyPs(5_900_000.0).wrongElements(3).build();
    RunResult bad = RunResult.builder(ok.scenario()).cases(List.of(wrong)).links(ok.links()).complete(false)
        .incompleteReason("rank 2 stuck").virtualEndPs(1_000).windows(1).events(1).wallSeconds(0).digest("00")
        .build();

    assertThat(ReportFormatter.summary(bad)).isEqualTo("""
        # Run: virtual end 1 ns, 1 windows, 1 events, n/a events/s (wall 0.000 s), digest 00
        # INCOMPLETE: rank 2 stuck
        # WRONG: 3 output elements differ from the exact answer
        """);
  }

  @Test
  void shouldPrintOneLatencyTableAndOneBandwidthBlockPerAlgorithm() {
    String report = ReportFormatter.report(Fixtures.result());

    assertThat(report).startsWith("\n# fabemu allreduce latency, algorithm ring\n");
    assertThat(report).containsOnlyOnce("# Avg bus bandwidth").containsOnlyOnce("# Out of bounds values : 0 OK\n")
        .containsOnlyOnce("# fabemu allreduce nccl-tests table (all_reduce_perf), algorithm ring\n");
    assertThat(report).endsWith("digest ab12\n");
  }

  @Test
  void shouldShowTheFirstBufferLayoutInTheOsuTableAndBothHalvesInTheNcclTable() {
    RunResult r = Fixtures.bothLayoutsResult();

    assertThat(ReportFormatter.casesOfAlgorithm(r, 0)).extracting(CaseResult::caseIndex).containsExactly(0, 1);
    assertThat(ReportFormatter.report(r))
        .contains("\n4                       5.43              5.10              5.90          10\n")
        .contains("           4             1     float     sum      -1     5.43    0.00    0.00       0     "
            + "5.00    0.00    0.00       0\n");
    assertThat(ReportFormatter.header(r.scenario(), "star"))
        .contains("1 algorithm x out-of-place/in-place x 2 sizes");
  }

  @Test
  void shouldUseNcclTestsBusBandwidthFactors() {
    assertThat(ReportFormatter.busBandwidthFactor(Collective.ALLREDUCE, 4)).isEqualTo(1.5);
    assertThat(ReportFormatter.busBandwidthFactor(Collective.ALLGATHER, 4)).isEqualTo(0.75);
    assertThat(ReportFormatter.busBandwidthFactor(Collective.REDUCE_SCATTER, 8)).isEqualTo(0.875);
    assertThat(ReportFormatter.busBandwidthFactor(Collective.ALLTOALL, 2)).isEqualTo(0.5);
    assertThat(ReportFormatter.busBandwidthFactor(Collective.GATHER, 4)).isEqualTo(0.75);
    assertThat(ReportFormatter.busBandwidthFactor(Collective.SCATTER, 4)).isEqualTo(0.75);
    assertThat(ReportFormatter.busBandwidthFactor(Collective.BROADCAST, 16)).isEqualTo(1.0);
    assertThat(ReportFormatter.busBandwidthFactor(Collective.REDUCE, 16)).isEqualTo(1.0);
    assertThat(ReportFormatter.algBandwidthGBps(1_000_000_000L, 1e12)).isCloseTo(1.0, within(1e-12));
  }

  @Test
  void shouldCountTheWholeBufferExactlyForTheCollectivesWithOneBlockPerRank() {
    assertThat(java.util.Arrays.stream(Collective.values()).filter(Collective::oneBlockPerRank))
        .containsExactlyInAnyOrder(Collective.GATHER, Collective.SCATTER, Collective.ALLGATHER,
            Collective.REDUCE_SCATTER, Collective.ALLTOALL);
    for (Collective c : Collective.values()) {
      assertThat(ReportFormatter.ncclBlocks(c, 8)).as(c.configName()).isEqualTo(c.oneBlockPerRank() ? 8 : 1);
      if (c != Collective.ALLREDUCE) {
        assertThat(ReportFormatter.busBandwidthFactor(c, 8)).as(c.configName())
            .isEqualTo(c.oneBlockPerRank() ? 0.875 : 1.0);
      }
    }
  }

  @Test
  void shouldWriteNoneAsRedopAndTheRootWhenCollectiveDoesNotReduce() {
    var s = Fixtures.spec();
    var w = WorkloadSpec.builder(Collective.BROADCAST, List.of(Algorithm.BINOMIAL), List.of(4L))
        .dataType(s.workload().dataType()).op(s.workload().op()).root(2).build();
    CaseResult c = CaseResult.builder(0, Algorithm.BINOMIAL, 4, 1, 1).avgLatencyPs(1_000_000.0)
        .minLatencyPs(1_000_000.0).maxLatencyPs(1_000_000.0).build();

    assertThat(ReportFormatter.bandwidthTable(Fixtures.result(w, List.of(c)), 0))
        .contains("           4             1     float    none       2     1.00    0.00    0.00       0\n");
  }

  @Test
  void shouldCountTheWholeBufferAsNcclTestsDoesWhenSizeIsOneBlockPerRank() {
    var s = Fixtures.spec();
    var w = WorkloadSpec.builder(Collective.ALLGATHER, List.of(Algorithm.RING), List.of(1024L))
        .dataType(s.workload().dataType()).op(s.workload().op()).build();
    // 1 KiB per rank on 4 ranks: nccl-tests' size is 4 KiB, its count the 256 floats per rank; 4096 B in 2 us =
    // 2.048 GB/s; busbw x 3/4 = 1.536.
    CaseResult c = CaseResult.builder(0, Algorithm.RING, 1024, 256, 1).avgLatencyPs(2_000_000.0)
        .minLatencyPs(2_000_000.0).maxLatencyPs(2_000_000.0).build();

    assertThat(ReportFormatter.bandwidthTable(Fixtures.result(w, List.of(c)), 0))
        .contains("        4096           256     float    none      -1     2.00    2.05    1.54       0\n")
        .endsWith("# Avg bus bandwidth    : 1.536 \n");
    assertThat(ReportFormatter.latencyTable(w, 0, List.of(c))).contains("\n1024                    2.00");
  }

  @Test
  void shouldFormatLikeCPercentGWhenPrintingAverageBusBandwidth() {
    assertThat(ReportFormatter.formatG(1.234)).isEqualTo("1.234");
    assertThat(ReportFormatter.formatG(0)).isEqualTo("0");
    assertThat(ReportFormatter.formatG(12.3456789)).isEqualTo("12.3457");
    assertThat(ReportFormatter.formatG(1234567.0)).isEqualTo("1.23457e+06");
    assertThat(ReportFormatter.formatG(0.00001)).isEqualTo("1e-05");
    assertThat(ReportFormatter.formatG(0.0001)).isEqualTo("0.0001");
  }

  @Test
  void shouldPrintNoNcclTableWhenTheCollectiveIsABarrier() {
    var s = Fixtures.spec();
    var w = WorkloadSpec.builder(Collective.BARRIER, List.of(Algorithm.DISSEMINATION), List.of(0L))
        .dataType(s.workload().dataType()).op(s.workload().op()).build();
    CaseResult c = CaseResult.builder(0, Algorithm.DISSEMINATION, 0, 0, 1).avgLatencyPs(1_000_000.0)
        .minLatencyPs(1_000_000.0).maxLatencyPs(1_000_000.0).build();

    assertThat(ReportFormatter.report(Fixtures.result(w, List.of(c)))).contains("# fabemu barrier latency")
        .doesNotContain("nccl-tests").doesNotContain("Avg bus bandwidth");
  }

  /** The fault table of {@link Fixtures#faultedResult}, up to its totals line. */
  private static final String FAULT_TABLE = """
      # fabemu faults: 6 events (heartbeat 1 us x 3 missed, management 1 us + 100 ns per update, retransmit timeout \
      adaptive, 10 us to 10 ms, at most 10 times)
      # Id        At(us)  Target           Action       Detected(us)  Rerouted(us)        Lost   Corrupted      Resent\
        Spurious   Touched     Extra(us)  MaxExtra(us)
      0           40.000  link host0-tor0  down                3.000         4.200          12           0           3\
               0         2        35.250        30.100
      1           50.000  tor links        lossy                   -             -           5           2           3\
               1         3        -0.002         0.002
      2           60.000  link host0-tor0  up                  1.000         2.300           0           0           0\
               0         1         5.150         5.150
      3          100.000  switch tor0      down                    -             -           0           0           0\
               0         0         0.000         0.000
      4          120.000  host links       degrade                 -             -           0           0           0\
               0         4        12.000         4.000
      5          130.000  host host3       straggler               -             -           0           0           0\
               0         4         8.000         2.500
      # Detected, Rerouted: after the injection, until a neighbour noticed it and until the network routed around \
      it (-: not at all)
      # Resent: messages sent again because a copy or its acknowledgement was lost; Spurious: sent again although \
      the copy before had arrived (the retransmit timeout was too short)
      # Touched: collectives (measured iterations) running while the event acted; Extra, MaxExtra: their time minus \
      the run without faults, summed and largest (-: that run was skipped)
      # Cases touched: event 0: none; event 1: none; event 2: none; event 3: none; event 4: none; event 5: none
      """;

  @Test
  void shouldPrintAFaultTableWithItsTotalsThePartitionAndTheMessagesGivenUpOn() {
    assertThat(ReportFormatter.faults(Fixtures.faultedResult(2))).isEqualTo(FAULT_TABLE + """
        # Fault totals: 17 packets lost, 2 corrupted, 7 messages resent after a loss, 1 resent spuriously, \
        2 duplicates discarded (no event: 0 lost, 0 corrupted, 1 resent after a loss, 0 spuriously)
        # Partition: rank 3 cut off from ranks 0-2
        # Gave up: rank 3 -> rank 0: message 0 after 10 tries
        # Gave up: rank 3 -> rank 1: message 1 after 10 tries
        """);
  }

  @Test
  void shouldNameAtMostFiveMessagesGivenUpOnAndCountTheRest() {
    List<String> five = ReportFormatter.faults(Fixtures.faultedResult(5)).lines()
        .filter(l -> l.startsWith("# Gave up") || l.startsWith("# ...")).toList();
    List<String> seven = ReportFormatter.faults(Fixtures.faultedResult(7)).lines()
        .filter(l -> l.startsWith("# Gave up") || l.startsWith("# ...")).toList();

    assertThat(five).hasSize(5).last().isEqualTo("# Gave up: rank 3 -> rank 4: message 4 after 10 tries");
    assertThat(seven).hasSize(6).endsWith("# Gave up: rank 3 -> rank 4: message 4 after 10 tries",
        "# ... and 2 more given up");
  }

  @Test
  void shouldLeaveOutTheUnexplainedCountsAndThePartitionWhenThereAreNone() {
    RunResult r = Fixtures.faultedResult(0);
    FaultTally tally = new FaultTally(r.scenario().faults().eventCount());
    tally.packetLost(3);
    RunResult quiet = Fixtures.withFaults(Fixtures.result(), r.scenario().faults(),
        new FaultReport(tally, r.faults().records(), null, List.of()));

    assertThat(ReportFormatter.faults(quiet)).endsWith(
        "# Fault totals: 1 packet lost, 0 corrupted, 0 messages resent after a loss, 0 resent spuriously, "
        + "0 duplicates discarded\n")
        .contains("\n3          100.000  switch tor0      down                    -             -           1"
            + "           0           0         0         -             -             -\n");
  }

  @Test
  void shouldShowDashesWhenTheRunReportedNothingOfItsFaults() {
    RunResult r = Fixtures.withFaults(Fixtures.result(), Fixtures.faultPlan(), null);

    assertThat(ReportFormatter.faults(r)).contains(
        "\n0           40.000  link host0-tor0  down                    -             -           -           -"
            + "           -         -         -             -             -\n")
        .endsWith("that run was skipped)\n# Cases touched: event 0: none; event 1: none; event 2: none; event 3: "
            + "none; event 4: none; event 5: none\n# Fault totals: not reported\n");
  }

  @Test
  void shouldPrintTheFaultTableBetweenTheTablesAndTheSummaryOnlyWhenThereIsAPlan() {
    String faulted = ReportFormatter.report(Fixtures.faultedResult(0));
    String plain = ReportFormatter.report(Fixtures.result());

    // The summary line of a run with faults ends with its resends, split.
    String resends = ", 7 resends after a loss, 1 spurious";
    assertThat(faulted).isEqualTo(plain.replace("\n# Run: ", "\n" + ReportFormatter.faults(
        Fixtures.faultedResult(0)) + "\n# Run: ").replace("digest ab12\n", "digest ab12" + resends + "\n"));
    assertThat(faulted).contains("# Avg bus bandwidth    : 3.14628 \n\n# fabemu faults: 6 events")
        .endsWith("# Partition: rank 3 cut off from ranks 0-2\n\n"
            + ReportFormatter.summary(Fixtures.result()).replace("\n", resends + "\n"));
    assertThat(ReportFormatter.faults(Fixtures.result())).isEmpty();
    assertThat(plain).doesNotContain("faults");
  }
}
