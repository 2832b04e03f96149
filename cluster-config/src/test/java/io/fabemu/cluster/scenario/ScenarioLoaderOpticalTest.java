package io.fabemu.cluster.scenario;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.typesafe.config.ConfigRenderOptions;
import io.fabemu.core.optical.ConnectionFormula;
import io.fabemu.core.optical.OcsSpec;
import io.fabemu.core.topology.LinkSpec;
import io.fabemu.core.topology.OpticalSpec;
import io.fabemu.core.topology.OpticalSpec.IntraServer;
import io.fabemu.fabric.Fabric;
import io.fabemu.fabric.result.RunResult;
import java.nio.file.Path;
import java.util.List;
import org.assertj.core.api.AbstractThrowableAssert;
import org.junit.jupiter.api.Test;

/** {@code topology.kind = optical} (the optical patent) and its errors, each one line at the key it concerns. */
class ScenarioLoaderOpticalTest {

  private static final LinkSpec DEFAULT_INTRA = new LinkSpec(400_000_000_000L, 200_000L);
  private static final LinkSpec DEFAULT_OPTICAL = new LinkSpec(100_000_000_000L, 1_000_000L);

  private static AbstractThrowableAssert<?, ? extends Throwable> assertError(String text) {
    return assertThatThrownBy(() -> ScenarioLoader.parse(text, "x.conf")).isInstanceOf(ScenarioException.class)
        .satisfies(e -> assertThat(e.getMessage()).doesNotContain("\n"));
  }

  private static OpticalSpec optical(String text) {
    return (OpticalSpec) ScenarioLoader.parse(text, "x.conf").spec().topology();
  }

  @Test
  void shouldReadEightServersOfEightNpusByFormula3ByDefault() {
    LoadedScenario loaded = ScenarioLoader.parse("topology.kind = optical", "x.conf");
    assertThat(loaded.spec().topology()).isEqualTo(new OpticalSpec(8, 8, IntraServer.FULL_MESH, DEFAULT_INTRA,
        DEFAULT_OPTICAL, ConnectionFormula.FORMULA_3));
    assertThat(loaded.config().getInt("topology.hosts")).isEqualTo(64);
    assertThat(loaded.config().getString("topology.formula")).isEqualTo("auto");
  }

  @Test
  void shouldReadShapeIntraServerSwitchAndOpticalLinkWhenGiven() {
    LoadedScenario loaded = ScenarioLoader.parse("""
        topology {
          kind = optical, servers = 7, npus-per-server = 9
          intra-server { kind = switch, bandwidth = 200 Gbps, latency = 50 ns }
          optical { bandwidth = 25 Gbps, latency = 2 us }
        }
        """, "x.conf");
    assertThat(loaded.spec().topology()).isEqualTo(new OpticalSpec(7, 9, IntraServer.SWITCH,
        new LinkSpec(200_000_000_000L, 50_000L), new LinkSpec(25_000_000_000L, 2_000_000L),
        ConnectionFormula.FORMULA_1));
    assertThat(loaded.config().getInt("topology.hosts")).isEqualTo(63);
    assertThat(loaded.config().hasPath("topology.link")).isFalse();
    assertThat(loaded.config().hasPath("topology.layers")).isFalse();
    String echoed = loaded.config().root().render(ConfigRenderOptions.concise());
    assertThat(ScenarioLoader.parse(echoed, "x.conf").spec()).isEqualTo(loaded.spec());
  }

  @Test
  void shouldTakeTheFormulaWrittenWhereItConnectsTheCluster() {
    assertThat(optical("topology { kind = optical, servers = 8, formula = formula-1 }").formula())
        .isEqualTo(ConnectionFormula.FORMULA_1);
    assertThat(optical("topology { kind = optical, servers = 6, npus-per-server = 5, formula = formula-3 }")
        .formula()).isEqualTo(ConnectionFormula.FORMULA_3);
    assertThat(optical("topology { kind = optical, servers = 5, npus-per-server = 5 }").formula())
        .isEqualTo(ConnectionFormula.FORMULA_1);
    // One server needs no circuit: n = 1, and its NPUs talk over the intra-server fabric only.
    assertThat(ScenarioLoader.parse("topology { kind = optical, servers = 1, npus-per-server = 2 }", "x.conf")
        .spec().topology().build().links()).hasSize(2);
  }

