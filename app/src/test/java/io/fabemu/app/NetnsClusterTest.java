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
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Three members on three real hosts ({@link NetnsHosts}: three network namespaces joined by a bridge). The
 * 3-member run must give the digest of the 1-member run.
 *
 * <p>Needs root and {@code ip netns} (iproute2); where either is missing the test is skipped and says why.
 */
class NetnsClusterTest {
  private static final int PORT = 25520;
  private static final String SCENARIO = """
      name = netns
      seed = 5
      topology { kind = leaf-spine, hosts = 12, hosts-per-tor = 4, spines = 2 }
      workload { collective = allreduce, algorithms = [ring, recursive-doubling], sizes = [4 B, 4 KiB, 64 KiB]
                 iterations = 2, warmup = 1, ppn = 2 }
      """;

  private NetnsHosts hosts;

  @TempDir
  Path dir;

  @BeforeEach
  void createHosts() throws Exception {
    hosts = NetnsHosts.createOrSkip("NetnsClusterTest", 3, dir);
  }

  @AfterEach
  void deleteHosts() throws Exception {
    if (hosts != null) hosts.close();
  }

  @Test
  void shouldGiveTheOneMemberDigestWhenThreeMembersRunInThreeNamespaces() throws Exception {
    Path scenario = dir.resolve("netns.conf");
    Files.writeString(scenario, SCENARIO);
    String seed = NetnsHosts.address(1) + ":" + PORT;
    for (int i = 1; i <= 2; i++) {
      hosts.startFabemu(i, "member", "--seed-nodes", seed, "--host", NetnsHosts.address(i), "--port", "" + PORT,
          "--transport", "tcp");
    }
    Path distributedOut = dir.resolve("three");
    Process coordinator = hosts.startFabemu(0, "run", scenario.toString(), "--members", "3", "--seed-nodes", seed,
        "--host", NetnsHosts.address(0), "--port", "" + PORT, "--transport", "tcp", "--no-progress", "--out",
        distributedOut.toString());
    boolean finished = coordinator.waitFor(240, TimeUnit.SECONDS);
    String coordinatorLog = Files.readString(hosts.log(0));
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
}
