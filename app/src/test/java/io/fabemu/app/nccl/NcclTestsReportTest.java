package io.fabemu.app.nccl;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabemu.app.Fixtures;
import io.fabemu.app.RunSupport;
import io.fabemu.collectives.Algorithm;
import io.fabemu.collectives.BufferLayout;
import io.fabemu.collectives.Collective;
import io.fabemu.collectives.WorkloadSpec;
import io.fabemu.fabric.ScenarioSpec;
import io.fabemu.fabric.result.CaseResult;
import io.fabemu.fabric.result.RunResult;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The nccl-tests 2.17.9 layout, field by field, and its JSON. */
class NcclTestsReportTest {

  @Test
  void shouldWidenAndDropDecimalsAsGetFloatStrWhenNumbersGrow() {
    assertThat(NcclTestsReport.floatStr(5.43, 7)).isEqualTo("   5.43");
    assertThat(NcclTestsReport.floatStr(250, 7)).isEqualTo(" 250.00");
    assertThat(NcclTestsReport.floatStr(1_636.484, 7)).isEqualTo("1636.48");
    assertThat(NcclTestsReport.floatStr(12_345.64, 7)).isEqualTo("12345.6");
    assertThat(NcclTestsReport.floatStr(123_456.7, 7)).isEqualTo(" 123457");
    assertThat(NcclTestsReport.floatStr(12_345_678.9, 7)).isEqualTo("1.2e+07");
    assertThat(NcclTestsReport.floatStr(0.004, 6)).isEqualTo("  0.00");
    assertThat(NcclTestsReport.floatStr(123.4, 6)).isEqualTo("123.40");
    assertThat(NcclTestsReport.floatStr(1_234.5, 6)).isEqualTo("1234.5");
    assertThat(NcclTestsReport.floatStr(123_456, 6)).isEqualTo("123456");
    assertThat(NcclTestsReport.floatStr(1_234_567, 6)).isEqualTo(" 1e+06");
  }

  @Test
  void shouldPrintThirteenFieldsPerRowWithBothHalvesAndAverageOverBoth() {
    RunResult r = Fixtures.bothLayoutsResult();
    NcclTestsReport.Table table = NcclTestsReport.table(r, 0);

    assertThat(NcclTestsReport.columnHeader() + NcclTestsReport.rows(table) + NcclTestsReport.footer(table))
        .isEqualTo(Fixtures.NCCL_COLUMN_HEADER
            + "           4             1     float     sum      -1     5.43    0.00    0.00       0"
            + "     5.00    0.00    0.00       0\n"
            + "     1048576        262144     float     sum      -1   250.00    4.19    6.29       0"
            + "   240.00    4.37    6.55       0\n"
            + "# Out of bounds values : 0 OK\n"
            + "# Avg bus bandwidth    : 3.21184 \n");
    // (1.105e-3 + 6.291456 + 1.2e-3 + 6.5536) / 4: both halves of both rows.
    assertThat(table.avgBusBwGBps()).isCloseTo((4 * 1.5e3 / 5_430_000 + 1_048_576 * 1.5e3 / 250_000_000
        + 4 * 1.5e3 / 5_000_000 + 1_048_576 * 1.5e3 / 240_000_000) / 4, within(1e-12));
    for (String row : NcclTestsReport.rows(table).split("\n")) {
      assertThat(row.strip().split("\\s+")).hasSize(13);
    }
  }

  @Test
  void shouldCountHalvesWithWrongElementsAsOutOfBoundsAndFail() {
    RunResult ok = Fixtures.bothLayoutsResult();
    List<CaseResult> cases = new ArrayList<>(ok.cases());
    cases.set(3, CaseResult.builder(3, Algorithm.RING, 1_048_576, 262_144, 10).avgLatencyPs(240_000_000.0)
        .minLatencyPs(239_000_000.0).maxLatencyPs(241_000_000.0).wrongElements(1_234_567).build());
    RunResult wrong = RunResult.builder(ok.scenario()).cases(cases).links(ok.links()).complete(true).virtualEndPs(1)
        .windows(1).events(1).wallSeconds(0.1).digest("00").build();
    NcclTestsReport.Table table = NcclTestsReport.table(wrong, 0);

    assertThat(NcclTestsReport.rows(table)).endsWith("   240.00    4.37    6.55  1.23457e+06\n");
    assertThat(NcclTestsReport.footer(table)).startsWith("# Out of bounds values : 1 FAILED\n");
  }