  @Test
  void shouldLoadTheExample() {
    LoadedScenario example = ScenarioLoader.load(Path.of("../examples/optical-cluster.conf"));
    assertThat(example.spec().topology()).isEqualTo(new OpticalSpec(8, 8, IntraServer.FULL_MESH, DEFAULT_INTRA,
        DEFAULT_OPTICAL, ConnectionFormula.FORMULA_3));
    assertThat(example.spec().topology().build().description()).isEqualTo("optical: 8 servers x 8 NPUs (64 hosts),"
        + " intra-server full mesh; formula 3: M = 8 servers, N = 8 NPUs per server, n = 7, 28 circuits on planes"
        + " 0..6");
  }

  @Test
  void shouldLeaveTheOpticalKeysOutOfOtherKindsEchoes() {
    LoadedScenario ring = ScenarioLoader.parse("topology { kind = ring, hosts = 4 }", "x.conf");
    assertThat(ring.config().hasPath("topology.servers")).isFalse();
    assertThat(ring.config().hasPath("topology.intra-server")).isFalse();
    assertThat(ring.config().hasPath("topology.optical")).isFalse();
    assertThat(ring.config().hasPath("topology.formula")).isFalse();
  }

  @Test
  void shouldRefuseTooFewNpusPerServerWithTheManagementDevicesLine() {
    assertError("topology {\n  kind = optical\n  servers = 8\n  npus-per-server = 6\n}")
        .hasMessage("x.conf:4: topology.npus-per-server: M = 8 servers with N = 6 NPUs per server cannot be fully"
            + " interconnected: each server needs n = 7 NPUs (n = M - 1 for even M)");
    assertError("topology {\n  kind = optical\n  servers = 9\n}")
        .hasMessage("x.conf: topology.npus-per-server: M = 9 servers with N = 8 NPUs per server cannot be fully"
            + " interconnected: each server needs n = 9 NPUs (n = M for odd M)");
  }

  @Test
  void shouldRefuseFormula3ForAnOddNumberOfServers() {
    assertError("topology {\n  kind = optical\n  servers = 7\n  formula = formula-3\n}")
        .hasMessage("x.conf:4: topology.formula: formula 3 is for an even number of servers, but M = 7 (use formula"
            + " 1)");
  }

  @Test
  void shouldRefuseFormula1ForEightServersOfSevenNpus() {
    assertError("topology {\n  kind = optical\n  servers = 8\n  npus-per-server = 7\n  formula = formula-1\n}")
        .hasMessage("x.conf:5: topology.formula: formula 1 cannot connect M = 8 servers with N = 7 NPUs per server:"
            + " for even M it leaves one plane idle in every server and so needs M = 8 NPUs (formula 3 needs n = 7)");
    assertThat(ScenarioLoader.parse("topology { kind = optical, servers = 8, npus-per-server = 7 }", "x.conf")
        .spec().topology().hosts()).isEqualTo(56);
  }

  @Test
  void shouldRefuseUnknownNames() {
    assertError("topology { kind = optical, formula = formula-2 }")
        .hasMessageStartingWith("x.conf:1: topology.formula: 'formula-2' is not one of auto, formula-1, formula-3");
    assertError("topology { kind = optical, intra-server.kind = bus }")
        .hasMessageStartingWith("x.conf:1: topology.intra-server.kind: 'bus' is not one of full-mesh, switch");
  }

