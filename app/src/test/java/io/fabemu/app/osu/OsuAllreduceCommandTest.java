package io.fabemu.app.osu;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.entry;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabemu.app.CliTestBase;
import io.fabemu.app.CommandPipeline;
import io.fabemu.app.Fixtures;
import io.fabemu.app.ScenarioExecutor;
import io.fabemu.app.output.LatencyPlotTest;
import io.fabemu.collectives.Algorithm;
import io.fabemu.collectives.Collective;
import io.fabemu.core.data.DataType;
import io.fabemu.core.data.ReduceOp;
import io.fabemu.core.topology.LeafSpineSpec;
import io.fabemu.fabric.ScenarioSpec;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import picocli.CommandLine.TypeConversionException;

/** {@code fabemu osu-allreduce} on the fake executor: the overrides, the OSU table, the files, argument errors. */
class OsuAllreduceCommandTest extends CliTestBase {

  private final Fixtures.FakeExecutor executor = new Fixtures.FakeExecutor();

  @Override
  protected ScenarioExecutor executor() {
    return executor;
  }

  private int osu(String... extra) throws Exception {
    List<String> args = new ArrayList<>(List.of("osu-allreduce", "--profile", tinyProfile().toString()));
    args.addAll(List.of(extra));
    return fabemu(args.toArray(String[]::new));
  }

  // ------------------------------------------------------------------------------ the run

  @Test
  void shouldRunTheProfileWithTheOptionsAsWorkloadAndPrintTheOsuTable() throws Exception {
    int code = osu("--nodes", "4", "--ppn", "2", "--mode", "host", "-m", "4:16", "-i", "3", "-x", "1", "--seed", "7");

    assertThat(code).as(stderr).isZero();
    ScenarioSpec ran = executor.ranSpec;
    assertThat(ran.seed()).isEqualTo(7L);
    assertThat(ran.topology().hosts()).isEqualTo(4);
    assertThat(ran.topology())
        .isInstanceOfSatisfying(LeafSpineSpec.class, t -> assertThat(t.hostsPerTor()).isEqualTo(2));
    assertThat(ran.workload().ppn()).isEqualTo(2);
    assertThat(ran.workload().collective()).isEqualTo(Collective.ALLREDUCE);
    assertThat(ran.workload().algorithms()).containsExactly(Algorithm.AUTO);
    assertThat(ran.workload().dataType()).isEqualTo(DataType.FLOAT32);
    assertThat(ran.workload().op()).isEqualTo(ReduceOp.SUM);
    assertThat(ran.workload().sizesBytes()).containsExactly(4L, 8L, 16L);
    assertThat(ran.workload().iterations()).isEqualTo(3);
    assertThat(ran.workload().warmup()).isEqualTo(1);
    // The fake's latency is 2 us + 1 us per KiB.
    assertThat(stdout).isEqualTo(""
        + "\n"
        + "# OSU MPI Allreduce Latency Test v7.5\n"
        + "# fabemu emulation (virtual time): tiny-profile, 4 nodes x 2 ppn, mode host, algorithm auto\n"
        + "# Datatype: MPI_FLOAT.\n"
        + "# Size       Avg Latency(us)\n"
        + "4                       2.00\n"
        + "8                       2.01\n"
        + "16                      2.02\n");
    assertThat(stderr).isEmpty();
  }

  @Test
  void shouldPrintMinMaxAndIterationsWhenFullIsAsked() throws Exception {
    assertThat(osu("--nodes", "4", "--ppn", "1", "--mode", "host", "-m", "8", "-i", "5", "-f")).isZero();

    assertThat(stdout.lines().toList()).containsExactly(
        "",
        "# OSU MPI Allreduce Latency Test v7.5",
        "# fabemu emulation (virtual time): tiny-profile, 4 nodes x 1 ppn, mode host, algorithm auto",
        "# Datatype: MPI_FLOAT.",
        "# Size       Avg Latency(us)   Min Latency(us)   Max Latency(us)  Iterations",
        "4                       2.00              2.00              2.00           5",
        "8                       2.01              2.01              2.01           5");
  }

