package io.fabemu.cluster.scenario;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.typesafe.config.ConfigRenderOptions;
import io.fabemu.collectives.Algorithm;
import io.fabemu.collectives.Collective;
import io.fabemu.collectives.PipelineSpec;
import io.fabemu.collectives.StageCollective;
import io.fabemu.collectives.WorkloadSpec;
import io.fabemu.core.optical.TransmissionCosts;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.assertj.core.api.AbstractThrowableAssert;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code workload.collective = pipeline} and its {@code pipeline} section (the optical patent), errors one line at the key. */
class ScenarioLoaderPipelineTest {

  private static final String CLUSTER = """
      topology { kind = optical, servers = 4, npus-per-server = 4 }
      workload { collective = pipeline, sizes = [64 KiB], datatype = float32 }
      """;

  private static AbstractThrowableAssert<?, ? extends Throwable> assertError(String text) {
    return assertThatThrownBy(() -> ScenarioLoader.parse(text, "x.conf")).isInstanceOf(ScenarioException.class)
        .satisfies(e -> assertThat(e.getMessage()).doesNotContain("\n"));
  }

  @Test
  void shouldReadThePipelineWithTheDefaultsAndTheTopologysBandwidths() {
    LoadedScenario loaded = ScenarioLoader.parse(CLUSTER, "x.conf");
    WorkloadSpec w = loaded.spec().workload();
    assertThat(w.collective()).isEqualTo(Collective.PIPELINE);
    assertThat(w.algorithms()).containsExactly(Algorithm.AUTO);
    assertThat(w.pipeline()).isEqualTo(new PipelineSpec(4, 4, 4, StageCollective.ALLREDUCE,
        PipelineSpec.SAME_AS_ACTIVATION, new TransmissionCosts(400_000_000_000L, 100_000_000_000L, 1_000_000,
            1_000_000, false)));
    assertThat(loaded.config().getString("pipeline.stage-collective")).isEqualTo("allreduce");
    String echoed = loaded.config().root().render(ConfigRenderOptions.concise());
    assertThat(ScenarioLoader.parse(echoed, "x.conf").spec()).isEqualTo(loaded.spec());
  }

  @Test
  void shouldReadEveryKeyAndTheCostsFileNextToTheScenario(@TempDir Path dir) throws IOException {
    Files.writeString(dir.resolve("costs.conf"), """
        optical-costs { intra-server-bandwidth = 200 Gbps, inter-server-bandwidth = 50 Gbps, p2p-read-delay = 3 us
          p2p-write-delay = 4 us, peer-to-peer = true }
        """);
    Path scenario = dir.resolve("s.conf");
    Files.writeString(scenario, CLUSTER + """
        workload.algorithms = [auto, p2p-bus, switch-send]
        pipeline { micro-batches = 6, stage-collective = none, global-allreduce-size = 1 MiB, costs = "costs.conf" }
        """);
    PipelineSpec p = ScenarioLoader.load(scenario).spec().workload().pipeline();
    assertThat(p).isEqualTo(new PipelineSpec(4, 4, 6, StageCollective.NONE, 1L << 20,
        new TransmissionCosts(200_000_000_000L, 50_000_000_000L, 3_000_000, 4_000_000, true)));
  }

  @Test
  void shouldLeaveThePipelineOutOfOtherScenariosEcho() {
    LoadedScenario loaded = ScenarioLoader.parse("topology.kind = optical", "x.conf");
    assertThat(loaded.config().hasPath("pipeline")).isFalse();
    assertThat(loaded.spec().workload().pipeline()).isNull();
  }

