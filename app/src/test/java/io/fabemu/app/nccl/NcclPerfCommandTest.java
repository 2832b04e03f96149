package io.fabemu.app.nccl;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabemu.app.CliTestBase;
import io.fabemu.app.Fixtures;
import io.fabemu.app.ScenarioExecutor;
import io.fabemu.collectives.Algorithm;
import io.fabemu.collectives.BufferLayout;
import io.fabemu.collectives.Collective;
import io.fabemu.core.data.DataType;
import io.fabemu.core.data.ReduceOp;
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

/**
 * The nccl-tests commands on the fake executor: flags to scenario, the output's layout, the JSON file, exit codes and
 * the one-line refusals.
 */
class NcclPerfCommandTest extends CliTestBase {

  private final Fixtures.FakeExecutor executor = new Fixtures.FakeExecutor();

  @Override
  protected ScenarioExecutor executor() {
    return executor;
  }

  private int perf(String command, String... extra) throws Exception {
    List<String> args = new ArrayList<>(List.of(command, "--profile", tinyProfile().toString(), "--no-progress"));
    args.addAll(List.of(extra));
    return fabemu(args.toArray(String[]::new));
  }

  // ------------------------------------------------------------------------------ flags to scenario

  @Test
  void shouldRunTheProfileWithTheFlagsAsWorkloadInBothLayouts() throws Exception {
    int code = perf("all-reduce-perf", "--nodes", "4", "--ppn", "2", "-b", "8", "-e", "1K", "-f", "4", "-n", "3",
        "-w", "2", "-d", "double", "-o", "max", "--seed", "9");

    assertThat(code).as(stderr).isZero();
    ScenarioSpec ran = executor.ranSpec;
    assertThat(ran.seed()).isEqualTo(9);
    assertThat(ran.topology().hosts()).isEqualTo(4);
    assertThat(ran.workload().collective()).isEqualTo(Collective.ALLREDUCE);
    assertThat(ran.workload().algorithms()).containsExactly(Algorithm.AUTO);
    assertThat(ran.workload().buffers()).containsExactly(BufferLayout.OUT_OF_PLACE, BufferLayout.IN_PLACE);
    assertThat(ran.workload().ppn()).isEqualTo(2);
    assertThat(ran.workload().dataType()).isEqualTo(DataType.FLOAT64);
    assertThat(ran.workload().op()).isEqualTo(ReduceOp.MAX);
    // -b 8 -e 1K -f 4: 8, 32, 128, 512 B; one double is 8 B.
    assertThat(ran.workload().sizesBytes()).containsExactly(8L, 32L, 128L, 512L);
    assertThat(ran.workload().iterations()).isEqualTo(3);
    assertThat(ran.workload().warmup()).isEqualTo(2);
    assertThat(ran.workload().syntheticPayload()).isFalse();
    assertThat(stderr).isEmpty();
  }

  @Test
  void shouldPrintExactlyNcclTestsOutputWhenTheRunSucceeds() throws Exception {
    assertThat(perf("all-reduce-perf", "--nodes", "2", "--ppn", "1", "-b", "1K", "-e", "2K", "-f", "2", "-n", "2"))
        .as(stderr).isZero();

    String tiny = dir.resolve("tiny-profile.conf").toString();
    assertThat(stdout).isEqualTo("# nccl-tests version 2.17.9 nccl-headers=0 nccl-library=0\n"
        + "# Collective test starting: all_reduce_perf\n"
        + "# fabemu emulation: tiny-profile (" + tiny + "), 2 hosts x 1 ranks, allreduce algorithm auto, payload "
        + "real; leaf-spine: 2 hosts, 1 TOR (2 hosts), 1 spine; no GPU and no NCCL ran, times are virtual\n"
        + "# nThread 1 nGpus 1 minBytes 1024 maxBytes 2048 step: 2(factor) warmup iters: 1 iters: 2 agg iters: 1 "
        + "validation: 1 graph: 0\n"
        + "# Blocking Enabled: wait for completion and barrier after each collective \n"
        + "#\n"
        + "# Using devices\n"
        + "#  Rank  0 Group  0 Pid      0 on      host0 device  0 [0000:00:00] fabemu emulated endpoint\n"
        + "#  Rank  1 Group  0 Pid      1 on      host1 device  0 [0000:00:00] fabemu emulated endpoint\n"
        + Fixtures.NCCL_COLUMN_HEADER
        // The fake: 2 us + 1 us per KiB, 1 us less in place.
        + "        1024           256     float     sum      -1     3.00    0.34    0.34       0     2.00    0.51"
        + "    0.51       0\n"
        + "        2048           512     float     sum      -1     4.00    0.51    0.51       0     3.00    0.68"
        + "    0.68       0\n"
        + "# Out of bounds values : 0 OK\n"
        + "# Avg bus bandwidth    : 0.512 \n"
        + "#\n"
        + "# Collective test concluded: all_reduce_perf\n"
        + "#\n"
        + "\n");
  }

