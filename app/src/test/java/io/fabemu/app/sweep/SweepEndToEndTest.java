package io.fabemu.app.sweep;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabemu.app.CliTestBase;
import io.fabemu.app.Fixtures;
import io.fabemu.app.ScenarioExecutor;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@code fabemu sweep} on the real ScenarioRunner: each point gives exactly what {@code run} with its values gives. */
class SweepEndToEndTest extends CliTestBase {

  @Override
  protected ScenarioExecutor executor() {
    return null;
  }

  @Test
  void shouldGiveEachPointTheResultsOfARunWithItsValues() throws Exception {
    Path scenario = dir.resolve("two-tors.conf");
    Files.writeString(scenario, Fixtures.TINY_SCENARIO + "topology { spines = 1 }\n");
    Path sweep = dir.resolve("sweep");

    int code = fabemu("sweep", scenario.toString(), "--vary", "topology.hosts=2,4", "--no-progress", "--out",
        sweep.toString());
    assertThat(code).as(stderr).isZero();
    Path single = dir.resolve("single");
    assertThat(fabemu("run", scenario.toString(), "--set", "topology.hosts=4", "--no-progress", "--out",
        single.toString())).as(stderr).isZero();

    ObjectMapper json = new ObjectMapper();
    assertThat(json.readTree(sweep.resolve("points/2-topology.hosts=4/results.json").toFile()).get("digest"))
        .isEqualTo(json.readTree(single.resolve("results.json").toFile()).get("digest"));
    List<String> runRows = Files.readAllLines(single.resolve("results.csv"));
    List<String> sweepRows = Files.readAllLines(sweep.resolve("sweep.csv"));
    assertThat(sweepRows.get(0)).isEqualTo("point,topology.hosts," + runRows.get(0));
    assertThat(sweepRows.subList(5, 9)).isEqualTo(runRows.subList(1, 5).stream().map(r -> "2,4," + r).toList());
    assertThat(sweepRows.subList(1, 5)).allMatch(r -> r.startsWith("1,2,tiny,\"leaf-spine: 2 hosts"));
    assertThat(Files.readString(sweep.resolve("report.html"))).contains("points/1-topology.hosts=2/report.html");
  }
}