  @Test
  void shouldRefuseWhatAPipelineCannotRun() {
    assertError("pipeline.micro-batches = 2").hasMessageStartingWith("x.conf:1: pipeline.micro-batches: the pipeline "
        + "section is for workload.collective = pipeline (the collective is allreduce)");
    assertError("workload { collective = pipeline, sizes = [4 KiB] }").hasMessageContaining(
        "workload.collective: pipeline runs on an optical cluster (topology.kind = optical), not on leaf-spine");
    assertError("topology { kind = optical, servers = 1, npus-per-server = 2 }\nworkload.collective = pipeline")
        .hasMessageContaining("topology.servers: a pipeline needs at least 2 servers");
    assertError(CLUSTER + "workload.ppn = 2").hasMessageContaining("workload.ppn: a pipeline runs one rank per NPU");
    assertError(CLUSTER + "workload.buffers = [in-place]").hasMessageContaining("out of place only");
    assertError(CLUSTER + "workload.algorithms = [ring]").hasMessageContaining(
        "'ring' is not an algorithm of pipeline (use auto, send-broadcast, p2p-bus, allgather-send-scatter, "
            + "switch-send)");
    assertError(CLUSTER + "workload.algorithms = [send-broadcast]\npipeline.stage-collective = reduce-scatter")
        .hasMessageContaining("workload.algorithms: send-broadcast sends one copy, so it needs replicated");
    assertError(CLUSTER + "workload.algorithms = [p2p-bus]").hasMessageContaining(
        "workload.algorithms: p2p-bus needs servers with the peer-to-peer capability");
    assertError(CLUSTER + "workload.sizes = [12 B]\npipeline.stage-collective = allgather").hasMessageContaining(
        "workload.sizes[0]: an allgather stage cuts an activation into one slice per NPU: 12 B is 3 elements, not a "
            + "multiple of 4");
    assertError(CLUSTER + "pipeline.stage-collective = allreduse").hasMessageContaining(
        "pipeline.stage-collective").hasMessageContaining("allreduce");
    assertError(CLUSTER + "pipeline.micro-batches = 0").hasMessageContaining("pipeline.micro-batches");
    // An allgather stage's output (every micro-batch's activation both ways, and the global AllReduce of as much)
    // outgrows its input N times.
    assertError(CLUSTER + "workload.sizes = [1 MiB]\npipeline { stage-collective = allgather, micro-batches = 4100 }")
        .hasMessageContaining("workload.sizes[0]: an activation of 1 MiB needs a buffer of 2149842944 elements per "
            + "NPU");
    assertError(CLUSTER.replace("sizes = [64 KiB]", "max-size = 1 GiB") + "pipeline.micro-batches = 1000")
        .hasMessageContaining("workload.max-size: an activation of");
    assertError(CLUSTER + "pipeline.global-allreduce-size = 6 B").hasMessageContaining(
        "pipeline.global-allreduce-size: '6 B' is not a multiple of the element size (4 B)");
    assertError(CLUSTER + "pipeline.costs = \"no-such.conf\"").hasMessageMatching(
        "x\\.conf:\\d+: pipeline\\.costs: 'no-such\\.conf' is not a file \\(read relative to the scenario: .*\\)");
    assertError(CLUSTER + "pipeline.micro-batch = 3").hasMessageContaining(
        "pipeline.micro-batch: unknown key (did you mean 'micro-batches'?)");
  }

  @Test
  void shouldTellACostsFilesOwnProblemAtItsOwnLine(@TempDir Path dir) throws IOException {
    Files.writeString(dir.resolve("costs.conf"), "optical-costs {\n  inter-server-bandwith = 1 Gbps\n}\n");
    Path scenario = dir.resolve("s.conf");
    Files.writeString(scenario, CLUSTER + "pipeline.costs = \"costs.conf\"\n");
    assertThatThrownBy(() -> ScenarioLoader.load(scenario)).isInstanceOf(ScenarioException.class)
        .hasMessageEndingWith("costs.conf:2: optical-costs.inter-server-bandwith: unknown key (did you mean "
            + "'inter-server-bandwidth'?)");
  }

  @Test
  void shouldCarryThePipelineThroughTheWire() {
    // The workload crosses members in a distributed run: its new parts are registered with the wire serializer.
    List<String> registered = com.typesafe.config.ConfigFactory.load()
        .getStringList("fabemu.wire.registrations.collectives");
    assertThat(registered).contains(PipelineSpec.class.getName(), StageCollective.class.getName());
    assertThat(com.typesafe.config.ConfigFactory.load().getStringList("fabemu.wire.registrations.core"))
        .contains(TransmissionCosts.class.getName());
  }
}