  @Test
  void shouldMultiplyRanksPerNodeByThreadsAndGpusAndNumberProcessesByThem() throws Exception {
    assertThat(perf("broadcast-perf", "--nodes", "2", "--ppn", "2", "-t", "2", "-g", "3", "-b", "64", "-e", "64",
        "-r", "5")).as(stderr).isZero();

    assertThat(executor.ranSpec.workload().ppn()).isEqualTo(12);
    assertThat(executor.ranSpec.workload().root()).isEqualTo(5);
    assertThat(stdout).contains("# nThread 2 nGpus 3 minBytes 64 maxBytes 64 step: 1048576(bytes) ")
        .contains("#  Rank  5 Group  0 Pid      0 on      host0 device  5 [0000:05:00] fabemu emulated endpoint\n")
        .contains("#  Rank  6 Group  0 Pid      1 on      host0 device  6 [0000:06:00] fabemu emulated endpoint\n")
        .contains("#  Rank 23 Group  0 Pid      3 on      host1 device 11 [0000:0b:00] fabemu emulated endpoint\n")
        .contains("          64            16     float    none       5 ");
    assertThat(stdout.lines().filter(l -> l.startsWith("#  Rank "))).hasSize(24);
  }

  @Test
  void shouldTurnNcclTestsSizesIntoPerRankBlocksAndSkipThoseWithoutAnElement() throws Exception {
    // 2 nodes x 2 ranks: all_gather_perf moves whole multiples of 4 floats per rank, 64 B in all at least.
    assertThat(perf("all-gather-perf", "--nodes", "2", "--ppn", "2", "-b", "8", "-e", "256", "-f", "2"))
        .as(stderr).isZero();

    assertThat(executor.ranSpec.workload().sizesBytes()).containsExactly(16L, 32L, 64L);
    assertThat(stdout).contains("# fabemu: skipped 3 sizes (8 B to 32 B): less than one element per rank on 4 "
        + "ranks after nccl-tests' rounding (64 B at least)\n");
    assertThat(stdout).contains("\n          64             4     float    none      -1 ")
        .contains("\n         256            16     float    none      -1 ");
  }

  @Test
  void shouldRunSizesOnlyAndPrintNotApplicableWhenCheckIsZero() throws Exception {
    assertThat(perf("reduce-scatter-perf", "--nodes", "2", "--ppn", "2", "-b", "1K", "-e", "1K", "-c", "0"))
        .as(stderr).isZero();

    assertThat(executor.ranSpec.workload().syntheticPayload()).isTrue();
    assertThat(stdout).contains("validation: 0 graph: 0\n").contains("payload synthetic (outputs not checked)")
        .contains("    N/A     ").contains("    N/A\n# Out of bounds values : 0 OK\n");
  }

