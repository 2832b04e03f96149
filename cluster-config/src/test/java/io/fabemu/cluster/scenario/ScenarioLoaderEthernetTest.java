package io.fabemu.cluster.scenario;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabemu.core.ethernet.EthernetSpec;
import io.fabemu.core.time.Units;
import io.fabemu.fabric.ScenarioSpec;
import java.util.List;
import org.assertj.core.api.AbstractThrowableAssert;
import org.junit.jupiter.api.Test;

/** The {@code ethernet} section: I/O nodes and the external Ethernet, its defaults and its one-line errors. */
class ScenarioLoaderEthernetTest {
  private static final String MESH_4X4 = "topology.kind = mesh\n";

  private static ScenarioSpec load(String text) {
    return ScenarioLoader.parse(text, "x.conf").spec();
  }

  private static AbstractThrowableAssert<?, ? extends Throwable> assertError(String text) {
    return assertThatThrownBy(() -> ScenarioLoader.parse(text, "x.conf")).isInstanceOf(ScenarioException.class);
  }

  @Test
  void readsEveryKeyAndFillsTheDefaults() {
    EthernetSpec spec = load(MESH_4X4 + """
        ethernet {
          io-nodes = ["host15", "host0", "host7"]
          standby = ["host7"]
          link { rate = 25 Gbps, latency = 1 us }
          external-hosts = 3
          corrupt = 0.01
          traffic { inbound-frames = 7, outbound-frames = 1, unknown-mac-every = 3, frame-bytes = 64,
                    interval = 2 us, start = 10 us }
        }
        """).ethernet();
    assertThat(spec).isEqualTo(new EthernetSpec(List.of(0, 7, 15), List.of(7), 25 * Units.GBPS, 1_000_000L, 3, 0.01,
        7, 1, 3, 64, 2_000_000L, 10_000_000L));
    assertThat(spec.initiallyEnabled()).containsExactly(0, 15);

    EthernetSpec defaults = load(MESH_4X4 + "ethernet.io-nodes = [\"host3\"]\n").ethernet();
    assertThat(defaults).isEqualTo(new EthernetSpec(List.of(3), List.of(), 10 * Units.GBPS, 2_000_000L, 4, 0.0, 20,
        2, 5, 512, 5_000_000L, 0L));
  }

  @Test
  void aScenarioWithoutTheSectionHasNoIoNodesAndEchoesNone() {
    LoadedScenario loaded = ScenarioLoader.parse(MESH_4X4, "x.conf");
    assertThat(loaded.spec().ethernet()).isNull();
    assertThat(loaded.config().hasPath("ethernet")).isFalse();
  }

  @Test
  void refusesEachMistakeOnOneLineWithItsFileAndLine() {
    assertError("ethernet.io-nodes = [\"host0\"]\n")
        .hasMessage("x.conf:1: ethernet: I/O nodes need a router network (topology.kind is mesh, torus or group-ring); "
            + "this topology is leaf-spine, whose nodes have no routers to carry an Ethernet NIC");
    assertError(MESH_4X4 + "ethernet.io-nodes = [\"host16\"]\n")
        .hasMessage("x.conf:2: ethernet.io-nodes[0]: 'host16' is not a node of this topology (host0..host15)");
    assertError(MESH_4X4 + "ethernet.io-nodes = [\"router3\"]\n")
        .hasMessage("x.conf:2: ethernet.io-nodes[0]: 'router3' is not a node of this topology (host0..host15)");
    assertError(MESH_4X4 + "ethernet.io-nodes = [\"host1\", \"host1\"]\n")
        .hasMessage("x.conf:2: ethernet.io-nodes[1]: 'host1' is listed twice");
    assertError(MESH_4X4 + "ethernet.io-nodes = []\n")
        .hasMessage("x.conf:2: ethernet.io-nodes: must name at least one node, e.g. [\"host0\"]");
    assertError(MESH_4X4 + "ethernet { io-nodes = [\"host1\"], standby = [\"host2\"] }\n")
        .hasMessage("x.conf:2: ethernet.standby[0]: 'host2' is not one of the io-nodes");
    assertError(MESH_4X4 + "devices.router { switching = virtual-cut-through, buffer-depth = 8, flit-bytes = 64 B }\n"
        + "devices.nic.segment-size = 128 B\nethernet { io-nodes = [\"host1\"], traffic.frame-bytes = 512 }\n")
        .hasMessageMatching("x.conf:4: ethernet.traffic.frame-bytes: a frame of 512 B of payload travels as \\d+ "
            + "flits with its NIC header, more than a router buffer of 8 flits, which virtual-cut-through needs it to "
            + "fit in \\(lower frame-bytes, or raise buffer-depth or flit-bytes\\)");
    assertError("topology { kind = mesh, dimensions = [512, 256] }\nethernet.io-nodes = [\"host1\"]\n")
        .hasMessage("x.conf:2: ethernet: I/O nodes need a MAC per node, and at most 65536 are numbered; this "
            + "topology has 131072 nodes");
    assertError(MESH_4X4 + "ethernet { io-nodes = [\"host1\"], standby = [\"host1\"] }\n")
        .hasMessage("x.conf:2: ethernet.standby: lists every I/O node: at least one Ethernet NIC must start enabled");
    assertError(MESH_4X4 + "ethernet { io-nodes = [\"host1\"], corrupt = 1 }\n")
        .hasMessage("x.conf:2: ethernet.corrupt: expected a probability in [0, 1), got 1.0");
    assertError(MESH_4X4 + "ethernet { io-nodes = [\"host1\"], traffic.frame-bytes = 1501 }\n")
        .hasMessageStartingWith("x.conf:2: ethernet.traffic.frame-bytes: ");
    assertError(MESH_4X4 + "ethernet { io-nodes = [\"host1\"], link.rate = 0 Gbps }\n")
        .hasMessageStartingWith("x.conf:2: ethernet.link.rate: ");
    assertError(MESH_4X4 + "ethernet { io-nodes = [\"host1\"], colour = blue }\n")
        .hasMessageStartingWith("x.conf:2: ethernet.colour: ");
    assertError(MESH_4X4 + "traffic.offered-loads = [0.1]\nethernet.io-nodes = [\"host1\"]\n")
        .hasMessage("x.conf:3: ethernet: I/O nodes run beside a workload, not synthetic traffic: leave out the traffic "
            + "section");
  }
}
