package io.fabemu.cluster.scenario;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.typesafe.config.ConfigRenderOptions;
import io.fabemu.core.topology.LinkSpec;
import io.fabemu.core.topology.PrismSpec;
import org.assertj.core.api.AbstractThrowableAssert;
import org.junit.jupiter.api.Test;

/** {@code topology.kind = prism} (the ring patent) and its errors. */
class ScenarioLoaderPrismTest {

  private static final LinkSpec DEFAULT_LINK = new LinkSpec(100_000_000_000L, 100_000L);

  private static AbstractThrowableAssert<?, ? extends Throwable> assertError(String text) {
    return assertThatThrownBy(() -> ScenarioLoader.parse(text, "x.conf")).isInstanceOf(ScenarioException.class);
  }

  @Test
  void shouldReadTheTriangularPrismOfEightLayersByDefault() {
    assertThat(ScenarioLoader.parse("topology.kind = prism", "x.conf").spec().topology())
        .isEqualTo(new PrismSpec(3, 8, DEFAULT_LINK, DEFAULT_LINK));
  }

  @Test
  void shouldReadShapeAndBothLinkClassesWhenGiven() {
    LoadedScenario loaded = ScenarioLoader.parse("""
        topology {
          kind = prism, nodes-per-layer = 6, layers = 4
          intra-layer { bandwidth = 200 Gbps, latency = 50 ns }
          inter-layer { bandwidth = 25 Gbps, latency = 1 us }
        }
        """, "x.conf");
    assertThat(loaded.spec().topology()).isEqualTo(new PrismSpec(6, 4, new LinkSpec(200_000_000_000L, 50_000L),
        new LinkSpec(25_000_000_000L, 1_000_000L)));
    assertThat(loaded.config().getInt("topology.hosts")).isEqualTo(24);
    assertThat(loaded.config().hasPath("topology.link")).isFalse();
    assertThat(loaded.config().hasPath("topology.dimensions")).isFalse();
    String echoed = loaded.config().root().render(ConfigRenderOptions.concise());
    assertThat(ScenarioLoader.parse(echoed, "x.conf").spec()).isEqualTo(loaded.spec());
  }

  @Test
  void shouldLeaveThePrismKeysOutOfOtherKindsEchoes() {
    LoadedScenario ring = ScenarioLoader.parse("topology { kind = ring, hosts = 4 }", "x.conf");
    assertThat(ring.config().hasPath("topology.layers")).isFalse();
    assertThat(ring.config().hasPath("topology.intra-layer")).isFalse();
  }

  @Test
  void shouldAcceptHostsWhenTheyMatchTheShape() {
    assertThat(ScenarioLoader.parse("topology { kind = prism, layers = 4, hosts = 12 }", "x.conf").spec().topology()
        .hosts()).isEqualTo(12);
  }

  @Test
  void shouldRefuseHostsThatDoNotMatchTheShape() {
    assertError("topology { kind = prism, layers = 4, hosts = 16 }")
        .hasMessage("x.conf:1: topology.hosts: 16 does not match 4 layers of 3, which make 12 hosts (leave hosts out:"
            + " a prism's host count follows from nodes-per-layer and layers)");
  }

  @Test
  void shouldRefuseFewerThanThreeNodesPerLayer() {
    assertError("topology {\n  kind = prism\n  nodes-per-layer = 2\n}")
        .hasMessageStartingWith("x.conf:3: topology.nodes-per-layer: ")
        .hasMessageContaining("2");
  }

  @Test
  void shouldRefuseASingleLayer() {
    assertError("topology { kind = prism, layers = 1 }").hasMessageStartingWith("x.conf:1: topology.layers: ");
  }

  @Test
  void shouldRefuseMoreHostsThanTheLimit() {
    assertError("topology { kind = prism, nodes-per-layer = 200, layers = 100 }")
        .hasMessage("x.conf:1: topology.layers: 100 layers x 200 nodes per layer = 20000 hosts is above the limit of"
            + " 16384 for a prism (its routes are a full shortest-path table)");
  }

  @Test
  void shouldRefuseALinkWithoutUnit() {
    assertError("topology { kind = prism, intra-layer { bandwidth = 100, latency = 1 ns } }")
        .hasMessageStartingWith("x.conf:1: topology.intra-layer.bandwidth: ");
  }

  @Test
  void shouldRefuseThePrismKeysOnAnotherKind() {
    assertError("topology { kind = ring, layers = 4 }")
        .hasMessage("x.conf:1: topology.layers: only used when kind = prism (this topology is ring)");
    assertError("topology { kind = prism, link { bandwidth = 1 Gbps, latency = 1 us } }")
        .hasMessage("x.conf:1: topology.link: only used when kind is line, ring or full-mesh (this topology is"
            + " prism)");
  }
}