  @Test
  void shouldRunTheRingSendrecvByDefaultAndTheAlgorithmAskedOtherwise() throws Exception {
    assertThat(perf("sendrecv-perf", "--nodes", "2", "--ppn", "1", "-b", "8", "-e", "8")).as(stderr).isZero();
    assertThat(executor.ranSpec.workload().algorithms()).containsExactly(Algorithm.RING);
    assertThat(stdout).contains("           8             2     float     sum      -1 ");

    assertThat(perf("alltoall-perf", "--nodes", "2", "--ppn", "2", "-b", "64", "-e", "64", "--algorithm",
        "pairwise")).as(stderr).isZero();
    assertThat(executor.ranSpec.workload().algorithms()).containsExactly(Algorithm.PAIRWISE);
  }

  @Test
  void shouldTakeTheLastValueWhenAFlagIsRepeatedAsGetoptDoes() throws Exception {
    assertThat(perf("all-reduce-perf", "--nodes", "2", "--ppn", "1", "-b", "4", "-b", "16", "-e", "16"))
        .as(stderr).isZero();

    assertThat(executor.ranSpec.workload().sizesBytes()).containsExactly(16L);
  }

  @Test
  void shouldReportTheTimeOverRanksAsked() throws Exception {
    assertThat(perf("all-reduce-perf", "--nodes", "2", "--ppn", "1", "-b", "1K", "-e", "1K", "-a", "3"))
        .as(stderr).isZero();
    assertThat(stdout).contains("        1024           256     float     sum      -1     3.00 ");
  }

  // ------------------------------------------------------------------------------ files and exit codes

  @Test
  void shouldWriteNcclTestsJsonAndTakeTheNextFreeNameWhenTheFileExists() throws Exception {
    Path json = dir.resolve("result.json");
    Files.writeString(json, "kept");

    assertThat(perf("all-reduce-perf", "--nodes", "2", "--ppn", "1", "-b", "1K", "-e", "2K", "-f", "2", "-J",
        json.toString())).as(stderr).isZero();

    assertThat(Files.readString(json)).isEqualTo("kept");
    Path written = dir.resolve("result.json.0");
    assertThat(stdout).startsWith("# Writing JSON output to " + written + "\n# nccl-tests version ");
    JsonNode root = new ObjectMapper().readTree(written.toFile());
    assertThat(root.get("args")).extracting(JsonNode::asText).startsWith("fabemu", "all-reduce-perf", "--profile")
        .contains("-J", json.toString());
    assertThat(root.at("/config/minimum_bytes").asLong()).isEqualTo(1024);
    assertThat(root.at("/config/step_factor").asLong()).isEqualTo(2);
    assertThat(root.get("results")).hasSize(2);
    assertThat(root.at("/results/0/out_of_place/time").asDouble()).isEqualTo(3.0);
    assertThat(root.at("/results/0/in_place/time").asDouble()).isEqualTo(2.0);
    assertThat(root.at("/average_bus_bandwidth/bandwidth").asDouble()).isEqualTo(0.512);
    assertThat(root.get("start_time").asText()).matches("\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d");
  }

  @Test
  void shouldWriteTheRunFilesAndOneNcclTestsFileWhenOutIsGiven() throws Exception {
    Path out = dir.resolve("out");

    assertThat(perf("all-gather-perf", "--nodes", "2", "--ppn", "1", "-b", "1K", "-e", "1K", "--out",
        out.toString())).as(stderr).isZero();

    assertThat(out.resolve("results.json")).exists();
    assertThat(Files.readString(out.resolve("nccl-tests/all_gather_perf.auto.txt")))
        .startsWith("# nccl-tests version ").contains("\n        1024           128     float    none      -1 ");
  }

  @Test
  void shouldExitOneAndFailTheOutOfBoundsLineWhenOutputIsWrong() throws Exception {
    executor.wrongElements = 3;

    assertThat(perf("all-reduce-perf", "--nodes", "2", "--ppn", "1", "-b", "1K", "-e", "1K")).isEqualTo(1);

    assertThat(stdout).contains("       3     2.00 ").contains("# Out of bounds values : 1 FAILED\n");
    assertThat(stderr.lines()).containsExactly("fabemu: 3 output elements differ from the exact answer");
  }

