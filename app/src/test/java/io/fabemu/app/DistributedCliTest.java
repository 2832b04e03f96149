package io.fabemu.app;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code fabemu run --members N} for real: N-1 member JVMs started on 127.0.0.1 (class path of this JVM), the
 * same digest as one member, member JVMs stopped afterwards, and a member killed with SIGKILL mid-run; and
 * {@code fabemu osu-allreduce --members N}, which runs through the same pipeline.
 */
class DistributedCliTest {
  private static final Path QUICKSTART = Path.of("..", "examples", "quickstart.conf");

  @TempDir
  Path dir;

  /** Member JVMs are children of this JVM running {@code io.fabemu.app.Main member}. */
  private static List<ProcessHandle> memberProcesses() {
    return ProcessHandle.current().children().filter(DistributedCliTest::isMember).toList();
  }

  private static boolean isMember(ProcessHandle p) {
    Path cmdline = Path.of("/proc", Long.toString(p.pid()), "cmdline");
    try {
      if (Files.isReadable(cmdline)) {
        return Files.readString(cmdline, StandardCharsets.ISO_8859_1).contains("\0io.fabemu.app.Main\0member\0");
      }
    } catch (java.io.IOException e) {
      // Gone meanwhile, or not readable: ask the JDK.
    }
    return p.info().commandLine().map(c -> c.contains("io.fabemu.app.Main member")).orElse(false);
  }

