package io.fabemu.app;

import java.io.IOException;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;

/**
 * Hosts for cluster tests: network namespaces, each with one address on 10.200.0.0/24 (host i has 10.200.0.(i+1)),
 * joined by a bridge in a further namespace. The addresses exist only inside those namespaces, which this helper
 * creates and deletes; nothing is sent anywhere else. A host's link can be taken down ({@link #cut}), which cuts it
 * off from the others as a failed cable or switch port would: its packets are dropped, no connection is reset.
 *
 * <p>Contract: {@link #create} needs root and {@code ip netns} (iproute2); {@link #unavailableReason} says why a
 * machine cannot, for the test to skip. {@link #close} stops the processes started here (SIGTERM, then SIGKILL after
 * 10 s) and deletes every namespace, also after a failed test. Names carry this JVM's pid, so namespaces a killed
 * test JVM left behind cannot collide.
 */
final class NetnsHosts implements AutoCloseable {
  private static final String SUBNET = "10.200.0.";

  private final String prefix;
  private final Path logDir;
  private final List<String> namespaces = new ArrayList<>();
  private final List<Process> processes = new ArrayList<>();

  private NetnsHosts(String prefix, Path logDir) {
    this.prefix = prefix;
    this.logDir = logDir;
  }

  /** Why this machine cannot run namespaced hosts, or null when it can. */
  static String unavailableReason() throws InterruptedException {
    String root = RootShell.rootMissingReason();
    if (root != null) return "network namespaces " + root;
    if (RootShell.run(List.of("ip", "-V")).code() != 0) return "iproute2's 'ip' is not available";
    String probe = "fbm" + (ProcessHandle.current().pid() % 100_000) + "-probe";
    RootShell.Result add = RootShell.run(List.of("ip", "netns", "add", probe));
    if (add.code() != 0) return "'ip netns add' is not allowed here: " + add.output().strip();
    RootShell.run(List.of("ip", "netns", "del", probe));
    return null;
  }

  /**
   * {@link #create} for the test {@code testName}, or, where this machine cannot run namespaced hosts, aborts the test
   * (skipped), printing why.
   */
  static NetnsHosts createOrSkip(String testName, int count, Path logDir) throws InterruptedException {
    String reason = unavailableReason();
    if (reason != null) {
      System.out.println(testName + " skipped: " + reason);
      Assumptions.abort(reason);
    }
    return create(count, logDir);
  }

  /** Creates {@code count} hosts on one bridge; the logs of the processes started on them go to {@code logDir}. */
  static NetnsHosts create(int count, Path logDir) throws InterruptedException {
    NetnsHosts hosts = new NetnsHosts("fbm" + (ProcessHandle.current().pid() % 100_000), logDir);
    try {
      String bridge = hosts.bridge();
      hosts.addNamespace(bridge);
      ip("-n", bridge, "link", "set", "lo", "up");
      ip("-n", bridge, "link", "add", "br0", "type", "bridge");
      ip("-n", bridge, "link", "set", "br0", "up");
      for (int i = 0; i < count; i++) {
        String host = hosts.host(i);
        hosts.addNamespace(host);
        // The veth pair is created with one end in each namespace: nothing appears in the root namespace.
        ip("-n", bridge, "link", "add", port(i), "type", "veth", "peer", "name", "eth0", "netns", host);
        ip("-n", bridge, "link", "set", port(i), "master", "br0");
        ip("-n", bridge, "link", "set", port(i), "up");
        ip("-n", host, "link", "set", "lo", "up");
        ip("-n", host, "addr", "add", address(i) + "/24", "dev", "eth0");
        ip("-n", host, "link", "set", "eth0", "up");
      }
    } catch (RuntimeException | InterruptedException e) {
      hosts.close();
      throw e;
    }
    return hosts;
  }

  /** Host i's address. */
  static String address(int i) {
    return SUBNET + (i + 1);
  }

  /** The log of the process started on host i: its stdout and stderr. */
  Path log(int i) {
    return logDir.resolve("host" + i + ".log");
  }

  /** Starts {@code fabemu ARGS} as a JVM inside host i's namespace (same pid as the JVM: ip execs it). */
  Process startFabemu(int i, String... args) throws IOException {
    List<String> cmd = new ArrayList<>(List.of("ip", "netns", "exec", host(i)));
    cmd.addAll(fabemuCommand(args));
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log(i).toFile()).start();
    processes.add(p);
    return p;
  }

  /** The command line of {@code fabemu ARGS} as a JVM with this JVM's java and class path. */
  static List<String> fabemuCommand(String... args) {
    return fabemuCommand(List.of(), args);
  }

  /** {@link #fabemuCommand(String...)} with {@code jvmOptions} for the JVM. */
  static List<String> fabemuCommand(List<String> jvmOptions, String... args) {
    List<String> cmd = new ArrayList<>(List.of(Paths.get(System.getProperty("java.home"), "bin", "java").toString(),
        "--add-opens", "java.base/sun.nio.ch=ALL-UNNAMED", "--add-opens", "java.base/java.nio=ALL-UNNAMED"));
    cmd.addAll(jvmOptions);
    cmd.addAll(List.of("-cp", System.getProperty("java.class.path"), Main.class.getName()));
    cmd.addAll(List.of(args));
    return cmd;
  }

  /** Cuts host i off the bridge: its port goes down, so everything it sends or is sent is dropped. */
  void cut(int i) throws InterruptedException {
    ip("-n", bridge(), "link", "set", port(i), "down");
  }

  @Override
  public void close() throws InterruptedException {
    for (Process p : processes) {
      p.destroy();
      if (!p.waitFor(10, TimeUnit.SECONDS)) p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
    }
    for (String ns : namespaces) RootShell.run(List.of("ip", "netns", "del", ns));
    namespaces.clear();
  }

  private String bridge() {
    return prefix + "-br";
  }

  private String host(int i) {
    return prefix + "-h" + i;
  }

  private static String port(int i) {
    return "p" + i;
  }

  private void addNamespace(String ns) throws InterruptedException {
    ip("netns", "add", ns);
    namespaces.add(ns);
  }

  private static void ip(String... args) throws InterruptedException {
    RootShell.check("ip", List.of(args));
  }
}