  @Test
  void shouldUseOsuDefaultsWhenSizesAndIterationsAreNotGiven() throws Exception {
    assertThat(osu("--nodes", "2", "--ppn", "1", "--mode", "host")).isZero();

    List<Long> sizes = new ArrayList<>();
    for (long s = 4; s <= 1 << 20; s *= 2) sizes.add(s);
    assertThat(executor.ranSpec.workload().sizesBytes()).isEqualTo(sizes);
    assertThat(executor.ranSpec.workload().iterations()).isEqualTo(100);
    assertThat(executor.ranSpec.workload().warmup()).isEqualTo(10);
    assertThat(stdout.lines()).hasSize(5 + sizes.size());
  }

  @Test
  void shouldSetTheInNetworkAlgorithmAndTheSocketsWhenTheModeIsInc() throws Exception {
    Path profile = tinyProfile();
    OsuAllreduceCommand command = new OsuAllreduceCommand(new CommandPipeline(null, null, executor,
        System::nanoTime));
    command.commandLine().parseArgs("--profile", profile.toString(), "--nodes", "8", "--ppn", "4",
        "--sockets", "2", "--mode", "inc-socket", "-m", "64:", "--seed", "3");

    assertThat(command.overrides(command.sizePlan())).containsExactly(
        entry("seed", 3L),
        entry("topology.hosts", 8),
        entry("devices.host.sockets-per-node", 2),
        entry("workload.collective", "allreduce"),
        entry("workload.algorithms", List.of("inc-socket")),
        entry("workload.ppn", 4),
        entry("workload.datatype", "float32"),
        entry("workload.op", "sum"),
        entry("workload.buffers", List.of("out-of-place")),
        entry("workload.min-size", 64L),
        entry("workload.max-size", 1_048_576L),
        entry("workload.iterations", 100),
        entry("workload.warmup", 10));
  }

  @Test
  void shouldWriteResultsAndThePlotWhenOutIsGiven() throws Exception {
    Path out = dir.resolve("osu");

    assertThat(osu("--nodes", "4", "--ppn", "2", "--mode", "host", "-m", "4:16", "-i", "2", "-x", "1", "--out",
        out.toString())).as(stderr).isZero();

    try (var files = Files.list(out)) {
      assertThat(files.map(p -> p.getFileName().toString())).containsExactlyInAnyOrder("results.json",
          "results.csv", "latency.svg", "latency.png", "nccl-tests", "report.html", "osu");
    }
    // The OSU file of the run is what stdout showed.
    assertThat(out.resolve("osu/osu_allreduce.auto.txt")).content().isEqualTo(stdout);
    JsonNode json = new ObjectMapper().readTree(out.resolve("results.json").toFile());
    assertThat(json.at("/scenario/topology/hosts").asInt()).isEqualTo(4);
    assertThat(json.at("/scenario/workload/ppn").asInt()).isEqualTo(2);
    assertThat(json.at("/scenario/workload/algorithms/0").asText()).isEqualTo("auto");
    assertThat(Files.readAllLines(out.resolve("results.csv"))).hasSize(4);
    assertThat(LatencyPlotTest.descriptionLines(out.resolve("latency.svg")))
        .containsExactly("Average latency (us) against message size (bytes).",
            "host (auto): 4 B 2.00 us, 8 B 2.01 us, 16 B 2.02 us");
  }

  @Test
  void shouldExitOneWithOneLineAfterTheTableWhenOutputIsWrong() throws Exception {
    executor.wrongElements = 5;
    Path out = dir.resolve("out");

    assertThat(osu("--nodes", "4", "--ppn", "2", "--mode", "host", "-m", "4:8", "--out", out.toString()))
        .isEqualTo(1);

    assertThat(stdout.lines()).hasSize(5 + 2);
    assertThat(stderr.lines()).containsExactly("fabemu: 5 output elements differ from the exact answer");
    assertThat(out.resolve("results.json")).isRegularFile();
    assertThat(out.resolve("latency.svg")).isRegularFile();
  }

