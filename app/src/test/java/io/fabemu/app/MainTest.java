package io.fabemu.app;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabemu.app.output.ResultsWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

class MainTest extends CliTestBase {

  private final Fixtures.FakeExecutor executor = new Fixtures.FakeExecutor();

  @Override
  protected ScenarioExecutor executor() {
    return executor;
  }

  private static List<String> lines(String text) {
    return text.lines().toList();
  }

  // ------------------------------------------------------------------------------ argument errors

  @Test
  void shouldExitTwoWithOneLineWhenOptionIsUnknown() throws Exception {
    assertThat(fabemu("run", "--bogus", tinyScenario().toString())).isEqualTo(2);
    assertThat(lines(stderr)).hasSize(1);
    assertThat(stderr).startsWith("fabemu run: Unknown option: '--bogus'").contains("fabemu run --help");
    assertThat(stdout).isEmpty();
    assertThat(executor.ranSpec).isNull();
  }

  @Test
  void shouldExitTwoWhenScenarioArgumentIsMissing() {
    assertThat(fabemu("validate")).isEqualTo(2);
    assertThat(lines(stderr)).containsExactly(
        "fabemu validate: Missing required parameter: 'SCENARIO' (see 'fabemu validate --help')");
  }

  @Test
  void shouldExitTwoWhenSeedIsNotANumber() throws Exception {
    assertThat(fabemu("run", tinyScenario().toString(), "--seed", "abc")).isEqualTo(2);
    assertThat(lines(stderr)).hasSize(1);
    assertThat(stderr).contains("--seed").contains("'abc'");
  }

  @Test
  void shouldExitTwoWhenNoCommandIsGiven() {
    assertThat(fabemu()).isEqualTo(2);
    assertThat(lines(stderr))
        .containsExactly("fabemu: missing command: 'run', 'validate', 'member', 'osu-allreduce' or an nccl-tests "
            + "program such as 'all-reduce-perf' (see 'fabemu --help')");
  }

  @Test
  void shouldExitZeroWhenAskedForHelp() {
    assertThat(fabemu("run", "--help")).isZero();
    assertThat(stdout).contains("--out").contains("--seed").contains("SCENARIO");
  }

  // ------------------------------------------------------------------------------ validate

  @Test
  void shouldNameTheKeyOnOneLineWhenValidatingAMisspelledKey() {
    assertThat(fabemu("validate", "../examples/bad-misspelled-key.conf")).isEqualTo(2);
    assertThat(lines(stderr)).containsExactly("../examples/bad-misspelled-key.conf:9: topology.hosts-per-torr: "
        + "unknown key (did you mean 'hosts-per-tor'?)");
    assertThat(stdout).isEmpty();
  }

  @Test
  void shouldPrintOkLineWhenScenarioIsValid() {
    assertThat(fabemu("validate", "../examples/quickstart.conf")).isZero();
    assertThat(lines(withoutEstimate(stdout))).containsExactly("OK: ../examples/quickstart.conf: leaf-spine: 16 hosts, "
        + "4 TORs (4 hosts each), 2 spines, 16 ranks, 38 cases",
        "cases: allreduce ring, recursive-doubling: 4 B, 8 B, ..., 1 MiB (19 sizes, x2 each)");
    assertThat(stderr).isEmpty();
  }

  @Test
  void shouldExitTwoWhenScenarioFileIsMissing() {
    Path missing = dir.resolve("missing.conf");
    assertThat(fabemu("validate", missing.toString())).isEqualTo(2);
    assertThat(lines(stderr)).containsExactly(missing + ": no such file");
  }

  // ------------------------------------------------------------------------------ run

  @Test
  void shouldPrintTheFaultTableBeforeTheSummaryAndWriteTheFaultsWhenTheRunHasAFaultPlan() throws Exception {
    executor.faults = Fixtures.faultPlan();
    executor.faultReport = Fixtures.faultedResult(0).faults();
    Path out = dir.resolve("faulted");

    assertThat(fabemu("run", tinyScenario().toString(), "--out", out.toString())).isZero();

    assertThat(stdout).contains("\n\n# fabemu faults: 6 events (heartbeat 1 us x 3 missed")
        .contains("\n0           40.000  link host0-tor0  down                3.000         4.200          12"
            + "           0           3         0         -             -             -\n")
        .contains("\n# Partition: rank 3 cut off from ranks 0-2\n\n# Run: virtual end 10 us")
        .contains("digest feedbeef, 7 resends after a loss, 1 spurious\n");
    // One resend was spurious: one warning line says what to change.
    assertThat(stderr.lines().filter(l -> l.contains("spurious"))).containsExactly("fabemu: warning: 1 of 8 resends "
        + "were spurious (the copy before had arrived), so part of the latency charged to the faults is the "
        + "retransmit timeout's: raise faults.transport.min-retransmit-timeout (now 10 us; if the waits reach "
        + "max-retransmit-timeout, now 10 ms, that too)");
    JsonNode json = new ObjectMapper().readTree(out.resolve("results.json").toFile());
    assertThat(json.at("/faults/events")).hasSize(6);
    assertThat(json.at("/faults/totals/lostPackets").asLong()).isEqualTo(17);
    String report = Files.readString(out.resolve("report.html"));
    assertThat(report).contains("<section id=\"faults\">").contains("<a href=\"#faults\">Faults</a>");
  }

