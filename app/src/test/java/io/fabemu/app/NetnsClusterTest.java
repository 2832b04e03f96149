package io.fabemu.app;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Three members on three real hosts: three network namespaces, each with its own address on 10.200.0.0/24,
 * joined by a bridge in a fourth namespace. The addresses exist only inside those namespaces, which this test
 * creates and deletes; nothing is sent anywhere else. The 3-member run must give the digest of the 1-member run.
 *
 * <p>Needs root and {@code ip netns} (iproute2); where either is missing the test is skipped and says why.
 */
class NetnsClusterTest {
  private static final String SUBNET = "10.200.0.";
  private static final int PORT = 25520;
  private static final String SCENARIO = """
      name = netns
      seed = 5
      topology { kind = leaf-spine, hosts = 12, hosts-per-tor = 4, spines = 2 }
      workload { collective = allreduce, algorithms = [ring, recursive-doubling], sizes = [4 B, 4 KiB, 64 KiB]
                 iterations = 2, warmup = 1, ppn = 2 }
      """;

  /** Per-JVM names, so a test run left over by a killed JVM cannot collide with this one. */
  private final String prefix = "fbm" + (ProcessHandle.current().pid() % 100_000);
  private final List<String> namespaces = new ArrayList<>();
  private final List<Process> members = new ArrayList<>();

  @TempDir
  Path dir;

  @BeforeEach
  void createHosts() throws Exception {
    String reason = unavailableReason();
    if (reason != null) {
      System.out.println("NetnsClusterTest skipped: " + reason);
      Assumptions.abort(reason);
    }
    String bridge = prefix + "-br";
    addNamespace(bridge);
    ip("-n", bridge, "link", "set", "lo", "up");
    ip("-n", bridge, "link", "add", "br0", "type", "bridge");
    ip("-n", bridge, "link", "set", "br0", "up");
    for (int i = 0; i < 3; i++) {
      String host = host(i);
      addNamespace(host);
      // The veth pair is created with one end in each namespace: nothing appears in the root namespace.
      ip("-n", bridge, "link", "add", "p" + i, "type", "veth", "peer", "name", "eth0", "netns", host);
      ip("-n", bridge, "link", "set", "p" + i, "master", "br0");
      ip("-n", bridge, "link", "set", "p" + i, "up");
      ip("-n", host, "link", "set", "lo", "up");
      ip("-n", host, "addr", "add", address(i) + "/24", "dev", "eth0");
      ip("-n", host, "link", "set", "eth0", "up");
    }
  }

  @AfterEach
  void deleteHosts() throws Exception {
    for (Process member : members) {
      member.destroy();
      if (!member.waitFor(10, TimeUnit.SECONDS)) {
        member.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
      }
    }
    for (String ns : namespaces) {
      run(List.of("ip", "netns", "del", ns));
    }
  }

  @Test
  void shouldGiveTheOneMemberDigestWhenThreeMembersRunInThreeNamespaces() throws Exception {
    Path scenario = dir.resolve("netns.conf");
    Files.writeString(scenario, SCENARIO);
    String seed = address(1) + ":" + PORT;
    members.add(startInNamespace(1, "member", "--seed-nodes", seed, "--host", address(1), "--port", "" + PORT,
        "--transport", "tcp"));
    members.add(startInNamespace(2, "member", "--seed-nodes", seed, "--host", address(2), "--port", "" + PORT,
        "--transport", "tcp"));
    Path distributedOut = dir.resolve("three");
    Process coordinator = startInNamespace(0, "run", scenario.toString(), "--members", "3", "--seed-nodes", seed,
        "--host", address(0), "--port", "" + PORT, "--transport", "tcp", "--no-progress", "--out",
        distributedOut.toString());
    members.add(coordinator);
    boolean finished = coordinator.waitFor(240, TimeUnit.SECONDS);
    String coordinatorLog = Files.readString(dir.resolve("host0.log"));
    assertThat(finished).as("3-member run finished; log:%n%s", coordinatorLog).isTrue();
    assertThat(coordinator.exitValue()).as("exit code; log:%n%s", coordinatorLog).isZero();

    Path singleOut = dir.resolve("one");
    ByteArrayOutputStream sink = new ByteArrayOutputStream();
    PrintStream quiet = new PrintStream(sink, true, StandardCharsets.UTF_8);
    assertThat(Main.execute(new String[] {"run", scenario.toString(), "--no-progress", "--out", singleOut.toString()},
        quiet, quiet)).isZero();

    assertThat(digest(distributedOut)).isEqualTo(digest(singleOut));
  }

  private static String digest(Path outDir) throws IOException {
    JsonNode json = new ObjectMapper().readTree(outDir.resolve("results.json").toFile());
    assertThat(json.get("complete").asBoolean()).isTrue();
    assertThat(json.get("wrongElements").asLong()).isZero();
    return json.get("digest").asText();
  }

  private String host(int i) {
    return prefix + "-h" + i;
  }

  private static String address(int i) {
    return SUBNET + (i + 1);
  }

  /** Starts {@code fabemu ARGS} as a JVM inside host i's namespace; output goes to host{i}.log. */
  private Process startInNamespace(int i, String... args) throws IOException {
    List<String> cmd = new ArrayList<>(List.of("ip", "netns", "exec", host(i),
        Paths.get(System.getProperty("java.home"), "bin", "java").toString(),
        "--add-opens", "java.base/sun.nio.ch=ALL-UNNAMED", "--add-opens", "java.base/java.nio=ALL-UNNAMED",
        "-cp", System.getProperty("java.class.path"), Main.class.getName()));
    cmd.addAll(List.of(args));
    return new ProcessBuilder(cmd).redirectErrorStream(true)
        .redirectOutput(dir.resolve("host" + i + ".log").toFile()).start();
  }

  private void addNamespace(String ns) throws Exception {
    ip("netns", "add", ns);
    namespaces.add(ns);
  }

  private static void ip(String... args) throws Exception {
    List<String> cmd = new ArrayList<>();
    cmd.add("ip");
    cmd.addAll(List.of(args));
    Result r = run(cmd);
    if (r.code != 0) {
      throw new IllegalStateException(String.join(" ", cmd) + " failed (" + r.code + "): " + r.output);
    }
  }

  /** Why this machine cannot run the test, or null when it can. */
  private String unavailableReason() throws Exception {
    if (!"Linux".equals(System.getProperty("os.name"))) {
      return "network namespaces need Linux";
    }
    Result id = run(List.of("id", "-u"));
    if (id.code != 0 || !id.output.trim().equals("0")) {
      return "network namespaces need root (uid " + id.output.trim() + ")";
    }
    Result version = run(List.of("ip", "-V"));
    if (version.code != 0) {
      return "iproute2's 'ip' is not available";
    }
    String probe = prefix + "-probe";
    Result add = run(List.of("ip", "netns", "add", probe));
    if (add.code != 0) {
      return "'ip netns add' is not allowed here: " + add.output.trim();
    }
    run(List.of("ip", "netns", "del", probe));
    return null;
  }

  private record Result(int code, String output) {}

  private static Result run(List<String> cmd) throws Exception {
    Process p;
    try {
      p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
    } catch (IOException e) {
      return new Result(-1, e.getMessage());
    }
    String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (!p.waitFor(30, TimeUnit.SECONDS)) {
      p.destroyForcibly();
      return new Result(-1, "timed out: " + String.join(" ", cmd));
    }
    return new Result(p.exitValue(), output);
  }
}
