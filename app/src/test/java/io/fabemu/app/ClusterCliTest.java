package io.fabemu.app;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabemu.cluster.MemberLostException;
import io.fabemu.cluster.MemberSettings;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The cluster options of the CLI and the mapping of a lost member, with a fake executor (no cluster starts); the
 * commands that run a scenario share them through {@link CommandPipeline}, so both are checked where it matters.
 */
class ClusterCliTest extends CliTestBase {

  private final Fixtures.FakeExecutor executor = new Fixtures.FakeExecutor();

  @Override
  protected ScenarioExecutor executor() {
    return executor;
  }

  @Test
  void shouldExitThreeWithOneLineAndWriteThePartialResultMarkedIncompleteWhenAMemberIsLost() throws Exception {
    String message = "lost member 2 (pekko://fabemu@127.0.0.1:40001); last completed window ended at virtual "
        + "time 1.2 ms";
    executor.failure = new MemberLostException(message, Fixtures.result(), null);
    Path out = dir.resolve("out");

    int code = fabemu("run", tinyScenario().toString(), "--out", out.toString(), "--no-progress");

    assertThat(code).isEqualTo(ExitCodes.LOST_MEMBER);
    assertThat(stderr.lines().toList()).containsExactly("fabemu: " + message);
    assertThat(stdout).contains("# fabemu allreduce latency, algorithm ring");
    JsonNode json = new ObjectMapper().readTree(out.resolve("results.json").toFile());
    assertThat(json.get("complete").asBoolean()).isFalse();
    assertThat(json.get("incompleteReason").asText()).isEqualTo(message);
    assertThat(json.get("cases")).hasSize(2);
    assertThat(Files.readAllLines(out.resolve("results.csv"))).hasSize(3);
  }

  @Test
  void shouldKeepThePartialResultsOwnReasonWhenItHasOne() {
    var partial = CommandPipeline.markIncomplete(Fixtures.result(), "lost member 3");
    assertThat(partial.complete()).isFalse();
    assertThat(partial.incompleteReason()).isEqualTo("lost member 3");
    assertThat(CommandPipeline.markIncomplete(partial, "other").incompleteReason()).isEqualTo("lost member 3");
    assertThat(CommandPipeline.markIncomplete(null, "x")).isNull();
  }

  @Test
  void shouldKeepWhatTheFaultsDidWhenAWholeFaultedRunIsMarkedIncomplete() {
    // A member lost during the run without faults leaves the faulted run, whole but without the comparison.
    var faulted = Fixtures.faultedResult(0);
    var partial = CommandPipeline.markIncomplete(faulted, "lost member 2");
    assertThat(partial.complete()).isFalse();
    assertThat(partial.faults()).isEqualTo(faulted.faults());
    assertThat(partial.faultImpacts()).isEqualTo(faulted.faultImpacts());
  }

  @Test
  void shouldExitThreeWithOneLineAndWriteNothingWhenAMemberIsLostBeforeAnythingFinished() throws Exception {
    executor.failure = new MemberLostException("lost member 2 before the first window", null, null);
    Path out = dir.resolve("out");

    assertThat(fabemu("run", tinyScenario().toString(), "--out", out.toString())).isEqualTo(3);
    assertThat(stderr.lines().toList()).containsExactly("fabemu: lost member 2 before the first window");
    assertThat(out.resolve("results.json")).doesNotExist();
  }

  @Test
  void shouldRefuseARunOnAnotherMemberCountThanTheScenariosPlacementBeforeAnythingStarts() {
    assertThat(fabemu("run", "../examples/placement-override.conf", "--members", "3")).isEqualTo(2);
    assertThat(stdout).isEmpty();
    assertThat(stderr.lines().toList()).containsExactly("../examples/placement-override.conf:28: cluster.placement: "
        + "lists 2 members, but the run is on 3 (--members 3); list one per member, or run on 2");
    assertThat(executor.ranSpec).isNull();
  }

  @Test
  void shouldRunOnOneMemberWithAWarningWhenTheScenarioPlacesSeveral() {
    assertThat(fabemu("run", "../examples/placement-override.conf", "--no-progress")).isZero();
    assertThat(stderr.lines().toList()).contains("fabemu: warning: cluster.placement lists 2 members; this run is on "
        + "one, which hosts every device (the placement applies to --members 2)");
  }

  /**
   * {@code command} ({@code run} or {@code osu-allreduce}) on the one-TOR tiny scenario or profile, then
   * {@code extra}.
   */
  private int runCommand(String command, String... extra) throws Exception {
    List<String> args = new ArrayList<>(command.equals("run") ? List.of("run", tinyScenario().toString())
        : List.of("osu-allreduce", "--profile", tinyProfile().toString(), "--nodes", "2", "--ppn", "1", "--mode",
            "host", "-m", "4:8"));
    args.addAll(List.of(extra));
    return fabemu(args.toArray(String[]::new));
  }

