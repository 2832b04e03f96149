package io.fabemu.core.routing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.fail;

import io.fabemu.core.topology.FullMeshSpec;
import io.fabemu.core.topology.LeafSpineSpec;
import io.fabemu.core.topology.LineSpec;
import io.fabemu.core.topology.LinkSpec;
import io.fabemu.core.topology.RingSpec;
import io.fabemu.core.topology.Topology;
import io.fabemu.core.topology.TopologySpec;
import java.util.Arrays;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The routings each topology kind computes from its numbering against the full breadth-first table
 * ({@link RoutingTable#compute}), which defines the routes: every (vertex, destination host) must give the same
 * port array in the same order, the same distance, and every port the same neighbour. Identical arrays mean
 * identical egress choices for every flow hash, so a run's events and digests cannot change with the routing.
 */
class StructuredRoutingTest {

  private static final LinkSpec HOST_LINK = new LinkSpec(25_000_000_000L, 500_000);
  private static final LinkSpec SPINE_LINK = new LinkSpec(100_000_000_000L, 600_000);

  @Test
  void shouldMatchFullTableWhenLeafSpine() {
    int shapes = 0;
    // Hosts that fill their TORs, that leave the last TOR short (by one host or all but one), a single TOR (a star
    // when there is no spine, or hosts-per-tor above hosts), one host per TOR; no spine, one, several.
    for (int hosts : new int[] {1, 2, 3, 5, 7, 8, 9, 16, 17, 31, 33, 64, 100}) {
      for (int perTor : new int[] {1, 2, 3, 4, 8, 32, 40}) {
        for (int spines : new int[] {0, 1, 2, 3, 5, 16}) {
          boolean oneTor = hosts <= perTor;
          if (spines == 0 && !oneTor) continue; // the builder refuses it: TORs without a spine are disconnected
          assertSameRoutes(new LeafSpineSpec(hosts, perTor, spines, HOST_LINK, SPINE_LINK));
          shapes++;
        }
      }
    }
    assertThat(shapes).isGreaterThan(300);
  }

  @Test
  void shouldMatchFullTableWhenLeafSpineOfBenchmarkShape() {
    // The rd-4096x8B benchmark's fabric: 128 full TORs, 16-way ECMP between them.
    assertSameRoutes(new LeafSpineSpec(4096, 32, 16, HOST_LINK, SPINE_LINK));
    // Same with a short last TOR (4,000 = 124 x 32 + 32 is full; 4,001 leaves one host on the 126th).
    assertSameRoutes(new LeafSpineSpec(4001, 32, 16, HOST_LINK, SPINE_LINK));
  }

  @Test
  void shouldHaveNoParallelLinksWhenLeafSpine() {
    // Parallel links would need port ties broken by port number; a leaf-spine has none to break.
    Topology t = new LeafSpineSpec(37, 4, 3, HOST_LINK, SPINE_LINK).build();
    for (int v = 0; v < t.vertexCount(); v++) {
      Set<Integer> neighbours = new HashSet<>();
      for (int p = 0; p < t.portCount(v); p++) {
        assertThat(neighbours.add(t.neighbour(v, p))).as("vertex %d port %d", v, p).isTrue();
      }
    }
  }

  @Test
  void shouldMatchFullTableWhenLine() {
    for (int hosts = 1; hosts <= 40; hosts++) assertSameRoutes(new LineSpec(hosts, HOST_LINK));
  }

  @Test
  void shouldMatchFullTableWhenRing() {
    // Odd and even rings: an even ring has two shortest paths to its antipode.
    for (int hosts = 1; hosts <= 40; hosts++) assertSameRoutes(new RingSpec(hosts, HOST_LINK));
  }

  @Test
  void shouldMatchFullTableWhenFullMesh() {
    for (int hosts = 1; hosts <= 24; hosts++) assertSameRoutes(new FullMeshSpec(hosts, HOST_LINK));
  }

  @Test
  void shouldRouteUpAndDownWithoutTableWhenHundredThousandHosts() {
    LeafSpineSpec spec = new LeafSpineSpec(100_000, 32, 16, HOST_LINK, SPINE_LINK);
    Topology t = spec.build();
    RoutingTable routes = spec.routing(t);
    int firstTor = 100_000;
    int firstSpine = firstTor + 3125;

    assertThat(routes.path(0, 31)).containsExactly(0, firstTor, 31);
    assertThat(routes.path(0, 99_999)).hasSize(5).startsWith(0, firstTor).endsWith(firstTor + 3124, 99_999);
    assertThat(routes.nextHopPorts(firstTor, 99_999)).containsExactly(32, 33, 34, 35, 36, 37, 38, 39, 40, 41, 42, 43,
        44, 45, 46, 47);
    assertThat(routes.nextHopPorts(firstTor + 7, 99_999)).isSameAs(routes.nextHopPorts(firstTor, 99_999));
    assertThat(routes.nextHopPorts(firstSpine + 15, 99_999)).containsExactly(3124);
    assertThat(routes.distance(5, 70_000)).isEqualTo(4);
  }

  @Test
  void shouldRejectWhenTopologyIsNotTheSpecs() {
    Topology other = new LeafSpineSpec(16, 4, 2, HOST_LINK, SPINE_LINK).build();

    assertThatThrownBy(() -> new LeafSpineSpec(16, 4, 3, HOST_LINK, SPINE_LINK).routing(other))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("expects 16 hosts and 23 vertices")
        .hasMessageContaining("has 16 and 22");
    assertThatThrownBy(() -> new RingSpec(16, HOST_LINK).routing(other))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("ring routing of 16 hosts");
    // As many vertices (64 hosts, 8 TORs and 4 spines against 4 TORs and 8 spines), other ports.
    Topology sameCount = new LeafSpineSpec(64, 8, 4, HOST_LINK, SPINE_LINK).build();
    assertThatThrownBy(() -> new LeafSpineSpec(64, 16, 8, HOST_LINK, SPINE_LINK).routing(sameCount))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("expects 24 ports on the first TOR and 4 on each spine")
        .hasMessageContaining("has 12 and 12");
  }

  @Test
  void shouldRejectWhenIndexOutOfRange() {
    LeafSpineSpec spec = new LeafSpineSpec(16, 4, 2, HOST_LINK, SPINE_LINK);
    RoutingTable routes = spec.routing(spec.build());

    assertThatThrownBy(() -> routes.nextHopPorts(0, 16)).isInstanceOf(IndexOutOfBoundsException.class);
    assertThatThrownBy(() -> routes.nextHopPorts(22, 0)).isInstanceOf(IndexOutOfBoundsException.class);
    assertThatThrownBy(() -> routes.nextHopPorts(-1, 0)).isInstanceOf(IndexOutOfBoundsException.class);
  }

  /**
   * Every (vertex, destination), every port: the kind's routing against the full table; arrays compared whole. Also
   * used by the tests of each kind's routing ({@code FatTreeRoutingTest}).
   */
  static void assertSameRoutes(TopologySpec spec) {
    Topology t = spec.build();
    RoutingTable table = RoutingTable.compute(t);
    RoutingTable routes = spec.routing(t);
    assertThat(routes).isNotInstanceOf(ShortestPathTable.class);
    assertThat(routes.hostCount()).isEqualTo(t.hostCount());
    assertThat(routes.vertexCount()).isEqualTo(t.vertexCount());
    for (int v = 0; v < t.vertexCount(); v++) {
      for (int p = 0; p < t.portCount(v); p++) {
        if (routes.neighbour(v, p) != t.neighbour(v, p)) {
          fail("%s: vertex %d port %d leads to %d, not %d", t, v, p, routes.neighbour(v, p), t.neighbour(v, p));
        }
      }
      for (int d = 0; d < t.hostCount(); d++) {
        int[] expected = table.nextHopPorts(v, d);
        int[] actual = routes.nextHopPorts(v, d);
        if (!Arrays.equals(actual, expected)) {
          fail("%s: vertex %d to host %d: ports %s, the full table has %s", t, v, d, Arrays.toString(actual),
              Arrays.toString(expected));
        }
        if (routes.distance(v, d) != table.distance(v, d)) {
          fail("%s: vertex %d to host %d: distance %d, the full table has %d", t, v, d, routes.distance(v, d),
              table.distance(v, d));
        }
      }
    }
  }
}
