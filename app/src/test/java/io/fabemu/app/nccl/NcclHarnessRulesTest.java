package io.fabemu.app.nccl;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabemu.app.CliTestBase;
import io.fabemu.app.ScenarioExecutor;
import io.fabemu.app.output.CNumbers;
import io.fabemu.collectives.Collective;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * fabemu's nccl-tests output read by the harnesses' own rules ({@link NcclHarnessParsers}: CloudAI, SuperBench,
 * ReFrame), end to end on the real ScenarioRunner over the calibrated profile (2 nodes x 2 ranks, three sizes): every
 * run is a success for them, and every number they extract is the one {@code results.json} holds for that case,
 * rounded as nccl-tests prints it.
 */
class NcclHarnessRulesTest extends CliTestBase {

  private static final Path PROFILE = Path.of("..", "profiles", "roce25g-tor-spine-fpga.conf");

  @Override
  protected ScenarioExecutor executor() {
    return null;
  }

  @ParameterizedTest
  @EnumSource(NcclPerfProgram.class)
  void shouldBeReadByEveryHarnessAsTheNumbersOfResultsJsonWhenAProgramRuns(NcclPerfProgram program)
      throws Exception {
    Path out = dir.resolve("out");

    int code = fabemu(program.commandName, "--profile", PROFILE.toString(), "--nodes", "2", "--ppn", "2", "-b", "64",
        "-e", "4K", "-f", "8", "-n", "2", "-w", "1", "-r", "1", "--no-progress", "--out", out.toString());

    assertThat(code).as(stderr).isZero();
    JsonNode json = new ObjectMapper().readTree(out.resolve("results.json").toFile());
    List<Expected> expected = expected(json, program.collective);
    assertThat(expected).hasSize(6); // 64 B, 512 B, 4 KiB, each out of place and in place

    // CloudAI: a success, three 13-field rows, and no GPU vendor in the device lines.
    assertThat(NcclHarnessParsers.cloudAiSucceeded(stdout)).isTrue();
    List<String[]> rows = NcclHarnessParsers.cloudAiRows(stdout);
    assertThat(rows).hasSize(3);
    assertThat(NcclHarnessParsers.cloudAiDeviceLines(stdout)).isZero();
    for (int s = 0; s < 3; s++) {
      String[] row = rows.get(s);
      Expected outOfPlace = expected.get(s);
      Expected inPlace = expected.get(3 + s);
      assertThat(row[0]).isEqualTo(Long.toString(outOfPlace.ncclSizeBytes()));
      assertThat(row[1]).isEqualTo(Long.toString(outOfPlace.count()));
      assertThat(row[2]).isEqualTo("float");
      assertThat(row[3]).isEqualTo(program.collective.reduces() || program.collective == Collective.SENDRECV
          ? "sum" : "none");
      assertThat(row[4]).isEqualTo(program.collective.rooted() ? "1" : "-1");
      assertHalf(row, 5, outOfPlace);
      assertHalf(row, 9, inPlace);
    }

    // SuperBench: the last table, either half.
    for (boolean inPlace : new boolean[] {false, true}) {
      Map<Long, NcclHarnessParsers.Figures> figures = NcclHarnessParsers.superBench(stdout, inPlace);
      assertThat(figures).hasSize(3);
      for (Expected e : expected) {
        if (e.inPlace() != inPlace) continue;
        NcclHarnessParsers.Figures f = figures.get(e.ncclSizeBytes());
        assertThat(f.timeUs()).isCloseTo(e.timeUs(), within(halfUnit(e.timeUs(), 7)));
        assertThat(f.algBwGBps()).isCloseTo(e.algBwGBps(), within(halfUnit(e.algBwGBps(), 6)));
        assertThat(f.busBwGBps()).isCloseTo(e.busBwGBps(), within(halfUnit(e.busBwGBps(), 6)));
      }
    }

    // ReFrame: the average bus bandwidth, over both halves of every row.
    double mean = expected.stream().mapToDouble(Expected::busBwGBps).average().orElseThrow();
    assertThat(NcclHarnessParsers.reframeAverageBusBandwidth(stdout)).isCloseTo(mean, within(mean * 1e-5));
    assertThat(stdout).contains("# Avg bus bandwidth    : " + CNumbers.g(mean) + " \n");

    // run --out's nccl-tests file for this (collective, algorithm) is exactly what the command printed.
    String algorithm = program.defaultAlgorithm().configName();
    assertThat(Files.readString(out.resolve("nccl-tests/" + program.program + "." + algorithm + ".txt")))
        .isEqualTo(stdout);
  }

