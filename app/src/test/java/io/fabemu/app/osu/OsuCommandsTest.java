package io.fabemu.app.osu;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabemu.app.CliTestBase;
import io.fabemu.app.Fixtures;
import io.fabemu.app.ScenarioExecutor;
import io.fabemu.collectives.Algorithm;
import io.fabemu.collectives.Collective;
import io.fabemu.core.data.DataType;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The OSU commands other than osu-allreduce ({@link OsuAllreduceCommandTest}) on the fake executor: the workload
 * each sets, the table each prints, the options each takes and refuses.
 */
class OsuCommandsTest extends CliTestBase {

  private final Fixtures.FakeExecutor executor = new Fixtures.FakeExecutor();

  @Override
  protected ScenarioExecutor executor() {
    return executor;
  }

  private int osu(String command, String... extra) throws Exception {
    List<String> args = new ArrayList<>(List.of(command, "--profile", tinyProfile().toString(), "--no-progress"));
    args.addAll(List.of(extra));
    return fabemu(args.toArray(String[]::new));
  }

  // ------------------------------------------------------------------------------ the collectives

  @ParameterizedTest
  @EnumSource(value = OsuBenchmark.class, names = {"BCAST", "REDUCE", "ALLGATHER", "ALLTOALL", "GATHER", "SCATTER"})
  void shouldRunTheCollectiveOfTheProgramAndPrintItsTitle(OsuBenchmark benchmark) throws Exception {
    assertThat(osu(benchmark.commandName(), "--nodes", "4", "--ppn", "2", "-m", "4:16", "-i", "3")).as(stderr)
        .isZero();

    assertThat(executor.ranSpec.workload().collective()).isEqualTo(benchmark.collective());
    assertThat(executor.ranSpec.workload().algorithms()).containsExactly(Algorithm.AUTO);
    assertThat(executor.ranSpec.workload().sizesBytes()).containsExactly(4L, 8L, 16L);
    assertThat(executor.ranSpec.workload().iterations()).isEqualTo(3);
    assertThat(stdout.lines().toList()).containsExactly("", benchmark.title(),
        "# fabemu emulation (virtual time): tiny-profile, 4 nodes x 2 ppn, mode host, algorithm auto",
        "# Datatype: MPI_FLOAT.",
        "# Size       Avg Latency(us)",
        "4                       2.00",
        "8                       2.01",
        "16                      2.02");
    assertThat(stderr).isEmpty();
  }

  @Test
  void shouldRunTheAlgorithmAskedForAndRefuseOnesTheCollectiveLacks() throws Exception {
    assertThat(osu("osu-allgather", "--nodes", "4", "--ppn", "1", "-m", "8", "--algorithm", "ring")).isZero();
    assertThat(executor.ranSpec.workload().algorithms()).containsExactly(Algorithm.RING);
    assertThat(stdout).contains("algorithm ring\n");

    executor.ranSpec = null;
    assertThat(osu("osu-bcast", "--nodes", "4", "--ppn", "1", "--algorithm", "ring")).isEqualTo(2);
    assertThat(stderr.lines().toList()).containsExactly("fabemu osu-bcast: --algorithm 'ring' is not an algorithm "
        + "of broadcast (use auto, binomial, linear) (see 'fabemu osu-bcast --help')");
    assertThat(executor.ranSpec).isNull();
  }

  @Test
  void shouldPrintTheWholeBufferAndNoteTheSkippedSizesWhenReduceScatter() throws Exception {
    // 4 x 2 = 8 ranks: a float each is 32 B; 4, 8 and 16 B are skipped.
    assertThat(osu("osu-reduce-scatter", "--nodes", "4", "--ppn", "2", "-m", ":128", "-i", "1")).isZero();

    assertThat(executor.ranSpec.workload().sizesBytes()).containsExactly(4L, 8L, 16L);
    assertThat(stdout.lines().toList().subList(4, 8)).containsExactly(
        "# Size       Avg Latency(us)",
        "32                      2.00",
        "64                      2.01",
        "128                     2.02");
    assertThat(stderr.lines().toList()).containsExactly("fabemu: osu-reduce-scatter skips 4, 8, 16 bytes: their "
        + "MPI_FLOAT elements do not divide evenly among 8 ranks (fabemu's reduce-scatter gives every rank the same "
        + "count)");
  }

