package io.fabemu.app.sweep;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabemu.app.CliTestBase;
import io.fabemu.app.Fixtures;
import io.fabemu.app.ScenarioExecutor;
import io.fabemu.app.output.ResultsWriter;
import io.fabemu.app.report.Xml;
import io.fabemu.core.sim.ProgressListener;
import io.fabemu.core.topology.Topology;
import io.fabemu.fabric.ScenarioSpec;
import io.fabemu.fabric.result.RunResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;

/** {@code fabemu sweep} on the fake executor: points, output, files, exit codes and the one-line errors. */
class SweepCommandTest extends CliTestBase {

  /** The fake executor, which can fail the emulation of the points with a given iteration count. */
  private final class Executor implements ScenarioExecutor {
    final Fixtures.FakeExecutor fake = new Fixtures.FakeExecutor();
    int failWhenIterations = -1;
    int runs;

    @Override
    public RunResult run(ScenarioSpec spec, Topology topology, ProgressListener listener) {
      runs++;
      if (spec.workload().iterations() == failWhenIterations) {
        throw new IllegalStateException("device 7 failed at 120 ps");
      }
      return fake.run(spec, topology, listener);
    }
  }

  private final Executor executor = new Executor();

  @Override
  protected ScenarioExecutor executor() {
    return executor;
  }

  private static List<String> files(Path dir) throws Exception {
    try (Stream<Path> walk = Files.walk(dir)) {
      return walk.filter(Files::isRegularFile).map(p -> dir.relativize(p).toString()).sorted().toList();
    }
  }

  @Test
  void shouldRunTheCrossProductAndWriteOneCsvOneReportAndEachPointsFiles() throws Exception {
    Path out = dir.resolve("sweep");

    int code = fabemu("sweep", tinyScenario().toString(), "--vary", "workload.iterations=2,3", "--vary",
        "workload.algorithms=[ring],[ring, recursive-doubling]", "--set", "seed=9", "--out", out.toString());

    assertThat(code).as(stderr).isZero();
    assertThat(stdout.lines().toList()).containsExactly(
        "# fabemu sweep: tiny (" + dir.resolve("tiny.conf") + "), 4 points: workload.iterations = 2, 3; "
            + "workload.algorithms = [ring], [ring, recursive-doubling]",
        "# point  workload.iterations  workload.algorithms           cases    wrong   virtual end   avg busbw(GB/s)  "
            + "exit  digest",
        "      1  2                    [ring]                            2        0         10 us          0.016513  "
            + "   0  feedbeef",
        "      2  2                    [ring, recursive-doubling]        4        0         10 us          0.016513  "
            + "   0  feedbeef",
        "      3  3                    [ring]                            2        0         10 us          0.016513  "
            + "   0  feedbeef",
        "      4  3                    [ring, recursive-doubling]        4        0         10 us          0.016513  "
            + "   0  feedbeef",
        "# Sweep: 4 points, 0 failed, worst exit code 0; wrote " + out + "/sweep.csv, " + out + "/report.html and "
            + out + "/points/");
    assertThat(stderr.lines().toList()).containsExactly(
        "fabemu sweep: point 1 of 4: workload.iterations=2, workload.algorithms=[ring]",
        "fabemu sweep: point 2 of 4: workload.iterations=2, workload.algorithms=[ring, recursive-doubling]",
        "fabemu sweep: point 3 of 4: workload.iterations=3, workload.algorithms=[ring]",
        "fabemu sweep: point 4 of 4: workload.iterations=3, workload.algorithms=[ring, recursive-doubling]");
    assertThat(executor.fake.ranSpec.seed()).isEqualTo(9);
    String point2 = "points/2-workload.iterations=2,workload.algorithms=_ring__recursive-doubling_/";
    assertThat(files(out)).contains("report.html", "sweep.csv", point2 + "results.json", point2 + "results.csv",
        point2 + "latency.svg", point2 + "latency.png", point2 + "report.html",
        point2 + "nccl-tests/all_reduce_perf.recursive-doubling.txt", point2 + "osu/osu_allreduce.ring.txt")
        // 5 files per point, plus an nccl-tests and an OSU file per algorithm (1 + 2 + 1 + 2 algorithms).
        .hasSize(2 + 4 * 5 + 2 * 6);
    assertThat(new ObjectMapper().readTree(out.resolve(point2 + "results.json").toFile())
        .at("/scenario/workload/algorithms/1").asText()).isEqualTo("recursive-doubling");

    List<String> csv = Files.readAllLines(out.resolve("sweep.csv"));
    assertThat(csv.get(0)).isEqualTo("point,workload.iterations,workload.algorithms," + ResultsWriter.CSV_HEADER);
    assertThat(csv).hasSize(1 + 2 + 4 + 2 + 4);
    assertThat(csv.get(3)).startsWith("2,2,\"[ring, recursive-doubling]\",tiny,").contains(",ring,ring,");
    assertThat(csv.get(12)).startsWith("4,3,\"[ring, recursive-doubling]\",tiny,")
        .contains(",recursive-doubling,recursive-doubling,out-of-place,64,16,float32,sum,3,");

    Document report = Xml.parse(Files.readString(out.resolve("report.html")));
    assertThat(Xml.texts(report, "h2")).containsExactly("Sweep", "Against the varied values",
        "Latency and bus bandwidth per point", "Link utilisation per point", "Scenario");
    assertThat(Xml.all(report, "a").stream().map(a -> a.getAttribute("href")))
        .contains(point2 + "report.html");
    assertThat(Xml.texts(report, "td")).contains("[ring, recursive-doubling]", "2 of 2", "4 of 4");
  }

