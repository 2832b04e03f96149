package io.fabemu.app;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabemu.app.output.CsvTest;
import io.fabemu.app.output.ResultsWriter;
import io.fabemu.collectives.Algorithm;
import io.fabemu.collectives.Collective;
import io.fabemu.collectives.WorkloadSpec;
import io.fabemu.core.data.DataType;
import io.fabemu.core.inc.IncCodes.FailCause;
import io.fabemu.fabric.ScenarioSpec;
import io.fabemu.fabric.result.CaseResult;
import io.fabemu.fabric.result.RunResult;
import java.util.List;
import org.junit.jupiter.api.Test;

/** results.csv: one row per case with the run's identity, nccl-tests' bandwidths, the INC outcome, RFC 4180. */
class ResultsCsvTest {

  private static ScenarioSpec spec(String name, WorkloadSpec workload) {
    ScenarioSpec base = Fixtures.spec();
    return base.toBuilder().name(name).workload(workload).build();
  }

  @Test
  void shouldWriteTheRunsIdentityAndNcclBandwidthsInEveryRow() {
    RunResult result = Fixtures.result();

    List<String> lines = ResultsWriter.toCsv(result, result.scenario().topology().build()).lines().toList();

    assertThat(lines).containsExactly(ResultsWriter.CSV_HEADER,
        // 4 ranks: busbw = algbw x 2 x 3 / 4; algbw = 4 B / 5.43 us = 0.000736648 GB/s.
        "golden,\"leaf-spine: 4 hosts, 1 TOR (4 hosts), 0 spines\",4,4,1,allreduce,ring,ring,out-of-place,4,1,"
            + "float32,sum,10,5.430000,5.100000,5.900000,0.000736648,0.00110497,0,true,,,,",
        "golden,\"leaf-spine: 4 hosts, 1 TOR (4 hosts), 0 spines\",4,4,1,allreduce,ring,ring,out-of-place,1048576,"
            + "262144,float32,sum,10,250.000000,249.000000,251.500000,4.1943,6.29146,0,true,,,,");
  }

  @Test
  void shouldAppendEachCasesStartAndEndInVirtualTimeAfterTheOtherColumns() {
    WorkloadSpec allreduce = WorkloadSpec.builder(Collective.ALLREDUCE, List.of(Algorithm.RING), List.of(4L))
        .iterations(10).warmup(2).dataType(DataType.INT32).build();
    RunResult result = RunResult.builder(spec("timed", allreduce))
        .cases(List.of(CaseResult.builder(0, Algorithm.RING, 4, 1, 10).avgLatencyPs(4e6).minLatencyPs(4e6)
            .maxLatencyPs(4e6).startPs(1_500_000).endPs(61_234_567).build()))
        .links(List.of()).complete(true).virtualEndPs(1).windows(1).events(1).wallSeconds(0.1).digest("d").build();

    List<String> lines = ResultsWriter.toCsv(result, null).lines().toList();
    List<String> header = CsvTest.readRow(lines.get(0));
    List<String> row = CsvTest.readRow(lines.get(1));

    // The earlier columns keep their places: the two new ones come last.
    assertThat(header.subList(0, 23)).containsExactly("scenario", "topology", "ranks", "nodes", "ppn", "collective",
        "algorithm", "algorithm_asked", "buffers", "size_bytes", "count", "datatype", "op", "iterations", "avg_us",
        "min_us", "max_us", "algbw_gbps", "busbw_gbps", "wrong", "checked", "inc_used", "inc_reason");
    assertThat(header.subList(23, 25)).containsExactly("case_start_us", "case_end_us");
    assertThat(row.subList(23, 25)).containsExactly("1.500000", "61.234567");
  }

  @Test
  void shouldCountTheWholeBufferForCollectivesOfOneBlockPerRankAndNameNoOpWhereNothingReduces() {
    WorkloadSpec allgather = WorkloadSpec.builder(Collective.ALLGATHER, List.of(Algorithm.RING), List.of(4L))
        .iterations(10).warmup(2).dataType(DataType.INT32).build();
    RunResult result = RunResult.builder(spec("ag", allgather))
        .cases(List.of(CaseResult.builder(0, Algorithm.RING, 4, 1, 10).avgLatencyPs(4_000_000.0)
            .minLatencyPs(4_000_000.0).maxLatencyPs(4_000_000.0).build()))
        .links(List.of()).complete(true).virtualEndPs(1).windows(1).events(1).wallSeconds(0.1).digest("d").build();

    List<String> row = CsvTest.readRow(ResultsWriter.toCsv(result, null).lines().toList().get(1));

    // 4 ranks x 4 B = 16 B in 4 us = 0.004 GB/s; busbw x 3/4 = 0.003. No topology: its kind names it.
    assertThat(row.subList(0, 6)).containsExactly("ag", "leaf-spine", "4", "4", "1", "allgather");
    assertThat(row.get(12)).isEqualTo("none");
    assertThat(row.subList(17, 19)).containsExactly("0.004", "0.003");
  }

  @Test
  void shouldSayWhetherInNetworkCasesUsedIncAndWhyNot() {
    WorkloadSpec inc = WorkloadSpec.builder(Collective.ALLREDUCE, List.of(Algorithm.AUTO, Algorithm.INC_NODE),
        List.of(4L)).iterations(10).warmup(2).build();
    RunResult result = RunResult.builder(spec("inc, \"quoted\"", inc))
        .cases(List.of(CaseResult.builder(0, Algorithm.RECURSIVE_DOUBLING, 4, 1, 10).avgLatencyPs(9e6).minLatencyPs(9e6)
            .maxLatencyPs(9e6).build(),
            CaseResult.builder(1, Algorithm.INC_NODE, 4, 1, 10).avgLatencyPs(3e6).minLatencyPs(3e6).maxLatencyPs(3e6)
                .incOutcome(FailCause.NONE).build()))
        .links(List.of()).complete(true).virtualEndPs(1).windows(1).events(1).wallSeconds(0.1).digest("d").build();
    RunResult fellBack = RunResult.builder(result.scenario())
        .cases(List.of(CaseResult.builder(1, Algorithm.INC_NODE, 4, 1, 10).avgLatencyPs(9e6).minLatencyPs(9e6)
            .maxLatencyPs(9e6).incOutcome(FailCause.NO_FREE_GROUPS).build()))
        .links(List.of()).complete(true).virtualEndPs(1).windows(1).events(1).wallSeconds(0.1).digest("d").build();

    List<String> lines = ResultsWriter.toCsv(result, null).lines().toList();
    List<String> host = CsvTest.readRow(lines.get(1));
    List<String> network = CsvTest.readRow(lines.get(2));
    List<String> fallback = CsvTest.readRow(ResultsWriter.toCsv(fellBack, null).lines().toList().get(1));

    assertThat(host.get(0)).isEqualTo("inc, \"quoted\"");
    assertThat(host.subList(6, 8)).containsExactly("recursive-doubling", "auto");
    assertThat(host.subList(21, 23)).containsExactly("", "");
    assertThat(network.subList(6, 8)).containsExactly("inc-node", "inc-node");
    assertThat(network.subList(21, 23)).containsExactly("true", "INC in use");
    assertThat(fallback.subList(21, 23)).containsExactly("false", FailCause.NO_FREE_GROUPS.description());
    assertThat(host).hasSize(ResultsWriter.CSV_HEADER.split(",").length);
  }
}