  @Test
  void shouldPrintTablesAndWriteBothFilesWhenOutIsGiven() throws Exception {
    Path out = dir.resolve("results/nested");

    assertThat(fabemu("run", tinyScenario().toString(), "--out", out.toString())).isZero();

    assertThat(stdout).startsWith("# fabemu run: tiny (" + dir.resolve("tiny.conf") + ")\n")
        .contains("# fabemu allreduce latency, algorithm ring\n")
        .contains("# fabemu allreduce latency, algorithm recursive-doubling\n")
        .contains("# Avg bus bandwidth")
        .contains("digest feedbeef");
    assertThat(stderr).isEmpty();
    // algbw = size / avg latency (4 B / 2.003906 us = 0.0019961 GB/s); busbw = algbw x 2(n-1)/n = algbw for 2 ranks.
    String run = "tiny,\"leaf-spine: 2 hosts, 1 TOR (2 hosts), 0 spines\",2,2,1,allreduce,";
    assertThat(Files.readAllLines(out.resolve("results.csv"))).containsExactly(
        "scenario,topology,ranks,nodes,ppn,collective,algorithm,algorithm_asked,buffers,size_bytes,count,datatype,op,"
            + "iterations,avg_us,min_us,max_us,algbw_gbps,busbw_gbps,wrong,checked,inc_used,inc_reason,case_start_us,"
            + "case_end_us",
        run + "ring,ring,out-of-place,4,1,float32,sum,2,2.003906,2.003906,2.003906,0.0019961,0.0019961,0,true,,,,",
        run + "ring,ring,out-of-place,64,16,float32,sum,2,2.062500,2.062500,2.062500,0.0310303,0.0310303,0,true,,,,",
        run + "recursive-doubling,recursive-doubling,out-of-place,4,1,float32,sum,2,2.003906,2.003906,2.003906,"
            + "0.0019961,0.0019961,0,true,,,,",
        run + "recursive-doubling,recursive-doubling,out-of-place,64,16,float32,sum,2,2.062500,2.062500,2.062500,"
            + "0.0310303,0.0310303,0,true,,,,");
    JsonNode json = new ObjectMapper().readTree(out.resolve("results.json").toFile());
    assertThat(json.get("complete").asBoolean()).isTrue();
    assertThat(json.get("incompleteReason").isNull()).isTrue();
    assertThat(json.get("digest").asText()).isEqualTo("feedbeef");
    assertThat(json.get("payload").asText()).isEqualTo("real");
    assertThat(json.get("cases").get(0).get("checked").asBoolean()).isTrue();
    assertThat(json.get("virtualEndPs").asLong()).isEqualTo(10_000_000L);
    assertThat(json.get("windows").asLong()).isEqualTo(7);
    assertThat(json.get("events").asLong()).isEqualTo(99);
    assertThat(json.get("wallSeconds").asDouble()).isEqualTo(0.25);
    assertThat(json.get("cases")).hasSize(4);
    assertThat(json.get("cases").get(1).get("sizeBytes").asLong()).isEqualTo(64);
    assertThat(json.get("cases").get(1).get("avgLatencyPs").asDouble()).isEqualTo(2_062_500.0);
    assertThat(json.get("links").get(0).get("from").asText()).isEqualTo("host0");
    assertThat(json.get("links").get(0).get("to").asText()).isEqualTo("tor0");
    assertThat(json.get("links").get(0).get("busyPs").asLong()).isEqualTo(204_800);
    assertThat(json.at("/scenario/topology/hosts").asInt()).isEqualTo(2);
    assertThat(json.at("/scenario/devices/switch/forwarding").asText()).isEqualTo("cut-through");
    try (var files = Files.list(out)) {
      assertThat(files.map(p -> p.getFileName().toString())).containsExactlyInAnyOrder("results.json",
          "results.csv", "latency.svg", "latency.png", "nccl-tests", "report.html", "osu");
    }
    // One nccl-tests file per algorithm, each a whole nccl-tests document ending with its closing lines.
    try (var files = Files.list(out.resolve("nccl-tests"))) {
      assertThat(files.map(p -> p.getFileName().toString())).containsExactlyInAnyOrder("all_reduce_perf.ring.txt",
          "all_reduce_perf.recursive-doubling.txt");
    }
    assertThat(Files.readString(out.resolve("nccl-tests/all_reduce_perf.ring.txt")))
        .startsWith("# nccl-tests version ").contains("\n# Out of bounds values : 0 OK\n")
        .endsWith("# Collective test concluded: all_reduce_perf\n#\n\n");
  }

