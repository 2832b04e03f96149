package io.fabemu.core.routing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabemu.core.topology.FatTreeSpec;
import io.fabemu.core.topology.LinkSpec;
import io.fabemu.core.topology.Topology;
import org.junit.jupiter.api.Test;

/**
 * The fat-tree's routing from its numbering against the full breadth-first table, on many shapes (as
 * {@link StructuredRoutingTest} holds every structured kind), and its routes on the example's shape.
 */
class FatTreeRoutingTest {
  private static final LinkSpec HOST_LINK = new LinkSpec(200_000_000_000L, 300_000L);
  private static final LinkSpec SWITCH_LINK = new LinkSpec(400_000_000_000L, 500_000L);

  private static FatTreeSpec spec(int pods, int leavesPerPod, int aggregationsPerPod, int cores, int hostsPerLeaf) {
    return FatTreeSpec.builder().pods(pods).leavesPerPod(leavesPerPod).aggregationsPerPod(aggregationsPerPod)
        .cores(cores).hostsPerLeaf(hostsPerLeaf).hostLink(HOST_LINK).leafLink(SWITCH_LINK).coreLink(SWITCH_LINK)
        .build();
  }

  @Test
  void shouldMatchFullTableOnEveryShape() {
    int shapes = 0;
    // One pod (with and without cores) and several; one leaf per pod and several; one aggregation and several, with
    // one core each and several; one host per leaf and several.
    for (int pods : new int[] {1, 2, 3, 5}) {
      for (int leaves : new int[] {1, 2, 3}) {
        for (int aggregations : new int[] {1, 2, 3}) {
          for (int coresPerAggregation : new int[] {0, 1, 2}) {
            if (pods > 1 && coresPerAggregation == 0) continue; // refused: pods reach each other only through cores
            for (int hosts : new int[] {1, 2, 4}) {
              StructuredRoutingTest.assertSameRoutes(spec(pods, leaves, aggregations,
                  aggregations * coresPerAggregation, hosts));
              shapes++;
            }
          }
        }
      }
    }
    assertThat(shapes).isEqualTo(243);
  }

  @Test
  void shouldGoUpOnlyAsFarAsTheLowestCommonLevelAndSpreadOverAggregationsAndCores() {
    FatTreeSpec spec = spec(4, 2, 2, 4, 4);
    Topology t = spec.build();
    RoutingTable routes = spec.routing(t);
    int leaf0 = 32;
    int agg0 = 40;
    int core0 = 48;
    // Same leaf: through it. Same pod: through an aggregation of the pod. Another pod: through a core.
    assertThat(routes.path(0, 3)).containsExactly(0, leaf0, 3);
    assertThat(routes.path(0, 5)).hasSize(5).startsWith(0, leaf0).endsWith(leaf0 + 1, 5);
    assertThat(routes.path(0, 31)).hasSize(7).startsWith(0, leaf0).endsWith(leaf0 + 7, 31);
    assertThat(routes.distance(0, 31)).isEqualTo(6);
    // A leaf spreads over its pod's two aggregations, an aggregation over its two cores, a core comes down to the pod.
    assertThat(routes.nextHopPorts(leaf0, 31)).containsExactly(4, 5);
    assertThat(routes.nextHopPorts(agg0 + 1, 31)).containsExactly(2, 3);
    assertThat(routes.nextHopPorts(agg0 + 6, 31)).containsExactly(1);
    assertThat(routes.nextHopPorts(core0 + 3, 31)).containsExactly(3);
    // Shared arrays: no table per destination.
    assertThat(routes.nextHopPorts(leaf0 + 2, 0)).isSameAs(routes.nextHopPorts(leaf0, 31));
  }

  @Test
  void shouldRejectATopologyOfAnotherShape() {
    // As many vertices (2 pods x 4 leaves and 3 cores against 4 pods x 2 and 1 core, one host and one aggregation
    // per leaf and pod: 21 each), other ports.
    Topology other = spec(2, 4, 1, 3, 1).build();
    assertThatThrownBy(() -> spec(4, 2, 1, 1, 1).routing(other))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("expects 2 ports on the first leaf, 3 on the first aggregation and 4 on the first core")
        .hasMessageContaining("has 2, 7 and 2");
    assertThatThrownBy(() -> spec(4, 2, 2, 4, 4).routing(spec(4, 2, 2, 4, 3).build()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("expects 32 hosts and 52 vertices");
  }

  @Test
  void shouldRejectAnIndexOutOfRange() {
    FatTreeSpec spec = spec(2, 2, 2, 2, 2);
    RoutingTable routes = spec.routing(spec.build());
    assertThatThrownBy(() -> routes.nextHopPorts(0, 8)).isInstanceOf(IndexOutOfBoundsException.class);
    assertThatThrownBy(() -> routes.nextHopPorts(8 + 4 + 4 + 2, 0)).isInstanceOf(IndexOutOfBoundsException.class);
  }
}
