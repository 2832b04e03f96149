package io.fabemu.app;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabemu.app.member.LocalMembers;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;

/**
 * Members that find each other through the Kubernetes API, for real: {@code fabemu member --discovery
 * kubernetes-api} JVMs, each on its own loopback address (127.0.0.2 to .4, as pods have their own IPs; Linux routes
 * all of 127.0.0.0/8 to the loopback interface), ask a {@link StandInKubernetesApi} (HTTPS, bearer token, the
 * service-account files) for the pods, probe each other's management endpoints and form a cluster through Pekko's
 * cluster bootstrap; a coordinator ({@code fabemu run --discovery kubernetes-api}) joins it the same way. Nothing
 * leaves 127.0.0.0/8.
 *
 * <p>The tests share the members and run in order: the cluster forms only once the required contact points answer
 * ({@code /ready} false until then, {@code /alive} true); a run gives the one-member digest; a member killed mid-run
 * gives exit code 3 with the finished cases written.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class KubernetesDiscoveryClusterTest {
  private static final String SELECTOR = "app.kubernetes.io/name=fabemu";
  private static final List<String> MEMBER_IPS = List.of("127.0.0.2", "127.0.0.3", "127.0.0.4");
  /** 4 TORs: a run can be spread over the 3 members and the coordinator. */
  private static final String SMALL_SCENARIO = """
      name = k8s-small
      seed = 7
      topology { kind = leaf-spine, hosts = 8, hosts-per-tor = 2, spines = 1 }
      workload { algorithms = [ring], sizes = [4 B, 64 KiB], iterations = 1, warmup = 0 }
      """;
  private static final Path QUICKSTART = Path.of("..", "examples", "quickstart.conf");

  /** Static: the members, the API and their files outlive each test (one folder for the class). */
  @TempDir
  static Path dir;

  private StandInKubernetesApi api;
  private int managementPort;
  private final Map<String, Process> processes = new LinkedHashMap<>();
  private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

  @BeforeAll
  void startApi() throws Exception {
    api = StandInKubernetesApi.start(SELECTOR, dir);
    managementPort = portFreeOnAll(List.of("127.0.0.2", "127.0.0.3", "127.0.0.4", "127.0.0.5", "127.0.0.6"));
  }

  @AfterAll
  void stopEverything() throws Exception {
    for (Process p : processes.values()) p.destroy();
    for (Process p : processes.values()) {
      if (!p.waitFor(15, TimeUnit.SECONDS)) p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
    }
    if (api != null) api.close();
  }

  @Test
  @Order(1)
  void shouldBeAliveButNotReadyUntilTheRequiredContactPointsAnswerThenFormTheCluster() throws Exception {
    // Three member JVMs start at once, but the API lists two pods at first: fewer than the 3 required.
    api.putPod("fabemu-0", MEMBER_IPS.get(0), managementPort, "member");
    api.putPod("fabemu-1", MEMBER_IPS.get(1), managementPort, "member");
    for (int i = 0; i < MEMBER_IPS.size(); i++) startMember(i);
    for (String ip : MEMBER_IPS) {
      awaitTrue(ip + "'s /alive", Duration.ofSeconds(60), () -> status(ip, "/alive") == 200);
    }
    // Longer than bootstrap's stable margin (5 s) and a few discovery rounds: with 2 required, a cluster would
    // have formed by now.
    int listsBefore = api.podListsServed();
    long notBefore = System.nanoTime() + TimeUnit.SECONDS.toNanos(7);
    while (System.nanoTime() < notBefore) {
      for (String ip : MEMBER_IPS) assertThat(status(ip, "/ready")).as(ip + "'s /ready").isEqualTo(500);
      Thread.sleep(500);
    }
    assertThat(api.podListsServed()).as("discovery asked the API meanwhile").isGreaterThan(listsBefore + 3);
    assertThat(status(MEMBER_IPS.get(0), "/alive")).isEqualTo(200);
    // Only health and bootstrap's contact point are served, on the member's own address only.
    assertThat(bootstrapSeedNodes(MEMBER_IPS.get(0)))
        .matches("\\{\"seedNodes\":\\[],\"selfNode\":\"pekko://fabemu@127\\.0\\.0\\.2:\\d+\"}");
    assertThat(status(MEMBER_IPS.get(0), "/cluster/members")).isEqualTo(404);
    assertThat(refused("127.0.0.1")).as("management endpoint on 127.0.0.1").isTrue();

    api.putPod("fabemu-2", MEMBER_IPS.get(2), managementPort, "member");
    for (int i = 0; i < MEMBER_IPS.size(); i++) {
      int member = i;
      awaitTrue("member " + i + " up", Duration.ofSeconds(60), () -> read("member-" + member + ".out")
          .contains("fabemu member up: " + MEMBER_IPS.get(member) + ":"));
      awaitTrue("member " + i + "'s /ready", Duration.ofSeconds(20),
          () -> status(MEMBER_IPS.get(member), "/ready") == 200);
    }
    assertThat(read("member-0.out") + read("member-1.out") + read("member-2.out"))
        .contains("found through the Kubernetes API, management endpoint 127.0.0.4:" + managementPort);
    assertThat(api.rejected()).isEmpty();
  }

  @Test
  @Order(2)
  void shouldGiveTheOneMemberDigestWhenACoordinatorJoinsThroughTheKubernetesApi() throws Exception {
    Path scenario = dir.resolve("small.conf");
    Files.writeString(scenario, SMALL_SCENARIO);
    Path out = dir.resolve("four");
    api.putPod("fabemu-run-a", "127.0.0.5", managementPort, "coordinator");
    Process coordinator = start("coordinator-a", "127.0.0.5", "run", scenario.toString(), "--members", "4",
        "--member-timeout", "60", "--out", out.toString(), "--no-progress");
    boolean finished = coordinator.waitFor(180, TimeUnit.SECONDS);
    assertThat(finished).as("run finished; log:%n%s", read("coordinator-a.err")).isTrue();
    assertThat(coordinator.exitValue()).as("exit code; log:%n%s", read("coordinator-a.err")).isZero();
    api.removePod("fabemu-run-a");

    ByteArrayOutputStream sink = new ByteArrayOutputStream();
    PrintStream quiet = new PrintStream(sink, true, StandardCharsets.UTF_8);
    Path one = dir.resolve("one");
    assertThat(Main.execute(new String[] {"run", scenario.toString(), "--no-progress", "--out", one.toString()},
        quiet, quiet)).isZero();

    assertThat(digest(out)).isEqualTo(digest(one));
    assertThat(Files.readString(out.resolve("results.csv"))).isEqualTo(Files.readString(one.resolve("results.csv")));
    // The tables on stdout are the one-member run's (wall time and window count aside).
    assertThat(summary(read("coordinator-a.out"))).isEqualTo(summary(sink.toString(StandardCharsets.UTF_8)));
    assertThat(api.rejected()).isEmpty();
  }

  @Test
  @Order(3)
  void shouldExitThreeWithTheFinishedCasesWrittenWhenAMemberIsKilledMidRun() throws Exception {
    Path out = dir.resolve("lost");
    api.putPod("fabemu-run-b", "127.0.0.6", managementPort, "coordinator");
    // The quickstart runs well over 20 s on four JVMs; the progress bar shows once operations complete.
    Process coordinator = start("coordinator-b", "127.0.0.6", "run", QUICKSTART.toString(), "--members", "4",
        "--member-timeout", "60", "--out", out.toString(), "--progress");
    awaitTrue("the run under way (progress shown)", Duration.ofSeconds(120),
        () -> read("coordinator-b.err").contains("virtual ") || !coordinator.isAlive());
    assertThat(coordinator.isAlive()).as("coordinator still running; log:%n%s", read("coordinator-b.err")).isTrue();

    Process victim = processes.get("member-2");
    victim.destroyForcibly();
    long killedAt = System.nanoTime();
    boolean finished = coordinator.waitFor(60, TimeUnit.SECONDS);
    long tookMs = (System.nanoTime() - killedAt) / 1_000_000;

    String log = read("coordinator-b.err");
    assertThat(finished).as("coordinator ended; log:%n%s", log).isTrue();
    assertThat(coordinator.exitValue()).as(log).isEqualTo(ExitCodes.LOST_MEMBER);
    assertThat(tookMs).isLessThan(15_000);
    List<String> errors = log.lines().map(l -> l.replaceAll(".*\r", "")).filter(l -> l.startsWith("fabemu:"))
        .toList();
    assertThat(errors).hasSize(1);
    assertThat(errors.get(0)).startsWith("fabemu: lost member").contains("127.0.0.4:");
    JsonNode json = new ObjectMapper().readTree(out.resolve("results.json").toFile());
    assertThat(json.get("complete").asBoolean()).isFalse();
    assertThat(json.get("incompleteReason").asText()).contains("127.0.0.4:");
  }

  /** Starts member {@code i} on its pod address, with a free remoting port and the shared management port. */
  private void startMember(int i) throws IOException {
    start("member-" + i, MEMBER_IPS.get(i), "member", "--port", "0", "--parent-pid",
        Long.toString(ProcessHandle.current().pid()));
  }

  /**
   * Starts {@code fabemu ARGS --discovery kubernetes-api ...} bound to {@code ip} as a JVM that sees the stand-in
   * API as a pod sees the real one: the variables Kubernetes sets and the service-account files (here through
   * Pekko's settings of their paths). stdout and stderr go to NAME.out and NAME.err.
   */
  private Process start(String name, String ip, String... args) throws IOException {
    List<String> cmd = new ArrayList<>(List.of(Paths.get(System.getProperty("java.home"), "bin", "java").toString(),
        "--add-opens", "java.base/sun.nio.ch=ALL-UNNAMED", "--add-opens", "java.base/java.nio=ALL-UNNAMED"));
    cmd.addAll(LocalMembers.SMALL_MACHINE_OPTIONS);
    cmd.addAll(List.of(
        "-Dpekko.discovery.kubernetes-api.api-ca-path=" + api.caFile(),
        "-Dpekko.discovery.kubernetes-api.api-token-path=" + api.tokenFile(),
        "-Dpekko.discovery.kubernetes-api.pod-namespace-path=" + api.namespaceFile(),
        // Bootstrap's progress in the logs, shown when an assertion fails.
        "-Dpekko.loglevel=INFO", "-Dorg.slf4j.simpleLogger.defaultLogLevel=info",
        "-cp", System.getProperty("java.class.path"), Main.class.getName()));
    cmd.addAll(List.of(args));
    cmd.addAll(List.of("--discovery", "kubernetes-api", "--host", ip, "--management-port",
        Integer.toString(managementPort), "--required-contact-points", "3", "--transport", "tcp"));
    ProcessBuilder pb = new ProcessBuilder(cmd)
        .redirectOutput(dir.resolve(name + ".out").toFile())
        .redirectError(dir.resolve(name + ".err").toFile());
    pb.environment().put("KUBERNETES_SERVICE_HOST", "127.0.0.1");
    pb.environment().put("KUBERNETES_SERVICE_PORT", Integer.toString(api.port()));
    Process p = pb.start();
    processes.put(name, p);
    return p;
  }

  /** The HTTP status of GET {@code path} on the management endpoint of {@code ip}; -1 when nothing answers. */
  private int status(String ip, String path) {
    try {
      HttpRequest request = HttpRequest.newBuilder(URI.create("http://" + ip + ":" + managementPort + path))
          .timeout(Duration.ofSeconds(5)).GET().build();
      return http.send(request, HttpResponse.BodyHandlers.discarding()).statusCode();
    } catch (IOException e) {
      return -1;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return -1;
    }
  }

  /** The body of {@code ip}'s bootstrap route (its seed nodes and own address), or the failure. */
  private String bootstrapSeedNodes(String ip) throws IOException, InterruptedException {
    HttpRequest request = HttpRequest.newBuilder(URI.create("http://" + ip + ":" + managementPort
        + "/bootstrap/seed-nodes")).timeout(Duration.ofSeconds(5)).GET().build();
    HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
    return response.statusCode() == 200 ? response.body() : "HTTP " + response.statusCode();
  }

  /** Whether a connection to the management port on {@code ip} is refused (nothing listens there). */
  private boolean refused(String ip) {
    try (java.net.Socket s = new java.net.Socket()) {
      s.connect(new InetSocketAddress(ip, managementPort), 2000);
      return false;
    } catch (ConnectException e) {
      return true;
    } catch (IOException e) {
      return false;
    }
  }

  private String read(String file) {
    try {
      Path p = dir.resolve(file);
      return Files.exists(p) ? Files.readString(p, StandardCharsets.UTF_8) : "";
    } catch (IOException e) {
      return "";
    }
  }

  private void awaitTrue(String what, Duration timeout, BooleanSupplier condition) throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (!condition.getAsBoolean()) {
      if (System.nanoTime() > deadline) {
        StringBuilder logs = new StringBuilder();
        for (String name : processes.keySet()) {
          List<String> lines = read(name + ".err").lines().toList();
          logs.append("--- ").append(name).append(" (last lines of stderr):\n");
          lines.subList(Math.max(0, lines.size() - 15), lines.size())
              .forEach(l -> logs.append(l).append('\n'));
        }
        throw new AssertionError("timed out waiting for " + what + "; rejected API requests: " + api.rejected()
            + "\n" + logs);
      }
      Thread.sleep(200);
    }
  }

  /** A port no one listens on at any of {@code ips} (each pod has the same management port). */
  private static int portFreeOnAll(List<String> ips) throws IOException {
    for (int attempt = 0; attempt < 50; attempt++) {
      int port;
      try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getByName(ips.get(0)))) {
        port = s.getLocalPort();
      }
      boolean free = true;
      for (String ip : ips) {
        try (ServerSocket s = new ServerSocket(port, 1, InetAddress.getByName(ip))) {
          // Free here.
        } catch (IOException e) {
          free = false;
        }
      }
      if (free) return port;
    }
    throw new IllegalStateException("no port free on all of " + ips);
  }

  private static String digest(Path outDir) throws IOException {
    JsonNode json = new ObjectMapper().readTree(outDir.resolve("results.json").toFile());
    assertThat(json.get("complete").asBoolean()).isTrue();
    assertThat(json.get("wrongElements").asLong()).isZero();
    return json.get("digest").asText();
  }

  /** stdout without what differs between a one-member and a distributed run: wall time and the window count. */
  private static String summary(String stdout) {
    return stdout.replaceAll("\\d+ events/s \\(wall [^)]*\\)", "").replaceAll("\\d+ windows", "N windows");
  }
}