  @Test
  void shouldRefuseBadShapesAndLinks() {
    assertError("topology { kind = optical, servers = 0 }").hasMessageStartingWith("x.conf:1: topology.servers: ");
    assertError("topology { kind = optical, npus-per-server = 0 }")
        .hasMessageStartingWith("x.conf:1: topology.npus-per-server: ");
    assertError("topology { kind = optical, optical { bandwidth = 100, latency = 1 us } }")
        .hasMessageStartingWith("x.conf:1: topology.optical.bandwidth: ");
    assertError("topology { kind = optical, intra-server.latency = 0 ns }")
        .hasMessageStartingWith("x.conf:1: topology.intra-server.latency: ");
  }

  @Test
  void shouldRefuseMoreNpusThanTheLimits() {
    assertError("topology { kind = optical, servers = 64, npus-per-server = 300 }")
        .hasMessage("x.conf:1: topology.npus-per-server: 64 servers x 300 NPUs per server = 19200 NPUs is above the"
            + " limit of 16384 for an optical cluster");
    assertError("topology { kind = optical, servers = 2, npus-per-server = 4096 }")
        .hasMessage("x.conf:1: topology.npus-per-server: 4096 is above the limit of 2048 for an intra-server full"
            + " mesh (its links grow as NPUs squared; use intra-server.kind = switch)");
    assertThat(ScenarioLoader.parse("topology { kind = optical, servers = 2, npus-per-server = 4096,"
        + " intra-server.kind = switch }", "x.conf").spec().topology().hosts()).isEqualTo(8192);
  }

  @Test
  void shouldRefuseHostsThatDoNotMatchTheShape() {
    assertThat(ScenarioLoader.parse("topology { kind = optical, servers = 4, npus-per-server = 3, hosts = 12 }",
        "x.conf").spec().topology().hosts()).isEqualTo(12);
    assertError("topology { kind = optical, servers = 4, npus-per-server = 3, hosts = 16 }")
        .hasMessage("x.conf:1: topology.hosts: 16 does not match 4 servers of 3 NPUs, which make 12 hosts (leave"
            + " hosts out: an optical cluster's host count follows from servers and npus-per-server)");
  }

  @Test
  void shouldRefuseTheOpticalKeysOnAnotherKindAndOtherKeysOnOptical() {
    assertError("topology { kind = ring, hosts = 4, servers = 4 }")
        .hasMessage("x.conf:1: topology.servers: only used when kind is optical or rail-leaf-spine (this topology is "
            + "ring)");
    assertError("topology { kind = prism, formula = formula-1 }")
        .hasMessage("x.conf:1: topology.formula: only used when kind = optical (this topology is prism)");
    assertError("topology { kind = optical, layers = 4 }")
        .hasMessage("x.conf:1: topology.layers: only used when kind = prism (this topology is optical)");
  }

  @Test
  void shouldReadTheReconfigurationDelayOfTheOcsController() {
    assertThat(optical("topology.kind = optical").ocs()).isEqualTo(OcsSpec.NONE);
    assertThat(optical("topology { kind = optical, ocs.reconfiguration-delay = 10 ms }").ocs())
        .isEqualTo(new OcsSpec(10_000_000_000L));
    assertThat(optical("topology { kind = optical, ocs { reconfiguration-delay = 0 ms } }").ocs())
        .isEqualTo(OcsSpec.NONE);
    LoadedScenario loaded = ScenarioLoader.parse("topology { kind = optical, ocs.reconfiguration-delay = 25 us }",
        "x.conf");
    String echoed = loaded.config().root().render(ConfigRenderOptions.concise());
    assertThat(ScenarioLoader.parse(echoed, "x.conf").spec()).isEqualTo(loaded.spec());
    assertThat(ScenarioLoader.parse("topology { kind = ring, hosts = 4 }", "x.conf").config()
        .hasPath("topology.ocs")).isFalse();
  }

