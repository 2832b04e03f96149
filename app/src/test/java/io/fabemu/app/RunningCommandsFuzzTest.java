package io.fabemu.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.statistics.Statistics;
import net.jqwik.api.Tuple;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;

/**
 * Command-line fuzzing of the commands that run a scenario: {@code run} (with {@code --fault}, {@code --set},
 * {@code --members}), {@code sweep}, the OSU and nccl-tests programs, and {@code traffic}. Each case is a command,
 * its usual arguments with some dropped, and random tokens from the options of that command and of the others, with
 * mutated values. The promise is {@link ScenarioFuzzTest}'s: exit 0, or exit 2 with exactly one line on stderr and
 * no stack trace, within the per-case guard; and nothing is written outside the case's own folder.
 *
 * <p>Emulations run on the fake executor ({@link Fixtures.FakeExecutor}), so a case costs the command's checks and
 * its files, not an emulation; {@code traffic} runs for real on a 2×2 mesh of a few hundred cycles. So that no case
 * starts member processes or joins a cluster, a {@code --members} value above 1 becomes 1 and no token names the
 * seed nodes or discovery; every {@code --out} and {@code -J} value is put inside the case's folder. Tries as in
 * {@link ScenarioFuzzTest} ({@code -Pfuzz}).
 */
class RunningCommandsFuzzTest {
  private static final String SCENARIO = "../examples/quickstart.conf";
  private static final String PROFILE = "../profiles/roce25g-tor-spine-fpga.conf";
  private static Path work;
  private static Path traffic;

  private static final List<String> OSU = List.of("osu-allreduce", "osu-bcast", "osu-reduce", "osu-allgather",
      "osu-alltoall", "osu-reduce-scatter", "osu-gather", "osu-scatter", "osu-barrier", "osu-latency", "osu-bw");
  private static final List<String> NCCL = List.of("all-reduce-perf", "all-gather-perf", "reduce-scatter-perf",
      "broadcast-perf", "reduce-perf", "alltoall-perf", "sendrecv-perf");

  private static final String[] COMMON = {"--set", "--seed", "7", "-1", "x", "--out", "out", "--no-progress",
      "--members", "0", "1", "2", "-3", "--transport", "tcp", "udp", "--port", "70000", "--member-timeout", "0",
      "--verbose", "--help", "--", "", "=", "topology.hosts=8", "topology.hosts=", "workload.sizes=[8]",
      "workload.sizes=[", "workload.iterations=0", "seed=${HOME}", "topology.hosts=\u0663", "a.b=1", "/dev/zero",
      "no-such.conf", "\u0000", "--unknown"};
  private static final String[] RUN = {"--fault", "switch spine0 down at 1 us", "link tor0-spine0 down at 5 us for 1 us",
      "host3 down at 2 us", "switch nope down at 1 us", "at=1us", "host0 straggler at 1 us for 2 us factor 3"};
  private static final String[] SWEEP = {"--vary", "topology.hosts=8,16", "workload.sizes=[8],[16]",
      "topology.hosts=", "workload.iterations=1,0", "x.y=1,2", "'workload.algorithms=[ring],[nope]'"};
  private static final String[] OSU_TOKENS = {"-m", "0:8", "8:4", "1:1M", "8", "x:y", "-i", "0", "2", "-x", "1",
      "-T", "MPI_CHAR", "MPI_FLOAT", "MPI_BAD", "-M", "1K", "-f", "-c", "--mode", "host", "inc-node", "inc-socket",
      "--algorithm", "ring", "nope", "--nodes", "--ppn", "3", "--profile", "-W", "4"};
  private static final String[] NCCL_TOKENS = {"-b", "-e", "8", "1K", "128M", "8B", "-f", "2", "0", "-i", "-n", "1",
      "-w", "-c", "5", "-o", "sum", "avg", "-d", "float", "half", "-r", "100", "-t", "-g", "-a", "4", "-J",
      "out.json", "out.txt", "-m", "-z", "-G", "--algorithm", "ring", "--nodes", "--ppn"};
  private static final String[] TRAFFIC = {"--all-loads", "traffic.offered-loads=[0.05]", "traffic.pattern=nope",
      "traffic.packet-flits=0", "traffic.measure-cycles=10", "topology.kind=leaf-spine"};

  /** Options whose value is written to: the value is moved inside the case's folder. */
  private static final Set<String> WRITES = Set.of("--out", "-J", "--output_file");

  @BeforeContainer
  static void makeFolder() throws IOException {
    work = Files.createTempDirectory("fabemu-cli-fuzz");
    traffic = work.resolve("traffic.conf");
    Files.writeString(traffic, "name = tiny-traffic\ntopology { kind = mesh, dimensions = [2, 2] }\n"
        + "traffic { offered-loads = [0.1], warmup-cycles = 10, measure-cycles = 100, drain-cycles = 100 }\n");
  }

