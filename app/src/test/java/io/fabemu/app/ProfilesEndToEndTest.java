package io.fabemu.app;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The committed hardware profiles run the osu commands as their headers say. */
class ProfilesEndToEndTest extends CliTestBase {

  @Override
  protected ScenarioExecutor executor() {
    return null;
  }

  @Test
  void theCpuClusterProfileRunsAnAllreduceAndItsLatencyGrowsWithTheSize() {
    Path profile = Path.of("..", "profiles", "cpu100g-leaf-spine.conf");

    int code = fabemu("osu-allreduce", "--profile", profile.toString(), "--nodes", "2", "--ppn", "2",
        "--mode", "host", "-m", "4:65536", "-i", "2", "-x", "1", "--no-progress");

    assertThat(code).as(stderr).isZero();
    List<String> lines = stdout.lines().toList();
    assertThat(lines.get(2)).isEqualTo("# fabemu emulation (virtual time): cpu100g-leaf-spine, 2 nodes x 2 ppn, "
        + "mode host, algorithm auto");
    List<Double> latencies = lines.stream().filter(l -> !l.isEmpty() && !l.startsWith("#")).map(l -> l.split(" +"))
        .map(f -> Double.parseDouble(f[1])).toList();
    // 4 B .. 64 KiB: 15 sizes, and a 64 KiB Allreduce costs more than a 4 B one.
    assertThat(latencies).hasSize(15);
    assertThat(latencies.get(14)).isGreaterThan(latencies.get(0));
  }

  @Test
  void theH100DraftRunsAllReducePerfOnTwoServersOfEightGpusExactly() {
    Path profile = Path.of("..", "profiles", "h100-sxm-8gpu-ndr.conf");

    int code = fabemu("all-reduce-perf", "--profile", profile.toString(), "--nodes", "2", "--ppn", "8", "-b", "1K",
        "-e", "64K", "-f", "8", "-n", "2", "--algorithm", "tree", "--no-progress");

    assertThat(code).as(stderr).isZero();
    // NCCL's protocols, each size the tuner's choice: the line says which ran where.
    assertThat(stdout).contains("16 hosts x 1 ranks, allreduce algorithm tree, protocol auto: ll 1 KiB to 8 KiB, "
            + "ll128 64 KiB, payload real")
        .contains("#  Rank 15 Group  0 Pid     15 on    server1 device  7 [0000:07:00]")
        .contains("# Out of bounds values : 0 OK");
  }

  @Test
  void theA100AndGb200PredictionsRunAllReducePerfOnTwoServersExactlyOnChannels() {
    for (String[] profile : new String[][] {{"a100-sxm-8gpu-hdr.conf", "8", "16 hosts"},
        {"gb200-4gpu-nvl.conf", "4", "8 hosts"}}) {
      int code = fabemu("all-reduce-perf", "--profile", Path.of("..", "profiles", profile[0]).toString(), "--nodes",
          "2", "--ppn", profile[1], "-b", "1K", "-e", "8M", "-f", "64", "-n", "1", "--no-progress");
      assertThat(code).as(stderr).isZero();
      assertThat(stdout).contains(profile[2] + " x 1 ranks, allreduce algorithm auto (a ring on up to "
          + profile[1] + " channels), protocol auto: ").contains("# Out of bounds values : 0 OK");
    }
  }

  @Test
  void theH100ProfileRunsTheOtherNcclTestsProgramsWithItsChannelsIgnored() {
    Path profile = Path.of("..", "profiles", "h100-sxm-8gpu-ndr.conf");

    int code = fabemu("all-gather-perf", "--profile", profile.toString(), "--nodes", "1", "--ppn", "8", "-b", "1K",
        "-e", "4K", "-f", "4", "-n", "1", "--no-progress");

    assertThat(code).as(stderr).isZero();
    assertThat(stdout).contains("allgather algorithm auto, protocol auto: ll 1 KiB to 4 KiB, payload real")
        .doesNotContain("channels")
        .contains("# Out of bounds values : 0 OK");
  }
}
