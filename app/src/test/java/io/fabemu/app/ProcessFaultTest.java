package io.fabemu.app;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabemu.app.member.MemberCommand;
import io.fabemu.app.output.ResultsWriter;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Faults of the emulator's own processes, as local processes on 127.0.0.x: a member killed (SIGKILL) while the
 * cluster forms, whether the coordinator started it ({@code --members 3}) or it was started apart
 * ({@code fabemu member}), and the coordinator killed (SIGKILL) mid-run. Each ends within a documented time with one
 * clear line and the documented exit code, and leaves no member JVM running.
 */
class ProcessFaultTest {
  private static final Path QUICKSTART = Path.of("..", "examples", "quickstart.conf");
  /** The {@code --member-timeout} of the runs that wait for a member that never comes. */
  private static final int MEMBER_TIMEOUT_SECONDS = 10;
  /**
   * How long the members of a coordinator killed mid-run take to exit, at most: each watches the coordinator's
   * process and, once it is gone, stops within {@link MemberCommand#PARENT_EXITED_GRACE} (docs/cluster.md, "On
   * several machines"). A bound on a hang with a margin for a loaded machine, not a performance figure.
   */
  static final int COORDINATOR_KILLED_BOUND_SECONDS = 15;

  /** The progress bar's count, {@code done/total}. */
  private static final Pattern PROGRESS = Pattern.compile("(\\d+)/(\\d+) ");

  private final List<Process> started = new ArrayList<>();

  @TempDir
  Path dir;

  @AfterEach
  void noMemberLeftBehind() throws Exception {
    for (Process p : started) {
      p.destroy();
      if (!p.waitFor(10, TimeUnit.SECONDS)) p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
    }
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
    while (!members(ProcessHandle.current()).isEmpty() && System.nanoTime() < deadline) Thread.sleep(100);
    List<ProcessHandle> left = members(ProcessHandle.current());
    left.forEach(ProcessHandle::destroyForcibly);
    assertThat(left).as("member JVMs left running").isEmpty();
  }

  @Test
  void shouldExitOneOnOneLineAtOnceWhenAMemberItStartedIsKilledBeforeTheClusterIsComplete() throws Exception {
    Path out = dir.resolve("out");
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    long startedAt = System.nanoTime();
    CompletableFuture<Integer> run = CompletableFuture.supplyAsync(() -> Main.execute(new String[] {"run",
        QUICKSTART.toString(), "--members", "3", "--transport", "tcp", "--no-progress", "--member-timeout", "60",
        "--out", out.toString()}, new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8)));
    List<ProcessHandle> members = List.of();
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (members.isEmpty() && System.nanoTime() < deadline && !run.isDone()) {
      Thread.sleep(20);
      members = members(ProcessHandle.current());
    }
    assertThat(members).as("a member JVM started").isNotEmpty();
    // A JVM just started is not Up yet: the cluster is not complete.
    assertThat(members.get(0).destroyForcibly()).isTrue();

    int code = run.get(60, TimeUnit.SECONDS);
    long tookMs = (System.nanoTime() - startedAt) / 1_000_000;
    String stderr = err.toString(StandardCharsets.UTF_8);
    System.out.printf("ProcessFaultTest: member killed at start-up: exit %d after %d ms%n", code, tookMs);