  @AfterContainer
  static void removeFolder() throws IOException {
    try (Stream<Path> all = Files.walk(work)) {
      for (Path p : all.sorted((a, b) -> b.getNameCount() - a.getNameCount()).toList()) Files.deleteIfExists(p);
    }
  }

  /** A case: which command, which of its usual arguments to drop, and the random tokens after them. */
  record Case(String command, int drop, List<String> tokens) {}

  @Provide
  Arbitrary<Case> cases() {
    Arbitrary<String> command = Arbitraries.frequencyOf(Tuple.of(4, Arbitraries.just("run")),
        Tuple.of(2, Arbitraries.just("sweep")), Tuple.of(3, Arbitraries.of(OSU)), Tuple.of(3, Arbitraries.of(NCCL)),
        Tuple.of(1, Arbitraries.just("traffic")));
    Arbitrary<String> token = Arbitraries.frequencyOf(Tuple.of(4, Arbitraries.of(COMMON)),
        Tuple.of(2, Arbitraries.of(RUN)), Tuple.of(2, Arbitraries.of(SWEEP)), Tuple.of(3, Arbitraries.of(OSU_TOKENS)),
        Tuple.of(3, Arbitraries.of(NCCL_TOKENS)), Tuple.of(1, Arbitraries.of(TRAFFIC)),
        Tuple.of(1, Arbitraries.strings().ofMaxLength(20)));
    return Combinators.combine(command, Arbitraries.integers().between(-8, 8), token.list().ofMaxSize(4))
        .as(Case::new);
  }

  @Property(seed = "20261202")
  void runningCommandsKeepTheirPromise(@ForAll("cases") Case c) throws IOException {
    Path folder = Files.createTempDirectory(work, "case");
    List<String> args = arguments(c, folder);
    Fixtures.FakeExecutor executor = new Fixtures.FakeExecutor();
    String label = args.toString();
    List<String> before = entries(Path.of("."));
    Fixtures.CliRun run = assertTimeoutPreemptively(Duration.ofSeconds(60),
        () -> Fixtures.cli(executor, args.toArray(String[]::new)), label);
    // How many cases got past the checks, per command family: printed with jqwik's report.
    Statistics.label("exit code").collect(family(c.command()), run.code());
    assertThat(run.code()).as("exit code of %s: %s", label, run.stderr()).isIn(ExitCodes.OK, ExitCodes.BAD_INPUT);
    if (run.code() == ExitCodes.BAD_INPUT) {
      assertThat(run.stderr().lines().toList()).as("stderr of %s", label).hasSize(1);
      assertThat(run.stderr()).as("stderr of %s", label).doesNotContain("Exception").doesNotContain("at io.");
    } else {
      assertThat(run.stderr()).as("stderr of %s", label).doesNotContain("Exception").doesNotContain("at io.");
    }
    assertThat(entries(Path.of("."))).as("the working folder after %s", label).isEqualTo(before);
  }

  private static String family(String command) {
    return OSU.contains(command) ? "osu" : NCCL.contains(command) ? "nccl-tests" : command;
  }

  private static List<String> entries(Path dir) throws IOException {
    try (Stream<Path> files = Files.list(dir)) {
      return files.map(p -> p.getFileName().toString()).sorted().toList();
    }
  }

  /** The command, its usual arguments (one dropped when {@code drop} names one), then the tokens, made safe. */
  static List<String> arguments(Case c, Path folder) {
    List<String> usual = new ArrayList<>();
    if (c.command().equals("run")) {
      usual.add(SCENARIO);
    } else if (c.command().equals("sweep")) {
      usual.addAll(List.of(SCENARIO, "--vary", "workload.iterations=1,2", "--out", "sweep"));
    } else if (c.command().equals("traffic")) {
      usual.add(traffic.toString());
    } else if (NCCL.contains(c.command())) {
      usual.addAll(List.of("--profile", PROFILE, "--nodes", "2", "--ppn", "1", "-b", "8", "-e", "64"));
    } else if (!c.command().equals("osu-latency") && !c.command().equals("osu-bw")) {
      usual.addAll(List.of("--profile", PROFILE, "--nodes", "2", "--ppn", "1"));
    }
    if (c.drop() >= 0 && c.drop() < usual.size()) usual.remove(c.drop());
    List<String> args = new ArrayList<>();
    args.add(c.command());
    args.addAll(usual);
    args.addAll(c.tokens());
    for (int i = 1; i < args.size(); i++) {
      String previous = args.get(i - 1);
      if (WRITES.contains(previous)) {
        args.set(i, folder.resolve("w" + i + "-" + Integer.toHexString(args.get(i).hashCode())).toString());
      } else if (previous.equals("--members") && args.get(i).matches("\\+?0*[2-9]\\d*|\\+?0*1\\d+")) {
        args.set(i, "1");
      }
    }
    return args;
  }
}
