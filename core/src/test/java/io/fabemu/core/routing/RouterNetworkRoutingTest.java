package io.fabemu.core.routing;

import static io.fabemu.core.routing.RouterNetworkShapes.mesh;
import static io.fabemu.core.routing.RouterNetworkShapes.torus;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.fail;

import io.fabemu.core.topology.LeafSpineSpec;
import io.fabemu.core.topology.LineSpec;
import io.fabemu.core.topology.RingSpec;
import io.fabemu.core.topology.Topology;
import io.fabemu.core.topology.TopologySpec;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The {@link RoutingTable} of the router networks: exactly the router routing's one port at a router, port 0 at a
 * host, a port the breadth-first table also lists (so each hop is on a shortest path), and the breadth-first
 * distance from every vertex to every host.
 */
class RouterNetworkRoutingTest {

  @Test
  void shouldFollowRouterRoutingOnShortestPathsWhenEveryRouterNetwork() {
    List<TopologySpec> specs = new ArrayList<>();
    specs.addAll(RouterNetworkShapes.meshes());
    specs.addAll(RouterNetworkShapes.tori());
    specs.addAll(RouterNetworkShapes.groupRings());
    for (TopologySpec spec : specs) assertFollowsRouterRouting(spec);
  }

  @Test
  void shouldGoHostRoutersHostWhenPathIsAsked() {
    TopologySpec spec = mesh(4, 4, 1);
    Topology t = spec.build();
    RoutingTable table = spec.routing(t);

    // Host 0 at (0,0) to host 15 at (3,3): its router, X to (3,0), Y to (3,3), the host.
    assertThat(table.path(0, 15)).containsExactly(0, 16, 17, 18, 19, 23, 27, 31, 15);
    assertThat(table.distance(0, 15)).isEqualTo(8);
    assertThat(table.path(5, 5)).containsExactly(5);
    assertThat(table.nextHopPorts(5, 5)).isEmpty();
  }

  @Test
  void shouldHaveNoRouterRoutingWhenNotRouterNetwork() {
    for (TopologySpec spec : List.of(new LineSpec(4, RouterNetworkShapes.LINK),
        new RingSpec(5, RouterNetworkShapes.LINK),
        new LeafSpineSpec(8, 4, 2, RouterNetworkShapes.LINK, RouterNetworkShapes.LINK))) {
      assertThat(spec.routerRouting(spec.build())).as(spec.configName()).isEmpty();
    }
  }

  @Test
  void shouldRejectWhenGraphHasOtherHostCount() {
    Topology t = torus(3, 3, 1).build();
    RouterRouting routing = torus(4, 4, 1).routerRouting(torus(4, 4, 1).build()).orElseThrow();

    assertThatThrownBy(() -> RouterNetworkRouting.of(t, routing))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("router-network routing of 16 hosts expects 16 hosts and 32 vertices, but torus: 3x3 (9 nodes,"
            + " each a host and a router) has 9 and 18");
    assertThatThrownBy(() -> mesh(3, 3, 1).routing(t))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("mesh routing of 3x3 expects 3 ports on router0");
  }

  private static void assertFollowsRouterRouting(TopologySpec spec) {
    Topology t = spec.build();
    RoutingTable table = spec.routing(t);
    RouterRouting routing = spec.routerRouting(t).orElseThrow();
    RoutingTable bfs = RoutingTable.compute(t);
    int n = t.hostCount();
    assertThat(table).isInstanceOf(RouterNetworkRouting.class);
    assertThat(((RouterNetworkRouting) table).routerRouting()).isInstanceOf(routing.getClass());
    assertThat(table.hostCount()).isEqualTo(n);
    assertThat(table.vertexCount()).isEqualTo(2 * n);
    for (int v = 0; v < t.vertexCount(); v++) {
      for (int d = 0; d < n; d++) {
        int[] ports = table.nextHopPorts(v, d);
        int[] expected = v == d ? new int[0] : v < n ? new int[] {0} : new int[] {routing.outputPort(v, d)};
        if (!Arrays.equals(ports, expected)) {
          fail("%s: vertex %d to host %d: ports %s, not %s", t, v, d, Arrays.toString(ports),
              Arrays.toString(expected));
        }
        if (ports.length == 1) {
          if (Arrays.stream(bfs.nextHopPorts(v, d)).noneMatch(p -> p == ports[0])) {
            fail("%s: vertex %d to host %d: port %d is on no shortest path", t, v, d, ports[0]);
          }
          assertThat(table.egressPort(v, d, v * 31 + d)).isEqualTo(ports[0]);
        }
        if (table.distance(v, d) != bfs.distance(v, d)) {
          fail("%s: vertex %d to host %d: distance %d, BFS %d", t, v, d, table.distance(v, d), bfs.distance(v, d));
        }
      }
    }
  }
}
