package io.fabemu.core.routing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabemu.core.topology.LinkSpec;
import io.fabemu.core.topology.Topologies;
import io.fabemu.core.topology.Topology.Tier;
import io.fabemu.core.topology.Topology;
import io.fabemu.core.topology.TopologyBuilder;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

class RoutingTableTest {

  private static final LinkSpec LINK = new LinkSpec(100_000_000_000L, 500_000);

  // 16 hosts (0..15), TORs 16..19, spines 20 and 21. A TOR's ports: 0..3 its hosts, 4 spine0, 5 spine1.
  private final Topology leafSpine = Topologies.leafSpine(16, 4, 2, LINK, LINK);
  private final RoutingTable leafSpineRoutes = RoutingTable.compute(leafSpine);

  @Test
  void shouldListAllSpinePortsWhenTorRoutesToAnotherTor() {
    assertThat(leafSpineRoutes.nextHopPorts(16, 5)).containsExactly(4, 5);
    assertThat(leafSpineRoutes.nextHopPorts(16, 2)).containsExactly(2);
    assertThat(leafSpineRoutes.nextHopPorts(20, 5)).containsExactly(1);
    assertThat(leafSpineRoutes.nextHopPorts(0, 5)).containsExactly(0);
  }

  @Test
  void shouldReturnNoPortsWhenVertexIsTheDestination() {
    assertThat(leafSpineRoutes.nextHopPorts(3, 3)).isEmpty();
    assertThat(leafSpineRoutes.distance(3, 3)).isZero();
    assertThat(leafSpineRoutes.path(3, 3)).containsExactly(3);
    assertThatThrownBy(() -> leafSpineRoutes.egressPort(3, 3, 7))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("no egress port");
  }

  @Test
  void shouldCountHopsWhenDistance() {
    assertThat(leafSpineRoutes.distance(0, 1)).isEqualTo(2);
    assertThat(leafSpineRoutes.distance(0, 5)).isEqualTo(4);
    assertThat(leafSpineRoutes.distance(16, 5)).isEqualTo(3);
    assertThat(leafSpineRoutes.distance(21, 5)).isEqualTo(2);
  }

  @Test
  void shouldShareOnePortArrayWhenSetsAreIdentical() {
    int[] viaSpines = leafSpineRoutes.nextHopPorts(16, 4);
    assertThat(leafSpineRoutes.nextHopPorts(16, 15)).isSameAs(viaSpines);
    assertThat(leafSpineRoutes.nextHopPorts(18, 0)).isSameAs(viaSpines);
    int[] portZero = leafSpineRoutes.nextHopPorts(0, 5);
    assertThat(leafSpineRoutes.nextHopPorts(7, 1)).isSameAs(portZero);
    assertThat(leafSpineRoutes.nextHopPorts(16, 0)).isSameAs(portZero);
  }

  @Test
  void shouldGoThroughHashChosenSpineWhenPathCrossesTors() {
    int spine = 20 + Math.floorMod(RoutingTable.flowHash(0, 5), 2);

    assertThat(leafSpineRoutes.path(0, 5)).containsExactly(0, 16, spine, 17, 5);
    assertThat(leafSpineRoutes.path(0, 1)).containsExactly(0, 16, 1);
  }

  @Test
  void shouldUseEverySpineWhenManyFlowsCrossTors() {
    Topology t = Topologies.leafSpine(16, 4, 4, LINK, LINK);
    RoutingTable routes = RoutingTable.compute(t);
    Set<Integer> spines = new HashSet<>();
    for (int s = 0; s < 16; s++) {
      for (int d = 0; d < 16; d++) {
        if (s / 4 != d / 4) spines.add(routes.path(s, d).get(2));
      }
    }
    assertThat(spines).containsExactlyInAnyOrder(20, 21, 22, 23);
  }