  @Test
  void shouldHoldTheInPlaceBusBandwidthAgainstAReferenceAfterTheFooterAndChartItInTheReport() throws Exception {
    // The fake runs 1 KiB in place in 2 us and 2 KiB in 3 us: on 2 ranks busbw 0.512 and 0.682667 GB/s.
    Path curve = dir.resolve("published.csv");
    Files.writeString(curve, "# Source: a made-up table\nsize_bytes,busbw_GBps\n1024,0.64\n2048,0.68\n"
        + "4096,1\n");
    Path out = dir.resolve("out");

    assertThat(perf("all-reduce-perf", "--nodes", "2", "--ppn", "1", "-b", "1K", "-e", "2K", "-f", "2",
        "--reference", curve.toString(), "--out", out.toString())).as(stderr).isZero();

    assertThat(stdout).contains("# Avg bus bandwidth    : ")
        .contains("# fabemu: busbw against --reference published.csv (in-place half): Source: a made-up table\n"
            + "#     size (B)    emulated   published     error\n"
            + "#         1024       0.512        0.64    -20.0%\n"
            + "#         2048    0.682667        0.68     +0.4%\n"
            + "# fabemu: MAPE 10.2 % over 2 sizes (below 1 MiB 10.2 % over 2 sizes)\n"
            + "# fabemu: not compared: 1 published sizes not run, 0 sizes run but not published\n"
            + "#\n# Collective test concluded: all_reduce_perf\n");
    assertThat(Files.readString(out.resolve("report.html"))).contains("id=\"reference\"")
        .contains("published: published.csv").contains("10.2 % over 2 sizes");
  }

  @Test
  void shouldRefuseABadReferenceOnOneLineBeforeRunning() throws Exception {
    Path curve = dir.resolve("bad.csv");
    Files.writeString(curve, "size_bytes,busbw_GBps\n1024,fast\n");

    assertThat(perf("all-reduce-perf", "--nodes", "2", "--ppn", "1", "-b", "1K", "-e", "1K", "--reference",
        curve.toString())).isEqualTo(2);

    assertThat(stderr.lines()).containsExactly("fabemu: --reference " + curve + ":2: busbw_GBps 'fast' is not a "
        + "number");
    assertThat(stdout).isEmpty();
    assertThat(executor.ranSpec).isNull();
  }

  @Test
  void shouldTakeNodesAsServersAndSpreadTheRanksPerNodeOverTheGpusOnAProfileOfGpuServers() throws Exception {
    Path gpus = dir.resolve("gpus.conf");
    Files.writeString(gpus, "name = gpus\ntopology { kind = rail-leaf-spine, nics-per-server = 2, spines = 1,\n"
        + "  server-switch.enabled = true }\n");

    assertThat(fabemu("all-reduce-perf", "--profile", gpus.toString(), "--no-progress", "--nodes", "3", "--ppn", "4",
        "-b", "1K", "-e", "1K")).as(stderr).isZero();

    ScenarioSpec ran = executor.ranSpec;
    assertThat(ran.topology().hosts()).isEqualTo(6);
    assertThat(ran.topology().hostsPerServer()).isEqualTo(2);
    assertThat(ran.workload().ppn()).isEqualTo(2);
    // nccl-tests' host is the server, its device the rank's place in it.
    assertThat(stdout).contains("#  Rank  5 Group  0 Pid      5 on    server1 device  1 [0000:01:00]")
        .contains("#  Rank 11 Group  0 Pid     11 on    server2 device  3 [0000:03:00]");
  }