  @ParameterizedTest
  @ValueSource(strings = {"run", "osu-allreduce"})
  void shouldExitTwoWithOneLineBeforeAnythingIsPrintedWhenMembersIsBad(String command) throws Exception {
    assertThat(runCommand(command, "--members", "0")).isEqualTo(2);
    assertThat(stderr.lines().toList()).containsExactly("fabemu: --members must be at least 1, not 0");
    assertThat(stdout).isEmpty();

    // One TOR: it cannot be spread over 2 members.
    assertThat(runCommand(command, "--members", "2")).isEqualTo(2);
    assertThat(stderr.lines().toList()).hasSize(1);
    assertThat(stderr).startsWith("fabemu: --members 2: ").contains("at most 1");
    assertThat(stdout).isEmpty();
    assertThat(executor.ranSpec).isNull();
  }

  @Test
  void shouldExitThreeWithTheFinishedRowsPrintedAndWrittenWhenOsuAllreduceLosesAMember() throws Exception {
    String message = "lost member 2 (pekko://fabemu@127.0.0.1:40001) at virtual time 1200000 ps";
    executor.failure = new MemberLostException(message, Fixtures.result(), null);
    Path out = dir.resolve("out");

    int code = runCommand("osu-allreduce", "--out", out.toString(), "--no-progress");

    assertThat(code).isEqualTo(ExitCodes.LOST_MEMBER);
    assertThat(stderr.lines().toList()).containsExactly("fabemu: " + message);
    // OMB's empty line and title, fabemu's line, the datatype, the column titles and the two finished cases.
    assertThat(stdout.lines().toList()).hasSize(5 + 2);
    assertThat(stdout).startsWith("\n# OSU MPI Allreduce Latency Test v7.5\n"
        + "# fabemu emulation (virtual time): tiny-profile, 2 nodes");
    JsonNode json = new ObjectMapper().readTree(out.resolve("results.json").toFile());
    assertThat(json.get("complete").asBoolean()).isFalse();
    assertThat(json.get("incompleteReason").asText()).isEqualTo(message);
    assertThat(Files.readAllLines(out.resolve("results.csv"))).hasSize(3);
  }

  @Test
  void shouldExitTwoWithTheValidNamesWhenTransportIsUnknown() throws Exception {
    assertThat(fabemu("run", tinyScenario().toString(), "--transport", "udp")).isEqualTo(2);
    assertThat(stderr.lines().toList()).hasSize(1);
    assertThat(stderr).contains("unknown transport 'udp'").contains("aeron-udp, tcp, tls-tcp");
  }

  @Test
  void shouldExitTwoWhenASeedNodeIsNotHostColonPort() {
    assertThat(fabemu("member", "--seed-nodes", "127.0.0.1")).isEqualTo(2);
    assertThat(stderr.lines().toList()).hasSize(1);
    assertThat(stderr).contains("seed node '127.0.0.1' is not HOST:PORT");
  }

  @Test
  void shouldRequireSeedNodesForAMember() {
    assertThat(fabemu("member")).isEqualTo(2);
    assertThat(stderr).contains("--seed-nodes");
  }

  @Test
  void shouldParseSeveralSeedNodes() {
    var seeds = MemberSettings.parseSeedNodes("10.0.0.1:25520, host-b:25521,[::1]:7");
    assertThat(seeds).extracting(MemberSettings::hostPort)
        .containsExactly("10.0.0.1:25520", "host-b:25521", "[::1]:7");
    assertThat(seeds.get(0).system()).isEqualTo("fabemu");
  }