  @AfterEach
  void noMemberLeftBehind() throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
    while (!memberProcesses().isEmpty() && System.nanoTime() < deadline) Thread.sleep(100);
    List<ProcessHandle> left = memberProcesses();
    left.forEach(ProcessHandle::destroyForcibly);
    assertThat(left).as("member JVMs left running").isEmpty();
  }

  /** One CLI run; stdout and stderr are thread-safe buffers the caller may read while it runs. */
  private record Run(ByteArrayOutputStream out, ByteArrayOutputStream err, CompletableFuture<Integer> code) {
    static Run start(String... args) {
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      ByteArrayOutputStream err = new ByteArrayOutputStream();
      CompletableFuture<Integer> code = CompletableFuture.supplyAsync(() -> Main.execute(args,
          new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8)));
      return new Run(out, err, code);
    }

    String stdout() {
      return out.toString(StandardCharsets.UTF_8);
    }

    String stderr() {
      return err.toString(StandardCharsets.UTF_8);
    }
  }

  private static String digest(Path outDir) throws Exception {
    JsonNode json = new ObjectMapper().readTree(outDir.resolve("results.json").toFile());
    assertThat(json.get("complete").asBoolean()).isTrue();
    assertThat(json.get("wrongElements").asLong()).isZero();
    return json.get("digest").asText();
  }

  private static String summary(String stdout) {
    String last = stdout.strip().lines().reduce((a, b) -> b).orElseThrow();
    // The wall-clock part differs between runs, and the window count with the member count (one member: lookahead
    // windows; several: global windows between members): compare from the virtual end to the digest, without them.
    return last.replaceAll("\\d+ events/s \\(wall [^)]*\\)", "").replaceAll("\\d+ windows", "N windows");
  }

  private static long windows(String stdout) {
    String last = stdout.strip().lines().reduce((a, b) -> b).orElseThrow();
    java.util.regex.Matcher m = java.util.regex.Pattern.compile("(\\d+) windows").matcher(last);
    assertThat(m.find()).as(last).isTrue();
    return Long.parseLong(m.group(1));
  }

  /** {@code args} followed by {@code more}, as a command line. */
  private static String[] with(List<String> args, String... more) {
    return Stream.concat(args.stream(), Stream.of(more)).toArray(String[]::new);
  }

  @Test
  void shouldGiveTheOneMemberDigestWhenTheQuickstartRunsOnThreeMemberJvmsOverTcp() throws Exception {
    Path one = dir.resolve("one");
    Path three = dir.resolve("three");

    Run single = Run.start("run", QUICKSTART.toString(), "--out", one.toString(), "--no-progress");
    assertThat(single.code().get(120, TimeUnit.SECONDS)).as(single.stderr()).isZero();
    Run spread = Run.start("run", QUICKSTART.toString(), "--members", "3", "--transport", "tcp", "--out",
        three.toString(), "--no-progress");
    assertThat(spread.code().get(400, TimeUnit.SECONDS)).as(spread.stderr()).isZero();

    assertThat(digest(three)).isEqualTo(digest(one));
    assertThat(Files.readString(three.resolve("results.csv"))).isEqualTo(Files.readString(one.resolve("results.csv")));
    assertThat(summary(spread.stdout())).isEqualTo(summary(single.stdout()));
    assertThat(windows(spread.stdout())).as("global windows (spine link + pipeline) against lookahead windows")
        .isLessThan(windows(single.stdout()));
  }

  @Test
  void shouldGiveTheOneMemberDigestOverAeronUdp() throws Exception {
    // Aeron's round trip here is ~9 ms per window (docs/dependencies.md), so a scenario with few windows: 2 TORs, 2 members.
    Path scenario = dir.resolve("small.conf");
    Files.writeString(scenario, """
        name = small
        topology { kind = leaf-spine, hosts = 4, hosts-per-tor = 2, spines = 1 }
        workload { algorithms = [ring], sizes = [4 B, 1 MiB], iterations = 1, warmup = 0 }
        """);
    Path one = dir.resolve("one");
    Path two = dir.resolve("two");

    Run single = Run.start("run", scenario.toString(), "--out", one.toString(), "--no-progress");
    assertThat(single.code().get(60, TimeUnit.SECONDS)).as(single.stderr()).isZero();
    Run spread = Run.start("run", scenario.toString(), "--members", "2", "--transport", "aeron-udp", "--out",
        two.toString(), "--no-progress");
    assertThat(spread.code().get(180, TimeUnit.SECONDS)).as(spread.stderr()).isZero();

    assertThat(digest(two)).isEqualTo(digest(one));
    try (var shm = Files.list(Path.of("/dev/shm"))) {
      assertThat(shm.map(p -> p.getFileName().toString()))
          .noneMatch(n -> n.startsWith("fabemu-aeron-" + ProcessHandle.current().pid() + "-"));
    }
  }

  @Test
  void shouldPrintTheOneMemberTableByteForByteWhenOsuAllreduceRunsOnTwoMemberJvms() throws Exception {
    // Two TORs (2 hosts each), so the run can be spread over 2 members; few sizes and iterations keep it short.
    Path profile = dir.resolve("profile.conf");
    Files.writeString(profile, Fixtures.TINY_PROFILE);
    List<String> osu = List.of("osu-allreduce", "--profile", profile.toString(), "--nodes", "4", "--ppn", "2",
        "--mode", "host", "-m", "4:16", "-i", "2", "-x", "1", "-f", "--no-progress");
    Path one = dir.resolve("one");
    Path two = dir.resolve("two");

    Run single = Run.start(with(osu, "--members", "1", "--out", one.toString()));
    assertThat(single.code().get(60, TimeUnit.SECONDS)).as(single.stderr()).isZero();
    Run spread = Run.start(with(osu, "--members", "2", "--transport", "tcp", "--out", two.toString()));
    assertThat(spread.code().get(180, TimeUnit.SECONDS)).as(spread.stderr()).isZero();

    assertThat(spread.stdout()).isEqualTo(single.stdout()).hasLineCount(5 + 3);
    assertThat(digest(two)).isEqualTo(digest(one));
    assertThat(Files.readString(two.resolve("results.csv"))).isEqualTo(Files.readString(one.resolve("results.csv")));
  }

  @Test
  void shouldExitThreeWithinFifteenSecondsNamingTheMemberWhenAMemberJvmIsKilledMidRun() throws Exception {
    Path out = dir.resolve("out");
    // The quickstart runs well over 20 s on 3 member JVMs; the progress bar shows once operations complete.
    Run run = Run.start("run", QUICKSTART.toString(), "--members", "3", "--transport", "tcp", "--out",
        out.toString(), "--progress");
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
    while (!run.stderr().contains("virtual ") && System.nanoTime() < deadline && !run.code().isDone()) {
      Thread.sleep(50);
    }
    assertThat(run.stderr()).as("the run must be under way (progress shown)").contains("virtual ");
    List<ProcessHandle> members = memberProcesses();
    assertThat(members).hasSize(2);

    ProcessHandle victim = members.get(1);
    assertThat(victim.destroyForcibly()).isTrue();
    long killedAt = System.nanoTime();
    int code = run.code().get(60, TimeUnit.SECONDS);
    long tookMs = (System.nanoTime() - killedAt) / 1_000_000;

    assertThat(code).as(run.stderr()).isEqualTo(ExitCodes.LOST_MEMBER);
    assertThat(tookMs).isLessThan(15_000);
    List<String> errors = run.stderr().lines().map(l -> l.replaceAll(".*\r", ""))
        .filter(l -> l.startsWith("fabemu:")).toList();
    assertThat(errors).hasSize(1);
    assertThat(errors.get(0)).startsWith("fabemu: lost member").contains("127.0.0.1:");
    JsonNode json = new ObjectMapper().readTree(out.resolve("results.json").toFile());
    assertThat(json.get("complete").asBoolean()).isFalse();
    assertThat(json.get("incompleteReason").asText()).isNotBlank();
  }
}
