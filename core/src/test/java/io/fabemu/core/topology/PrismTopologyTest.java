package io.fabemu.core.topology;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabemu.core.rings.HostGraph;
import io.fabemu.core.routing.RoutingTable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class PrismTopologyTest {

  private static final LinkSpec INTRA = new LinkSpec(100_000_000_000L, 200_000);
  private static final LinkSpec INTER = new LinkSpec(50_000_000_000L, 300_000);

  @ParameterizedTest
  @CsvSource({"3, 2", "3, 8", "4, 3", "6, 5"})
  void shouldGiveEveryNodeEightPortsWhenTheEndLayersAreRewired(int perLayer, int layers) {
    Topology t = new PrismSpec(perLayer, layers, INTRA, INTER).build();
    assertThat(t.hostCount()).isEqualTo(perLayer * layers);
    assertThat(t.vertexCount()).isEqualTo(perLayer * layers);
    for (int h = 0; h < t.hostCount(); h++) assertThat(t.portCount(h)).as("host %d", h).isEqualTo(8);
    // Cables: per layer n pairs (2 or 3 each), per gap n pairs of 2.
    long cables = (long) perLayer * (2L * (layers - 2) + 3 * 2) + 2L * perLayer * (layers - 1);
    assertThat(t.links()).hasSize((int) (2 * cables));
  }

  @Test
  void shouldJoinNeighboursWithTwoLinksInsideAndThreeAtTheEndsAndLayersWithTwo() {
    PrismSpec prism = new PrismSpec(3, 4, INTRA, INTER);
    HostGraph g = HostGraph.of(prism.build());
    for (int layer = 0; layer < 4; layer++) {
      int expected = layer == 0 || layer == 3 ? 3 : 2;
      for (int p = 0; p < 3; p++) {
        assertThat(g.arcs(prism.node(layer, p), prism.node(layer, (p + 1) % 3))).isEqualTo(expected);
        assertThat(g.arcs(prism.node(layer, (p + 1) % 3), prism.node(layer, p))).isEqualTo(expected);
        if (layer < 3) assertThat(g.arcs(prism.node(layer, p), prism.node(layer + 1, p))).isEqualTo(2);
      }
    }
    assertThat(g.arcs(prism.node(0, 0), prism.node(2, 0))).isZero();
    assertThat(g.arcs(prism.node(0, 0), prism.node(1, 1))).isZero();
    assertThat(g.ringUpperBound()).isEqualTo(8);
  }

  @Test
  void shouldUseEachLinkClassRateOnItsLinks() {
    PrismSpec prism = new PrismSpec(3, 2, INTRA, INTER);
    for (Topology.Link link : prism.build().links()) {
      boolean sameLayer = link.from() / 3 == link.to() / 3;
      assertThat(link.spec()).isEqualTo(sameLayer ? INTRA : INTER);
    }
  }

  @Test
  void shouldRouteOverShortestPathsWithParallelLinks() {
    PrismSpec prism = new PrismSpec(4, 3, INTRA, INTER);
    Topology t = prism.build();
    RoutingTable routes = prism.routing(t);
    // (0,0) to (2,2): two layers up and two positions round: 4 hops.
    assertThat(routes.distance(prism.node(0, 0), prism.node(2, 2))).isEqualTo(4);
    // The three parallel end-layer links to the next position are all next-hop ports.
    assertThat(routes.nextHopPorts(prism.node(0, 0), prism.node(0, 1))).hasSize(3);
  }

  @Test
  void shouldRefuseTooFewNodesPerLayerOrLayers() {
    assertThatThrownBy(() -> new PrismSpec(2, 4, INTRA, INTER).build())
        .hasMessage("prism needs nodes-per-layer >= 3, got 2");
    assertThatThrownBy(() -> new PrismSpec(3, 1, INTRA, INTER).build()).hasMessage("prism needs layers >= 2, got 1");
  }
}