    assertThat(code).as(stderr).isEqualTo(ExitCodes.RUN_FAILED);
    assertThat(tookMs).isLessThan(60_000);
    List<String> lines = stderr.lines().toList();
    assertThat(lines.get(0)).matches("fabemu: member [23] exited with code 137 before the run started \\([0-2] of 3 "
        + "members up\\)");
    assertThat(lines.subList(1, lines.size())).allMatch(l -> l.startsWith("the end of its log (")
        || l.startsWith("member "));
    assertThat(out.resolve(ResultsWriter.JSON_FILE)).doesNotExist();
  }

  @Test
  void shouldExitOneOnOneLineWithinTheMemberTimeoutWhenASeparateMemberIsKilledBeforeItJoins() throws Exception {
    int port = freePort("127.0.0.2");
    String seed = "127.0.0.2:" + port;
    Process first = start("first", "member", "--seed-nodes", seed, "--host", "127.0.0.2", "--port", "" + port,
        "--transport", "tcp");
    awaitLine(first, dir.resolve("first.log"), "fabemu member up: ");

    ByteArrayOutputStream err = new ByteArrayOutputStream();
    long startedAt = System.nanoTime();
    CompletableFuture<Integer> run = CompletableFuture.supplyAsync(() -> Main.execute(new String[] {"run",
        QUICKSTART.toString(), "--members", "3", "--seed-nodes", seed, "--host", "127.0.0.1", "--transport", "tcp",
        "--no-progress", "--member-timeout", "" + MEMBER_TIMEOUT_SECONDS},
        new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8)));
    Process second = start("second", "member", "--seed-nodes", seed, "--host", "127.0.0.3", "--port", "" + port,
        "--transport", "tcp");
    Thread.sleep(300);
    second.destroyForcibly();

    int code = run.get(MEMBER_TIMEOUT_SECONDS + 30, TimeUnit.SECONDS);
    long tookMs = (System.nanoTime() - startedAt) / 1_000_000;
    String stderr = err.toString(StandardCharsets.UTF_8);
    System.out.printf("ProcessFaultTest: separate member killed before joining: exit %d after %d ms%n", code,
        tookMs);

    assertThat(code).as(stderr).isEqualTo(ExitCodes.RUN_FAILED);
    assertThat(stderr.lines().toList()).containsExactly("fabemu: only 2 of 3 members joined within "
        + MEMBER_TIMEOUT_SECONDS + " s");
    // The timeout counts from the start, the coordinator's own join included; the rest is stopping its member.
    assertThat(tookMs).isBetween(MEMBER_TIMEOUT_SECONDS * 1000L, MEMBER_TIMEOUT_SECONDS * 1000L + 25_000);
    assertThat(first.isAlive()).as("the first member keeps serving").isTrue();
  }

  @Test
  void shouldLetEveryMemberExitWithinTheBoundWhenTheCoordinatorIsKilledMidRun() throws Exception {
    Path tmp = Files.createDirectories(dir.resolve("tmp"));
    // A case long enough (seconds of wall time on a loaded machine) that the kill lands while it runs.
    Path scenario = dir.resolve("long.conf");
    Files.writeString(scenario, """
        name = coordinator-killed
        seed = 5
        topology { kind = leaf-spine, hosts = 12, hosts-per-tor = 4, spines = 2 }
        workload { collective = allreduce, algorithms = [ring], sizes = [4 MiB], iterations = 40, warmup = 0, ppn = 2 }
        """);
    Path coordinatorLog = dir.resolve("coordinator.log");
    Process coordinator = start(List.of("-Djava.io.tmpdir=" + tmp), "coordinator", "run", scenario.toString(),
        "--members", "3", "--transport", "tcp", "--out", dir.resolve("out").toString(), "--progress");
    // Mid-run: the progress bar (on stderr, in the log) shows operations done, so the members are Up and serving.
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
    while (!operationsDone(coordinatorLog) && coordinator.isAlive() && System.nanoTime() < deadline) {
      Thread.sleep(50);
    }
    assertThat(operationsDone(coordinatorLog)).as("operations done within 120 s; log:%n%s",
        Files.readString(coordinatorLog)).isTrue();
    List<ProcessHandle> members = members(coordinator.toHandle());
    assertThat(members).hasSize(2);
    assertThat(coordinator.isAlive()).as("the run must still be under way; log:%n%s", Files.readString(coordinatorLog))
        .isTrue();
    assertThat(Files.readString(coordinatorLog)).as("the run must not have ended").doesNotContain("# Run: virtual end");

    coordinator.destroyForcibly();
    long killedAt = System.nanoTime();
    CompletableFuture<?> allExited = CompletableFuture.allOf(members.stream().map(ProcessHandle::onExit)
        .toArray(CompletableFuture[]::new));
    try {
      allExited.get(COORDINATOR_KILLED_BOUND_SECONDS + 30, TimeUnit.SECONDS);
    } catch (TimeoutException e) {
      throw new AssertionError("members still running " + (COORDINATOR_KILLED_BOUND_SECONDS + 30) + " s after the "
          + "coordinator was killed: " + members.stream().filter(ProcessHandle::isAlive).map(ProcessHandle::pid)
          .toList() + "; their logs:\n" + String.join("\n", memberLogs(tmp)), e);
    }
    long tookMs = (System.nanoTime() - killedAt) / 1_000_000;
    List<String> lastLines = new ArrayList<>();
    try (Stream<Path> logs = Files.walk(tmp)) {
      for (Path log : logs.filter(p -> p.getFileName().toString().endsWith(".log")).sorted().toList()) {
        List<String> lines = Files.readAllLines(log);
        lastLines.add(log.getFileName() + ": " + (lines.isEmpty() ? "(empty)" : lines.get(lines.size() - 1)));
      }
    }
    System.out.printf("ProcessFaultTest: coordinator killed mid-run: members exited after %d ms; %s%n", tookMs,
        lastLines);

    assertThat(tookMs).as("members exited; their logs end %s", lastLines)
        .isLessThan(COORDINATOR_KILLED_BOUND_SECONDS * 1000L);
    // They left because their parent died, not because the run ended on its own.
    assertThat(memberLogs(tmp)).as("member logs").hasSize(2)
        .allSatisfy(text -> assertThat(text).contains("parent process").contains("exited; leaving the cluster"));
  }

  @Test
  void shouldStopJoiningAtOnceWhenTheParentExitsBeforeTheMemberIsUp() throws Exception {
    // A parent that lives until told, and a seed node nobody listens on: the member retries it until its parent goes.
    Process parent = new ProcessBuilder("sleep", "600").start();
    started.add(parent);
    String seed = "127.0.0.1:" + freePort("127.0.0.1");
    Process member = start("orphan", "member", "--seed-nodes", seed, "--host", "127.0.0.1", "--port", "0",
        "--transport", "tcp", "--parent-pid", Long.toString(parent.pid()));
    Path log = dir.resolve("orphan.log");
    awaitLine(member, log, "Couldn't join seed nodes");

    parent.destroyForcibly();
    long killedAt = System.nanoTime();
    boolean exited = member.waitFor(COORDINATOR_KILLED_BOUND_SECONDS, TimeUnit.SECONDS);
    long tookMs = (System.nanoTime() - killedAt) / 1_000_000;
    System.out.printf("ProcessFaultTest: parent killed while its member joined: member exited after %d ms%n",
        tookMs);

    assertThat(exited).as("the member exited within %d s (its join timeout is %d s); log:%n%s",
        COORDINATOR_KILLED_BOUND_SECONDS, MemberCommand.SEED_NODES_JOIN_TIMEOUT_SECONDS, Files.readString(log))
        .isTrue();
    assertThat(member.exitValue()).isEqualTo(ExitCodes.OK);
    assertThat(Files.readString(log)).contains("fabemu member: parent process " + parent.pid()
        + " exited before this member was up; exiting");
  }

  /** Whether the progress bar in {@code log} shows at least one operation done. */
  private static boolean operationsDone(Path log) throws IOException {
    if (!Files.exists(log)) return false;
    Matcher m = PROGRESS.matcher(Files.readString(log));
    boolean done = false;
    while (m.find()) done = Long.parseLong(m.group(1)) > 0;
    return done;
  }

  /** The text of every member log under {@code tmp} (the coordinator's members write theirs there). */
  private static List<String> memberLogs(Path tmp) throws IOException {
    List<String> texts = new ArrayList<>();
    try (Stream<Path> logs = Files.walk(tmp)) {
      for (Path log : logs.filter(p -> p.getFileName().toString().endsWith(".log")).sorted().toList()) {
        texts.add(Files.readString(log));
      }
    }
    return texts;
  }

  private Process start(String name, String... args) throws IOException {
    return start(List.of(), name, args);
  }

  /** Starts {@code fabemu ARGS} as a JVM with {@code jvmOptions}; its output goes to {@code NAME.log}. */
  private Process start(List<String> jvmOptions, String name, String... args) throws IOException {
    Process p = new ProcessBuilder(NetnsHosts.fabemuCommand(jvmOptions, args)).redirectErrorStream(true)
        .redirectOutput(dir.resolve(name + ".log").toFile()).start();
    started.add(p);
    return p;
  }

  private static void awaitLine(Process p, Path log, String text) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
    while (System.nanoTime() < deadline && p.isAlive()
        && !(Files.exists(log) && Files.readString(log).contains(text))) {
      Thread.sleep(50);
    }
    assertThat(Files.readString(log)).as("%s shows '%s'", log.getFileName(), text).contains(text);
  }

  private static int freePort(String host) throws IOException {
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getByName(host))) {
      return s.getLocalPort();
    }
  }

  /** Member JVMs among the children of {@code parent}: processes running {@code io.fabemu.app.Main member}. */
  private static List<ProcessHandle> members(ProcessHandle parent) {
    return parent.children().filter(ProcessFaultTest::isMember).toList();
  }

  private static boolean isMember(ProcessHandle p) {
    Path cmdline = Path.of("/proc", Long.toString(p.pid()), "cmdline");
    try {
      if (Files.isReadable(cmdline)) {
        return Files.readString(cmdline, StandardCharsets.ISO_8859_1).contains("\0io.fabemu.app.Main\0member\0");
      }
    } catch (IOException e) {
      // Gone meanwhile, or not readable: ask the JDK.
    }
    return p.info().commandLine().map(c -> c.contains("io.fabemu.app.Main member")).orElse(false);
  }
}