  @Test
  void shouldRunWithTheGivenSeedAndEchoItWhenSeedIsOverridden() throws Exception {
    Path out = dir.resolve("out");

    assertThat(fabemu("run", tinyScenario().toString(), "--seed", "9", "--out", out.toString())).isZero();

    assertThat(executor.ranSpec.seed()).isEqualTo(9L);
    assertThat(stdout).contains("seed 9\n");
    JsonNode json = new ObjectMapper().readTree(out.resolve("results.json").toFile());
    assertThat(json.get("seed").asLong()).isEqualTo(9L);
    assertThat(json.at("/scenario/seed").asLong()).isEqualTo(9L);
  }

  @Test
  void shouldExitOneButKeepTheFilesWhenOutputIsWrong() throws Exception {
    executor.wrongElements = 5;
    Path out = dir.resolve("out");

    assertThat(fabemu("run", tinyScenario().toString(), "--out", out.toString())).isEqualTo(1);

    assertThat(lines(stderr)).containsExactly("fabemu: 5 output elements differ from the exact answer");
    assertThat(stdout).contains("# WRONG: 5 output elements");
    assertThat(out.resolve("results.json")).exists();
    assertThat(out.resolve("results.csv")).exists();
  }

  @Test
  void shouldExitOneWhenRunIsIncomplete() throws Exception {
    executor.complete = false;

    assertThat(fabemu("run", tinyScenario().toString())).isEqualTo(1);

    assertThat(lines(stderr)).containsExactly("fabemu: run incomplete: rank 1 never finished");
  }

  @Test
  void shouldMarkEverythingUncheckedAndExitZeroWhenPayloadIsSynthetic() throws Exception {
    Path scenario = dir.resolve("synthetic.conf");
    Files.writeString(scenario, Fixtures.TINY_SCENARIO + "workload.payload = synthetic\n");
    Path out = dir.resolve("out");

    assertThat(fabemu("run", scenario.toString(), "--out", out.toString())).isZero();

    assertThat(executor.ranSpec.workload().syntheticPayload()).isTrue();
    assertThat(stderr).isEmpty();
    assertThat(stdout).contains("# Payload: synthetic (sizes only; outputs not checked)\n")
        .contains("    0.00    N/A\n").doesNotContain("WRONG");
    assertThat(Files.readAllLines(out.resolve("results.csv"))).startsWith(ResultsWriter.CSV_HEADER,
        "tiny,\"leaf-spine: 2 hosts, 1 TOR (2 hosts), 0 spines\",2,2,1,allreduce,ring,ring,out-of-place,4,1,float32,"
            + "sum,2,2.003906,2.003906,2.003906,0.0019961,0.0019961,0,false,,,,");
    JsonNode json = new ObjectMapper().readTree(out.resolve("results.json").toFile());
    assertThat(json.get("payload").asText()).isEqualTo("synthetic");
    assertThat(json.at("/scenario/workload/payload").asText()).isEqualTo("synthetic");
    assertThat(json.get("cases")).hasSize(4).allSatisfy(c -> assertThat(c.get("checked").asBoolean()).isFalse());
  }

  @Test
  void shouldExitOneWhenSyntheticRunIsIncomplete() throws Exception {
    Path scenario = dir.resolve("synthetic.conf");
    Files.writeString(scenario, Fixtures.TINY_SCENARIO + "workload.payload = synthetic\n");
    executor.complete = false;

    assertThat(fabemu("run", scenario.toString())).isEqualTo(1);

    assertThat(lines(stderr)).containsExactly("fabemu: run incomplete: rank 1 never finished");
  }