  @Test
  void shouldExitOneWhenTheRunIsIncomplete() throws Exception {
    executor.complete = false;

    assertThat(osu("--nodes", "4", "--ppn", "2", "--mode", "host", "-m", "4:8")).isEqualTo(1);

    assertThat(stderr.lines()).containsExactly("fabemu: run incomplete: rank 1 never finished");
  }

  @Test
  void shouldNameThePlotAndKeepTheOtherFilesWhenThePlotCannotBeWritten() throws Exception {
    Path out = dir.resolve("out");
    Files.createDirectories(out.resolve("latency.svg"));
    Files.writeString(out.resolve("latency.svg/keep"), "x");

    assertThat(osu("--nodes", "4", "--ppn", "2", "--mode", "host", "-m", "4:8", "--out", out.toString()))
        .isEqualTo(1);

    assertThat(stderr.lines()).hasSize(1);
    assertThat(stderr).startsWith("fabemu: cannot write " + out.resolve("latency.svg") + ": ");
    assertThat(out.resolve("results.json")).isRegularFile();
    assertThat(out.resolve("results.csv")).isRegularFile();
    assertThat(out.resolve("latency.png")).isRegularFile();
  }

  // ------------------------------------------------------------------------------ argument errors

  static Stream<Arguments> badArguments() {
    return Stream.of(
        Arguments.of(List.of("--nodes", "4", "--ppn", "2", "--mode", "hots"),
            "Invalid value for option '--mode': 'hots' is not one of host, inc-node, inc-socket"),
        Arguments.of(List.of("--nodes", "4", "--ppn", "2", "--mode", "HOST"),
            "Invalid value for option '--mode': 'HOST' is not one of host, inc-node, inc-socket"),
        Arguments.of(List.of("--nodes", "0", "--ppn", "2", "--mode", "host"), "--nodes must be at least 1, not 0"),
        Arguments.of(List.of("--nodes", "4", "--ppn", "-1", "--mode", "host"), "--ppn must be at least 1, not -1"),
        Arguments.of(List.of("--nodes", "4", "--ppn", "2", "--sockets", "0", "--mode", "host"),
            "--sockets must be at least 1, not 0"),
        Arguments.of(List.of("--nodes", "4", "--ppn", "2", "--mode", "host", "-m", "abc"),
            "Invalid value for option '--message-size': 'abc' is not MAX, MIN:MAX, MIN: or :MAX in bytes "
                + "(e.g. 4:1048576)"),
        Arguments.of(List.of("--nodes", "4", "--ppn", "2", "--mode", "host", "-m", "4:8:16"),
            "Invalid value for option '--message-size': '4:8:16' is not MAX, MIN:MAX, MIN: or :MAX in bytes "
                + "(e.g. 4:1048576)"),
        Arguments.of(List.of("--nodes", "4", "--ppn", "2", "--mode", "host", "-m", "0:16"),
            "-m '0:16': MIN must be at least 1 byte (0-byte messages: osu-latency and osu-bw only)"),
        Arguments.of(List.of("--nodes", "4", "--ppn", "2", "--mode", "host", "-m", "64:16"),
            "-m '64:16': MIN 64 is above MAX 16"),
        Arguments.of(List.of("--nodes", "4", "--ppn", "2", "--mode", "host", "-m", "2"),
            "-m '2': no size from 1 to 2 bytes holds one MPI_FLOAT (4 bytes)"),
        Arguments.of(List.of("--nodes", "4", "--ppn", "2", "--mode", "host", "-m", "2097152:"),
            "-m '2097152:': MIN 2097152 is above MAX 1048576"),
        Arguments.of(List.of("--nodes", "4", "--ppn", "2", "--mode", "host", "-m", "3:3"),
            "-m '3:3': no size from 3 to 3 bytes holds one MPI_FLOAT (4 bytes)"),
        Arguments.of(List.of("--nodes", "4", "--ppn", "2", "--mode", "host", "-m", "6:100"),
            "-m '6:100': the first size, 6 bytes, is not a whole number of MPI_FLOAT elements (4 bytes each); OMB "
                + "would send 4 bytes and print 6"),
        Arguments.of(List.of("--nodes", "4", "--ppn", "2", "--mode", "host", "-T", "all"),
            "-T all: fabemu prints one table per run; run once per type (MPI_CHAR, MPI_INT, MPI_FLOAT)"),
        Arguments.of(List.of("--nodes", "4", "--ppn", "2", "--mode", "host", "-T", "MPI_DOUBLE"),
            "-T 'MPI_DOUBLE' is not one of MPI_CHAR, MPI_INT, MPI_FLOAT, ALL"),
        Arguments.of(List.of("--nodes", "4", "--ppn", "2", "--mode", "host", "-d", "cuda"),
            "-d cuda: fabemu emulates host memory only; accelerator buffers (cuda, managed, openacc, rocm, cxl) "
                + "cannot apply"),
        Arguments.of(List.of("--nodes", "4", "--ppn", "2", "--mode", "host", "-d", "rocm"),
            "-d rocm: fabemu emulates host memory only"),
        Arguments.of(List.of("--nodes", "4", "--ppn", "2", "--mode", "host", "-z150"),
            "-z '150': percentile range must be in between 0 and 100"),
        Arguments.of(List.of("--nodes", "4", "--ppn", "2", "--mode", "host", "-z50,x"),
            "-z '50,x': expected percentiles such as 50,90,99"),
        Arguments.of(List.of("--nodes", "4", "--ppn", "2", "--mode", "host", "-z1,2,3,4,5,6"),
            "-z '1,2,3,4,5,6': at most 5 percentiles, as OMB keeps"),
        Arguments.of(List.of("--nodes", "4", "--ppn", "2", "--mode", "host", "-m", "2147483648"),
            "-m '2147483648': MAX 2147483648 is above the limit of 1073741824 bytes (1 GiB)"),
        Arguments.of(List.of("--nodes", "4", "--ppn", "2", "--mode", "host", "-i", "0"),
            "-i must be at least 1, not 0"),
        Arguments.of(List.of("--nodes", "4", "--ppn", "2", "--mode", "host", "-x", "-1"),
            "-x must be at least 0, not -1"),
        Arguments.of(List.of("--nodes", "4", "--ppn", "2"), "Missing required option: '--mode=MODE'"),
        Arguments.of(List.of("--nodes", "1", "--ppn", "1", "--mode", "host"), "--nodes 1 (topology.hosts): "));
  }

