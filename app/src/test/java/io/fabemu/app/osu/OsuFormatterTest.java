package io.fabemu.app.osu;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabemu.app.Fixtures;
import io.fabemu.app.output.ReportFormatter;
import io.fabemu.collectives.Algorithm;
import io.fabemu.collectives.Collective;
import io.fabemu.collectives.WorkloadSpec;
import io.fabemu.core.data.DataType;
import io.fabemu.core.inc.IncCodes.FailCause;
import io.fabemu.core.topology.LeafSpineSpec;
import io.fabemu.fabric.ScenarioSpec;
import io.fabemu.fabric.result.CaseResult;
import io.fabemu.fabric.result.RunResult;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * OMB 7.5's tables byte for byte, as {@code print_preamble}, {@code print_only_header}, {@code print_stats} and
 * {@code print_stats_validate} (and osu_latency's and osu_bw's own rows) print them.
 */
class OsuFormatterTest {

  private static final OsuFormatter.Columns PLAIN = OsuFormatter.Columns.PLAIN;
  private static final OsuFormatter.Columns EVERYTHING =
      new OsuFormatter.Columns(true, true, List.of(50, 90, 99));

  private static final List<CaseResult> CASES = List.of(
      CaseResult.builder(0, Algorithm.RECURSIVE_DOUBLING, 4, 1, 1000).avgLatencyPs(6_890_000.0)
          .minLatencyPs(6_120_000.0).maxLatencyPs(7_335_000.0).build(),
      CaseResult.builder(1, Algorithm.RECURSIVE_DOUBLING, 8, 2, 1000).avgLatencyPs(6_770_000.0)
          .minLatencyPs(6_004_999.0).maxLatencyPs(7_555_001.0).build(),
      CaseResult.builder(2, Algorithm.RING, 1_048_576, 262_144, 100).avgLatencyPs(1_234_567_890.0)
          .minLatencyPs(1_200_000_000.0).maxLatencyPs(1_299_999_999.0).build());

  /** A scenario like {@link Fixtures#spec()}'s hardware running {@code workload}. */
  static ScenarioSpec spec(int hosts, WorkloadSpec workload) {
    ScenarioSpec golden = Fixtures.spec();
    LeafSpineSpec t = (LeafSpineSpec) golden.topology();
    LeafSpineSpec topology = new LeafSpineSpec(hosts, t.hostsPerTor(), Math.max(1, t.spines()), t.hostLink(),
        t.spineLink());
    return ScenarioSpec.builder("rack", "rack.conf", 7, topology, golden.devices(), workload).build();
  }

  static WorkloadSpec workload(Collective collective, Algorithm algorithm, int ppn) {
    return WorkloadSpec.builder(collective, List.of(algorithm), List.of(4L, 8L)).iterations(3).warmup(1).ppn(ppn)
        .build();
  }

  /** A case with per-iteration latencies, whose mean is the average. */
  private static CaseResult withIterations(CaseResult c, double... iterationPs) {
    return CaseResult.builder(c.caseIndex(), c.algorithm(), c.sizeBytes(), c.count(), iterationPs.length)
        .avgLatencyPs(c.avgLatencyPs()).minLatencyPs(c.minLatencyPs()).maxLatencyPs(c.maxLatencyPs())
        .wrongElements(c.wrongElements()).checked(c.checked()).incOutcome(c.incOutcome())
        .rankLatenciesPs(new double[] {c.avgLatencyPs()}).iterationLatenciesPs(iterationPs).build();
  }