  @Test
  void shouldWarnAsOmbAndCapTheLargestBlockWhenTheMemoryLimitIsReached() throws Exception {
    assertThat(osu("osu-alltoall", "--nodes", "4", "--ppn", "2", "-m", "1024:", "-M", "1048576")).isZero();

    // 1 MiB / 8 ranks = 128 KiB per block.
    assertThat(executor.ranSpec.workload().sizesBytes()).last().isEqualTo(131_072L);
    assertThat(stderr.lines().toList()).containsExactly("Warning! Limiting max message size to: 131072. Increase "
        + "-M, --mem-limit for higher message sizes.");
  }

  @Test
  void shouldRunIntegersWhenTypeIsMpiInt() throws Exception {
    assertThat(osu("osu-reduce", "--nodes", "2", "--ppn", "1", "-m", "4", "-T", "mpi_int")).isZero();

    assertThat(executor.ranSpec.workload().dataType()).isEqualTo(DataType.INT32);
    assertThat(stdout).contains("# Datatype: MPI_INT.\n");
  }

  @Test
  void shouldWriteTheOsuFileExactlyAsStdoutWhenEveryColumnIsAsked() throws Exception {
    Path out = dir.resolve("out");

    assertThat(osu("osu-bcast", "--nodes", "4", "--ppn", "2", "-m", "4:8", "-i", "4", "-f", "-c", "-z",
        "--out", out.toString())).as(stderr).isZero();

    // The fake's iterations are the mean -15, -5, +5, +15 ns: P50 = index 1, P90 and P99 = index 2.
    assertThat(stdout.lines().toList().subList(4, 7)).containsExactly(
        "# Size       Avg Latency(us)   Min Latency(us)   Max Latency(us)  Iterations        Validation"
            + "  P50 Tail Lat(us)  P90 Tail Lat(us)  P99 Tail Lat(us)",
        "4                       2.00              2.00              2.00           4              Pass"
            + "              2.00              2.01              2.01",
        "8                       2.01              2.01              2.01           4              Pass"
            + "              2.00              2.01              2.01");
    assertThat(out.resolve("osu/osu_bcast.auto.txt")).content().isEqualTo(stdout);
  }

  @Test
  void shouldWriteOneOsuFilePerAlgorithmEachAsTheMatchingCommandPrintsItWhenRunHasOut() throws Exception {
    Path scenario = dir.resolve("tiny-profile.conf");
    Files.writeString(scenario, Fixtures.TINY_PROFILE + "topology.hosts = 4\nworkload { collective = allgather, "
        + "algorithms = [ring, recursive-doubling], min-size = 4 B, max-size = 16 B, iterations = 3, warmup = 1, "
        + "ppn = 2 }\n");
    Path out = dir.resolve("out");

    assertThat(fabemu("run", scenario.toString(), "--out", out.toString(), "--no-progress")).as(stderr).isZero();
    String ring = Files.readString(out.resolve("osu/osu_allgather.ring.txt"));
    assertThat(out.resolve("osu/osu_allgather.recursive-doubling.txt")).exists();
    try (var files = Files.list(out.resolve("osu"))) {
      assertThat(files).hasSize(2);
    }

    assertThat(fabemu("osu-allgather", "--profile", scenario.toString(), "--nodes", "4", "--ppn", "2",
        "--algorithm", "ring", "-m", "4:16", "-i", "3", "-x", "1", "--no-progress")).isZero();
    assertThat(ring).isEqualTo(stdout).contains("tiny-profile, 4 nodes x 2 ppn, mode host, algorithm ring\n");
  }

  @Test
  void shouldWriteTheOsuLatencyAndOsuBwFilesWhenThePointToPointExampleRunsWithOut() throws Exception {
    Path out = dir.resolve("pt2pt");

    assertThat(fabemu("run", "../examples/pt2pt.conf", "--out", out.toString(), "--no-progress")).as(stderr)
        .isZero();

    assertThat(executor.ranSpec.workload().algorithms()).containsExactly(Algorithm.PING_PONG, Algorithm.WINDOW);
    assertThat(Files.readString(out.resolve("osu/osu_latency.ping-pong.txt")))
        .startsWith("\n# OSU MPI Latency Test v7.5\n# fabemu emulation (virtual time): pt2pt, 2 nodes x 1 ppn, mode "
            + "host, algorithm ping-pong\n").contains("\n1048576 ");
    assertThat(Files.readString(out.resolve("osu/osu_bw.window.txt")))
        .startsWith("\n# OSU MPI Bandwidth Test v7.5\n# fabemu emulation (virtual time): pt2pt, 2 nodes x 1 ppn, mode "
            + "host, algorithm window, window 64\n").contains("# Size      Bandwidth (MB/s)\n4 ");
  }

