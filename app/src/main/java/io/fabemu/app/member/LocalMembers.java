package io.fabemu.app.member;

import io.fabemu.app.Main;
import io.fabemu.cluster.Transport;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;

/**
 * Member JVMs started by {@code --members N} ({@code fabemu run}, {@code fabemu osu-allreduce}) on this machine:
 * each runs {@code fabemu member} with the same java, class path and {@code --add-opens} flags as this JVM, joins the
 * coordinator's member, binds 127.0.0.1 on a free port, and stops when this process exits. Each one's stdout and
 * stderr go to a log file, shown when something fails.
 *
 * <p>Contract: {@link #close()} stops every child (SIGTERM, up to 10 s to leave, then SIGKILL) and is safe to call
 * more than once and from a shutdown hook; children also watch this process ({@code --parent-pid}) and leave when
 * it dies, so none is orphaned even when this JVM is killed.
 */
public final class LocalMembers implements AutoCloseable {
  /**
   * This JVM's options that the members get too: the heap and its G1 region size (a member of a few GiB holding 1 MiB
   * buffers needs regions of 4 MiB, docs/cluster.md), and the settings of Pekko, fabemu, Aeron and the logger.
   */
  private static final List<String> PASSED_ON_PREFIXES = List.of("-Xmx", "-Xms", "-Xss", "-XX:G1HeapRegionSize=",
      "-Dpekko.", "-Dfabemu.", "-Daeron.", "-Dorg.slf4j.");
  private static final int LOG_TAIL_LINES = 20;
  /** Environment variable with the member JVMs' own options; see {@link #memberJvmOptions}. */
  public static final String MEMBER_JAVA_OPTS_ENV = "FABEMU_MEMBER_JAVA_OPTS";
  /** Below this many cores per JVM of a local run, its JVMs get {@link #SMALL_MACHINE_OPTIONS}. */
  static final int CORES_PER_JVM = 2;
  /**
   * C1 only, on one compiler thread, and the serial collector: the same list as bin/fabemu's, which also gives the
   * coordinator's JVM a long acceptable heartbeat pause that reaches the members as a passed-on {@code -Dpekko.*}.
   */
  public static final List<String> SMALL_MACHINE_OPTIONS =
      List.of("-XX:TieredStopAtLevel=1", "-XX:CICompilerCount=1", "-XX:+UseSerialGC");
  /** A collector chosen by the user ({@code -XX:+UseG1GC}, {@code -XX:-UseSerialGC}, ...). */
  private static final Pattern USER_COLLECTOR = Pattern.compile("-XX:[+-]Use\\w*GC\\b");
  /** Compiler settings of the user's that the compiler options would contradict. */
  private static final Pattern USER_COMPILER =
      Pattern.compile("-XX:(TieredStopAtLevel|[+-]TieredCompilation|CICompilerCount)\\b");

  /** One member JVM: its number (the coordinator is member 1), process and log. */
  public record Child(int number, Process process, Path log) {}

  private final List<Child> children;
  private final Path logDir;
  private boolean closed;

  private LocalMembers(List<Child> children, Path logDir) {
    this.children = children;
    this.logDir = logDir;
  }

  /**
   * Starts {@code count} members that join {@code seed} ({@code HOST:PORT}) over {@code transport}, each pinned to
   * its CPUs in {@code cpus} (from {@value MemberCpuSets#ENV}, checked before the run starts).
   */
  public static LocalMembers start(int count, String seed, Transport transport, MemberCpuSets cpus) throws IOException {
    Path logDir = Files.createTempDirectory("fabemu-members-");
    List<Child> started = new ArrayList<>();
    LocalMembers members = new LocalMembers(started, logDir);
    try {
      for (int i = 0; i < count; i++) {
        int number = i + 2;
        Path log = logDir.resolve("member-" + number + ".log");
        ProcessBuilder pb = new ProcessBuilder(cpus.wrap(i, command(seed, transport, count + 1)))
            .redirectErrorStream(true)
            .redirectOutput(log.toFile())
            .redirectInput(ProcessBuilder.Redirect.PIPE);
        started.add(new Child(number, pb.start(), log));
      }
    } catch (IOException | RuntimeException e) {
      members.close();
      throw e;
    }
    return members;
  }