  @Test
  void shouldRefuseBadReconfigurationDelaysInOneLine() {
    assertError("topology {\n  kind = optical\n  ocs.reconfiguration-delay = 2 s\n}")
        .hasMessage("x.conf:3: topology.ocs.reconfiguration-delay: '2 s' is above the limit of 1 s (every duration is"
            + " at most 1 s)");
    assertError("topology {\n  kind = optical\n  ocs.reconfiguration-delay = soon\n}")
        .hasMessageStartingWith("x.conf:3: topology.ocs.reconfiguration-delay: ");
    assertError("topology {\n  kind = optical\n  ocs.reconfigur = []\n}")
        .hasMessageStartingWith("x.conf:3: topology.ocs.reconfigur: unknown key");
    assertError("topology { kind = ring, hosts = 4, ocs.reconfiguration-delay = 1 ms }")
        .hasMessage("x.conf:1: topology.ocs: only used when kind = optical (this topology is ring)");
  }

  @Test
  void shouldRefuseFaultsWithAReconfigurationDelay() {
    assertError("topology { kind = optical, servers = 4, npus-per-server = 3, ocs.reconfiguration-delay = 1 ms }\n"
        + "faults.events = [{ at = 1 us, action = down, node = host1 }]")
        .hasMessage("x.conf:2: faults.events: faults with an OCS reconfiguration delay are not supported yet (set"
            + " topology.ocs.reconfiguration-delay = 0 ms)");
    assertThat(ScenarioLoader.parse("topology { kind = optical, servers = 4, npus-per-server = 3 }\n"
        + "faults.events = [{ at = 1 us, action = down, node = host1 }]", "x.conf").spec().hasFaults()).isTrue();
  }

  @Test
  void shouldLoadTheOcsExampleWithAMemsDelay() {
    LoadedScenario example = ScenarioLoader.load(Path.of("../examples/optical-ocs.conf"));
    assertThat(example.spec().topology()).isEqualTo(new OpticalSpec(8, 8, IntraServer.FULL_MESH, DEFAULT_INTRA,
        DEFAULT_OPTICAL, ConnectionFormula.FORMULA_3, new OcsSpec(10_000_000_000L)));
  }

  @Test
  void shouldLoadTheReconfigureExampleWithAChangeToFormula1MidRun() {
    LoadedScenario example = ScenarioLoader.load(Path.of("../examples/optical-reconfigure.conf"));
    assertThat(example.spec().topology()).isEqualTo(new OpticalSpec(8, 8, IntraServer.FULL_MESH, DEFAULT_INTRA,
        DEFAULT_OPTICAL, ConnectionFormula.FORMULA_3, new OcsSpec(10_000_000_000L,
        List.of(new OcsSpec.PolicyChange(15_000_000_000L, ConnectionFormula.FORMULA_1)))));
    // The same cluster and workload as the OCS example, but for the change.
    LoadedScenario ocs = ScenarioLoader.load(Path.of("../examples/optical-ocs.conf"));
    assertThat(example.spec().workload()).isEqualTo(ocs.spec().workload());
    assertThat(example.spec().devices()).isEqualTo(ocs.spec().devices());
  }

  @Test
  void shouldGiveTodaysDigestForTheExampleWithAZeroDelay() {
    // The digest of examples/optical-cluster.conf before the OCS controller existed: a delay of 0 (the default)
    // builds no controller and holds nothing.
    String before = "64fa06097f44550ec8896a61f00a68880b57423db58bd95e92cf338d176f5440";
    LoadedScenario example = ScenarioLoader.load(Path.of("../examples/optical-cluster.conf"));
    assertThat(((OpticalSpec) example.spec().topology()).ocs()).isEqualTo(OcsSpec.NONE);
    RunResult result = Fabric.build(example.spec()).runOnPlainEngine();
    assertThat(result.digest()).isEqualTo(before);
    assertThat(result.ocs()).isNull();
  }

  /** A cluster of 8 servers of 8 NPUs (formula 3) with a 10 ms delay and {@code reconfigure} on lines 3 on. */
  private static String changing(String reconfigure) {
    return "topology {\n  kind = optical, servers = 8, npus-per-server = 8\n  ocs {\n"
        + "    reconfiguration-delay = 10 ms\n    reconfigure = " + reconfigure + "\n  }\n}\n";
  }