  @Test
  void shouldReturnTheWorstExitCodeAndGoOnAfterAPointWhoseEmulationFails() throws Exception {
    executor.failWhenIterations = 2;
    Path out = dir.resolve("sweep");

    int code = fabemu("sweep", tinyScenario().toString(), "--vary", "workload.iterations=2,3", "--no-progress",
        "--out", out.toString());

    assertThat(code).isEqualTo(1);
    assertThat(executor.runs).isEqualTo(2);
    assertThat(stderr.lines().toList()).containsExactly(
        "fabemu sweep: point 1 of 2: workload.iterations=2",
        "fabemu: error: point 1: IllegalStateException: device 7 failed at 120 ps",
        "fabemu sweep: point 2 of 2: workload.iterations=3");
    assertThat(stdout.lines().toList()).contains(
        "      1  2                          -        -             -                 -     1  -",
        "# Sweep: 2 points, 1 failed, worst exit code 1; wrote " + out + "/sweep.csv, " + out + "/report.html and "
            + out + "/points/");
    assertThat(Files.readAllLines(out.resolve("sweep.csv"))).hasSize(1 + 4).allMatch(l -> !l.startsWith("1,"));
    assertThat(Xml.texts(Xml.parse(Files.readString(out.resolve("report.html"))), "td"))
        .contains("IllegalStateException: device 7 failed at 120 ps");
  }

  @Test
  void shouldExitOneWhenAPointsOutputIsWrong() throws Exception {
    executor.fake.wrongElements = 3;

    int code = fabemu("sweep", tinyScenario().toString(), "--vary", "seed=1,2", "--out", dir.resolve("o").toString());

    assertThat(code).isEqualTo(1);
    assertThat(stderr.lines().filter(l -> l.equals("fabemu: 3 output elements differ from the exact answer")))
        .hasSize(2);
  }

  @Test
  void shouldNameTheVaryTheLoaderRefusesAndRunAndWriteNothing() throws Exception {
    Path out = dir.resolve("never");

    int code = fabemu("sweep", tinyScenario().toString(), "--vary", "workload.iterations=2,0", "--out",
        out.toString());

    assertThat(code).isEqualTo(2);
    assertThat(stderr.lines().toList()).containsExactly("fabemu sweep: --vary workload.iterations=0: must be at "
        + "least 1, got 0 (see 'fabemu sweep --help')");
    assertThat(stdout).isEmpty();
    assertThat(out).doesNotExist();
    assertThat(executor.runs).isZero();
  }