  @Test
  void shouldRefuseValidationWhenTheProfileIsSynthetic() throws Exception {
    Path profile = dir.resolve("synthetic.conf");
    Files.writeString(profile, Fixtures.TINY_PROFILE + "workload.payload = synthetic\n");

    assertThat(fabemu("osu-allreduce", "--profile", profile.toString(), "--nodes", "2", "--ppn", "1", "--mode",
        "host", "-c")).isEqualTo(2);

    assertThat(stderr.lines().toList()).containsExactly("fabemu osu-allreduce: -c: the profile's payload is "
        + "synthetic (sizes only), so no output is checked to validate (see 'fabemu osu-allreduce --help')");
    assertThat(executor.ranSpec).isNull();
  }

  // ------------------------------------------------------------------------------ osu-barrier

  @Test
  void shouldPrintTheLatencyAloneWhenBarrier() throws Exception {
    assertThat(osu("osu-barrier", "--nodes", "4", "--ppn", "2", "-i", "2", "-m", "64")).isZero();

    assertThat(executor.ranSpec.workload().collective()).isEqualTo(Collective.BARRIER);
    assertThat(executor.ranSpec.workload().sizesBytes()).containsExactly(0L);
    assertThat(stdout.lines().toList()).containsExactly("", "# OSU MPI Barrier Latency Test v7.5",
        "# fabemu emulation (virtual time): tiny-profile, 4 nodes x 2 ppn, mode host, algorithm auto",
        "# Avg Latency(us)",
        "             2.00");
  }

  // ------------------------------------------------------------------------------ osu-latency, osu-bw

  @Test
  void shouldPingPongBetweenTwoNodesAndPrintHalfTheRoundTripWhenLatency() throws Exception {
    assertThat(osu("osu-latency", "-m", ":8", "H", "H")).as(stderr).isZero();

    var w = executor.ranSpec.workload();
    assertThat(executor.ranSpec.topology().hosts()).isEqualTo(2);
    assertThat(w.ppn()).isEqualTo(1);
    assertThat(w.collective()).isEqualTo(Collective.SENDRECV);
    assertThat(w.algorithms()).containsExactly(Algorithm.PING_PONG);
    assertThat(w.iterations()).isEqualTo(1000);
    assertThat(w.warmup()).isEqualTo(10);
    // OMB's default MIN for osu_latency is 0: a message without payload, then 4 B (1 and 2 B hold no float).
    assertThat(w.sizesBytes()).containsExactly(0L, 4L, 8L);
    assertThat(stdout.lines().toList()).containsExactly("", "# OSU MPI Latency Test v7.5",
        "# fabemu emulation (virtual time): tiny-profile, 2 nodes x 1 ppn, mode host, algorithm ping-pong",
        "# Datatype: MPI_FLOAT.",
        "# Size       Avg Latency(us)",
        "0                       1.00",
        "4                       1.00",
        "8                       1.00");
  }

  @Test
  void shouldStartAtZeroBytesWithoutMAsOmbsOsuLatencyAndOsuBwDo() throws Exception {
    assertThat(osu("osu-latency")).as(stderr).isZero();
    assertThat(executor.ranSpec.workload().sizesBytes()).startsWith(0L, 4L, 8L).endsWith(4L << 20);
    assertThat(stdout.lines().filter(l -> !l.isEmpty() && !l.startsWith("#")).findFirst()).contains(
        "0                       1.00");
    assertThat(osu("osu-bw")).as(stderr).isZero();
    assertThat(executor.ranSpec.workload().sizesBytes()).startsWith(0L, 4L);
    assertThat(osu("osu-allreduce", "--nodes", "2", "--ppn", "1", "--mode", "host")).as(stderr).isZero();
    assertThat(executor.ranSpec.workload().sizesBytes()).startsWith(4L, 8L);
  }

  @Test
  void shouldStreamTheWindowAndPrintMegabytesPerSecondWhenBw() throws Exception {
    assertThat(osu("osu-bw", "-m", "4096:4096", "-W", "16")).as(stderr).isZero();

    var w = executor.ranSpec.workload();
    assertThat(w.algorithms()).containsExactly(Algorithm.WINDOW);
    assertThat(w.window()).isEqualTo(16);
    assertThat(w.iterations()).isEqualTo(20);
    assertThat(w.warmup()).isEqualTo(2);
    // The fake's window takes 6 us: 4096 B x 16 / 6 us = 10922.67 MB/s.
    assertThat(stdout.lines().toList()).containsExactly("", "# OSU MPI Bandwidth Test v7.5",
        "# fabemu emulation (virtual time): tiny-profile, 2 nodes x 1 ppn, mode host, algorithm window, window 16",
        "# Datatype: MPI_FLOAT.",
        "# Size      Bandwidth (MB/s)",
        "4096                10922.67");
  }

