package io.fabemu.cluster.scenario;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.typesafe.config.ConfigRenderOptions;
import io.fabemu.core.topology.LinkSpec;
import io.fabemu.core.topology.RailLeafSpineSpec;
import org.assertj.core.api.AbstractThrowableAssert;
import org.junit.jupiter.api.Test;

/** {@code topology.kind = rail-leaf-spine} and its errors, each one line at the key it concerns. */
class RailLeafSpineSectionTest {

  private static AbstractThrowableAssert<?, ? extends Throwable> assertError(String text) {
    return assertThatThrownBy(() -> ScenarioLoader.parse(text, "x.conf")).isInstanceOf(ScenarioException.class)
        .satisfies(e -> assertThat(e.getMessage()).doesNotContain("\n"));
  }

  private static RailLeafSpineSpec rail(String text) {
    return (RailLeafSpineSpec) ScenarioLoader.parse(text, "x.conf").spec().topology();
  }

  @Test
  void shouldReadEightServersOfEightRailsUnderOneLeafPerRailByDefault() {
    LoadedScenario loaded = ScenarioLoader.parse("topology.kind = rail-leaf-spine", "x.conf");
    assertThat(loaded.spec().topology()).isEqualTo(RailLeafSpineSpec.builder(8, 8,
        new LinkSpec(25_000_000_000L, 500_000L)).spines(2, new LinkSpec(100_000_000_000L, 500_000L)).build());
    assertThat(loaded.config().getInt("topology.hosts")).isEqualTo(64);
    assertThat(loaded.config().hasPath("topology.hosts-per-tor")).isFalse();
    assertThat(loaded.config().hasPath("topology.npus-per-server")).isFalse();
  }

  @Test
  void shouldReadGroupsAndServerSwitchAndEchoAScenarioThatLoadsTheSame() {
    LoadedScenario loaded = ScenarioLoader.parse("""
        topology {
          kind = rail-leaf-spine, servers = 4, nics-per-server = 8, servers-per-leaf = 2, spines = 4
          host-link { bandwidth = 400 Gbps, latency = 500 ns }
          server-switch { enabled = true, link { bandwidth = 3.6 Tbps, latency = 150 ns } }
        }
        """, "x.conf");
    RailLeafSpineSpec spec = (RailLeafSpineSpec) loaded.spec().topology();
    assertThat(spec).isEqualTo(RailLeafSpineSpec.builder(4, 8, new LinkSpec(400_000_000_000L, 500_000L))
        .serversPerLeaf(2).spines(4, new LinkSpec(100_000_000_000L, 500_000L))
        .serverSwitch(new LinkSpec(3_600_000_000_000L, 150_000L)).build());
    assertThat(loaded.config().getInt("topology.hosts")).isEqualTo(32);
    String echoed = loaded.config().root().render(ConfigRenderOptions.concise());
    assertThat(ScenarioLoader.parse(echoed, "x.conf").spec()).isEqualTo(loaded.spec());
  }

  @Test
  void shouldRefuseShapesWhoseServersOrRailsCannotReachEachOther() {
    assertError("topology {\n  kind = rail-leaf-spine\n  servers = 6\n  servers-per-leaf = 4\n}")
        .hasMessage("x.conf:4: topology.servers-per-leaf: 4 does not divide servers (6): every rail leaf holds the "
            + "same number of servers");
    assertError("topology {\n  kind = rail-leaf-spine\n  servers = 4\n  servers-per-leaf = 2\n  spines = 0\n"
        + "  server-switch.enabled = true\n}")
        .hasMessage("x.conf:5: topology.spines: must be at least 1: 4 servers at 2 per leaf make 2 groups, whose "
            + "leaves reach each other only through spines");
    assertError("topology {\n  kind = rail-leaf-spine\n  spines = 0\n}")
        .hasMessage("x.conf:3: topology.spines: must be at least 1 without a server switch: the 8 rails reach each "
            + "other only through spines (or set server-switch.enabled = true)");
    assertError("topology {\n  kind = rail-leaf-spine\n  servers-per-leaf = some\n}")
        .hasMessage("x.conf:3: topology.servers-per-leaf: expected all or a whole number of servers, got 'some'");
    assertError("topology {\n  kind = rail-leaf-spine\n  nics-per-server = 65\n}")
        .hasMessage("x.conf:3: topology.nics-per-server: 65 is above the limit of 64");
    assertError("topology { kind = rail-leaf-spine, hosts = 60 }")
        .hasMessageStartingWith("x.conf:1: topology.hosts: 60 does not match 8 servers of 8 NICs, which make 64");
    // No spine: one rail under a single leaf, or the rails joined in every server.
    assertThat(rail("topology { kind = rail-leaf-spine, nics-per-server = 1, spines = 0 }").spines()).isZero();
    assertThat(rail("topology { kind = rail-leaf-spine, spines = 0, server-switch.enabled = true }")
        .hasServerSwitch()).isTrue();
  }

  @Test
  void shouldRefuseInNetworkComputingWithTheReason() {
    assertError("topology.kind = rail-leaf-spine\ndevices.inc.enabled = true")
        .hasMessageStartingWith("x.conf:2: devices.inc.enabled: INC is not available on a rail-leaf-spine: a rail "
            + "leaf holds one NIC of each of its servers");
    assertError("topology.kind = rail-leaf-spine\nworkload.algorithms = [inc-node]")
        .hasMessageStartingWith("x.conf:2: workload.algorithms: inc-node is not available on a rail-leaf-spine: ")
        .hasMessageContaining("the INC layout needs each TOR's hosts numbered consecutively");
  }

  @Test
  void shouldRefuseTheRailKeysOnAnotherKind() {
    assertError("topology { kind = leaf-spine, nics-per-server = 4 }")
        .hasMessage("x.conf:1: topology.nics-per-server: only used when kind = rail-leaf-spine (leaf-spine uses "
            + "host-link and spine-link)");
    assertError("topology { kind = optical, server-switch.enabled = true }")
        .hasMessage("x.conf:1: topology.server-switch: only used when kind = rail-leaf-spine (this topology is "
            + "optical)");
    assertError("topology { kind = rail-leaf-spine, hosts-per-tor = 4 }")
        .hasMessage("x.conf:1: topology.hosts-per-tor: only used when kind = leaf-spine (this topology is "
            + "rail-leaf-spine)");
  }
}
