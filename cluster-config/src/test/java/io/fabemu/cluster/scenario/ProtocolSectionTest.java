package io.fabemu.cluster.scenario;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabemu.collectives.LineProtocol;
import io.fabemu.collectives.ProtocolCost;
import io.fabemu.collectives.ProtocolSpec;
import io.fabemu.core.time.Units;
import org.junit.jupiter.api.Test;

/** {@code workload.protocol} and {@code workload.protocol-costs}, and the rate the tuner takes from the topology. */
class ProtocolSectionTest {

  private static ProtocolSpec protocols(String text) {
    return ScenarioLoader.parse(text, "x.conf").spec().workload().protocols();
  }

  @Test
  void shouldRunSimpleAtNoCostByDefault() {
    ProtocolSpec p = protocols("");
    assertThat(p.candidates()).containsExactly(LineProtocol.SIMPLE);
    assertThat(p.simple()).isEqualTo(ProtocolCost.NONE);
    assertThat(p.ll()).isEqualTo(ProtocolCost.NONE);
    assertThat(p.ll128()).isEqualTo(ProtocolCost.NONE);
  }

  @Test
  void shouldReadTheProtocolAndEachOnesCost() {
    ProtocolSpec p = protocols("""
        workload {
          protocol = auto
          protocol-costs {
            simple { latency = 2 us, rate = 0 Gbps }
            ll { latency = 100 ns, rate = 40 Gbps }
            ll128 { latency = 1 us, rate = 300 Gbps }
          }
        }
        """);
    assertThat(p.candidates()).containsExactly(LineProtocol.SIMPLE, LineProtocol.LL, LineProtocol.LL128);
    assertThat(p.simple()).isEqualTo(new ProtocolCost(2_000_000L, 0));
    assertThat(p.ll()).isEqualTo(new ProtocolCost(100_000L, 40 * Units.GBPS));
    assertThat(p.ll128()).isEqualTo(new ProtocolCost(1_000_000L, 300 * Units.GBPS));
    assertThat(protocols("workload.protocol = ll128").candidates()).containsExactly(LineProtocol.LL128);
  }

  @Test
  void shouldTuneForTheServerSwitchOnOneServerAndForTheNicAcrossServers() {
    String rails = """
        topology {
          kind = rail-leaf-spine, servers = %d, nics-per-server = 4, spines = 1
          host-link { bandwidth = 400 Gbps, latency = 300 ns }
          server-switch { enabled = true, link { bandwidth = 3600 Gbps, latency = 100 ns } }
        }
        workload.protocol = auto
        """;
    assertThat(protocols(rails.formatted(1)).tunerBitsPerSecond()).isEqualTo(3_600 * Units.GBPS);
    assertThat(protocols(rails.formatted(2)).tunerBitsPerSecond()).isEqualTo(400 * Units.GBPS);
    // Any other fabric: the host link.
    assertThat(protocols("topology.host-link.bandwidth = 100 Gbps\nworkload.protocol = auto").tunerBitsPerSecond())
        .isEqualTo(100 * Units.GBPS);
    // One protocol needs no tuner: a scenario without protocols loads to the default itself.
    assertThat(protocols("topology.host-link.bandwidth = 100 Gbps")).isEqualTo(ProtocolSpec.SIMPLE_ONLY);
  }

  @Test
  void shouldRefuseAnUnknownProtocolOrANegativeCostInOneLineAtItsKey() {
    assertThatThrownBy(() -> ScenarioLoader.parse("workload.protocol = ll64", "x.conf"))
        .isInstanceOf(ScenarioException.class).hasMessageStartingWith("x.conf:1: workload.protocol: ")
        .hasMessageContaining("ll64").hasMessageContaining("simple, ll, ll128, auto");
    assertThatThrownBy(() -> ScenarioLoader.parse("workload.protocol-costs.ll.latency = -1 ns", "x.conf"))
        .isInstanceOf(ScenarioException.class)
        .hasMessageStartingWith("x.conf:1: workload.protocol-costs.ll.latency: ");
    assertThatThrownBy(() -> ScenarioLoader.parse("workload.protocol-costs.ll128.rate = 20 Tbps", "x.conf"))
        .isInstanceOf(ScenarioException.class)
        .hasMessageStartingWith("x.conf:1: workload.protocol-costs.ll128.rate: ");
    assertThatThrownBy(() -> ScenarioLoader.parse("workload.protocol-costs.ll.rate = 1 Mbps", "x.conf"))
        .isInstanceOf(ScenarioException.class)
        .hasMessage("x.conf:1: workload.protocol-costs.ll.rate: an engine's rate is 0 (no limit) or at least 1 Gbps, "
            + "got 1000000 bit/s");
    // A torus has no host link for the tuner to cost: auto is refused there, a protocol by name is not.
    String torus = "topology { kind = torus, dimensions = [2, 2] }\n";
    assertThatThrownBy(() -> ScenarioLoader.parse(torus + "workload.protocol = auto", "x.conf"))
        .isInstanceOf(ScenarioException.class).hasMessageStartingWith("x.conf:2: workload.protocol: auto tunes for "
            + "the host link, which a torus has none of");
    assertThat(protocols(torus + "workload.protocol = ll").candidates()).containsExactly(LineProtocol.LL);
    assertThatThrownBy(() -> ScenarioLoader.parse("workload.protocol-costs.ll.speed = 1 Gbps", "x.conf"))
        .isInstanceOf(ScenarioException.class).hasMessageContaining("workload.protocol-costs.ll.speed");
  }
}