  @Test
  void shouldGiveEveryHarnessItsTableWhenRunMeasuresBothLayoutsOfTwoAlgorithms() throws Exception {
    Path scenario = dir.resolve("both.conf");
    Files.writeString(scenario, "include \"" + PROFILE.toAbsolutePath().normalize() + "\"\n"
        + "topology.hosts = 2\n"
        + "workload { algorithms = [ring, recursive-doubling], buffers = [out-of-place, in-place], "
        + "sizes = [64 B, 4 KiB], ppn = 2, iterations = 2, warmup = 1 }\n");
    Path out = dir.resolve("run");

    assertThat(fabemu("run", scenario.toString(), "--no-progress", "--out", out.toString())).as(stderr).isZero();

    JsonNode json = new ObjectMapper().readTree(out.resolve("results.json").toFile());
    List<Expected> expected = expected(json, Collective.ALLREDUCE);
    assertThat(NcclHarnessParsers.cloudAiSucceeded(stdout)).isTrue();
    List<String[]> rows = NcclHarnessParsers.cloudAiRows(stdout);
    assertThat(rows).hasSize(4); // two algorithms x two sizes; the osu tables' rows have 5 fields
    // Cases: ring out-of-place 64 B, 4 KiB, ring in-place 64 B, 4 KiB, then recursive doubling likewise.
    for (int a = 0; a < 2; a++) {
      for (int s = 0; s < 2; s++) {
        assertHalf(rows.get(2 * a + s), 5, expected.get(4 * a + s));
        assertHalf(rows.get(2 * a + s), 9, expected.get(4 * a + 2 + s));
      }
    }
    // SuperBench reads the last table (recursive doubling); ReFrame the first average (ring's).
    Map<Long, NcclHarnessParsers.Figures> last = NcclHarnessParsers.superBench(stdout, false);
    assertThat(last.get(64L).timeUs()).isCloseTo(expected.get(4).timeUs(), within(0.005));
    double ringMean = expected.subList(0, 4).stream().mapToDouble(Expected::busBwGBps).average().orElseThrow();
    assertThat(NcclHarnessParsers.reframeAverageBusBandwidth(stdout)).isCloseTo(ringMean, within(ringMean * 1e-5));
    // And each file holds its algorithm's table alone.
    for (String algorithm : List.of("ring", "recursive-doubling")) {
      String file = Files.readString(out.resolve("nccl-tests/all_reduce_perf." + algorithm + ".txt"));
      assertThat(NcclHarnessParsers.cloudAiRows(file)).hasSize(2);
      assertThat(NcclHarnessParsers.cloudAiSucceeded(file)).isTrue();
    }
  }

  /** One case of results.json as nccl-tests reports it. */
  record Expected(boolean inPlace, long ncclSizeBytes, long count, double timeUs, double algBwGBps,
                  double busBwGBps, long wrong) {}

  /** The cases of results.json, in case order, with nccl-tests' size (the whole buffer for block collectives). */
  private static List<Expected> expected(JsonNode json, Collective collective) {
    int blocks = collective.oneBlockPerRank() ? json.get("ranks").asInt() : 1;
    List<Expected> cases = new ArrayList<>();
    for (JsonNode c : json.get("cases")) {
      assertThat(c.get("checked").asBoolean()).isTrue();
      cases.add(new Expected(c.get("bufferLayout").asText().equals("in-place"), c.get("sizeBytes").asLong() * blocks,
          c.get("count").asLong(), c.get("avgLatencyUs").asDouble(), c.get("algBandwidthGBps").asDouble(),
          c.get("busBandwidthGBps").asDouble(), c.get("wrongElements").asLong()));
    }
    return cases;
  }

  /**
   * A half of a CloudAI row from field {@code first}: each number is results.json's, printed as nccl-tests prints
   * it (so equal to within half its last digit).
   */
  private static void assertHalf(String[] row, int first, Expected e) {
    assertThat(row[first]).isEqualTo(NcclTestsReport.floatStr(e.timeUs(), 7).strip());
    assertThat(Double.parseDouble(row[first])).isCloseTo(e.timeUs(), within(halfUnit(e.timeUs(), 7)));
    assertThat(row[first + 1]).isEqualTo(NcclTestsReport.floatStr(e.algBwGBps(), 6).strip());
    assertThat(Double.parseDouble(row[first + 1])).isCloseTo(e.algBwGBps(), within(halfUnit(e.algBwGBps(), 6)));
    assertThat(row[first + 2]).isEqualTo(NcclTestsReport.floatStr(e.busBwGBps(), 6).strip());
    assertThat(Double.parseDouble(row[first + 2])).isCloseTo(e.busBwGBps(), within(halfUnit(e.busBwGBps(), 6)));
    assertThat(row[first + 3]).isEqualTo(Long.toString(e.wrong()));
  }

  /** Half the last printed digit of {@code value} in a field {@code width} wide (nccl-tests' getFloatStr). */
  private static double halfUnit(double value, int width) {
    String printed = NcclTestsReport.floatStr(value, width).strip();
    int point = printed.indexOf('.');
    return point < 0 ? 0.5 : 0.5 * Math.pow(10, -(printed.length() - point - 1));
  }
}
