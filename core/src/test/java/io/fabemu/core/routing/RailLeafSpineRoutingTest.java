package io.fabemu.core.routing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.fail;

import io.fabemu.core.topology.LinkSpec;
import io.fabemu.core.topology.RailLeafSpineSpec;
import io.fabemu.core.topology.Topology;
import io.fabemu.core.topology.Topology.Tier;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The rail-optimized leaf-spine's routes from its numbering against the full breadth-first table
 * ({@link RoutingTable#compute}): without server switches port array for port array, as every structured kind; with
 * them every port a shortest-path port and the same distance, the table's other ports being the paths through a GPU
 * that the routing leaves out (checked to be so).
 */
class RailLeafSpineRoutingTest {

  private static final LinkSpec NIC = new LinkSpec(400_000_000_000L, 500_000);
  private static final LinkSpec SPINE = new LinkSpec(400_000_000_000L, 600_000);
  private static final LinkSpec NVLINK = new LinkSpec(3_600_000_000_000L, 100_000);

  private static RailLeafSpineSpec spec(int servers, int rails, int perLeaf, int spines, boolean serverSwitch) {
    return RailLeafSpineSpec.builder(servers, rails, NIC).serversPerLeaf(perLeaf).spines(spines, SPINE)
        .serverSwitch(serverSwitch ? NVLINK : null).build();
  }

  @Test
  void shouldMatchTheFullTableWhenThereIsNoServerSwitch() {
    int shapes = 0;
    for (int servers : new int[] {1, 2, 3, 4, 6, 8}) {
      for (int rails : new int[] {1, 2, 3, 8}) {
        for (int perLeaf = 1; perLeaf <= servers; perLeaf++) {
          if (servers % perLeaf != 0) continue;
          for (int spines : new int[] {0, 1, 2, 5}) {
            if (spines == 0 && (perLeaf != servers || rails > 1)) continue; // refused: rails or groups apart
            assertRoutes(spec(servers, rails, perLeaf, spines, false), true);
            shapes++;
          }
        }
      }
    }
    assertThat(shapes).isGreaterThan(100);
  }

  @Test
  void shouldTakeShortestPathsAndNoGpuDetourWhenServersHaveSwitches() {
    int shapes = 0;
    for (int servers : new int[] {1, 2, 3, 4, 6, 8}) {
      for (int rails : new int[] {1, 2, 3, 8}) {
        for (int perLeaf = 1; perLeaf <= servers; perLeaf++) {
          if (servers % perLeaf != 0) continue;
          for (int spines : new int[] {0, 1, 2, 5}) {
            if (spines == 0 && perLeaf != servers) continue; // refused: groups apart
            assertRoutes(spec(servers, rails, perLeaf, spines, true), rails == 1 || spines == 0 && servers == 1);
            shapes++;
          }
        }
      }
    }
    assertThat(shapes).isGreaterThan(100);
  }

  @Test
  void shouldCrossTheServerSwitchWithinAServerAndTheSpinesBetweenRails() {
    // 4 servers of 4 GPUs, 2 per leaf, 2 spines: hosts 0..15, leaves 16..23, spines 24..25, switches 26..29.
    RailLeafSpineSpec spec = spec(4, 4, 2, 2, true);
    Topology t = spec.build();
    RoutingTable routes = spec.routing(t);
    assertThat(routes.path(0, 3)).containsExactly(0, 26, 3);
    // Same rail, same group: the rail leaf alone; same rail, other group: up a spine.
    assertThat(routes.path(1, 5)).containsExactly(1, 17, 5);
    assertThat(routes.path(1, 9).subList(0, 2)).containsExactly(1, 17);
    assertThat(t.tier(routes.path(1, 9).get(2))).isEqualTo(Tier.SPINE);
    assertThat(routes.path(1, 9).subList(3, 5)).containsExactly(21, 9);
    // Another rail of the same group: through a spine, not down to server 1's GPU 0 and across its switch.
    List<Integer> crossRail = routes.path(0, 6);
    assertThat(crossRail).hasSize(5);
    assertThat(t.tier(crossRail.get(2))).isEqualTo(Tier.SPINE);
    assertThat(crossRail.subList(3, 5)).containsExactly(18, 6);
    assertThat(routes.nextHopPorts(16, 6)).containsExactly(2, 3);
    assertThat(RoutingTable.compute(t).nextHopPorts(16, 6)).containsExactly(1, 2, 3);
  }

  @Test
  void shouldCrossTheSourceServerSwitchBetweenRailsWhenThereIsNoSpine() {
    // 2 servers of 2 GPUs under one leaf per rail, no spine: hosts 0..3, leaves 4..5, switches 6..7.
    RailLeafSpineSpec spec = spec(2, 2, 2, 0, true);
    Topology t = spec.build();
    RoutingTable routes = spec.routing(t);
    assertThat(routes.path(0, 3)).containsExactly(0, 6, 1, 5, 3);
    assertThat(routes.path(0, 2)).containsExactly(0, 4, 2);
    assertThat(routes.path(1, 0)).containsExactly(1, 6, 0);
  }

  @Test
  void shouldRejectATopologyOfAnotherShape() {
    Topology withSwitches = spec(4, 2, 2, 2, true).build();
    assertThatThrownBy(() -> spec(4, 2, 2, 2, false).routing(withSwitches))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("rail-leaf-spine routing");
    // Same vertex count (8 hosts + 4 leaves + 2 spines = 8 + 2 leaves + 4 spines), other ports.
    Topology fourLeaves = spec(4, 2, 2, 2, false).build();
    assertThatThrownBy(() -> spec(4, 2, 4, 4, false).routing(fourLeaves))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("expects");
  }

  /**
   * Every port leads where the topology says; every (vertex, host) has ports, each a port of the full table, and the
   * same distance; with {@code sameArrays}, exactly the table's ports. Where they differ, the table's extra ports
   * lead to a GPU (a host other than the destination) or to a server switch from a host on another rail, or there is
   * no spine.
   */
  private static void assertRoutes(RailLeafSpineSpec spec, boolean sameArrays) {
    Topology t = spec.build();
    RoutingTable table = RoutingTable.compute(t);
    RoutingTable routes = spec.routing(t);
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
        if (routes.distance(v, d) != table.distance(v, d)) {
          fail("%s: vertex %d to host %d: distance %d, the full table has %d", t, v, d, routes.distance(v, d),
              table.distance(v, d));
        }
        boolean wrong = sameArrays ? !Arrays.equals(actual, expected)
            : !isSubset(actual, expected) || actual.length == 0 && v != d;
        if (wrong) {
          fail("%s: vertex %d to host %d: ports %s, the full table has %s", t, v, d, Arrays.toString(actual),
              Arrays.toString(expected));
        }
        for (int p : expected) {
          if (contains(actual, p)) continue;
          int next = t.neighbour(v, p);
          boolean throughGpu = t.isHost(next) && next != d;
          boolean acrossOwnSwitch = t.isHost(v) && t.tier(next) == Tier.NONE;
          // Without a spine both ways between rails cross a GPU: the routing takes the source's server switch.
          boolean noSpine = spec.spines() == 0;
          if (!throughGpu && !acrossOwnSwitch && !noSpine) {
            fail("%s: vertex %d to host %d leaves out port %d to %s", t, v, d, p, t.vertexName(next));
          }
        }
      }
    }
  }

  private static boolean isSubset(int[] ports, int[] of) {
    for (int p : ports) {
      if (!contains(of, p)) return false;
    }
    return true;
  }

  private static boolean contains(int[] ports, int port) {
    for (int p : ports) {
      if (p == port) return true;
    }
    return false;
  }
}