  @ParameterizedTest
  @MethodSource("badArguments")
  void shouldExitTwoWithOneLineNamingTheOptionWhenAnArgumentIsBad(List<String> args, String message)
      throws Exception {
    assertThat(osu(args.toArray(String[]::new))).isEqualTo(2);

    assertThat(stderr.lines()).hasSize(1);
    assertThat(stderr).startsWith("fabemu osu-allreduce: " + message)
        .endsWith("(see 'fabemu osu-allreduce --help')\n");
    assertThat(stdout).isEmpty();
    assertThat(executor.ranSpec).isNull();
  }

  @Test
  void shouldExitTwoWhenTheProfileOptionIsMissing() {
    assertThat(fabemu("osu-allreduce", "--nodes", "4", "--ppn", "2", "--mode", "host")).isEqualTo(2);

    assertThat(stderr.lines()).containsExactly("fabemu osu-allreduce: Missing required option: '--profile=FILE' "
        + "(see 'fabemu osu-allreduce --help')");
  }

  @Test
  void shouldExitTwoNamingTheFileWhenTheProfileDoesNotExist() {
    Path missing = dir.resolve("missing.conf");

    assertThat(fabemu("osu-allreduce", "--profile", missing.toString(), "--nodes", "4", "--ppn", "2", "--mode",
        "host")).isEqualTo(2);

    assertThat(stderr.lines()).containsExactly(missing + ": no such file");
    assertThat(executor.ranSpec).isNull();
  }