  @Test
  void shouldLeaveOutTheHalfTheWorkloadDidNotMeasureAsNcclTestsDoes() {
    RunResult outOnly = Fixtures.result();
    assertThat(NcclTestsReport.rows(NcclTestsReport.table(outOnly, 0)))
        .startsWith("           4             1     float     sum      -1     5.43    0.00    0.00       0\n");

    WorkloadSpec inOnly = Fixtures.spec().workload().withBuffers(List.of(BufferLayout.IN_PLACE));
    RunResult in = Fixtures.result(inOnly, List.of(CaseResult.builder(0, Algorithm.RING, 4, 1, 10)
        .avgLatencyPs(5_000_000.0).minLatencyPs(5_000_000.0).maxLatencyPs(5_000_000.0).build()));
    // An out-of-place half that did not run is 32 blanks (nccl-tests' writeBenchMarkLineNullBody).
    assertThat(NcclTestsReport.rows(NcclTestsReport.table(in, 0))).isEqualTo("           4             1     float     "
        + "sum      -1" + " ".repeat(32) + "     5.00    0.00    0.00       0\n");
  }

  @Test
  void shouldPrintNanAsAverageWhenNothingWasMeasured() {
    RunResult none = Fixtures.result(Fixtures.spec().workload(), List.of());
    NcclTestsReport.Table table = NcclTestsReport.table(none, 0);

    assertThat(NcclTestsReport.rows(table)).isEmpty();
    assertThat(NcclTestsReport.footer(table)).isEqualTo("# Out of bounds values : 0 OK\n"
        + "# Avg bus bandwidth    : nan \n");
  }

  @Test
  void shouldReportRankZeroMinOrMaxTimeWhenAsked() {
    CaseResult c = CaseResult.builder(0, Algorithm.RING, 4, 1, 10).avgLatencyPs(2_000_000.0).minLatencyPs(1_000_000.0)
        .maxLatencyPs(3_000_000.0).rankLatenciesPs(new double[] {1_500_000.0, 1_000_000.0, 3_000_000.0, 2_500_000.0})
        .build();
    RunResult r = Fixtures.result(Fixtures.spec().workload(), List.of(c));

    assertThat(NcclTestsReport.table(r, 0, NcclTestsReport.TimeOverRanks.RANK0).rows().get(0).outOfPlace().timeUs())
        .isEqualTo(1.5);
    assertThat(NcclTestsReport.table(r, 0, NcclTestsReport.TimeOverRanks.MIN).rows().get(0).outOfPlace().timeUs())
        .isEqualTo(1.0);
    assertThat(NcclTestsReport.table(r, 0, NcclTestsReport.TimeOverRanks.MAX).rows().get(0).outOfPlace().timeUs())
        .isEqualTo(3.0);
    assertThat(NcclTestsReport.table(r, 0).rows().get(0).outOfPlace().timeUs()).isEqualTo(2.0);
  }

  @Test
  void shouldWriteThePreambleWithOneRankLinePerEmulatedRankAndNoGpuVendor() {
    ScenarioSpec spec = Fixtures.spec();
    NcclTestsReport.Params params = new NcclTestsReport.Params(1, 2, 8, 1_048_576, 2, 1 << 20, 1, 20, 1);
    List<NcclTestsReport.Device> devices = NcclTestsReport.devices(spec, null, 2);

    assertThat(NcclTestsReport.preamble("all_reduce_perf", params, "fabemu emulation: test", List.of("note"),
        devices)).isEqualTo("""
            # nccl-tests version 2.17.9 nccl-headers=0 nccl-library=0
            # Collective test starting: all_reduce_perf
            # fabemu emulation: test
            # note
            # nThread 1 nGpus 2 minBytes 8 maxBytes 1048576 step: 2(factor) warmup iters: 1 iters: 20 agg iters: 1 \
            validation: 1 graph: 0
            # Blocking Enabled: wait for completion and barrier after each collective\s
            #
            # Using devices
            #  Rank  0 Group  0 Pid      0 on      host0 device  0 [0000:00:00] fabemu emulated endpoint
            #  Rank  1 Group  0 Pid      0 on      host1 device  0 [0000:00:00] fabemu emulated endpoint
            #  Rank  2 Group  0 Pid      1 on      host2 device  0 [0000:00:00] fabemu emulated endpoint
            #  Rank  3 Group  0 Pid      1 on      host3 device  0 [0000:00:00] fabemu emulated endpoint
            """);
    assertThat(NcclTestsReport.emulationLine(spec, "star", "ring")).isEqualTo("fabemu emulation: golden "
        + "(golden.conf), 4 hosts x 1 ranks, allreduce algorithm ring, payload real; star; no GPU and no NCCL ran, "
        + "times are virtual; in-place half not measured (workload.buffers = [out-of-place]): rows end after the "
        + "out-of-place half").doesNotContain("NVIDIA");
    ScenarioSpec bothHalves = spec.toBuilder()
        .workload(spec.workload().withBuffers(List.of(BufferLayout.OUT_OF_PLACE, BufferLayout.IN_PLACE))).build();
    assertThat(NcclTestsReport.emulationLine(bothHalves, "star", "ring")).endsWith("times are virtual");
    // A payload cut at a size, in nccl-tests' sizes: an all-gather's is every rank's block, 4 x 1 MiB here.
    ScenarioSpec cut = spec.toBuilder().workload(
        WorkloadSpec.builder(Collective.ALLGATHER, List.of(Algorithm.RING), List.of(1L << 20, 2L << 20))
            .syntheticFromBytes(2L << 20).build()).build();
    assertThat(NcclTestsReport.emulationLine(cut, "star", "ring")).contains(", payload real data up to 4 MiB, sizes "
        + "only from 8 MiB (the heap's budget; outputs from there not checked); star;");
    NcclTestsReport.Params bytes = new NcclTestsReport.Params(1, 1, 4, 4, 1, 1 << 20, 0, 5, 0);
    assertThat(NcclTestsReport.preamble("x", bytes, "e", List.of(), List.of())).contains(
        "step: 1048576(bytes) warmup iters: 0 iters: 5 agg iters: 1 validation: 0 graph: 0\n");
  }