  @Test
  void shouldExitTwoAndWriteNothingWhenScenarioIsBad() throws Exception {
    Path bad = dir.resolve("bad.conf");
    Files.writeString(bad, "workload.sizes = [3 B]\n");
    Path out = dir.resolve("never");

    assertThat(fabemu("run", bad.toString(), "--out", out.toString())).isEqualTo(2);

    assertThat(lines(stderr)).containsExactly(bad + ":1: workload.sizes[0]: '3 B' is not a multiple of the "
        + "float32 element size (4 B)");
    assertThat(stdout).isEmpty();
    assertThat(out).doesNotExist();
    assertThat(executor.ranSpec).isNull();
  }

  @Test
  void shouldExitTwoBeforeRunningWhenOutputFolderCannotBeCreated() throws Exception {
    Path blocker = dir.resolve("file");
    Files.writeString(blocker, "x");

    assertThat(fabemu("run", tinyScenario().toString(), "--out", blocker.resolve("sub").toString())).isEqualTo(2);

    assertThat(lines(stderr)).hasSize(1);
    assertThat(stderr).startsWith("fabemu: cannot create output folder " + blocker.resolve("sub"));
    assertThat(executor.ranSpec).isNull();
  }

  @Test
  void shouldNameTheFileAndExitOneWhenAResultFileCannotBeWrittenAfterTheRun() throws Exception {
    Path out = dir.resolve("out");
    Files.createDirectories(out.resolve("results.json"));
    Files.writeString(out.resolve("results.json/keep"), "x");

    assertThat(fabemu("run", tinyScenario().toString(), "--out", out.toString())).isEqualTo(1);

    assertThat(executor.ranSpec).isNotNull();
    assertThat(stdout).contains("digest feedbeef");
    assertThat(lines(stderr)).hasSize(1);
    assertThat(stderr).startsWith("fabemu: cannot write " + out.resolve("results.json") + ": ");
    // The other file is still written: the run's evidence is kept where it can be.
    try (var files = Files.list(out)) {
      assertThat(files.map(p -> p.getFileName().toString())).containsExactlyInAnyOrder("results.json",
          "results.csv", "latency.svg", "latency.png", "nccl-tests", "report.html", "osu");
    }
    assertThat(Files.readAllLines(out.resolve("results.csv"))).hasSize(5);
  }

  @Test
  void shouldReportBothProblemsAndExitOneWhenAnIncompleteRunCannotBeWritten() throws Exception {
    executor.complete = false;
    Path out = dir.resolve("out");
    Files.createDirectories(out.resolve("results.csv"));
    Files.writeString(out.resolve("results.csv/keep"), "x");

    assertThat(fabemu("run", tinyScenario().toString(), "--out", out.toString())).isEqualTo(1);

    assertThat(lines(stderr)).hasSize(2);
    assertThat(lines(stderr).get(0)).startsWith("fabemu: cannot write " + out.resolve("results.csv") + ": ");
    assertThat(lines(stderr).get(1)).isEqualTo("fabemu: run incomplete: rank 1 never finished");
    assertThat(out.resolve("results.json")).isRegularFile();
  }

  @Test
  void shouldWriteNothingAndExitOneWhenTheEmulationFails() throws Exception {
    executor.failure = new IllegalStateException("device 3 failed at 1200 ps");
    Path out = dir.resolve("out");

    assertThat(fabemu("run", tinyScenario().toString(), "--out", out.toString())).isEqualTo(1);

    assertThat(lines(stderr)).containsExactly("fabemu: error: IllegalStateException: device 3 failed at 1200 ps");
    // The folder the run made is gone with it; one that was there before stays, as it was.
    assertThat(out).doesNotExist();
    Files.createDirectories(out);
    assertThat(fabemu("run", tinyScenario().toString(), "--out", out.toString())).isEqualTo(1);
    try (var files = Files.list(out)) {
      assertThat(files).isEmpty();
    }
  }

  @Test
  void shouldPrintOneErrorLineAndExitOneWhenRunThrows() throws Exception {
    executor.failure = new IllegalStateException("engine exploded");

    assertThat(fabemu("run", tinyScenario().toString())).isEqualTo(1);
    assertThat(lines(stderr)).containsExactly("fabemu: error: IllegalStateException: engine exploded");

    assertThat(fabemu("run", "--verbose", tinyScenario().toString())).isEqualTo(1);
    assertThat(stderr).startsWith("fabemu: error: IllegalStateException: engine exploded\n")
        .contains("\tat io.fabemu.app.");
  }
}
