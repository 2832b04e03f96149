package io.fabemu.cluster.scenario;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.typesafe.config.ConfigFactory;
import io.fabemu.collectives.Algorithm;
import io.fabemu.core.data.ReduceOp;
import io.fabemu.core.link.PacketDropSpec;
import io.fabemu.fabric.ScenarioSpec;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.assertj.core.api.AbstractThrowableAssert;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The INC keys (devices.inc, faults.packet-drops, the inc algorithms, the host's sockets) and their errors. */
class ScenarioLoaderIncTest {
  /** 8 hosts, 2 per TOR: host0-7, tor0-3 (vertices 8-11), spine0-1 (12-13). */
  private static final String FABRIC = "topology { hosts = 8, hosts-per-tor = 2, spines = 2 }\n";

  private static ScenarioSpec load(String text) {
    return ScenarioLoader.parse(text, "x.conf").spec();
  }

  private static AbstractThrowableAssert<?, ? extends Throwable> assertError(String text) {
    return assertThatThrownBy(() -> ScenarioLoader.parse(text, "x.conf")).isInstanceOf(ScenarioException.class);
  }

  @Test
  void shouldReadTheIncUnitsSocketsAndDropsWhenEnabled() {
    ScenarioSpec spec = load(FABRIC + """
        devices.host { sockets-per-node = 2, cross-socket-latency = 150 ns, shm-message-occupancy = 25 ns }
        devices.inc { enabled = true, switches-without-inc = [spine1], spine.max-groups = 3
                      tor.operations = [sum, max] }
        faults.packet-drops = [{ from = "tor0", to = "spine1", probability = 0.25 }]
        workload { algorithms = [inc-node, inc-socket], ppn = 4, sizes = [4 B] }
        """);
    assertThat(spec.devices().host().socketsPerNode()).isEqualTo(2);
    assertThat(spec.devices().host().crossSocketLatencyPs()).isEqualTo(150_000L);
    assertThat(spec.devices().host().shmMessageOccupancyPs()).isEqualTo(25_000L);
    assertThat(spec.devices().inc().switchesWithoutInc()).containsExactly(13);
    assertThat(spec.devices().inc().spine().maxGroups()).isEqualTo(3);
    assertThat(spec.devices().inc().tor().operations()).containsExactlyInAnyOrder(ReduceOp.SUM, ReduceOp.MAX);
    assertThat(spec.devices().inc().nic().fragmentBytes()).isEqualTo(256);
    assertThat(spec.packetDrops()).containsExactly(new PacketDropSpec(8, 13, 0.25));
    assertThat(spec.workload().algorithms()).containsExactly(Algorithm.INC_NODE, Algorithm.INC_SOCKET);
  }

  @Test
  void shouldHaveNoIncWhenNotEnabled() {
    assertThat(load(FABRIC).devices().inc()).isNull();
    assertThat(load(FABRIC).packetDrops()).isEmpty();
  }

  @Test
  void shouldRefuseIncOnATopologyWithoutSwitches() {
    assertError("topology { kind = ring, hosts = 4 }\ndevices.inc.enabled = true")
        .hasMessage("x.conf:2: devices.inc.enabled: INC needs a leaf-spine topology (TOR and SPINE switches), "
            + "not ring");
    assertError("topology { kind = ring, hosts = 4 }\nworkload.algorithms = [inc-node]")
        .hasMessageContaining("workload.algorithms: inc-node needs a leaf-spine topology");
  }

  @Test
  void shouldRefuseSocketModeWhenTheLayoutBreaksItsRules() {
    assertError(FABRIC + "workload { algorithms = [inc-socket], ppn = 4 }")
        .hasMessageContaining("workload.algorithms: inc-socket needs at least 2 sockets per node, got 1");
    assertError(FABRIC + "devices.host.sockets-per-node = 4\nworkload { algorithms = [inc-socket], ppn = 6 }")
        .hasMessageContaining("inc-socket needs ppn divisible by sockets: ppn 6, sockets 4");
  }

  @Test
  void shouldRefuseHierarchicalWithAnIncAlgorithm() {
    assertError(FABRIC + "workload { algorithms = [inc-node], hierarchical = true }")
        .hasMessageContaining("workload.hierarchical: inc-node is hierarchical already");
  }

  @Test
  void shouldRefuseAFragmentLargerThanAnIncPacket() {
    assertError(FABRIC + "devices.inc { enabled = true, nic.fragment-size = 512 B }")
        .hasMessageContaining("devices.inc.nic.fragment-size: '512 B' is larger than the tors' max-payload (256 B)");
  }

  @Test
  void shouldNameTheSwitchesWhenASwitchWithoutIncIsUnknown() {
    assertError(FABRIC + "devices.inc { enabled = true, switches-without-inc = [spine7] }")
        .hasMessageContaining(":2: devices.inc.switches-without-inc[0]: 'spine7' is not a switch of this topology "
            + "(tor0..tor3, spine0..spine1)");
    assertError(FABRIC + "devices.inc { enabled = true, switches-without-inc = [host1] }")
        .hasMessageContaining("'host1' is not a switch");
  }

  @Test
  void shouldRefuseBadPacketDrops() {
    assertError(FABRIC + "faults.packet-drops = [{ from = \"tor0\", to = \"tor1\", probability = 0.1 }]")
        .hasMessageContaining("faults.packet-drops[0]: there is no link from tor0 to tor1");
    assertError(FABRIC + "faults.packet-drops = [{ from = \"host0\", to = \"tor0\", probability = 1.5 }]")
        .hasMessageContaining("faults.packet-drops[0].probability: expected a probability in [0, 1), got 1.5");
    assertError(FABRIC + "faults.packet-drops = [{ from = \"host0\", to = \"tor9\", probability = 0.1 }]")
        .hasMessageContaining("faults.packet-drops[0].to: 'tor9' is not a device of this topology");
    assertError(FABRIC + "faults.packet-drops = [{ from = \"host0\", to = \"tor0\", chance = 0.1 }]")
        .hasMessageContaining("faults.packet-drops[0].chance: unknown key (use from, to, probability)");
    assertError(FABRIC + "faults.packet-drops = { from = host0 }")
        .hasMessageContaining("faults.packet-drops: expected a value, got an object");
  }

  @Test
  void shouldLayOverridesOverTheFileWhenAProfileIsLoaded(@TempDir Path dir) throws Exception {
    Path profile = dir.resolve("p.conf");
    Files.writeString(profile, FABRIC + "devices.inc.enabled = true\n");
    ScenarioSpec spec = ScenarioLoader.load(profile, ConfigFactory.parseMap(
        Map.of("topology.hosts", 4, "workload.algorithms", List.of("inc-node")), "osu-allreduce options")).spec();
    assertThat(spec.topology().hosts()).isEqualTo(4);
    assertThat(spec.workload().algorithms()).containsExactly(Algorithm.INC_NODE);
    assertThat(spec.devices().inc()).isNotNull();
  }

  @Test
  void shouldStreamWithAWindowOf64ByDefaultAndReadAnotherOrRefuseOneBeyond127() {
    String workload = "workload { algorithms = [inc-node], ppn = 2, sizes = [4 KiB] }\n";
    assertThat(load(FABRIC + "devices.inc.enabled = true\n" + workload).devices().inc().nic().streamWindow())
        .isEqualTo(64);
    assertThat(load(FABRIC + "devices.inc { enabled = true, nic.stream-window = 0 }\n" + workload).devices().inc()
        .nic().streamWindow()).isZero();
    assertError(FABRIC + "devices.inc { enabled = true, nic.stream-window = 128 }\n" + workload)
        .hasMessageContaining("x.conf:2: devices.inc.nic.stream-window");
  }
}