  @Test
  void shouldPrintOmbsPreambleAndColumnsWhenAllreduceIsPlain() {
    ScenarioSpec spec = spec(16, workload(Collective.ALLREDUCE, Algorithm.AUTO, 2));

    String text = OsuFormatter.head(OsuBenchmark.ALLREDUCE, spec, Algorithm.AUTO, PLAIN)
        + OsuFormatter.rows(OsuBenchmark.ALLREDUCE, CASES, spec, PLAIN);

    assertThat(text).isEqualTo(""
        + "\n"
        + "# OSU MPI Allreduce Latency Test v7.5\n"
        + "# fabemu emulation (virtual time): rack, 16 nodes x 2 ppn, mode host, algorithm auto\n"
        + "# Datatype: MPI_FLOAT.\n"
        + "# Size       Avg Latency(us)\n"
        + "4                       6.89\n"
        + "8                       6.77\n"
        + "1048576              1234.57\n");
  }

  @Test
  void shouldAppendFullValidationAndTailColumnsInOmbsOrder() {
    ScenarioSpec spec = spec(4, workload(Collective.ALLREDUCE, Algorithm.RING, 1));
    CaseResult wrong = CaseResult.builder(1, Algorithm.RING, 8, 2, 4).avgLatencyPs(6_770_000.0)
        .minLatencyPs(6_004_999.0).maxLatencyPs(7_555_001.0).wrongElements(3).build();

    String text = OsuFormatter.columns(OsuBenchmark.ALLREDUCE, EVERYTHING)
        + OsuFormatter.row(OsuBenchmark.ALLREDUCE, withIterations(CASES.get(0), 6e6, 7e6, 6.5e6, 8e6), spec,
            EVERYTHING)
        + OsuFormatter.row(OsuBenchmark.ALLREDUCE, withIterations(wrong, 1e6, 2e6, 3e6, 4e6), spec, EVERYTHING);

    // print_stats_validate: size, avg, -f's min, max, iterations, Validation, then P50/P90/P99. With 4 iterations
    // OMB's index is 4 * p / 100 - 1: 1, 2 and 2 (sorted ascending).
    assertThat(text).isEqualTo(""
        + "# Size       Avg Latency(us)   Min Latency(us)   Max Latency(us)  Iterations        Validation"
        + "  P50 Tail Lat(us)  P90 Tail Lat(us)  P99 Tail Lat(us)\n"
        + "4                       6.89              6.12              7.33           4              Pass"
        + "              6.50              7.00              7.00\n"
        + "8                       6.77              6.00              7.56           4              Fail"
        + "              2.00              3.00              3.00\n");
  }

  @Test
  void shouldPadTheTailTitlesAsOmbDoesForOneDigitAndHundred() {
    String columns = OsuFormatter.columns(OsuBenchmark.ALLREDUCE, new OsuFormatter.Columns(false, false,
        List.of(5, 100)));

    // FIELD_WIDTH - strlen("Px Tail Lat(us)") - (p > 9): 3 spaces before P5, 2 before P100 (one column too wide).
    assertThat(columns).isEqualTo("# Size       Avg Latency(us)   P5 Tail Lat(us)  P100 Tail Lat(us)\n");
  }

  @Test
  void shouldPrintNoSizeAndNoDatatypeWhenBarrier() {
    ScenarioSpec spec = spec(4, WorkloadSpec.builder(Collective.BARRIER, List.of(Algorithm.AUTO), List.of(0L))
        .iterations(3).warmup(1).build());
    CaseResult c = withIterations(CaseResult.builder(0, Algorithm.DISSEMINATION, 0, 0, 3).avgLatencyPs(2_345_000.0)
        .minLatencyPs(2_000_000.0).maxLatencyPs(2_500_000.0).build(), 2e6, 2.5e6, 2.535e6);
    OsuFormatter.Columns columns = new OsuFormatter.Columns(true, false, List.of(50));

    String text = OsuFormatter.head(OsuBenchmark.BARRIER, spec, Algorithm.AUTO, columns)
        + OsuFormatter.rows(OsuBenchmark.BARRIER, List.of(c), spec, columns);

    assertThat(text).isEqualTo(""
        + "\n"
        + "# OSU MPI Barrier Latency Test v7.5\n"
        + "# fabemu emulation (virtual time): rack, 4 nodes x 1 ppn, mode host, algorithm auto\n"
        + "# Avg Latency(us)   Min Latency(us)   Max Latency(us)  Iterations  P50 Tail Lat(us)\n"
        + "             2.35              2.00              2.50           3              2.00\n");
  }