  @Test
  void shouldRefuseRanksPerNodeThatTheGpusOfAServerCannotShare() throws Exception {
    Path gpus = dir.resolve("gpus.conf");
    Files.writeString(gpus, "name = gpus\ntopology { kind = rail-leaf-spine, nics-per-server = 2, spines = 1 }\n");

    assertThat(fabemu("all-reduce-perf", "--profile", gpus.toString(), "--no-progress", "--nodes", "2", "--ppn", "3",
        "-b", "1K", "-e", "1K")).isEqualTo(2);

    assertThat(stderr).startsWith("fabemu all-reduce-perf: --ppn 3 -t 1 -g 1: 3 ranks per node on the profile's "
        + "servers of 2 hosts (GPUs): give a multiple of 2");
    assertThat(executor.ranSpec).isNull();
  }

  // ------------------------------------------------------------------------------ refusals

  static Stream<Arguments> badArguments() {
    return Stream.of(
        Arguments.of(List.of("-d", "half"), "-d half: fabemu does not emulate this datatype (fabemu runs float, "
            + "double, int32, int64)"),
        Arguments.of(List.of("-d", "all"), "-d all: fabemu prints one table per run; run once per datatype"),
        Arguments.of(List.of("-d", "float32"), "-d float32: not an nccl-tests datatype"),
        Arguments.of(List.of("-o", "avg"), "-o avg: fabemu has no such reduction (fabemu runs sum, prod, max, min)"),
        Arguments.of(List.of("-o", "all"), "-o all: fabemu prints one table per run; run once per op"),
        Arguments.of(List.of("-b", "8B"), "-b 8B: invalid size specified for 'minbytes'"),
        Arguments.of(List.of("-b", "2K", "-e", "1K"), "invalid sizes for 'minbytes' and 'maxbytes': 2048 > 1024"),
        Arguments.of(List.of("-b", "8", "-e", "16", "-i", "0"), "-i 0 with -f 1 never grows the size from 8 to 16"),
        Arguments.of(List.of("-b", "1", "-e", "1G", "-i", "1"), "-b 1 -e 1G -i 1 gives more than 1000 sizes"),
        Arguments.of(List.of("-e", "4G", "-f", "2", "-b", "1G"), "-b 1G -e 4G -f 2 (workload.sizes[1]): "),
        Arguments.of(List.of("-n", "0"), "-n must be at least 1, not 0"),
        Arguments.of(List.of("-w", "-1"), "-w must be at least 0, not -1"),
        Arguments.of(List.of("-t", "0"), "-t must be at least 1, not 0"),
        Arguments.of(List.of("-a", "4"), "-a 4: 0 (rank 0), 1 (mean), 2 (min) or 3 (max)"),
        Arguments.of(List.of("-m", "2"), "-m 2: fabemu times each collective alone (-m 1)"),
        Arguments.of(List.of("-z", "0"), "-z 0: fabemu always waits for each collective and runs a barrier after it"),
        Arguments.of(List.of("-G", "1"), "-G 1: nothing runs on a GPU, so no CUDA graph (-G 0)"),
        Arguments.of(List.of("--algorithm", "pairwise"), "--algorithm pairwise: not an algorithm of allreduce (use "
            + "auto, ring, recursive-doubling, rabenseifner, binomial, tree, dimension-ring, inc-node, inc-socket, "
            + "multi-ring, single-ring, bidirectional-ring, line, line-both-ends)"),
        Arguments.of(List.of("-J", "out.txt"), "-J out.txt: nccl-tests writes JSON only, to a FILE ending in .json"),
        Arguments.of(List.of("-x", "1"), "Unknown options: '-x', '1'"),
        Arguments.of(List.of("--set", "workload.iterations=0", "-n", "0"), "-n must be at least 1, not 0"),
        Arguments.of(List.of("--nodes", "1"), "--nodes 1 (topology.hosts): the world has 1 rank"));
  }

