package io.fabemu.cluster.scenario;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.typesafe.config.ConfigRenderOptions;
import io.fabemu.core.topology.FatTreeSpec;
import io.fabemu.core.topology.LinkSpec;
import org.assertj.core.api.AbstractThrowableAssert;
import org.junit.jupiter.api.Test;

/** {@code topology.kind = fat-tree} ({@link FatTreeSection}) and its errors, each on one line naming the key. */
class ScenarioLoaderFatTreeTest {

  private static AbstractThrowableAssert<?, ? extends Throwable> assertError(String text) {
    return assertThatThrownBy(() -> ScenarioLoader.parse(text, "x.conf")).isInstanceOf(ScenarioException.class);
  }

  @Test
  void shouldReadFourPodsOfTwoLeavesByDefault() {
    LinkSpec switchLink = new LinkSpec(100_000_000_000L, 500_000L);
    assertThat(ScenarioLoader.parse("topology.kind = fat-tree", "x.conf").spec().topology())
        .isEqualTo(FatTreeSpec.builder().pods(4).leavesPerPod(2).aggregationsPerPod(2).cores(4).hostsPerLeaf(4)
            .hostLink(new LinkSpec(25_000_000_000L, 500_000L)).leafLink(switchLink).coreLink(switchLink).build());
  }

  @Test
  void shouldReadTheShapeAndTheThreeLinkClassesAndEchoOnlyThem() {
    LoadedScenario loaded = ScenarioLoader.parse("""
        topology {
          kind = fat-tree, pods = 3, leaves-per-pod = 2, aggregations-per-pod = 3, cores = 6, hosts-per-leaf = 2
          host-link { bandwidth = 200 Gbps, latency = 300 ns }
          leaf-link { bandwidth = 400 Gbps, latency = 400 ns }
          core-link { bandwidth = 800 Gbps, latency = 1 us }
        }
        """, "x.conf");
    assertThat(loaded.spec().topology()).isEqualTo(new FatTreeSpec(3, 2, 3, 6, 2,
        new LinkSpec(200_000_000_000L, 300_000L), new LinkSpec(400_000_000_000L, 400_000L),
        new LinkSpec(800_000_000_000L, 1_000_000L)));
    assertThat(loaded.config().getInt("topology.hosts")).isEqualTo(12);
    assertThat(loaded.config().hasPath("topology.spines")).isFalse();
    assertThat(loaded.config().hasPath("topology.link")).isFalse();
    String echoed = loaded.config().root().render(ConfigRenderOptions.concise());
    assertThat(ScenarioLoader.parse(echoed, "x.conf").spec()).isEqualTo(loaded.spec());
  }

  @Test
  void shouldLeaveTheFatTreeKeysOutOfOtherKindsEchoesButKeepTheSharedHostLink() {
    LoadedScenario leafSpine = ScenarioLoader.parse("topology { kind = leaf-spine }", "x.conf");
    assertThat(leafSpine.config().hasPath("topology.pods")).isFalse();
    assertThat(leafSpine.config().hasPath("topology.core-link")).isFalse();
    assertThat(leafSpine.config().hasPath("topology.host-link")).isTrue();
  }

  @Test
  void shouldAcceptATwoTierTreeOfOnePodWithoutCores() {
    FatTreeSpec spec = (FatTreeSpec) ScenarioLoader.parse("topology { kind = fat-tree, pods = 1, cores = 0 }",
        "x.conf").spec().topology();
    assertThat(spec.cores()).isZero();
    assertThat(spec.hosts()).isEqualTo(8);
  }

  @Test
  void shouldRefuseCoresThatAreNoMultipleOfTheAggregations() {
    assertError("topology {\n  kind = fat-tree\n  cores = 3\n}")
        .hasMessage("x.conf:3: topology.cores: 3 is not a multiple of aggregations-per-pod (2): aggregation j of"
            + " every pod links to cores j*C/A .. (j+1)*C/A-1");
  }

  @Test
  void shouldRefuseSeveralPodsWithoutCores() {
    assertError("topology { kind = fat-tree, cores = 0 }")
        .hasMessage("x.conf:1: topology.cores: must be at least 1 with 4 pods, which reach each other only through"
            + " the cores (one pod with no cores is a two-tier tree)");
  }

  @Test
  void shouldRefuseHostsThatDoNotMatchTheShape() {
    assertThat(ScenarioLoader.parse("topology { kind = fat-tree, hosts = 32 }", "x.conf").spec().topology().hosts())
        .isEqualTo(32);
    assertError("topology { kind = fat-tree, hosts = 16 }")
        .hasMessage("x.conf:1: topology.hosts: 16 does not match 4 pods x 2 leaves x 4 hosts per leaf, which make 32"
            + " hosts (leave hosts out: a fat-tree's host count follows from its shape)");
  }

  @Test
  void shouldRefuseAShapeAboveTheLimits() {
    assertError("topology { kind = fat-tree, pods = 1024, leaves-per-pod = 64, hosts-per-leaf = 32 }")
        .hasMessage("x.conf:1: topology.pods: 1024 pods x 64 leaves x 32 hosts = 2097152 hosts is above the limit of"
            + " 1048576");
    assertError("topology { kind = fat-tree, pods = 1024, leaves-per-pod = 1024, hosts-per-leaf = 1,"
        + " aggregations-per-pod = 8, cores = 8 }")
        .hasMessageStartingWith("x.conf:1: topology.aggregations-per-pod: 1024 pods x 1024 leaves x 8 aggregations ="
            + " 8388608 leaf-aggregation cables is above the limit of 4194304");
    assertError("topology { kind = fat-tree, pods = 2048, leaves-per-pod = 1, hosts-per-leaf = 1,"
        + " aggregations-per-pod = 1, cores = 4096 }")
        .hasMessage("x.conf:1: topology.cores: 2048 pods x 4096 cores = 8388608 aggregation-core cables is above the"
            + " limit of 4194304");
    assertError("topology { kind = fat-tree, aggregations-per-pod = 0 }")
        .hasMessageStartingWith("x.conf:1: topology.aggregations-per-pod: ");
  }

  @Test
  void shouldRefuseTheFatTreeKeysOnAnotherKindAndTheOtherKindsKeysOnAFatTree() {
    assertError("topology { kind = ring, hosts = 4, pods = 2 }")
        .hasMessage("x.conf:1: topology.pods: only used when kind = fat-tree (this topology is ring)");
    assertError("topology { kind = fat-tree, spines = 2 }")
        .hasMessage("x.conf:1: topology.spines: only used when kind is leaf-spine or rail-leaf-spine (fat-tree uses "
            + "host-link, leaf-link and core-link)");
    assertError("topology { kind = ring, hosts = 4, host-link { latency = 1 us } }")
        .hasMessageStartingWith("x.conf:1: topology.host-link: only used when kind is leaf-spine, ");
  }

  @Test
  void shouldRefuseIncOnOneLineNamingTheKeyAndTheReason() {
    String reason = "needs a leaf-spine topology (TOR and SPINE switches), not fat-tree: the switch INC aggregates"
        + " in two tiers (TOR, SPINE), and a fat-tree has a third, its aggregation switches, between its leaves and"
        + " its cores";
    assertError("topology.kind = fat-tree\ndevices.inc.enabled = true")
        .hasMessage("x.conf:2: devices.inc.enabled: INC " + reason);
    assertError("topology.kind = fat-tree\nworkload { algorithms = [inc-node] }")
        .hasMessage("x.conf:2: workload.algorithms: inc-node " + reason);
  }
}
