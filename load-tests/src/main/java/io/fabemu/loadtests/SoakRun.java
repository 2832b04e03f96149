package io.fabemu.loadtests;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabemu.app.Main;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * The soak run: consecutive runs of one faulted scenario on three cluster members until at least
 * {@code CASES} cases have run, every run checked against the one-member run, and the heap of every JVM watched.
 * Two {@code fabemu member} JVMs are started on 127.0.0.1 (one forms the cluster) and serve every run; this JVM is
 * the coordinator and third member of each ({@code fabemu run SCENARIO --members 3 --seed-nodes ...}, through
 * {@link Main#execute}), so all three JVMs live through the whole soak.
 *
 * <p>Checks: every run exits 0, complete, with the digest of the one-member run of the same scenario (run first, in
 * this JVM, on its embedded single-member cluster); the heap after a full collection, taken after every run in the
 * coordinator ({@link System#gc}, then the heap in use) and in each member ({@code jcmd PID GC.run}, then
 * {@code jstat -gc PID}: survivor, eden and old space in use), grows by at most {@code MAX_GROWTH_MIB} from its
 * value after the second run (the first warms up: classes, JIT, Pekko's pools) to the largest value after it.
 * Prints a Markdown table of the samples and the verdict; exit code 0 when every check held, 1 when one failed, 2
 * for bad arguments. The members are stopped (SIGTERM, then SIGKILL after 20 s) on every way out.
 *
 * <p>Usage: {@code SoakRun SCENARIO CASES MAX_GROWTH_MIB WORK_DIR}. Wall-clock time is read here only to report how
 * long runs took; it never reaches a run.
 */
public final class SoakRun {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final double MIB = 1024.0 * 1024.0;

  private SoakRun() {}

  /** One sample: after run {@code run}, {@code cases} cases in all; the heaps in MiB (coordinator, members). */
  private record Sample(int run, long cases, double runWallSeconds, double coordinatorMib, double[] memberMib) {}

  public static void main(String[] args) throws Exception {
    if (args.length != 4) {
      System.err.println("usage: SoakRun SCENARIO CASES MAX_GROWTH_MIB WORK_DIR");
      System.exit(2);
    }
    Path scenario = Path.of(args[0]);
    long targetCases = Long.parseLong(args[1]);
    double maxGrowthMib = Double.parseDouble(args[2]);
    Path work = Files.createDirectories(Path.of(args[3]));
    // As Main.main: slf4j ready before Pekko's logger starts on another thread (else a "replay" notice).
    org.slf4j.LoggerFactory.getILoggerFactory();
    System.exit(soak(scenario, targetCases, maxGrowthMib, work));
  }

  private static int soak(Path scenario, long targetCases, double maxGrowthMib, Path work) throws Exception {
    PrintStream quiet = new PrintStream(OutputStream.nullOutputStream(), true, StandardCharsets.UTF_8);
    Path reference = work.resolve("one-member");
    int code = Main.execute(new String[] {"run", scenario.toString(), "--no-progress", "--out", reference.toString()},
        quiet, System.err);
    if (code != 0) {
      System.err.println("soak: the one-member run failed with exit code " + code);
      return 1;
    }
    JsonNode one = JSON.readTree(reference.resolve("results.json").toFile());
    String digest = one.get("digest").asText();
    int casesPerRun = one.get("cases").size();
    JsonNode faults = one.path("faults").path("totals");
    System.out.printf(Locale.ROOT, "# soak: %s, %d cases per run, one-member digest %s; faults per run: %d fault "
            + "events, %d packets lost, %d corrupted, %d messages resent%n", scenario, casesPerRun, digest,
        one.path("faults").path("events").size(), faults.path("lostPackets").asLong(),
        faults.path("corruptedPackets").asLong(), faults.path("resentMessages").asLong());

    int firstPort = freePort();
    String seed = "127.0.0.1:" + firstPort;
    List<Process> members = new ArrayList<>();
    try {
      members.add(startMember(work, 1, seed, firstPort));
      awaitUp(work.resolve("member-1.log"), members.get(0));
      members.add(startMember(work, 2, seed, freePort()));
      awaitUp(work.resolve("member-2.log"), members.get(1));

      List<Sample> samples = new ArrayList<>();
      long cases = 0;
      int run = 0;
      boolean allGood = true;
      while (cases < targetCases) {
        run++;
        Path out = work.resolve("run-" + run);
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        long start = System.nanoTime();
        code = Main.execute(new String[] {"run", scenario.toString(), "--members", "3", "--seed-nodes", seed,
            "--host", "127.0.0.1", "--transport", "tcp", "--no-progress", "--out", out.toString()}, quiet,
            new PrintStream(err, true, StandardCharsets.UTF_8));
        double wall = (System.nanoTime() - start) / 1e9;
        String problem = check(code, out, digest, casesPerRun);
        if (problem != null) {
          System.out.printf(Locale.ROOT, "# run %d: %s; its stderr:%n%s", run, problem,
              err.toString(StandardCharsets.UTF_8));
          allGood = false;
          break;
        }
        cases += casesPerRun;
        deleteTree(out);
        double[] memberMib = new double[members.size()];
        for (int i = 0; i < members.size(); i++) memberMib[i] = heapAfterGcMib(members.get(i).pid());
        samples.add(new Sample(run, cases, wall, coordinatorHeapAfterGcMib(), memberMib));
        Sample s = samples.get(samples.size() - 1);
        System.out.printf(Locale.ROOT, "# run %d: %d cases, %.1f s, heap after GC: coordinator %.1f MiB, members "
            + "%.1f / %.1f MiB%n", run, cases, wall, s.coordinatorMib(), memberMib[0], memberMib[1]);
      }
      allGood &= report(samples, maxGrowthMib, cases, targetCases);
      return allGood ? 0 : 1;
    } finally {
      for (Process p : members) p.destroy();
      for (Process p : members) {
        if (!p.waitFor(20, TimeUnit.SECONDS)) p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
      }
    }
  }

  /** Null when run {@code out} went as it must, else what is wrong. */
  private static String check(int code, Path out, String digest, int casesPerRun) throws IOException {
    if (code != 0) return "exit code " + code;
    JsonNode r = JSON.readTree(out.resolve("results.json").toFile());
    if (!r.get("complete").asBoolean()) return "incomplete: " + r.get("incompleteReason").asText();
    if (r.get("wrongElements").asLong() != 0) return r.get("wrongElements").asLong() + " wrong elements";
    if (r.get("cases").size() != casesPerRun) return r.get("cases").size() + " cases, not " + casesPerRun;
    if (!r.get("digest").asText().equals(digest)) return "digest " + r.get("digest").asText() + ", not " + digest;
    return null;
  }

  /** Prints the samples and the verdict; true when every JVM's heap stayed within the bound. */
  private static boolean report(List<Sample> samples, double maxGrowthMib, long cases, long targetCases) {
    System.out.println();
    System.out.println("| Run | Cases | Run wall (s) | Coordinator heap after GC (MiB) | Member 1 (MiB) "
        + "| Member 2 (MiB) |");
    System.out.println("|----:|------:|-------------:|--------------------------------:|---------------:"
        + "|---------------:|");
    for (Sample s : samples) {
      System.out.printf(Locale.ROOT, "| %d | %d | %.1f | %.1f | %.1f | %.1f |%n", s.run(), s.cases(),
          s.runWallSeconds(), s.coordinatorMib(), s.memberMib()[0], s.memberMib()[1]);
    }
    if (samples.size() < 3) {
      System.out.printf(Locale.ROOT, "# soak: FAILED: %d runs, too few to judge the heap (%d of %d cases)%n",
          samples.size(), cases, targetCases);
      return false;
    }
    boolean flat = true;
    String[] names = {"coordinator", "member 1", "member 2"};
    for (int j = 0; j < names.length; j++) {
      double base = heap(samples.get(1), j);
      double peak = base;
      for (Sample s : samples.subList(1, samples.size())) peak = Math.max(peak, heap(s, j));
      double growth = peak - base;
      boolean ok = growth <= maxGrowthMib;
      flat &= ok;
      System.out.printf(Locale.ROOT, "# %s: heap after GC %.1f MiB after run 2, at most %.1f MiB after it: growth "
          + "%.1f MiB (bound %.1f MiB) %s%n", names[j], base, peak, growth, maxGrowthMib, ok ? "ok" : "FAILED");
    }
    System.out.printf(Locale.ROOT, "# soak: %s: %d runs, %d cases on 3 members, every digest equal to the "
        + "one-member run's%n", flat ? "ok" : "FAILED (heap grew)", samples.size(), cases);
    return flat;
  }

  private static double heap(Sample s, int jvm) {
    return jvm == 0 ? s.coordinatorMib() : s.memberMib()[jvm - 1];
  }

  private static double coordinatorHeapAfterGcMib() {
    System.gc();
    System.gc();
    return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed() / MIB;
  }

  /** A member's heap in use after a full collection: {@code jcmd PID GC.run}, then {@code jstat -gc PID}. */
  private static double heapAfterGcMib(long pid) throws IOException, InterruptedException {
    command("jcmd", Long.toString(pid), "GC.run");
    List<String> lines = command("jstat", "-gc", Long.toString(pid)).lines().filter(l -> !l.isBlank()).toList();
    String[] header = lines.get(0).trim().split("\\s+");
    String[] values = lines.get(1).trim().split("\\s+");
    double usedKib = 0;
    for (int i = 0; i < header.length; i++) {
      if (List.of("S0U", "S1U", "EU", "OU").contains(header[i])) usedKib += Double.parseDouble(values[i]);
    }
    return usedKib / 1024.0;
  }

  private static String command(String... cmd) throws IOException, InterruptedException {
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
    String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
      throw new IOException(String.join(" ", cmd) + " failed: " + output.strip());
    }
    return output;
  }

  /** Starts {@code fabemu member} number {@code n} on 127.0.0.1:{@code port}, joining {@code seed}. */
  private static Process startMember(Path work, int n, String seed, int port) throws IOException {
    List<String> cmd = new ArrayList<>(List.of(Paths.get(System.getProperty("java.home"), "bin", "java").toString(),
        "--add-opens", "java.base/sun.nio.ch=ALL-UNNAMED", "--add-opens", "java.base/java.nio=ALL-UNNAMED"));
    String opts = System.getenv("FABEMU_SOAK_MEMBER_JAVA_OPTS");
    if (opts != null && !opts.isBlank()) cmd.addAll(List.of(opts.strip().split("\\s+")));
    cmd.addAll(List.of("-Dorg.slf4j.simpleLogger.defaultLogLevel=warn", "-cp", System.getProperty("java.class.path"),
        Main.class.getName(), "member", "--seed-nodes", seed, "--host", "127.0.0.1", "--port", Integer.toString(port),
        "--transport", "tcp",
        // A soak stopped by Ctrl-C or a kill takes its members with it.
        "--parent-pid", Long.toString(ProcessHandle.current().pid())));
    return new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(work.resolve("member-" + n + ".log")
        .toFile()).start();
  }

  private static void awaitUp(Path log, Process member) throws IOException, InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
    while (System.nanoTime() < deadline && member.isAlive()) {
      if (Files.exists(log) && Files.readString(log).contains("fabemu member up: ")) return;
      Thread.sleep(100);
    }
    throw new IOException("member did not come up; its log " + log + ":\n"
        + (Files.exists(log) ? Files.readString(log) : "(none)"));
  }

  private static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return s.getLocalPort();
    }
  }

  private static void deleteTree(Path dir) throws IOException {
    try (var walk = Files.walk(dir)) {
      for (Path p : walk.sorted((a, b) -> b.getNameCount() - a.getNameCount()).toList()) Files.delete(p);
    }
  }
}