  @Test
  void shouldPrintHalfTheRoundTripWhenOsuLatency() {
    ScenarioSpec spec = spec(2, workload(Collective.SENDRECV, Algorithm.PING_PONG, 1));
    CaseResult c = withIterations(CaseResult.builder(0, Algorithm.PING_PONG, 4, 1, 2).avgLatencyPs(3_000_000.0)
        .minLatencyPs(3_000_000.0).maxLatencyPs(3_000_000.0).build(), 2_900_000.0, 3_100_000.0);
    OsuFormatter.Columns columns = new OsuFormatter.Columns(false, true, List.of(50, 99));

    String text = OsuFormatter.head(OsuBenchmark.LATENCY, spec, Algorithm.PING_PONG, columns)
        + OsuFormatter.rows(OsuBenchmark.LATENCY, List.of(c), spec, columns);

    assertThat(text).isEqualTo(""
        + "\n"
        + "# OSU MPI Latency Test v7.5\n"
        + "# fabemu emulation (virtual time): rack, 2 nodes x 1 ppn, mode host, algorithm ping-pong\n"
        + "# Datatype: MPI_FLOAT.\n"
        + "# Size       Avg Latency(us)        Validation  P50 Tail Lat(us)  P99 Tail Lat(us)\n"
        + "4                       1.50              Pass              1.45              1.45\n");
  }

  @Test
  void shouldPrintSizeTimesWindowOverTheWindowsTimeInMegabytesPerSecondWhenOsuBw() {
    ScenarioSpec spec = spec(2, workload(Collective.SENDRECV, Algorithm.WINDOW, 1).withWindow(64));
    // 4096 B x 64 in 100 us: 2621.44 MB/s; the iterations: 80 us (3276.80) and 120 us (2184.53).
    CaseResult c = withIterations(CaseResult.builder(0, Algorithm.WINDOW, 4096, 1024, 2).avgLatencyPs(100_000_000.0)
        .minLatencyPs(100_000_000.0).maxLatencyPs(100_000_000.0).build(), 80_000_000.0, 120_000_000.0);
    OsuFormatter.Columns columns = new OsuFormatter.Columns(false, false, List.of(50, 99));

    String text = OsuFormatter.head(OsuBenchmark.BW, spec, Algorithm.WINDOW, columns)
        + OsuFormatter.rows(OsuBenchmark.BW, List.of(c), spec, columns);

    assertThat(text).isEqualTo(""
        + "\n"
        + "# OSU MPI Bandwidth Test v7.5\n"
        + "# fabemu emulation (virtual time): rack, 2 nodes x 1 ppn, mode host, algorithm window, window 64\n"
        + "# Datatype: MPI_FLOAT.\n"
        + "# Size      Bandwidth (MB/s) P50 Tail BW(MB/s) P99 Tail BW(MB/s)\n"
        + "4096                 2621.44           2184.53           2184.53\n");
  }

  @Test
  void shouldPrintTheWholeBufferAsTheSizeWhenReduceScatter() {
    ScenarioSpec spec = spec(4, workload(Collective.REDUCE_SCATTER, Algorithm.RING, 2));
    CaseResult c = CaseResult.builder(0, Algorithm.RING, 16, 4, 3).avgLatencyPs(9_000_000.0).minLatencyPs(9_000_000.0)
        .maxLatencyPs(9_000_000.0).build();

    // 16 B per rank on 4 x 2 ranks: OMB's size is the 128-byte buffer cut among them.
    assertThat(OsuFormatter.row(OsuBenchmark.REDUCE_SCATTER, c, spec, PLAIN))
        .isEqualTo("128                     9.00\n");
    assertThat(OsuFormatter.preamble(OsuBenchmark.REDUCE_SCATTER, spec, Algorithm.RING))
        .startsWith("\n# OSU MPI Reduce_scatter Latency Test v7.5\n");
  }