  @Test
  void shouldCloseAsNcclTestsDoes() {
    assertThat(NcclTestsReport.closing("all_gather_perf"))
        .isEqualTo("#\n# Collective test concluded: all_gather_perf\n#\n\n");
  }

  @Test
  void shouldDeriveTheMatchingCommandsParametersFromTheScenario() {
    ScenarioSpec doubling = Fixtures.spec(); // sizes 4 B, 1 MiB: factor 262144
    assertThat(NcclTestsReport.Params.of(doubling)).isEqualTo(new NcclTestsReport.Params(1, 1, 4, 1_048_576,
        262_144, 0, 2, 10, 1));
    assertThat(NcclTestsReport.Params.of(withSizes(List.of(8L, 16L, 32L), Collective.ALLREDUCE, false)))
        .extracting(NcclTestsReport.Params::stepFactor).isEqualTo(2L);
    assertThat(NcclTestsReport.Params.of(withSizes(List.of(100L, 400L, 700L), Collective.ALLREDUCE, false)))
        .extracting(NcclTestsReport.Params::stepFactor, NcclTestsReport.Params::stepBytes).containsExactly(1L, 300L);
    assertThat(NcclTestsReport.Params.of(withSizes(List.of(8L), Collective.ALLREDUCE, true)))
        .extracting(NcclTestsReport.Params::stepBytes, NcclTestsReport.Params::validation)
        .containsExactly(1L << 20, 0);
    assertThat(NcclTestsReport.Params.of(withSizes(List.of(8L, 12L, 100L), Collective.ALLREDUCE, false)))
        .extracting(NcclTestsReport.Params::stepFactor, NcclTestsReport.Params::stepBytes).containsExactly(1L, 0L);
    // Allgather on 4 ranks: nccl-tests' sizes are the whole buffers.
    assertThat(NcclTestsReport.Params.of(withSizes(List.of(16L, 32L), Collective.ALLGATHER, false)))
        .extracting(NcclTestsReport.Params::minBytes, NcclTestsReport.Params::maxBytes).containsExactly(64L, 128L);
  }

  @Test
  void shouldWriteOneWholeDocumentPerAlgorithmAndNoneForABarrier() {
    RunResult r = Fixtures.bothLayoutsResult();
    List<RunSupport.ReportFile> files = NcclTestsReport.files(r, null);

    assertThat(files).extracting(RunSupport.ReportFile::relativePath)
        .containsExactly("nccl-tests/all_reduce_perf.ring.txt");
    String expected = NcclTestsReport.preamble("all_reduce_perf", NcclTestsReport.Params.of(r.scenario()),
        NcclTestsReport.emulationLine(r.scenario(), "leaf-spine", "ring"), List.of(),
        NcclTestsReport.devices(r.scenario(), null, 1)) + NcclTestsReport.body(NcclTestsReport.table(r, 0),
        "", "all_reduce_perf");
    assertThat(files.get(0).content()).isEqualTo(expected);

    WorkloadSpec barrier = WorkloadSpec.builder(Collective.BARRIER, List.of(Algorithm.DISSEMINATION), List.of(0L))
        .build();
    assertThat(NcclTestsReport.files(Fixtures.result(barrier, List.of()), null)).isEmpty();
  }

