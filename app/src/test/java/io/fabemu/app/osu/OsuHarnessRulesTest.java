package io.fabemu.app.osu;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabemu.app.CliTestBase;
import io.fabemu.app.ScenarioExecutor;
import io.fabemu.core.time.Units;
import java.io.IOException;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The OSU commands' output read by the rules the harnesses apply to OMB's (written here from their documented
 * patterns, not their code): ReFrame's {@code ^SIZE\s+(\S+)} (the first match), Ramble's header, row, version and
 * datatype patterns ({@code #\s+Size\s+Avg Latency\(us\)\s*$}, {@code # OSU.*Test (v[0-9.]+)}, ...), and CloudAI's
 * reader (a header line, then every later line whose first field is an integer is a row). Each runs on the real
 * emulator over the calibrated profile and must extract exactly the figures of {@code results.json}.
 */
class OsuHarnessRulesTest extends CliTestBase {

  private static final Path PROFILE = Path.of("..", "profiles", "roce25g-tor-spine-fpga.conf");

  /** Ramble's header of osu_allreduce and the others without options. */
  private static final Pattern AVG_LAT_HEADER = Pattern.compile("#\\s+Size\\s+Avg Latency\\(us\\)\\s*$");
  /** Ramble's header with its default {@code -z}. */
  private static final Pattern AVG_TAIL_LAT_HEADER = Pattern.compile("# Size\\s+Avg Latency\\(us\\)\\s+P50 Tail "
      + "Lat\\(us\\)\\s+P90 Tail Lat\\(us\\)\\s+P99 Tail Lat\\(us\\)$");
  /** Ramble's header of osu_bw. */
  private static final Pattern SINGLE_BW_HEADER = Pattern.compile("# Size\\s+Bandwidth \\(MB/s\\)\\s*$");
  /** Ramble's rows: size and one figure, or size, figure and the three tails. */
  private static final Pattern AVG_ROW = Pattern.compile("\\s*(?<size>[0-9]+)\\s+(?<avg>[0-9.]+)\\s*$");
  private static final Pattern AVG_TAIL_ROW = Pattern.compile("\\s*(?<size>[0-9]+)\\s+(?<avg>[0-9.]+)\\s+"
      + "(?<p50>[0-9.]+)\\s+(?<p90>[0-9.]+)\\s+(?<p99>[0-9.]+)\\s*$");
  /** Ramble's version and datatype figures of merit. */
  private static final Pattern VERSION = Pattern.compile("# OSU.*Test (?<ver>v[0-9.]+)");
  private static final Pattern DATATYPE = Pattern.compile("# Datatype: (?<type>\\S+)\\.");
  /** CloudAI's headers: latency (optionally with -f's columns) and bandwidth. */
  private static final Pattern CLOUDAI_LATENCY = Pattern.compile("#\\s*Size\\s+Avg Latency\\(us\\)"
      + "(?:\\s+Min Latency\\(us\\)\\s+Max Latency\\(us\\)\\s+Iterations)?");
  private static final Pattern CLOUDAI_BANDWIDTH = Pattern.compile("#\\s*Size\\s+Bandwidth\\s*\\(MB/s\\)");
  /** CloudAI's success marker, the -f header it always asks for. */
  private static final String CLOUDAI_MARKER = "# Size       Avg Latency(us)   Min Latency(us)   Max Latency(us)"
      + "  Iterations";

  @Override
  protected ScenarioExecutor executor() {
    return null;
  }

  // ------------------------------------------------------------------------------ the harnesses' rules

  /** ReFrame: {@code sn.extractsingle(rf'^{size}\s+(\S+)', stdout, 1, float)}, the first match of the output. */
  static String reframe(String stdout, long size) {
    Matcher m = Pattern.compile("^" + size + "\\s+(\\S+)", Pattern.MULTILINE).matcher(stdout);
    return m.find() ? m.group(1) : null;
  }

  /** Ramble: the first header pattern that matches a line (anchored at its start), then the rows' pattern. */
  static Map<Long, List<String>> ramble(String stdout, Pattern header, Pattern row) {
    List<String> lines = stdout.lines().toList();
    boolean found = lines.stream().anyMatch(l -> header.matcher(l).lookingAt());
    assertThat(found).as("Ramble finds its header in:\n%s", stdout).isTrue();
    Map<Long, List<String>> rows = new LinkedHashMap<>();
    for (String line : lines) {
      Matcher m = row.matcher(line);
      if (!m.lookingAt()) continue;
      List<String> figures = new ArrayList<>(List.of(m.group("avg")));
      if (row == AVG_TAIL_ROW) figures.addAll(List.of(m.group("p50"), m.group("p90"), m.group("p99")));
      rows.put(Long.parseLong(m.group("size")), figures);
    }
    return rows;
  }

  /** A figure of merit Ramble reads with {@code pattern} from the first line it finds it in. */
  static String rambleFigure(String stdout, Pattern pattern, String group) {
    for (String line : stdout.lines().toList()) {
      Matcher m = pattern.matcher(line);
      if (m.find()) return m.group(group);
    }
    return null;
  }

  /**
   * CloudAI: lines are skipped until one matches a header ({@code re.match}); every later line whose first field is
   * an integer is a row of (size, first figure).
   */
  static Map<Long, String> cloudai(String stdout) {
    Map<Long, String> rows = new LinkedHashMap<>();
    boolean header = false;
    for (String line : stdout.lines().toList()) {
      if (!header) {
        header = CLOUDAI_LATENCY.matcher(line).lookingAt() || CLOUDAI_BANDWIDTH.matcher(line).lookingAt();
        continue;
      }
      String[] parts = line.strip().split("\\s+");
      if (parts.length < 2) continue;
      try {
        rows.put(Long.parseLong(parts[0]), parts[1]);
      } catch (NumberFormatException e) {
        // not a row
      }
    }
    assertThat(header).as("CloudAI finds a header in:\n%s", stdout).isTrue();
    return rows;
  }

  // ------------------------------------------------------------------------------ the figures of results.json

  /** C's {@code %.2f} of {@code value}: the exact binary value rounded half to even. */
  private static String twoDecimals(double value) {
    return new BigDecimal(value).setScale(2, RoundingMode.HALF_EVEN).toPlainString();
  }

  /** Per case of {@code out/results.json}: OMB's size and the figure {@code figure} makes of it, as printed. */
  private static Map<Long, String> expected(Path out, Figure figure) throws IOException {
    JsonNode json = new ObjectMapper().readTree(out.resolve("results.json").toFile());
    assertThat(json.get("complete").asBoolean()).isTrue();
    Map<Long, String> rows = new LinkedHashMap<>();
    for (JsonNode c : json.get("cases")) {
      assertThat(c.get("wrongElements").asLong()).isZero();
      long size = c.get("sizeBytes").asLong();
      rows.put(figure.size(size), twoDecimals(figure.of(size, c.get("avgLatencyPs").asDouble())));
    }
    assertThat(rows).isNotEmpty();
    return rows;
  }

  /** How a program makes its size and figure from a case's per-rank size and average latency. */
  interface Figure {
    double of(long sizeBytes, double avgLatencyPs);

    default long size(long sizeBytes) {
      return sizeBytes;
    }
  }

  private static final Figure LATENCY_US = (size, ps) -> ps / Units.PS_PER_US;

  private int osu(String... args) {
    List<String> line = new ArrayList<>(List.of(args));
    line.addAll(List.of("--profile", PROFILE.toString(), "--no-progress"));
    return fabemu(line.toArray(String[]::new));
  }

  // ------------------------------------------------------------------------------ the tests

  @Test
  void shouldGiveReframeRambleAndCloudaiExactlyTheResultsWhenOsuAllreduceIsPlain() throws Exception {
    Path out = dir.resolve("plain");
    assertThat(osu("osu-allreduce", "--nodes", "4", "--ppn", "2", "--mode", "host", "-m", "4:64", "-i", "3", "-x",
        "1", "--out", out.toString())).as(stderr).isZero();
    Map<Long, String> expected = expected(out, LATENCY_US);

    assertThat(expected).containsOnlyKeys(4L, 8L, 16L, 32L, 64L);
    for (Map.Entry<Long, String> e : expected.entrySet()) {
      assertThat(reframe(stdout, e.getKey())).as("ReFrame, size %d", e.getKey()).isEqualTo(e.getValue());
    }
    Map<Long, List<String>> ramble = ramble(stdout, AVG_LAT_HEADER, AVG_ROW);
    assertThat(ramble.keySet()).containsExactlyElementsOf(expected.keySet());
    expected.forEach((size, avg) -> assertThat(ramble.get(size)).containsExactly(avg));
    assertThat(rambleFigure(stdout, VERSION, "ver")).isEqualTo("v" + OsuBenchmark.OMB_VERSION);
    assertThat(rambleFigure(stdout, DATATYPE, "type")).isEqualTo("MPI_FLOAT");
    assertThat(cloudai(stdout)).isEqualTo(expected);
    // The OSU file of --out reads the same.
    assertThat(cloudai(Files.readString(out.resolve("osu/osu_allreduce.auto.txt")))).isEqualTo(expected);
  }

  @Test
  void shouldGiveRambleTheTailsOfItsDefaultDashZWhenOsuAllreduceRunsWithIt() throws Exception {
    Path out = dir.resolve("tails");
    assertThat(osu("osu-allreduce", "--nodes", "4", "--ppn", "2", "--mode", "inc-node", "-m", "4:32", "-i", "4",
        "-x", "1", "-z", "--out", out.toString())).as(stderr).isZero();
    Map<Long, String> expected = expected(out, LATENCY_US);

    Map<Long, List<String>> ramble = ramble(stdout, AVG_TAIL_LAT_HEADER, AVG_TAIL_ROW);
    assertThat(ramble.keySet()).containsExactlyElementsOf(expected.keySet());
    for (Map.Entry<Long, String> e : expected.entrySet()) {
      List<String> figures = ramble.get(e.getKey());
      assertThat(figures.get(0)).isEqualTo(e.getValue());
      // P50 <= P90 <= P99 (OMB sorts the iterations ascending before it picks).
      double p50 = Double.parseDouble(figures.get(1));
      double p90 = Double.parseDouble(figures.get(2));
      double p99 = Double.parseDouble(figures.get(3));
      assertThat(p50).isLessThanOrEqualTo(p90);
      assertThat(p90).isLessThanOrEqualTo(p99);
    }
    // Ramble's plain rule does not fire on the -z header; CloudAI's header pattern matches its start and reads the
    // averages.
    assertThat(stdout.lines().noneMatch(l -> AVG_LAT_HEADER.matcher(l).lookingAt())).isTrue();
    assertThat(cloudai(stdout)).isEqualTo(expected);
  }

  @Test
  void shouldPassCloudaisSuccessCheckAndRowsWhenOsuAllreduceRunsFull() throws Exception {
    Path out = dir.resolve("full");
    assertThat(osu("osu-allreduce", "--nodes", "2", "--ppn", "2", "--mode", "host", "-m", "16:256", "-i", "2", "-x",
        "0", "-f", "-c", "--out", out.toString())).as(stderr).isZero();

    assertThat(stdout).contains(CLOUDAI_MARKER);
    assertThat(cloudai(stdout)).isEqualTo(expected(out, LATENCY_US));
    assertThat(stdout.lines().filter(l -> l.endsWith("Pass"))).hasSize(5);
  }

  @Test
  void shouldGiveOneWayLatenciesToEveryHarnessWhenOsuLatency() throws Exception {
    Path out = dir.resolve("latency");
    assertThat(osu("osu-latency", "-m", ":64", "-i", "3", "-x", "1", "--out", out.toString())).as(stderr).isZero();
    // osu_latency prints half the round trip results.json holds.
    Map<Long, String> expected = expected(out, (size, ps) -> ps / Units.PS_PER_US / 2);

    assertThat(reframe(stdout, 8)).isEqualTo(expected.get(8L));
    Map<Long, List<String>> ramble = ramble(stdout, AVG_LAT_HEADER, AVG_ROW);
    expected.forEach((size, avg) -> assertThat(ramble.get(size)).containsExactly(avg));
    assertThat(cloudai(stdout)).isEqualTo(expected);
    assertThat(rambleFigure(stdout, VERSION, "ver")).isEqualTo("v7.5");
  }

  @Test
  void shouldGiveMegabytesPerSecondToEveryHarnessWhenOsuBw() throws Exception {
    Path out = dir.resolve("bw");
    assertThat(osu("osu-bw", "-m", "1024:4096", "-i", "2", "-x", "1", "-W", "8", "--out", out.toString()))
        .as(stderr).isZero();
    // size x window / the window's time, in 10^6 bytes per second.
    Map<Long, String> expected = expected(out, (size, ps) -> size / 1e6 * 8 / (ps / Units.PS_PER_S));

    assertThat(expected).containsOnlyKeys(1024L, 2048L, 4096L);
    assertThat(reframe(stdout, 4096)).isEqualTo(expected.get(4096L));
    Map<Long, List<String>> ramble = ramble(stdout, SINGLE_BW_HEADER, AVG_ROW);
    expected.forEach((size, bw) -> assertThat(ramble.get(size)).containsExactly(bw));
    assertThat(cloudai(stdout)).isEqualTo(expected);
  }

  @Test
  void shouldPrintTheWholeBufferAsTheSizeHarnessesReadWhenOsuReduceScatter() throws Exception {
    Path out = dir.resolve("reduce-scatter");
    assertThat(osu("osu-reduce-scatter", "--nodes", "2", "--ppn", "2", "-m", "16:64", "-i", "2", "-x", "1", "--out",
        out.toString())).as(stderr).isZero();
    // 4 ranks: results.json's sizes are the per-rank blocks, OMB's the whole buffers.
    Map<Long, String> expected = expected(out, new Figure() {
      @Override
      public double of(long sizeBytes, double avgLatencyPs) {
        return avgLatencyPs / Units.PS_PER_US;
      }

      @Override
      public long size(long sizeBytes) {
        return sizeBytes * 4;
      }
    });

    assertThat(expected).containsOnlyKeys(16L, 32L, 64L);
    assertThat(cloudai(stdout)).isEqualTo(expected);
    assertThat(reframe(stdout, 32)).isEqualTo(expected.get(32L));
  }

  @Test
  void shouldWriteOsuFilesThatHarnessesReadLikeTheCommandsWhenRunHasOut() throws Exception {
    Path scenario = dir.resolve("sweep.conf");
    Files.writeString(scenario, "include \"" + PROFILE.toAbsolutePath() + "\"\nname = sweep\n"
        + "topology.hosts = 4\nworkload { algorithms = [ring, recursive-doubling], min-size = 4 B, "
        + "max-size = 64 B, iterations = 2, warmup = 1, ppn = 2 }\n");
    Path out = dir.resolve("run");

    assertThat(fabemu("run", scenario.toString(), "--out", out.toString(), "--no-progress")).as(stderr).isZero();

    JsonNode json = new ObjectMapper().readTree(out.resolve("results.json").toFile());
    for (String algorithm : List.of("ring", "recursive-doubling")) {
      String file = Files.readString(out.resolve("osu/osu_allreduce." + algorithm + ".txt"));
      Map<Long, String> expected = new LinkedHashMap<>();
      for (JsonNode c : json.get("cases")) {
        if (c.get("workloadAlgorithm").asText().equals(algorithm)) {
          double us = c.get("avgLatencyPs").asDouble() / Units.PS_PER_US;
          expected.put(c.get("sizeBytes").asLong(), twoDecimals(us));
        }
      }
      assertThat(expected).hasSize(5);
      assertThat(cloudai(file)).as(algorithm).isEqualTo(expected);
      Map<Long, List<String>> ramble = ramble(file, AVG_LAT_HEADER, AVG_ROW);
      expected.forEach((size, avg) -> assertThat(ramble.get(size)).containsExactly(avg));
      assertThat(reframe(file, 64)).isEqualTo(expected.get(64L));
      assertThat(file).contains("sweep, 4 nodes x 2 ppn, mode host, algorithm " + algorithm + "\n");
    }
  }
}
