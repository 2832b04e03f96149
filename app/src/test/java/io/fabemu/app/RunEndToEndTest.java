package io.fabemu.app;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@code fabemu run} on the real ScenarioRunner: a tiny scenario end to end, twice. */
class RunEndToEndTest extends CliTestBase {

  @Override
  protected ScenarioExecutor executor() {
    return null;
  }

  @Test
  void shouldWriteCompleteCorrectResultsWhenRunningATinyScenario() throws Exception {
    Path scenario = tinyScenario();
    Path first = dir.resolve("first");
    Path second = dir.resolve("second");

    int code = fabemu("run", scenario.toString(), "--out", first.toString());

    assertThat(code).as(stderr).isZero();
    assertThat(stdout).contains("# fabemu allreduce latency, algorithm ring")
        .contains("# fabemu allreduce latency, algorithm recursive-doubling");
    JsonNode json = new ObjectMapper().readTree(first.resolve("results.json").toFile());
    assertThat(json.get("complete").asBoolean()).isTrue();
    assertThat(json.get("wrongElements").asLong()).isZero();
    assertThat(json.get("cases")).hasSize(4);
    assertThat(Files.readAllLines(first.resolve("results.csv"))).hasSize(5);

    assertThat(fabemu("run", scenario.toString(), "--out", second.toString())).isZero();
    assertThat(Files.readString(second.resolve("results.csv")))
        .isEqualTo(Files.readString(first.resolve("results.csv")));
    assertThat(new ObjectMapper().readTree(second.resolve("results.json").toFile()).get("digest"))
        .isEqualTo(json.get("digest"));
  }

  @Test
  void shouldStopADeadlockedRunOnOneLineWithoutClassNamesAndLeaveNoFolder() throws Exception {
    // The shortest stall limit on a busy torus: the watchdog stops the run, a finding about the model, not a bug.
    Path stall = dir.resolve("stall.conf");
    Files.writeString(stall, "name = stall\ntopology { kind = torus, dimensions = [4, 4] }\n"
        + "devices.router.stall-limit = 7 ns\ndevices.nic.segment-size = 1 KiB\n"
        + "workload { algorithms = [recursive-doubling], sizes = [4KiB], iterations = 1, warmup = 0 }\n");
    Path out = dir.resolve("out").resolve("stall");

    int code = fabemu("run", stall.toString(), "--out", out.toString(), "--no-progress");

    assertThat(code).isEqualTo(1);
    assertThat(stderr.lines().toList()).singleElement().asString()
        .startsWith("fabemu: error: fabemu run failed at virtual time ")
        .contains(": router router", "no flit moved for ")
        .doesNotContain("Exception", "io.fabemu.");
    assertThat(dir.resolve("out")).doesNotExist();
  }

  @Test
  void shouldGiveTheRealTimesUncheckedWhenRunningTheTinyScenarioSynthetic() throws Exception {
    Path real = dir.resolve("real.conf");
    Files.writeString(real, Fixtures.TINY_SCENARIO);
    Path synthetic = dir.resolve("synthetic.conf");
    Files.writeString(synthetic, Fixtures.TINY_SCENARIO + "workload.payload = synthetic\n");
    Path realOut = dir.resolve("real");
    Path syntheticOut = dir.resolve("synthetic");

    int code = fabemu("run", real.toString(), "--out", realOut.toString());
    assertThat(code).as(stderr).isZero();
    assertThat(fabemu("run", synthetic.toString(), "--out", syntheticOut.toString())).as(stderr).isZero();

    assertThat(stdout).contains("# Payload: synthetic (sizes only; outputs not checked)\n");
    List<String> realRows = Files.readAllLines(realOut.resolve("results.csv"));
    List<String> syntheticRows = Files.readAllLines(syntheticOut.resolve("results.csv"));
    // The same rows, but not checked (INC used and reason are empty: not in-network), the cases at the same times.
    assertThat(realRows.get(1)).matches(".*,true,,,\\d+\\.\\d{6},\\d+\\.\\d{6}");
    assertThat(syntheticRows).hasSize(5).isEqualTo(realRows.stream()
        .map(row -> row.replaceFirst(",true,,,([^,]*),([^,]*)$", ",false,,,$1,$2")).toList());
    JsonNode realJson = new ObjectMapper().readTree(realOut.resolve("results.json").toFile());
    JsonNode syntheticJson = new ObjectMapper().readTree(syntheticOut.resolve("results.json").toFile());
    assertThat(syntheticJson.get("payload").asText()).isEqualTo("synthetic");
    assertThat(syntheticJson.get("links")).isEqualTo(realJson.get("links"));
    assertThat(syntheticJson.get("virtualEndPs")).isEqualTo(realJson.get("virtualEndPs"));
    assertThat(syntheticJson.get("digest")).isNotEqualTo(realJson.get("digest"));
  }
}