  @Test
  void shouldReadThePolicyChangesDuringTheRun() {
    OpticalSpec spec = optical(changing("[\n      { at = 20 ms, formula = formula-1 }\n"
        + "      { at = 30 ms, formula = \"formula-3\" }\n    ]"));
    assertThat(spec.ocs()).isEqualTo(new OcsSpec(10_000_000_000L, List.of(
        new OcsSpec.PolicyChange(20_000_000_000L, ConnectionFormula.FORMULA_1),
        new OcsSpec.PolicyChange(30_000_000_000L, ConnectionFormula.FORMULA_3))));
    assertThat(spec.policies()).hasSize(3);
    assertThat(optical("topology { kind = optical, ocs.reconfigure = [] }").ocs()).isEqualTo(OcsSpec.NONE);
    // The first change may come as soon as the initial circuits are up, each next one a delay after it.
    assertThat(optical(changing("[{ at = 10 ms, formula = formula-1 }, { at = 20 ms, formula = formula-3 }]")).ocs()
        .changes()).extracting(OcsSpec.PolicyChange::atPs).containsExactly(10_000_000_000L, 20_000_000_000L);
    LoadedScenario loaded = ScenarioLoader.parse(changing("[{ at = 20 ms, formula = formula-1 }]"), "x.conf");
    String echoed = loaded.config().root().render(ConfigRenderOptions.concise());
    assertThat(ScenarioLoader.parse(echoed, "x.conf").spec()).isEqualTo(loaded.spec());
  }

  @Test
  void shouldRefuseBadPolicyChangesInOneLineAtTheKey() {
    assertError(changing("5")).hasMessage("x.conf:5: topology.ocs.reconfigure: expected a list such as [{ at = 20 ms,"
        + " formula = formula-1 }], got 5");
    assertError(changing("[formula-1]")).hasMessage("x.conf:5: topology.ocs.reconfigure[0]: expected a policy change"
        + " such as { at = 20 ms, formula = formula-1 }, got 'formula-1'");
    assertError(changing("[\n { at = 20 ms, fromula = formula-1 }]"))
        .hasMessage("x.conf:6: topology.ocs.reconfigure[0].fromula: unknown key (did you mean 'formula'?)");
    assertError(changing("[\n { formula = formula-1 }]"))
        .hasMessage("x.conf:6: topology.ocs.reconfigure[0]: missing at: when the policy changes, e.g. at = 20 ms");
    assertError(changing("[\n { at = 20 ms }]"))
        .hasMessage("x.conf:6: topology.ocs.reconfigure[0]: missing formula: the new policy's, formula-1 or formula-3");
    assertError(changing("[\n { at = 0 ms, formula = formula-1 }]"))
        .hasMessage("x.conf:6: topology.ocs.reconfigure[0].at: must be greater than 0");
    assertError(changing("[\n { at = 20 ms, formula = auto }]"))
        .hasMessage("x.conf:6: topology.ocs.reconfigure[0].formula: 'auto' is not one of formula-1, formula-3");
    assertError(changing("[\n { at = 20 ms, formula = formula-2 }]"))
        .hasMessageStartingWith("x.conf:6: topology.ocs.reconfigure[0].formula: 'formula-2' is not one of formula-1,"
            + " formula-3 (did you mean");
  }

