package io.fabemu.app.osu;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabemu.app.CliTestBase;
import io.fabemu.app.ScenarioExecutor;
import io.fabemu.app.output.LatencyPlotTest;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@code fabemu osu-allreduce --mode host} on the real ScenarioRunner: a tiny profile end to end. */
class OsuAllreduceEndToEndTest extends CliTestBase {

  @Override
  protected ScenarioExecutor executor() {
    return null;
  }

  @Test
  void shouldPrintTheOsuTableAndWriteResultsAndPlotWhenRunningHostMode() throws Exception {
    Path out = dir.resolve("out");

    int code = fabemu("osu-allreduce", "--profile", tinyProfile().toString(), "--nodes", "4", "--ppn", "2",
        "--mode", "host", "-m", "4:16", "-i", "2", "-x", "1", "-f", "--no-progress", "--out", out.toString());

    assertThat(code).as(stderr).isZero();
    assertThat(stderr).isEmpty();
    List<String> lines = stdout.lines().toList();
    assertThat(lines).hasSize(5 + 3);
    assertThat(lines.subList(0, 5)).containsExactly("",
        "# OSU MPI Allreduce Latency Test v7.5",
        "# fabemu emulation (virtual time): tiny-profile, 4 nodes x 2 ppn, mode host, algorithm auto",
        "# Datatype: MPI_FLOAT.",
        "# Size       Avg Latency(us)   Min Latency(us)   Max Latency(us)  Iterations");
    // OSU's widths: size %-10d, three latencies %18.2f, iterations %12d.
    for (int i = 0; i < 3; i++) {
      String row = lines.get(5 + i);
      assertThat(row).hasSize(10 + 3 * 18 + 12);
      assertThat(row.substring(0, 10)).isEqualTo(String.format("%-10d", 4 << i));
      for (int field = 0; field < 3; field++) {
        assertThat(row.substring(10 + 18 * field, 28 + 18 * field)).matches(" +\\d+\\.\\d{2}");
      }
      assertThat(row.substring(64)).isEqualTo(" ".repeat(11) + "2");
    }

    JsonNode json = new ObjectMapper().readTree(out.resolve("results.json").toFile());
    assertThat(json.get("complete").asBoolean()).isTrue();
    assertThat(json.get("wrongElements").asLong()).isZero();
    assertThat(json.get("ranks").asInt()).isEqualTo(8);
    assertThat(json.get("cases")).hasSize(3);
    assertThat(Files.readAllLines(out.resolve("results.csv"))).hasSize(4);
    // Allreduce auto picks recursive doubling below 10,000 B: one series, named by the mode and that algorithm.
    List<String> plot = LatencyPlotTest.descriptionLines(out.resolve("latency.svg"));
    assertThat(plot).hasSize(2);
    assertThat(plot.get(1)).startsWith("host (recursive-doubling): 4 B ").contains(", 8 B ").contains(", 16 B ");
    assertThat(out.resolve("latency.png")).isNotEmptyFile();
  }

  @Test
  void shouldAggregateInTheSwitchesAndSayInTheResultsWhenTheCalibratedProfileRunsIncSocket() throws Exception {
    Path out = dir.resolve("inc");
    Path profile = Path.of("..", "profiles", "roce25g-tor-spine-fpga.conf");

    int code = fabemu("osu-allreduce", "--profile", profile.toString(), "--nodes", "4", "--ppn", "8",
        "--mode", "inc-socket", "-m", "4:512", "-i", "2", "-x", "1", "--no-progress", "--out", out.toString(),
        "--set", "devices.inc.nic.stream-window=0");

    assertThat(code).as(stderr).isZero();
    List<String> lines = stdout.lines().toList();
    // 4..512 B: 8 rows, then one note for 512 B, above the switches' 256-byte maximum with streaming off.
    assertThat(lines).hasSize(5 + 8 + 1);
    assertThat(lines.get(2)).isEqualTo("# fabemu emulation (virtual time): roce25g-tor-spine-fpga, 4 nodes x 8 ppn, "
        + "mode inc-socket, algorithm inc-socket");
    assertThat(lines.get(13)).isEqualTo("# 512 B: no INC, ran the host algorithm: the message is larger than the "
        + "switches' maximum data size and is not streamed (a NIC or switch on the path keeps no window of chunks: "
        + "devices.inc.nic.stream-window = 0)");
    JsonNode cases = new ObjectMapper().readTree(out.resolve("results.json").toFile()).get("cases");
    assertThat(cases.get(0).at("/inc/used").asBoolean()).isTrue();
    assertThat(cases.get(0).at("/inc/outcome").asText()).isEqualTo("none");
    assertThat(cases.get(7).at("/inc/used").asBoolean()).isFalse();
    assertThat(cases.get(7).at("/inc/outcome").asText()).isEqualTo("message-too-large");
    assertThat(cases.get(7).get("wrongElements").asLong()).isZero();
  }
}