  @Test
  void shouldRefuseAScenarioItCannotSweepBeforeAnyPointRunsAndWriteNothing() throws Exception {
    Path traffic = dir.resolve("traffic.conf");
    Files.writeString(traffic, "name = t\ntopology { kind = mesh, dimensions = [2, 2] }\ntraffic {}\n");
    Path out = dir.resolve("never");

    int code = fabemu("sweep", traffic.toString(), "--vary", "workload.iterations=1,2", "--out", out.toString());

    assertThat(code).isEqualTo(2);
    assertThat(stderr.lines().toList()).singleElement().asString().contains(traffic + ": the scenario runs "
        + "synthetic traffic (its traffic section): run it with 'fabemu traffic' (sweep point 1 of 2: ");
    assertThat(stdout).isEmpty();
    assertThat(out).doesNotExist();
    assertThat(executor.runs).isZero();
  }

  @Test
  void shouldNameThePointWhenAnotherKeyFailsBecauseOfItsValues() throws Exception {
    int code = fabemu("sweep", tinyScenario().toString(), "--vary", "topology.hosts=2,4", "--out",
        dir.resolve("o").toString());

    assertThat(code).isEqualTo(2);
    assertThat(stderr.lines().toList()).containsExactly(dir.resolve("tiny.conf") + ":2: topology.spines: must be at "
        + "least 1: 4 hosts at 2 per TOR need 2 TORs, which reach each other only through spines (sweep point 2 of 2: "
        + "topology.hosts=4)");
    assertThat(executor.runs).isZero();
  }

  @Test
  void shouldRefuseMalformedVariesAKeyBothSetAndVariedAndAMissingOut() throws Exception {
    String scenario = tinyScenario().toString();

    assertThat(fabemu("sweep", scenario, "--vary", "workload.sizes=[4 B,[8 B]", "--out", "o")).isEqualTo(2);
    assertThat(stderr.lines().toList()).containsExactly("fabemu sweep: --vary 'workload.sizes=[4 B,[8 B]': '[' is "
        + "not closed (see 'fabemu sweep --help')");

    assertThat(fabemu("sweep", scenario, "--vary", "seed=1,2", "--set", "seed=3", "--out", "o")).isEqualTo(2);
    assertThat(stderr.lines().toList()).containsExactly("fabemu sweep: --vary 'seed=1,2': seed is also set by --set "
        + "seed=3; give it in one of them (see 'fabemu sweep --help')");

    assertThat(fabemu("sweep", scenario, "--vary", "seed=1,2")).isEqualTo(2);
    assertThat(stderr.lines().toList()).containsExactly("fabemu sweep: Missing required option: '--out=DIR' (see "
        + "'fabemu sweep --help')");

    assertThat(fabemu("sweep", scenario, "--out", "o")).isEqualTo(2);
    assertThat(stderr).startsWith("fabemu sweep: Missing required option: '--vary=KEY.PATH=V1,V2,...'");

    assertThat(fabemu("sweep", scenario, "--vary", "seed=1", "--members", "2", "--out", "o")).isEqualTo(2);
    assertThat(stderr.lines().toList()).hasSize(1);
    assertThat(stderr).startsWith("fabemu: --members 2: ").endsWith(" (sweep point 1 of 1: seed=1)\n");
    assertThat(executor.runs).isZero();
    assertThat(dir.resolve("o")).doesNotExist();
  }

  @Test
  void shouldDescribeTheSweepsOwnOutInItsHelp() {
    assertThat(fabemu("sweep", "--help")).isZero();

    assertThat(stdout).contains("--vary=KEY.PATH=V1,V2,...").contains("--set=KEY.PATH=VALUE")
        .contains("--out=DIR              Write DIR/sweep.csv and DIR/report.html for the")
        .contains("--members=N").doesNotContain("Also write DIR/results.json");
  }
}