  @Test
  void shouldRefusePolicyChangesTooCloseTogetherOrWithoutTheController() {
    assertError(changing("[\n { at = 5 ms, formula = formula-1 }]"))
        .hasMessage("x.conf:6: topology.ocs.reconfigure[0].at: '5 ms' is less than the reconfiguration delay (10 ms)"
            + " after the start, when the initial circuits are set up: each change must come at least one"
            + " reconfiguration delay after the one before, once its circuits are up");
    assertError(changing("[\n { at = 20 ms, formula = formula-1 }\n { at = 25 ms, formula = formula-3 }]"))
        .hasMessage("x.conf:7: topology.ocs.reconfigure[1].at: '25 ms' is less than the reconfiguration delay (10 ms)"
            + " after the change before (at 20 ms): each change must come at least one reconfiguration delay after the"
            + " one before, once its circuits are up");
    assertError(changing("[\n { at = 20 ms, formula = formula-1 }\n { at = 20 ms, formula = formula-3 }]"))
        .hasMessage("x.conf:7: topology.ocs.reconfigure[1].at: '20 ms' is not after the change before (at 20 ms):"
            + " changes are listed in time order");
    assertError("topology {\n  kind = optical\n  ocs.reconfigure = [{ at = 20 ms, formula = formula-1 }]\n}")
        .hasMessage("x.conf:3: topology.ocs.reconfigure: policy changes need the OCS controller: set"
            + " topology.ocs.reconfiguration-delay above 0 (the time a circuit takes to come up)");
    StringBuilder many = new StringBuilder("[");
    for (int i = 1; i <= 101; i++) many.append("{ at = ").append(i * 10).append(" ms, formula = formula-")
        .append(i % 2 == 1 ? 1 : 3).append(" }, ");
    assertError(changing(many + "]")).hasMessage("x.conf:5: topology.ocs.reconfigure: 101 policy changes are above"
        + " the limit of 100");
    assertError(changing("[{ at = 20 ms, formula = formula-1 }]") + "faults.events = [{ at = 1 us, action = down,"
        + " node = host1 }]").hasMessage("x.conf:8: faults.events: faults with an OCS reconfiguration delay are not"
        + " supported yet (set topology.ocs.reconfiguration-delay = 0 ms)");
  }

  @Test
  void shouldRefuseAPolicyChangeTheClusterCannotTakeOrThatChangesNothing() {
    // Formula 1 for 8 servers needs 8 NPUs; formula 3 needs an even number of servers.
    assertError("topology {\n  kind = optical, servers = 8, npus-per-server = 7\n  ocs.reconfiguration-delay = 10 ms\n"
        + "  ocs.reconfigure = [\n    { at = 20 ms, formula = formula-1 }\n  ]\n}")
        .hasMessage("x.conf:5: topology.ocs.reconfigure[0].formula: formula 1 cannot connect M = 8 servers with N = 7"
            + " NPUs per server: for even M it leaves one plane idle in every server and so needs M = 8 NPUs (formula 3"
            + " needs n = 7)");
    assertError("topology {\n  kind = optical, servers = 7, npus-per-server = 7\n  ocs.reconfiguration-delay = 10 ms\n"
        + "  ocs.reconfigure = [\n    { at = 20 ms, formula = formula-3 }\n  ]\n}")
        .hasMessage("x.conf:5: topology.ocs.reconfigure[0].formula: formula 3 is for an even number of servers, but"
            + " M = 7 (use formula 1)");
    // The cluster's own refusal comes first, at its own key.
    assertError("topology {\n  kind = optical, servers = 8, npus-per-server = 6\n  ocs.reconfiguration-delay = 10 ms\n"
        + "  ocs.reconfigure = [\n    { at = 20 ms, formula = formula-1 }\n  ]\n}")
        .hasMessageStartingWith("x.conf:2: topology.npus-per-server: M = 8 servers with N = 6 NPUs per server cannot");
    assertError(changing("[\n { at = 20 ms, formula = formula-3 }]"))
        .hasMessage("x.conf:6: topology.ocs.reconfigure[0].formula: formula 3 is the policy already in force (since"
            + " the start): a change to it would change nothing");
    assertError(changing("[\n { at = 20 ms, formula = formula-1 }\n { at = 40 ms, formula = formula-1 }]"))
        .hasMessage("x.conf:7: topology.ocs.reconfigure[1].formula: formula 1 is the policy already in force (since"
            + " the change at 20 ms): a change to it would change nothing");
  }
}