  @Test
  void shouldFailOnOneLineWhenAMemberCannotJoinItsSeedsInTime() {
    // A seed on 127.0.0.1 that nobody serves: the member gives up after its join timeout.
    int code = fabemu("member", "--seed-nodes", "127.0.0.1:9", "--port", "0", "--join-timeout", "3");
    assertThat(code).isEqualTo(1);
    List<String> errors = stderr.lines().filter(l -> l.startsWith("fabemu")).toList();
    assertThat(errors).hasSize(1);
    assertThat(errors.get(0)).contains("did not come up within 3 s").contains("127.0.0.1:9");
  }
  @Test
  void shouldAllowExactlyOneWayToJoinOnOneLine() {
    assertThat(fabemu("member", "--seed-nodes", "127.0.0.1:25520", "--discovery", "kubernetes-api")).isEqualTo(2);
    assertThat(stderr.lines().toList())
        .containsExactly("fabemu: --seed-nodes and --discovery kubernetes-api are two ways to join: give one");

    assertThat(fabemu("member", "--discovery", "seed-nodes")).isEqualTo(2);
    assertThat(stderr.lines().toList())
        .containsExactly("fabemu: --discovery seed-nodes needs --seed-nodes HOST:PORT[,...]");

    assertThat(fabemu("member")).isEqualTo(2);
    assertThat(stderr.lines().toList()).containsExactly("fabemu: give --seed-nodes HOST:PORT[,...] or --discovery "
        + "kubernetes-api: how this member finds the cluster");

    assertThat(fabemu("member", "--seed-nodes", "127.0.0.1:25520", "--management-port", "9000")).isEqualTo(2);
    assertThat(stderr.lines().toList())
        .containsExactly("fabemu: --management-port goes with --discovery kubernetes-api");
    assertThat(fabemu("member", "--seed-nodes", "127.0.0.1:25520", "--pod-label-selector", "app=x")).isEqualTo(2);
    assertThat(stderr.lines().toList())
        .containsExactly("fabemu: --pod-label-selector goes with --discovery kubernetes-api");

    assertThat(fabemu("member", "--discovery", "dns")).isEqualTo(2);
    assertThat(stderr.lines().toList()).hasSize(1);
    assertThat(stderr).contains("unknown discovery method 'dns' (expected one of: seed-nodes, kubernetes-api)");
  }

  @Test
  void shouldCheckTheKubernetesOptionsOnOneLine() {
    assertThat(fabemu("member", "--discovery", "kubernetes-api", "--management-port", "0")).isEqualTo(2);
    assertThat(stderr.lines().toList()).containsExactly("fabemu: --management-port 0 is out of range (1 to 65535)");

    // Both on TCP: they cannot share the port (Aeron's UDP could).
    assertThat(fabemu("member", "--discovery", "kubernetes-api", "--port", "8558")).isEqualTo(2);
    assertThat(stderr.lines().toList()).containsExactly("fabemu: --management-port 8558 is the member's --port too: "
        + "give them different ports");

    assertThat(fabemu("member", "--discovery", "kubernetes-api", "--required-contact-points", "0")).isEqualTo(2);
    assertThat(stderr.lines().toList())
        .containsExactly("fabemu: --required-contact-points must be at least 1, not 0");

    assertThat(fabemu("member", "--discovery", "kubernetes-api", "--pod-label-selector", " ")).isEqualTo(2);
    assertThat(stderr.lines().toList()).containsExactly("fabemu: --pod-label-selector must not be empty");
  }

  @ParameterizedTest
  @ValueSource(strings = {"run", "osu-allreduce"})
  void shouldExitTwoBeforeAnythingIsPrintedWhenARunHasTwoWaysToJoin(String command) throws Exception {
    assertThat(runCommand(command, "--seed-nodes", "127.0.0.1:25520", "--discovery", "kubernetes-api")).isEqualTo(2);
    assertThat(stderr.lines().toList())
        .containsExactly("fabemu: --seed-nodes and --discovery kubernetes-api are two ways to join: give one");
    assertThat(stdout).isEmpty();

    assertThat(runCommand(command, "--required-contact-points", "3")).isEqualTo(2);
    assertThat(stderr.lines().toList())
        .containsExactly("fabemu: --required-contact-points goes with --discovery kubernetes-api");
    assertThat(executor.ranSpec).isNull();
  }

  @ParameterizedTest
  @ValueSource(strings = {"member", "run"})
  void shouldFailOnOneLineWhenAskedToJoinThroughTheKubernetesApiOutsideAPod(String command) throws Exception {
    Assumptions.assumeTrue(System.getenv("KUBERNETES_SERVICE_HOST") == null, "this machine is a Kubernetes pod");
    int code = command.equals("member") ? fabemu("member", "--discovery", "kubernetes-api", "--port", "0")
        : runCommand("run", "--discovery", "kubernetes-api", "--no-progress");

    assertThat(code).isEqualTo(1);
    List<String> errors = stderr.lines().filter(l -> l.startsWith("fabemu")).toList();
    assertThat(errors).containsExactly("fabemu: cannot join through the Kubernetes API: the environment variable "
        + "KUBERNETES_SERVICE_HOST (the Kubernetes API server's host) is not set: not in a Kubernetes pod? "
        + "(pekko.discovery.kubernetes-api.api-service-host-env-name)");
    assertThat(executor.ranSpec).as("a run that joins through the API never runs alone").isNull();
  }
}
