package io.fabemu.app;

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
import java.util.concurrent.TimeUnit;

/**
 * Member JVMs started by {@code fabemu run --members N} on this machine: each runs {@code fabemu member} with the
 * same java, class path and {@code --add-opens} flags as this JVM, joins the coordinator's member, binds 127.0.0.1
 * on a free port, and stops when this process exits. Each one's stdout and stderr go to a log file, shown when
 * something fails.
 *
 * <p>Contract: {@link #close()} stops every child (SIGTERM, up to 10 s to leave, then SIGKILL) and is safe to call
 * more than once and from a shutdown hook; children also watch this process ({@code --parent-pid}) and leave when
 * it dies, so none is orphaned even when this JVM is killed.
 */
final class LocalMembers implements AutoCloseable {
  private static final List<String> PASSED_ON_PREFIXES = List.of("-Xmx", "-Xms", "-Xss", "-Dpekko.", "-Dfabemu.",
      "-Daeron.", "-Dorg.slf4j.");
  private static final int LOG_TAIL_LINES = 20;

  /** One member JVM: its number (the coordinator is member 1), process and log. */
  record Child(int number, Process process, Path log) {}

  private final List<Child> children;
  private final Path logDir;
  private boolean closed;

  private LocalMembers(List<Child> children, Path logDir) {
    this.children = children;
    this.logDir = logDir;
  }

  /** Starts {@code count} members that join {@code seed} ({@code HOST:PORT}) over {@code transport}. */
  static LocalMembers start(int count, String seed, Transport transport) throws IOException {
    Path logDir = Files.createTempDirectory("fabemu-members-");
    List<Child> started = new ArrayList<>();
    LocalMembers members = new LocalMembers(started, logDir);
    try {
      for (int i = 0; i < count; i++) {
        int number = i + 2;
        Path log = logDir.resolve("member-" + number + ".log");
        ProcessBuilder pb = new ProcessBuilder(command(seed, transport))
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

  /** The command of one member JVM. */
  static List<String> command(String seed, Transport transport) {
    List<String> cmd = new ArrayList<>();
    cmd.add(Paths.get(System.getProperty("java.home"), "bin", "java").toString());
    cmd.add("--add-opens");
    cmd.add("java.base/sun.nio.ch=ALL-UNNAMED");
    cmd.add("--add-opens");
    cmd.add("java.base/java.nio=ALL-UNNAMED");
    for (String arg : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
      if (PASSED_ON_PREFIXES.stream().anyMatch(arg::startsWith)) cmd.add(arg);
    }
    cmd.add("-cp");
    cmd.add(System.getProperty("java.class.path"));
    cmd.add(Main.class.getName());
    cmd.addAll(List.of("member", "--seed-nodes", seed, "--host", "127.0.0.1", "--port", "0",
        "--transport", transport.configName(), "--parent-pid", Long.toString(ProcessHandle.current().pid())));
    return cmd;
  }

  List<Child> children() {
    return List.copyOf(children);
  }

  /** The first child whose process has exited, or null. */
  Child firstExited() {
    for (Child c : children) {
      if (!c.process().isAlive()) return c;
    }
    return null;
  }

  /** The last lines of a child's log, each prefixed with {@code member N | }. */
  List<String> logTail(Child child) {
    try {
      List<String> lines = Files.readAllLines(child.log(), StandardCharsets.UTF_8);
      List<String> tail = lines.subList(Math.max(0, lines.size() - LOG_TAIL_LINES), lines.size());
      return tail.stream().map(l -> "member " + child.number() + " | " + l).toList();
    } catch (IOException e) {
      return List.of("member " + child.number() + " | (log unreadable: " + e.getMessage() + ")");
    }
  }

  /** Keeps the logs (they are named in an error message) instead of deleting them on close. */
  Path logDir() {
    return logDir;
  }

  /** Stops every child (SIGTERM, then SIGKILL after 10 s) and waits for them; idempotent. */
  @Override
  public void close() {
    close(Duration.ofSeconds(10));
  }

  /** Stops every child (SIGTERM, then SIGKILL after {@code grace}) and waits for them; idempotent. */
  synchronized void close(Duration grace) {
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
  void deleteLogs() {
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