  @ParameterizedTest
  @MethodSource("badArguments")
  void shouldExitTwoWithOneLineNamingTheFlagWhenAnArgumentIsBad(List<String> args, String message)
      throws Exception {
    List<String> all = new ArrayList<>(List.of("--nodes", "2", "--ppn", "1", "-b", "8", "-e", "8"));
    all.addAll(args);

    assertThat(perf("all-reduce-perf", all.toArray(String[]::new))).isEqualTo(2);

    assertThat(stderr.lines()).hasSize(1);
    assertThat(stderr).startsWith("fabemu all-reduce-perf: " + message)
        .endsWith("(see 'fabemu all-reduce-perf --help')\n");
    assertThat(stdout).isEmpty();
    assertThat(executor.ranSpec).isNull();
  }

  @Test
  void shouldRefuseARootOutsideTheWorldOfEveryProgram() throws Exception {
    assertThat(perf("reduce-perf", "--nodes", "2", "--ppn", "2", "-b", "8", "-e", "8", "-r", "4")).isEqualTo(2);

    assertThat(stderr.lines()).containsExactly("fabemu reduce-perf: -r 4: not a rank (ranks are 0..3) (see 'fabemu "
        + "reduce-perf --help')");

    // A collective without a root still refuses one outside the world, as the docs say.
    assertThat(perf("all-reduce-perf", "--nodes", "2", "--ppn", "2", "-b", "8", "-e", "8", "-r", "100")).isEqualTo(2);
    assertThat(stderr.lines()).containsExactly("fabemu all-reduce-perf: -r 100: not a rank (ranks are 0..3) (see "
        + "'fabemu all-reduce-perf --help')");
    assertThat(executor.ranSpec).isNull();
  }

  @Test
  void shouldCheckEveryIterationForAnyCheckCountAndNothingForZero() throws Exception {
    assertThat(perf("all-reduce-perf", "--nodes", "2", "--ppn", "1", "-b", "8", "-e", "8", "-c", "5")).as(stderr)
        .isZero();
    assertThat(executor.ranSpec.workload().syntheticPayload()).isFalse();
    assertThat(perf("all-reduce-perf", "--nodes", "2", "--ppn", "1", "-b", "8", "-e", "8", "-c", "0")).as(stderr)
        .isZero();
    assertThat(executor.ranSpec.workload().syntheticPayload()).isTrue();
  }

  @Test
  void shouldExitTwoBeforeRunningWhenTheJsonFolderDoesNotExist() throws Exception {
    Path json = dir.resolve("missing/out.json");

    assertThat(perf("all-reduce-perf", "--nodes", "2", "--ppn", "1", "-b", "8", "-e", "8", "-J", json.toString()))
        .isEqualTo(2);

    assertThat(stderr.lines()).containsExactly("fabemu: cannot write -J " + json + ": no such folder "
        + dir.resolve("missing"));
    assertThat(executor.ranSpec).isNull();
  }

  @Test
  void shouldKeepTheProfileLineWhenTheProfileItselfIsWrong() throws Exception {
    Path profile = dir.resolve("bad.conf");
    Files.writeString(profile, "name = bad\ntopology.spines = -1\n");

    assertThat(fabemu("all-reduce-perf", "--profile", profile.toString(), "--nodes", "2", "--ppn", "1", "-b", "8",
        "-e", "8")).isEqualTo(2);

    assertThat(stderr.lines()).hasSize(1);
    assertThat(stderr).startsWith(profile + ":2: topology.spines: ");
  }

  @Test
  void shouldDescribeEveryProgramAndItsFlagsWhenAskedForHelp() {
    for (NcclPerfProgram program : NcclPerfProgram.values()) {
      assertThat(fabemu(program.commandName, "--help")).isZero();
      assertThat(stdout).startsWith("Usage: fabemu " + program.commandName + " ")
          .contains("Run nccl-tests' " + program.program + " on an emulated cluster")
          .contains("-b, --minbytes=SIZE").contains("-J, --output_file=FILE").contains("--profile=FILE")
          .contains("--set=KEY.PATH=VALUE").contains("--out=DIR");
    }
    assertThat(fabemu("--help")).isZero();
    assertThat(stdout).contains("all-reduce-perf").contains("sendrecv-perf");
  }
}
