package io.fabemu.app;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@code fabemu traffic} on the real ScenarioRunner: a small mesh's load sweep end to end, and its bad input. */
class TrafficCommandTest extends CliTestBase {

  private static final String MESH_TRAFFIC = """
      name = mesh-traffic
      seed = 3
      topology { kind = mesh, dimensions = [4, 4] }
      traffic {
        pattern = uniform, packet-flits = 4
        offered-loads = [0.05, 0.3, 0.9]
        warmup-cycles = 200, measure-cycles = 1000, drain-cycles = 1000
      }
      """;

  @Override
  protected ScenarioExecutor executor() {
    return null;
  }

  @Test
  void shouldPrintTheLatencyTableAndWriteTheFilesWhenTheScenarioHasTraffic() throws Exception {
    Path scenario = dir.resolve("mesh.conf");
    Files.writeString(scenario, MESH_TRAFFIC);
    Path out = dir.resolve("out");

    int code = fabemu("traffic", scenario.toString(), "--out", out.toString(), "--all-loads");

    assertThat(code).as(stderr).isZero();
    assertThat(stdout).contains("# fabemu traffic: mesh: 4x4 (16 nodes, each a host and a router)")
        .contains("# traffic: uniform, 4-flit packets, 3 offered loads").contains("# Offered  Accepted")
        .contains("<- saturated").contains("# saturation between 0.3000 and 0.9000 flits/node/cycle");
    assertThat(stderr).contains("fabemu traffic: load 3 of 3 (0.9000 flits/node/cycle)");
    List<String> csv = Files.readAllLines(out.resolve("traffic.csv"));
    assertThat(csv).hasSize(4);
    assertThat(csv.get(0)).startsWith("offered_flits_per_node_cycle,");
    assertThat(csv.get(1)).startsWith("0.0500000,").contains(",true,false,");
    assertThat(csv.get(0)).contains(",max_vc_utilisation,mean_router_vc_utilisation,");
    assertThat(Files.readString(out.resolve("latency-load.svg"))).contains("<svg").contains("average latency");
    // 4x4 mesh: 16 routers, 48 router-router input ports plus 16 from the NICs, 2 virtual channels each, 3 loads.
    List<String> vcs = Files.readAllLines(out.resolve("vc-utilisation.csv"));
    assertThat(vcs).hasSize(1 + 3 * (48 + 16) * 2);
    assertThat(vcs.get(1)).startsWith("0.0500000,host0,router0,0,");
    assertThat(vcs.subList(1, vcs.size())).allSatisfy(row -> {
      double utilisation = Double.parseDouble(row.substring(row.lastIndexOf(',') + 1));
      assertThat(utilisation).isBetween(0.0, 1.0);
    });
    assertThat(Files.readString(out.resolve("report.html"))).contains("Latency against offered load")
        .contains("Accepted against offered load").contains("mesh-traffic");

    // The same sweep twice gives the same figures (the wall-time columns aside).
    Path again = dir.resolve("again");
    assertThat(fabemu("traffic", scenario.toString(), "--out", again.toString(), "--all-loads")).isZero();
    List<String> second = Files.readAllLines(again.resolve("traffic.csv"));
    for (int i = 0; i < csv.size(); i++) {
      assertThat(withoutWall(second.get(i))).isEqualTo(withoutWall(csv.get(i)));
    }
  }

  @Test
  void shouldStopAtTheFirstSaturatedLoadUnlessAllLoadsAreAsked() throws Exception {
    Path scenario = dir.resolve("mesh.conf");
    Files.writeString(scenario, MESH_TRAFFIC.replace("[0.05, 0.3, 0.9]", "[0.05, 0.9, 0.95]"));
    assertThat(fabemu("traffic", scenario.toString(), "--no-progress")).as(stderr).isZero();
    assertThat(stdout).contains("<- saturated").contains("# Run: 2 loads").doesNotContain("\n   0.9500 ");
    assertThat(stderr).isEmpty();
  }

  @Test
  void shouldSayWhatTrafficRunsWhenValidatingATrafficScenario() throws Exception {
    Path scenario = dir.resolve("mesh.conf");
    Files.writeString(scenario, MESH_TRAFFIC);
    assertThat(fabemu("validate", scenario.toString())).isZero();
    assertThat(withoutEstimate(stdout)).isEqualTo("OK: " + scenario + ": mesh: 4x4 (16 nodes, each a host and a "
        + "router), uniform traffic, 3 offered loads\n");
  }

  @Test
  void shouldRefuseInTwoWaysWhenTrafficAndCommandDoNotMatch() throws Exception {
    assertThat(fabemu("traffic", tinyScenario().toString())).isEqualTo(2);
    assertThat(stderr).contains("has no traffic section").doesNotContain("Exception");
    Path scenario = dir.resolve("mesh.conf");
    Files.writeString(scenario, MESH_TRAFFIC);
    assertThat(fabemu("run", scenario.toString())).isEqualTo(2);
    assertThat(stderr).contains("runs synthetic traffic").contains("fabemu traffic");
  }

  /** A CSV row without its last column, the wall seconds, which vary from run to run. */
  private static String withoutWall(String row) {
    return row.substring(0, row.lastIndexOf(','));
  }
}