  /**
   * JVM options of every member JVM: the environment variable {@value #MEMBER_JAVA_OPTS_ENV} split on whitespace
   * when it is set (empty: none), else {@link #SMALL_MACHINE_OPTIONS} when the machine has fewer than
   * {@value #CORES_PER_JVM} cores per JVM of the run. All the JVMs of a local run compile the same hot code at the
   * same time, and C2's compiler threads (and G1's worker threads) then take the cores the emulation needs:
   * measured on 2 cores, C1 alone cut a 3-member run's wall time by a fifth to a third, one C1 thread and the
   * serial collector by a further 7 % (docs/performance.md). bin/fabemu applies the same rule to the coordinator's
   * JVM.
   *
   * <p>Options the user gives every JVM ({@code JAVA_TOOL_OPTIONS}, {@code JDK_JAVA_OPTIONS}) win: a collector of
   * theirs drops the serial collector, and compiler settings of theirs drop the compiler options (the JVM refuses
   * to start with two collectors, or with one compiler thread and C2).
   *
   * @param env         the variable's value, null when unset
   * @param cores       the machine's cores
   * @param jvms        JVMs of the run, the coordinator's included
   * @param userOptions the options every JVM gets anyway, space-separated (may be empty)
   */
  static List<String> memberJvmOptions(String env, int cores, int jvms, String userOptions) {
    if (env != null) {
      return env.isBlank() ? List.of() : List.of(env.strip().split("\\s+"));
    }
    if (cores >= CORES_PER_JVM * jvms) {
      return List.of();
    }
    boolean ownCollector = USER_COLLECTOR.matcher(userOptions).find();
    boolean ownCompiler = USER_COMPILER.matcher(userOptions).find();
    return SMALL_MACHINE_OPTIONS.stream()
        .filter(o -> !(ownCollector && o.endsWith("GC")) && !(ownCompiler && !o.endsWith("GC")))
        .toList();
  }

  /** The options every JVM of this machine gets from the environment, space-separated. */
  static String userJvmOptions() {
    return String.join(" ", Objects.requireNonNullElse(System.getenv("JAVA_TOOL_OPTIONS"), ""),
        Objects.requireNonNullElse(System.getenv("JDK_JAVA_OPTIONS"), ""));
  }

  /** The command of one member JVM of a run of {@code jvms} JVMs (the coordinator's included). */
  static List<String> command(String seed, Transport transport, int jvms) {
    return command(seed, transport, memberJvmOptions(System.getenv(MEMBER_JAVA_OPTS_ENV),
        Runtime.getRuntime().availableProcessors(), jvms, userJvmOptions()));
  }

  /** The command of one member JVM with {@code jvmOptions} (see {@link #memberJvmOptions}). */
  static List<String> command(String seed, Transport transport, List<String> jvmOptions) {
    List<String> cmd = new ArrayList<>();
    cmd.add(Paths.get(System.getProperty("java.home"), "bin", "java").toString());
    cmd.add("--add-opens");
    cmd.add("java.base/sun.nio.ch=ALL-UNNAMED");
    cmd.add("--add-opens");
    cmd.add("java.base/java.nio=ALL-UNNAMED");
    for (String arg : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
      if (PASSED_ON_PREFIXES.stream().anyMatch(arg::startsWith)) cmd.add(arg);
    }
    cmd.addAll(jvmOptions);
    cmd.add("-cp");
    cmd.add(System.getProperty("java.class.path"));
    cmd.add(Main.class.getName());
    cmd.addAll(List.of("member", "--seed-nodes", seed, "--host", "127.0.0.1", "--port", "0",
        "--transport", transport.configName(), "--parent-pid", Long.toString(ProcessHandle.current().pid())));
    return cmd;
  }

  public List<Child> children() {
    return List.copyOf(children);
  }

  /** The first child whose process has exited, or null. */
  public Child firstExited() {
    for (Child c : children) {
      if (!c.process().isAlive()) return c;
    }
    return null;
  }

  /** The last lines of a child's log, each prefixed with {@code member N | }. */
  public List<String> logTail(Child child) {
    try {
      List<String> lines = Files.readAllLines(child.log(), StandardCharsets.UTF_8);
      List<String> tail = lines.subList(Math.max(0, lines.size() - LOG_TAIL_LINES), lines.size());
      return tail.stream().map(l -> "member " + child.number() + " | " + l).toList();
    } catch (IOException e) {
      return List.of("member " + child.number() + " | (log unreadable: " + e.getMessage() + ")");
    }
  }

  /** Keeps the logs (they are named in an error message) instead of deleting them on close. */
  public Path logDir() {
    return logDir;
  }

  /** Stops every child (SIGTERM, then SIGKILL after 10 s) and waits for them; idempotent. */
  @Override
  public void close() {
    close(Duration.ofSeconds(10));
  }

  /** Stops every child (SIGTERM, then SIGKILL after {@code grace}) and waits for them; idempotent. */
  public synchronized void close(Duration grace) {
    if (closed) return;
    closed = true;
    for (Child c : children) c.process().destroy();
    long deadline = System.nanoTime() + grace.toNanos();
    for (Child c : children) {
      waitFor(c.process(), deadline - System.nanoTime());
    }
    for (Child c : children) {
      if (c.process().isAlive()) {
        c.process().destroyForcibly();
        waitFor(c.process(), TimeUnit.SECONDS.toNanos(5));
      }
    }
  }

  /** Deletes the log files (after a run that went well). */
  public void deleteLogs() {
    for (Child c : children) {
      try {
        Files.deleteIfExists(c.log());
      } catch (IOException e) {
        // Best effort.
      }
    }
    try {
      Files.deleteIfExists(logDir);
    } catch (IOException e) {
      // Best effort.
    }
  }

  private static void waitFor(Process p, long nanos) {
    try {
      p.waitFor(Math.max(0, nanos), TimeUnit.NANOSECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