  @Test
  void shouldSortPortsByNeighbourIdWhenPortOrderDiffers() {
    // Ring of 4: host 3's port 0 goes to host 2 and port 1 to host 0; both are shortest towards host 1.
    RoutingTable routes = RoutingTable.compute(Topologies.ring(4, LINK));

    assertThat(routes.nextHopPorts(3, 1)).containsExactly(1, 0);
    assertThat(routes.nextHopPorts(0, 2)).containsExactly(0, 1);
  }

  @Test
  void shouldPickPortByFloorModWhenEcmp() {
    RoutingTable routes = RoutingTable.compute(Topologies.ring(4, LINK));

    assertThat(routes.egressPort(3, 1, 0)).isEqualTo(1);
    assertThat(routes.egressPort(3, 1, 1)).isEqualTo(0);
    assertThat(routes.egressPort(3, 1, -1)).isEqualTo(0);
    assertThat(routes.egressPort(3, 1, Integer.MIN_VALUE)).isEqualTo(1);
  }

  @Test
  void shouldBreakTiesByPortWhenParallelLinks() {
    TopologyBuilder b = new TopologyBuilder();
    int h0 = b.addHost("host0");
    int h1 = b.addHost("host1");
    int sw = b.addSwitch("sw", Tier.NONE);
    b.connect(sw, h1, LINK).connect(sw, h0, LINK).connect(sw, h1, LINK);
    RoutingTable routes = RoutingTable.compute(b.build("two hosts, doubled cable to host1"));

    assertThat(routes.nextHopPorts(sw, h1)).containsExactly(0, 2);
    assertThat(routes.nextHopPorts(sw, h0)).containsExactly(1);
    assertThat(routes.nextHopPorts(h1, h0)).containsExactly(0, 1);
  }

  @Test
  void shouldRouteAlongChainWhenLine() {
    RoutingTable routes = RoutingTable.compute(Topologies.line(6, LINK));

    assertThat(routes.distance(0, 5)).isEqualTo(5);
    assertThat(routes.path(0, 5)).containsExactly(0, 1, 2, 3, 4, 5);
    assertThat(routes.path(4, 1)).containsExactly(4, 3, 2, 1);
  }

  @Test
  void shouldGoDirectWhenFullMesh() {
    RoutingTable routes = RoutingTable.compute(Topologies.fullMesh(5, LINK));

    assertThat(routes.nextHopPorts(1, 3)).containsExactly(2);
    assertThat(routes.path(1, 3)).containsExactly(1, 3);
  }

  @Test
  void shouldRouteNothingWhenSingleHost() {
    RoutingTable routes = RoutingTable.compute(Topologies.line(1, LINK));

    assertThat(routes.nextHopPorts(0, 0)).isEmpty();
    assertThat(routes.path(0, 0)).containsExactly(0);
  }

  @Test
  void shouldRejectWhenHostsDisconnected() {
    TopologyBuilder b = new TopologyBuilder();
    b.addHost("host0");
    b.addHost("host1");

    assertThatThrownBy(() -> RoutingTable.compute(b.build("two lonely hosts")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("topology is disconnected: host1 cannot reach host0 (two lonely hosts)");
  }

  @Test
  void shouldRejectWhenSwitchStranded() {
    TopologyBuilder b = new TopologyBuilder();
    int h0 = b.addHost("host0");
    int h1 = b.addHost("host1");
    b.addSwitch("orphan", Tier.NONE);
    b.connect(h0, h1, LINK);

    assertThatThrownBy(() -> RoutingTable.compute(b.build("pair plus orphan switch")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("orphan cannot reach host0");
  }

  @Test
  void shouldRejectWhenDestinationIsNotAHost() {
    assertThatThrownBy(() -> leafSpineRoutes.nextHopPorts(0, 16))
        .isInstanceOf(IndexOutOfBoundsException.class);
  }

  @Test
  void shouldHashEachDirectionDifferentlyWhenFlowHash() {
    assertThat(RoutingTable.flowHash(3, 9)).isEqualTo(RoutingTable.flowHash(3, 9));
    assertThat(RoutingTable.flowHash(3, 9)).isNotEqualTo(RoutingTable.flowHash(9, 3));
  }
}