  static Stream<Arguments> badArguments() {
    return Stream.of(
        Arguments.of("osu-latency", List.of("--nodes", "2", "--ppn", "2"),
            "osu_latency requires exactly two processes, not --nodes 2 x --ppn 2 = 4"),
        Arguments.of("osu-bw", List.of("--nodes", "1"),
            "osu_bw requires exactly two processes, not --nodes 1 x --ppn 1 = 1"),
        Arguments.of("osu-latency", List.of("D", "D"), "buffer location 'D': fabemu emulates host memory only (H); "
            + "device (D) and managed (M, MD, MH) buffers cannot apply"),
        Arguments.of("osu-bw", List.of("H", "MD"), "buffer location 'MD': fabemu emulates host memory only (H)"),
        Arguments.of("osu-latency", List.of("H"), "buffer locations: give both SRC and DST (H H) or neither"),
        Arguments.of("osu-latency", List.of("-d", "cuda"), "-d cuda: fabemu emulates host memory only"),
        Arguments.of("osu-bw", List.of("-W", "0"), "-W must be 1 to 65536, not 0"),
        Arguments.of("osu-latency", List.of("-f"), "Unknown option: '-f'"),
        Arguments.of("osu-barrier", List.of("--nodes", "2", "--ppn", "1", "-c"), "Unknown option: '-c'"),
        Arguments.of("osu-barrier", List.of("--nodes", "2", "--ppn", "1", "-T", "MPI_INT"),
            "Unknown options: '-T', 'MPI_INT'"),
        Arguments.of("osu-gather", List.of("--nodes", "2"), "Missing required option: '--ppn=P'"));
  }

  @ParameterizedTest
  @MethodSource("badArguments")
  void shouldExitTwoWithOneLineWhenAnArgumentIsBad(String command, List<String> args, String message)
      throws Exception {
    assertThat(osu(command, args.toArray(String[]::new))).isEqualTo(2);

    assertThat(stderr.lines()).hasSize(1);
    assertThat(stderr).startsWith("fabemu " + command + ": " + message)
        .endsWith("(see 'fabemu " + command + " --help')\n");
    assertThat(stdout).isEmpty();
    assertThat(executor.ranSpec).isNull();
  }

  @Test
  void shouldListOnlyTheOptionsOfTheOmbProgramWhenAskedForHelp() {
    // picocli wraps the help at 80 columns: the checks read it with every run of white space as one space.
    assertThat(fabemu("osu-latency", "--help")).isZero();
    assertThat(stdout.replaceAll("\\s+", " ")).startsWith("Usage: fabemu osu-latency ").contains("-c, --validation")
        .contains("-z, --tail-lat").contains("-T, --type").contains("SRC DST").contains("(default 1000)")
        .doesNotContain("--full").doesNotContain("--window-size").doesNotContain("--mem-limit");

    assertThat(fabemu("osu-bw", "--help")).isZero();
    assertThat(stdout.replaceAll("\\s+", " ")).contains("-W, --window-size=SIZE").contains("(default 64)")
        .contains("(default 20)").contains("(default 0:4194304)");

    assertThat(fabemu("osu-barrier", "--help")).isZero();
    assertThat(stdout).contains("-f, --full").doesNotContain("--validation").doesNotContain("--type");

    assertThat(fabemu("osu-reduce-scatter", "--help")).isZero();
    assertThat(stdout.replaceAll("\\s+", " ")).startsWith("Usage: fabemu osu-reduce-scatter ")
        .contains("Run osu_reduce_scatter (OSU Micro-Benchmarks 7.5)").contains("(the whole buffer)")
        .contains("Algorithms: auto, ring, recursive-halving, multi-ring, single-ring, bidirectional-ring.")
        .contains("(default 1:1048576)")
        .contains("(default 100)");
  }

  @Test
  void shouldListEveryOsuCommandInTheMainHelp() {
    assertThat(fabemu("--help")).isZero();

    for (OsuBenchmark b : OsuBenchmark.values()) {
      assertThat(stdout).contains("  " + b.commandName() + " ");
    }
  }
}