  @Test
  void shouldReplaceTheProfilesSizeListWithTheCommandsSizes() throws Exception {
    Path profile = dir.resolve("sized.conf");
    Files.writeString(profile, "name = sized\nworkload.sizes = [8 B]\n");

    // The command line is the later layer: its range (-m) replaces the profile's list (docs/scenario-format.md).
    assertThat(fabemu("osu-allreduce", "--profile", profile.toString(), "--nodes", "4", "--ppn", "1", "--mode",
        "host", "-m", "4:16")).as(stderr).isZero();
    assertThat(executor.ranSpec.workload().sizesBytes()).containsExactly(4L, 8L, 16L);
  }

  @Test
  void shouldKeepTheProfileLineWhenTheProfileItselfIsWrong() throws Exception {
    Path profile = dir.resolve("sized.conf");
    Files.writeString(profile, "name = sized\nworkload { sizes = [8 B], min-size = 4 B }\n");

    assertThat(fabemu("osu-allreduce", "--profile", profile.toString(), "--nodes", "4", "--ppn", "1", "--mode",
        "host")).isEqualTo(2);

    // The profile's own line is blamed, not an option: both forms of the sizes in the profile itself.
    assertThat(stderr.lines()).hasSize(1);
    assertThat(stderr).startsWith(profile + ":2: workload.sizes: ");
  }

  @Test
  void shouldListTheOptionsWhenAskedForHelp() {
    assertThat(fabemu("osu-allreduce", "--help")).isZero();

    assertThat(stdout).contains("--profile=FILE").contains("--nodes=N").contains("--ppn=P").contains("--sockets=S")
        .contains("--mode=MODE").contains("-m, --message-size=[MIN:]MAX").contains("-i, --iterations=ITER")
        .contains("-x, --warmup=WARMUP").contains("-f, --full").contains("--out=DIR").contains("1:1048576")
        .contains("-z, --tail-lat[=P[,P...]]").contains("-c, --validation").contains("-T, --type=TYPE")
        .contains("-M, --mem-limit=SIZE").contains("-d, --accelerator=TYPE").contains("OSU Micro-Benchmarks 7.5");
  }

  // ------------------------------------------------------------------------------ -m

  @Test
  void shouldParseTheFourFormsOfMessageSizeAsOsuDoes() {
    assertThat(OsuSizes.Range.parse("256")).isEqualTo(new OsuSizes.Range("256", null, 256L));
    assertThat(OsuSizes.Range.parse("4:1048576")).isEqualTo(new OsuSizes.Range("4:1048576", 4L, 1_048_576L));
    assertThat(OsuSizes.Range.parse("64:")).isEqualTo(new OsuSizes.Range("64:", 64L, null));
    assertThat(OsuSizes.Range.parse(":64")).isEqualTo(new OsuSizes.Range(":64", null, 64L));
  }

  @Test
  void shouldRefuseMalformedMessageSizes() {
    for (String bad : List.of("", ":", "a", "4:b", "-4", "4:8:16", "4::8", " 4", "4k", "99999999999999999999")) {
      assertThatThrownBy(() -> OsuSizes.Range.parse(bad)).as(bad).isInstanceOf(TypeConversionException.class);
    }
  }

  @Test
  void shouldRunTheDoublingsUpToMaxWhenMaxIsNotAPowerOfTwo() throws Exception {
    assertThat(osu("--nodes", "2", "--ppn", "1", "--mode", "host", "-m", "4:100", "-i", "1", "-x", "0")).isZero();

    assertThat(executor.ranSpec.workload().sizesBytes()).containsExactly(4L, 8L, 16L, 32L, 64L);
  }
}
