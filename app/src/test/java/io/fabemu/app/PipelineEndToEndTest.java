package io.fabemu.app;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * {@code fabemu run} of a pipeline iteration on an optical cluster, on the real runner: the policy line, the
 * pipeline table with the cost model's choice against the measured methods, results.json's {@code pipeline}
 * object and the report's section; and {@code validate}'s refusal of a cluster too small for a full interconnect.
 */
class PipelineEndToEndTest extends CliTestBase {

  private static final String SCENARIO = """
      name = pipeline-tiny
      seed = 5
      topology { kind = optical, servers = 4, npus-per-server = 3 }
      workload {
        collective = pipeline
        algorithms = [auto, send-broadcast, allgather-send-scatter, switch-send]
        sizes = [12 KiB]
        datatype = float32
        iterations = 1
        warmup = 0
      }
      pipeline { micro-batches = 2, global-allreduce-size = 4 KiB }
      """;

  @Override
  protected ScenarioExecutor executor() {
    return null;
  }

  @Test
  void shouldPrintThePolicyTheIterationsPartsAndTheChoiceAgainstTheMeasured() throws Exception {
    Path scenario = dir.resolve("pipeline.conf");
    Files.writeString(scenario, SCENARIO);
    Path out = dir.resolve("out");

    int code = fabemu("run", scenario.toString(), "--out", out.toString(), "--no-progress");

    assertThat(code).as(stderr).isZero();
    assertThat(stdout).contains("# Policy: formula 3: M = 4 servers, N = 3 NPUs per server, n = 3, 6 circuits on "
        + "planes 0..2; a full interconnect: each of the 6 server pairs joined by one circuit, no NPU in two, both "
        + "ends on one plane\n");
    assertThat(stdout).contains("# fabemu pipeline: 4 stages on 4 servers x 3 NPUs, 2 micro-batches, stage "
        + "collective allreduce (replicated), global allreduce 4K per NPU\n"
        + "# cost model: intra-server 400 Gbps, inter-server 100 Gbps, p2p read 1 us, write 1 us, no peer-to-peer\n");
    assertThat(stdout).containsPattern("\n12288 +auto +send-broadcast +[0-9.]+ +[0-9.]+ +[0-9.]+ +[0-9.]+ +[0-9.]+\n");
    assertThat(stdout).containsPattern("\n# 12K: the cost model chooses send-broadcast \\([0-9.]+ us\\); "
        + "send-broadcast: [0-9.]+ us, p2p-bus: not possible \\(.*\\), allgather-send-scatter: [0-9.]+ us, "
        + "switch-send: [0-9.]+ us; measured fastest: send-broadcast \\([0-9.]+ us\\), the choice\n");
    // No OSU program measures a pipeline: no OSU file, no error.
    assertThat(stderr).doesNotContain("error");

    JsonNode json = new ObjectMapper().readTree(out.resolve("results.json").toFile());
    JsonNode pipeline = json.get("pipeline");
    assertThat(pipeline.get("servers").asInt()).isEqualTo(4);
    assertThat(pipeline.get("cases")).hasSize(4);
    JsonNode auto = pipeline.get("cases").get(0);
    assertThat(auto.get("asked").asText()).isEqualTo("auto");
    assertThat(auto.get("method").asText()).isEqualTo("send-broadcast");
    assertThat(auto.get("wrongElements").asLong()).isZero();
    long iteration = auto.get("iterationPs").asLong();
    assertThat(auto.get("forwardPs").asLong() + auto.get("backwardPs").asLong()
        + auto.get("globalAllreducePs").asLong()).isEqualTo(iteration);
    assertThat(auto.get("globalAllreducePs").asLong()).isPositive();
    JsonNode choice = pipeline.get("choices").get(0);
    assertThat(choice.get("chosen").asText()).isEqualTo("send-broadcast");
    assertThat(choice.get("measuredFastest").asText()).isEqualTo("send-broadcast");
    assertThat(choice.get("chosenIsFastest").asBoolean()).isTrue();
    assertThat(choice.get("modelPs").has("p2p-bus")).isFalse();

    String report = Files.readString(out.resolve("report.html"));
    assertThat(report).contains("Pipeline iterations and transmission methods");
  }

  @Test
  void validateShouldPrintTheCostModelsChoicePerSize() throws Exception {
    Path scenario = dir.resolve("pipeline.conf");
    Files.writeString(scenario, SCENARIO);
    assertThat(fabemu("validate", scenario.toString())).isZero();
    assertThat(withoutEstimate(stdout).lines().toList()).hasSize(3).last().asString().startsWith(
        "pipeline: 12K: the cost model chooses send-broadcast (");
  }

  @Test
  void validateShouldRefuseEightServersOfSixNpusAndFormula1OnSeven() throws Exception {
    Path six = dir.resolve("six.conf");
    Files.writeString(six, "topology { kind = optical, servers = 8, npus-per-server = 6 }\n");
    assertThat(fabemu("validate", six.toString())).isEqualTo(2);
    assertThat(stderr.strip()).isEqualTo(six + ":1: topology.npus-per-server: M = 8 servers "
        + "with N = 6 NPUs per server cannot be fully interconnected: each server needs n = 7 NPUs (n = M - 1 for "
        + "even M)");
    Path seven = dir.resolve("seven.conf");
    Files.writeString(seven, "topology { kind = optical, servers = 8, npus-per-server = 7, formula = formula-1 }\n");
    assertThat(fabemu("validate", seven.toString())).isEqualTo(2);
    assertThat(stderr).contains("topology.formula: formula 1 cannot connect M = 8 servers with N = 7 NPUs per "
        + "server: for even M it leaves one plane idle in every server and so needs M = 8 NPUs (formula 3 needs "
        + "n = 7)");
    Files.writeString(seven, "topology { kind = optical, servers = 8, npus-per-server = 7 }\n");
    assertThat(fabemu("validate", seven.toString())).isZero();
    assertThat(stdout).contains("formula 3: M = 8 servers, N = 7 NPUs per server, n = 7, 28 circuits on planes 0..6");
  }
}