  @Test
  void shouldWriteNcclTestsJsonKeysInOrderWithCDoublesAndStringBooleans() throws Exception {
    RunResult r = Fixtures.bothLayoutsResult();
    NcclTestsReport.Params params = new NcclTestsReport.Params(1, 1, 4, 1_048_576, 262_144, 1 << 20, 2, 10, 1);
    String json = NcclTestsReport.json(List.of("fabemu", "all-reduce-perf", "-b", "4"), params,
        NcclTestsReport.devices(r.scenario(), null, 1), NcclTestsReport.table(r, 0), "2025-01-02 03:04:05",
        "2025-01-02 03:04:06");
    JsonNode root = new ObjectMapper().readTree(json);

    assertThat(fieldNames(root)).containsExactly("version", "start_time", "args", "env", "nccl_version", "config",
        "results", "out_of_bounds", "average_bus_bandwidth", "errors", "end_time");
    assertThat(root.get("version").asInt()).isEqualTo(1);
    assertThat(root.get("env")).isEmpty();
    assertThat(root.get("args").get(1).asText()).isEqualTo("all-reduce-perf");
    assertThat(fieldNames(root.get("config"))).containsExactly("nthreads", "ngpus", "minimum_bytes", "maximum_bytes",
        "step_factor", "warmup_iters", "iterations", "aggregated_iterations", "validation", "graph",
        "blocking_collectives", "parallel_init", "devices");
    assertThat(root.at("/config/blocking_collectives").asText()).isEqualTo("true");
    assertThat(root.at("/config/devices")).hasSize(4);
    assertThat(root.at("/config/devices/1/hostname").asText()).isEqualTo("host1");
    assertThat(root.at("/config/devices/1/device_info").asText()).isEqualTo("fabemu emulated endpoint");
    assertThat(root.get("results")).hasSize(2);
    JsonNode row = root.get("results").get(1);
    assertThat(fieldNames(row)).containsExactly("size", "count", "type", "redop", "root", "out_of_place", "in_place",
        "actual_iterations", "experiment_name");
    assertThat(row.get("root").asText()).isEqualTo("    -1");
    assertThat(row.at("/in_place/time").asDouble()).isEqualTo(240.0);
    assertThat(json).contains("\"time\":250.000000,\"alg_bw\":4.194304,\"bus_bw\":6.291456,\"nwrong\":0.000000}");
    assertThat(root.at("/out_of_bounds/okay").asText()).isEqualTo("true");
    assertThat(root.at("/average_bus_bandwidth/okay").asText()).isEqualTo("unchecked");
    assertThat(json).endsWith("\"errors\":[],\"end_time\":\"2025-01-02 03:04:06\"}");
  }

  @Test
  void shouldWriteNullForUncheckedWrongAndForAHalfNotMeasured() throws Exception {
    RunResult r = Fixtures.syntheticResult();
    String json = NcclTestsReport.json(List.of(), NcclTestsReport.Params.of(r.scenario()),
        NcclTestsReport.devices(r.scenario(), null, 1), NcclTestsReport.table(r, 0), "a", "b");
    JsonNode row = new ObjectMapper().readTree(json).get("results").get(0);

    assertThat(row.at("/out_of_place/nwrong").isNull()).isTrue();
    assertThat(row.get("in_place").isNull()).isTrue();
    assertThat(new ObjectMapper().readTree(json).at("/config/step_factor").asLong()).isEqualTo(262_144);
    assertThat(new ObjectMapper().readTree(json).at("/config/validation").asInt()).isZero();
  }

  private static ScenarioSpec withSizes(List<Long> sizes, Collective collective, boolean synthetic) {
    ScenarioSpec s = Fixtures.spec();
    WorkloadSpec w = WorkloadSpec.builder(collective, List.of(Algorithm.AUTO), sizes).iterations(10).warmup(2)
        .syntheticPayload(synthetic).build();
    return s.toBuilder().workload(w).build();
  }

  private static List<String> fieldNames(JsonNode node) {
    List<String> names = new ArrayList<>();
    for (Iterator<String> it = node.fieldNames(); it.hasNext(); ) names.add(it.next());
    return names;
  }
}