  @Test
  void shouldNameTheInNetworkModeAndNoteFallbacksAfterTheRows() {
    ScenarioSpec spec = spec(4, workload(Collective.ALLREDUCE, Algorithm.INC_NODE, 1));
    CaseResult fell = CaseResult.builder(0, Algorithm.RECURSIVE_DOUBLING, 512, 128, 3).avgLatencyPs(9_000_000.0)
        .minLatencyPs(9_000_000.0).maxLatencyPs(9_000_000.0).incOutcome(FailCause.MESSAGE_TOO_LARGE).build();

    assertThat(OsuFormatter.emulationLine(OsuBenchmark.ALLREDUCE, spec, Algorithm.INC_NODE))
        .isEqualTo("# fabemu emulation (virtual time): rack, 4 nodes x 1 ppn, mode inc-node, algorithm inc-node");
    assertThat(OsuFormatter.rows(OsuBenchmark.ALLREDUCE, List.of(fell), spec, PLAIN)).isEqualTo(""
        + "512                     9.00\n"
        + "# 512 B: no INC, ran the host algorithm: " + FailCause.MESSAGE_TOO_LARGE.description() + "\n");
  }

  @Test
  void shouldSayNothingWasCheckedWhenThePayloadIsSynthetic() {
    ScenarioSpec spec = spec(4, workload(Collective.ALLREDUCE, Algorithm.RING, 1).withSyntheticPayload(true));
    CaseResult unchecked = CaseResult.builder(0, Algorithm.RING, 4, 1, 3).avgLatencyPs(9e6).minLatencyPs(9e6)
        .maxLatencyPs(9e6).checked(false).build();

    assertThat(OsuFormatter.preamble(OsuBenchmark.ALLREDUCE, spec, Algorithm.RING))
        .contains("\n" + ReportFormatter.SYNTHETIC_HEADER_LINE + "# Datatype: MPI_FLOAT.\n");
    assertThat(OsuFormatter.validation(unchecked)).isEqualTo("n/a");
  }

  @Test
  void shouldNameEveryDatatypeAsMpiTypeGetNameDoes() {
    assertThat(OsuFormatter.mpiTypeName(DataType.FLOAT32)).isEqualTo("MPI_FLOAT");
    assertThat(OsuFormatter.mpiTypeName(DataType.INT32)).isEqualTo("MPI_INT");
    assertThat(OsuFormatter.mpiTypeName(DataType.FLOAT64)).isEqualTo("MPI_DOUBLE");
  }

  @Test
  void shouldPickOmbsTailIndexAndClampWhereOmbReadsOutsideItsArray() {
    double[] hundred = new double[100];
    for (int i = 0; i < 100; i++) hundred[i] = i + 1;
    // index = 100 * p / 100 - 1
    assertThat(OsuFormatter.tail(hundred, 50)).isEqualTo(50);
    assertThat(OsuFormatter.tail(hundred, 99)).isEqualTo(99);
    assertThat(OsuFormatter.tail(hundred, 100)).isEqualTo(100);
    // 3 * 50 / 100 - 1 = 0; 3 * 99 / 100 - 1 = 1 (integer arithmetic).
    assertThat(OsuFormatter.tail(new double[] {1, 2, 3}, 50)).isEqualTo(1);
    assertThat(OsuFormatter.tail(new double[] {1, 2, 3}, 99)).isEqualTo(2);
    // OMB reads index -1 for p = 0 or one iteration at P50: the first value here.
    assertThat(OsuFormatter.tail(new double[] {7}, 50)).isEqualTo(7);
    assertThat(OsuFormatter.tail(hundred, 0)).isEqualTo(1);
    assertThat(OsuFormatter.tail(new double[0], 50)).isNaN();
  }

