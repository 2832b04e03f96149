package io.fabemu.app;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The fault examples run for real, on the embedded member, as the README and docs/faults.md show them. */
class FaultExamplesTest extends CliTestBase {

  @TempDir
  Path out;

  @Override
  Main.ScenarioExecutor executor() {
    return null; // the real runner
  }

  @Test
  void theSpineFailureExampleReroutesAndEndsExactly() throws Exception {
    assertThat(fabemu("run", "../examples/leafspine-spine-failure.conf", "--no-progress", "--out",
        out.resolve("spine").toString())).isZero();
    // Detected after three missed 1 us heartbeats; rerouted 1 us + 4 x 100 ns + 1 us later; back after one heartbeat.
    assertThat(stdout).containsPattern("\\n0 +150\\.000 +switch spine0 +down +3\\.000 +5\\.400 +[1-9]\\d* ")
        .containsPattern("\\n1 +900\\.000 +switch spine0 +up +1\\.000 +3\\.500 ");
    assertThat(stdout).contains("#wrong").doesNotContain("INCOMPLETE");
    assertThat(Files.readString(out.resolve("spine/results.json"))).contains("\"faults\"");
    assertThat(Files.readString(out.resolve("spine/report.html"))).contains("href=\"#faults\"");
  }

  @Test
  void thePartitionExampleExitsOneWithTheLine() {
    assertThat(fabemu("run", "../examples/leafspine-partition.conf", "--no-progress", "--out",
        out.resolve("partition").toString())).isEqualTo(1);
    assertThat(stderr.lines()).contains("fabemu: run incomplete: partition since 100.000 us (link host5-tor1 down): "
        + "ranks 0-9,12-31 cannot reach ranks 10-11");
  }
}