  @Test
  void shouldUseOmbsWidthsForEveryColumn() {
    ScenarioSpec spec = spec(4, workload(Collective.ALLREDUCE, Algorithm.RING, 1));
    String row = OsuFormatter.row(OsuBenchmark.ALLREDUCE, CASES.get(0), spec,
        new OsuFormatter.Columns(true, false, List.of()));

    // "%-*d" 10, then "%*.*f" with FIELD_WIDTH 18 and FLOAT_PRECISION 2 (three times), then "%*lu" 12.
    assertThat(row).hasSize(10 + 18 * 3 + 12 + 1);
    assertThat(row.substring(0, 10)).isEqualTo("4         ");
    assertThat(row.substring(10, 28)).isEqualTo(" ".repeat(14) + "6.89");
    assertThat(row.substring(64, 76)).isEqualTo(" ".repeat(8) + "1000");
    assertThat(OsuFormatter.columns(OsuBenchmark.ALLREDUCE, PLAIN)).hasSize(10 + 18 + 1);
  }

  @Test
  void shouldRoundLikeCPrintfWhenTheDecimalFormIsATie() {
    // 2.675 is 2.67499999999999982236431605997495353221893310546875 in binary: C prints 2.67 (String.format: 2.68).
    assertThat(OsuFormatter.fixed(2.675, 18)).isEqualTo(" ".repeat(14) + "2.67");
    // Exact binary ties go to even, as glibc's printf rounds them.
    assertThat(OsuFormatter.fixed(0.125, 6)).isEqualTo("  0.12");
    assertThat(OsuFormatter.fixed(0.375, 6)).isEqualTo("  0.38");
    assertThat(OsuFormatter.fixed(123456789.0, 6)).isEqualTo("123456789.00");
  }

  @Test
  void shouldWriteOneTablePerAlgorithmOfTheWorkloadWithOnlyItsCases() {
    ScenarioSpec spec = spec(4, WorkloadSpec.builder(Collective.ALLREDUCE,
        List.of(Algorithm.RING, Algorithm.RECURSIVE_DOUBLING), List.of(4L, 8L)).iterations(3).warmup(1).build());
    List<CaseResult> cases = List.of(
        CaseResult.builder(0, Algorithm.RING, 4, 1, 3).avgLatencyPs(1e6).minLatencyPs(1e6).maxLatencyPs(1e6).build(),
        CaseResult.builder(1, Algorithm.RING, 8, 2, 3).avgLatencyPs(2e6).minLatencyPs(2e6).maxLatencyPs(2e6).build(),
        CaseResult.builder(2, Algorithm.RECURSIVE_DOUBLING, 4, 1, 3).avgLatencyPs(3e6).minLatencyPs(3e6)
            .maxLatencyPs(3e6).build(),
        CaseResult.builder(3, Algorithm.RECURSIVE_DOUBLING, 8, 2, 3).avgLatencyPs(4e6).minLatencyPs(4e6)
            .maxLatencyPs(4e6).build());
    RunResult result = RunResult.builder(spec).cases(cases).links(List.of()).complete(true).virtualEndPs(1)
        .windows(1).events(1).wallSeconds(0.1).digest("d").build();

    var files = OsuFiles.files(result, PLAIN);

    assertThat(files).containsOnlyKeys("osu/osu_allreduce.ring.txt", "osu/osu_allreduce.recursive-doubling.txt");
    assertThat(files.get("osu/osu_allreduce.recursive-doubling.txt")).endsWith(""
        + "# fabemu emulation (virtual time): rack, 4 nodes x 1 ppn, mode host, algorithm recursive-doubling\n"
        + "# Datatype: MPI_FLOAT.\n"
        + "# Size       Avg Latency(us)\n"
        + "4                       3.00\n"
        + "8                       4.00\n");
  }
}
