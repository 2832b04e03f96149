package io.fabemu.core.topology;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabemu.core.routing.GroupRingRouting;
import io.fabemu.core.routing.MeshDorRouting;
import io.fabemu.core.routing.TorusDorRouting;
import io.fabemu.core.topology.Topology.Link;
import io.fabemu.core.topology.Topology.Tier;
import io.fabemu.core.topology.Topology.Vertex;
import io.fabemu.core.topology.Topology.VertexKind;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The router-network builders (mesh, torus, group-ring): hosts then routers, each host on its router's port 0, the
 * router-router cables and the port order each builder documents, and their specs.
 */
class RouterNetworkTopologiesTest {

  private static final LinkSpec LINK = new LinkSpec(200_000_000_000L, 10_000);

  /** Far-end vertex of each port of {@code vertex}, in port order. */
  private static List<Integer> neighbours(Topology t, int vertex) {
    return t.ports(vertex).stream().map(Link::to).toList();
  }

  /** Numbering, port 0 both ways, names, one link spec, no duplicate cables, links consistent. */
  private static void assertRouterNetwork(Topology t, int nodes) {
    assertThat(t.hostCount()).isEqualTo(nodes);
    assertThat(t.vertexCount()).isEqualTo(2 * nodes);
    for (int h = 0; h < nodes; h++) {
      assertThat(t.vertex(h)).isEqualTo(new Vertex(h, VertexKind.HOST, "host" + h, Tier.HOST));
      assertThat(t.vertex(nodes + h)).isEqualTo(new Vertex(nodes + h, VertexKind.SWITCH, "router" + h, Tier.NONE));
      assertThat(neighbours(t, h)).containsExactly(nodes + h);
      assertThat(t.ports(nodes + h).get(0).to()).isEqualTo(h);
      assertThat(t.torOf(h)).isEqualTo(-1);
      Set<Integer> seen = new HashSet<>();
      for (int u : neighbours(t, nodes + h)) assertThat(seen.add(u)).as("router%d to %d twice", h, u).isTrue();
      assertThat(neighbours(t, nodes + h).subList(1, t.portCount(nodes + h))).allMatch(u -> u >= nodes);
    }
    for (Link l : t.links()) {
      assertThat(l.spec()).isEqualTo(LINK);
      assertThat(t.reverse(l).to()).isEqualTo(l.from());
      assertThat(t.reverse(l).toPort()).isEqualTo(l.fromPort());
    }
  }

  @Test
  void shouldCableNeighboursInPortOrderWhenMesh() {
    Topology t = Topologies.mesh(3, 3, 1, LINK);

    assertRouterNetwork(t, 9);
    // 9 host cables, 6 along X, 6 along Y.
    assertThat(t.links()).hasSize(2 * (9 + 6 + 6));
    assertThat(neighbours(t, 9)).containsExactly(0, 10, 12); // corner (0,0): host, +X, +Y
    assertThat(neighbours(t, 13)).containsExactly(4, 12, 14, 10, 16); // centre: host, -X, +X, -Y, +Y
    assertThat(neighbours(t, 17)).containsExactly(8, 16, 14); // corner (2,2): host, -X, -Y
    assertThat(t.description()).isEqualTo("mesh: 3x3 (9 nodes, each a host and a router)");
  }

  @Test
  void shouldOrderPortsByDimensionThenDirectionWhenThreeDimensionalMesh() {
    Topology t = Topologies.mesh(3, 3, 3, LINK);

    assertRouterNetwork(t, 27);
    // Interior node (1,1,1) = 13, router 40: host, -X, +X, -Y, +Y, -Z, +Z.
    assertThat(neighbours(t, 40)).containsExactly(13, 39, 41, 37, 43, 31, 49);
    assertThat(t.description()).isEqualTo("mesh: 3x3x3 (27 nodes, each a host and a router)");
  }

  @Test
  void shouldCountCablesPerDimensionWhenAnyMeshOrTorus() {
    int[][] shapes = {{2, 2, 1}, {3, 2, 1}, {4, 3, 2}, {5, 5, 1}, {2, 2, 2}, {3, 4, 5}, {8, 8, 8}};
    for (int[] s : shapes) {
      int nodes = s[0] * s[1] * s[2];
      Topology mesh = Topologies.mesh(s[0], s[1], s[2], LINK);
      Topology torus = Topologies.torus(s[0], s[1], s[2], LINK);
      int meshCables = nodes;
      int torusCables = nodes;
      for (int size : s) {
        meshCables += nodes / size * (size - 1);
        torusCables += size >= 3 ? nodes : size == 2 ? nodes / 2 : 0;
      }
      assertRouterNetwork(mesh, nodes);
      assertRouterNetwork(torus, nodes);
      assertThat(mesh.links()).as("mesh %dx%dx%d", s[0], s[1], s[2]).hasSize(2 * meshCables);
      assertThat(torus.links()).as("torus %dx%dx%d", s[0], s[1], s[2]).hasSize(2 * torusCables);
    }
  }

  @Test
  void shouldWrapRoundWithPlusCableFirstAtCoordinateZeroWhenTorus() {
    Topology t = Topologies.torus(3, 3, 1, LINK);

    assertRouterNetwork(t, 9);
    assertThat(t.links()).hasSize(2 * (9 + 9 + 9));
    assertThat(neighbours(t, 9)).containsExactly(0, 10, 11, 12, 15); // (0,0): +X, -X (wrap), +Y, -Y (wrap)
    assertThat(neighbours(t, 11)).containsExactly(2, 10, 9, 14, 17); // (2,0): -X, +X (wrap), +Y, -Y (wrap)
    assertThat(neighbours(t, 13)).containsExactly(4, 12, 14, 10, 16); // (1,1): -X, +X, -Y, +Y
    assertThat(t.description()).isEqualTo("torus: 3x3 (9 nodes, each a host and a router)");
  }

  @Test
  void shouldUseOneCableWhenTorusDimensionHasTwoNodes() {
    Topology t = Topologies.torus(2, 3, 1, LINK);

    assertRouterNetwork(t, 6);
    // X: 3 single cables (no wrap-around to duplicate them); Y: rings of 3.
    assertThat(t.links()).hasSize(2 * (6 + 3 + 6));
    assertThat(neighbours(t, 6)).containsExactly(0, 7, 8, 10); // (0,0): X, +Y, -Y (wrap)
    assertThat(neighbours(t, 7)).containsExactly(1, 6, 9, 11); // (1,0): X, +Y, -Y (wrap)
    // A 2x2 torus is a 2x2 mesh.
    Topology small = Topologies.torus(2, 2, 1, LINK);
    Topology mesh = Topologies.mesh(2, 2, 1, LINK);
    for (int v = 0; v < 8; v++) assertThat(neighbours(small, v)).isEqualTo(neighbours(mesh, v));
  }

  @Test
  void shouldJoinGroupsFullyAndSameIndexInRingsWhenGroupRing() {
    // The patent's 24 nodes: 6 groups of 4.
    Topology t = Topologies.groupRing(6, 4, LINK);

    assertRouterNetwork(t, 24);
    assertThat(t.links()).hasSize(2 * (24 + 6 * 6 + 4 * 6));
    // Router (0,1) = vertex 25: host, indices 0, 2, 3 of group 0, then group 1 (next), group 5 (closing cable).
    assertThat(neighbours(t, 25)).containsExactly(1, 24, 26, 27, 29, 45);
    // Router (2,0) = vertex 32: host, indices 1..3 of group 2, then group 1 (previous), group 3 (next).
    assertThat(neighbours(t, 32)).containsExactly(8, 33, 34, 35, 28, 36);
    // Router (5,3) = vertex 47: previous group 4, then group 0 (closing cable).
    assertThat(neighbours(t, 47)).containsExactly(23, 44, 45, 46, 43, 27);
    assertThat(t.description()).isEqualTo("group-ring: 6 groups of 4 (24 nodes, each a host and a router)");
  }

  @Test
  void shouldUseOneCablePerIndexWhenTwoGroups() {
    Topology t = Topologies.groupRing(2, 3, LINK);

    assertRouterNetwork(t, 6);
    assertThat(t.links()).hasSize(2 * (6 + 2 * 3 + 3));
    assertThat(neighbours(t, 11)).containsExactly(5, 9, 10, 8); // (1,2): host, indices 0, 1, group 0
    // One node per group: a plain ring of routers.
    Topology ring = Topologies.groupRing(3, 1, LINK);
    assertRouterNetwork(ring, 3);
    assertThat(ring.links()).hasSize(2 * (3 + 3));
    assertThat(ring.description()).isEqualTo("group-ring: 3 groups of 1 (3 nodes, each a host and a router)");
  }

  @Test
  void shouldRejectBadSizesWhenRouterNetwork() {
    assertThatThrownBy(() -> Topologies.mesh(1, 4, 1, LINK))
        .isInstanceOf(IllegalArgumentException.class).hasMessage("mesh needs size-x >= 2, got 1");
    assertThatThrownBy(() -> Topologies.mesh(4, 0, 1, LINK))
        .isInstanceOf(IllegalArgumentException.class).hasMessage("mesh needs size-y >= 2, got 0");
    assertThatThrownBy(() -> Topologies.mesh(4, 4, 0, LINK))
        .isInstanceOf(IllegalArgumentException.class).hasMessage("mesh needs size-z >= 1 (1 for a 2-D mesh), got 0");
    assertThatThrownBy(() -> Topologies.torus(4, 4, -1, LINK))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("torus needs size-z >= 1 (1 for a 2-D torus), got -1");
    assertThatThrownBy(() -> Topologies.torus(4, 4, 1, null))
        .isInstanceOf(IllegalArgumentException.class).hasMessage("torus needs a link spec, got none");
    assertThatThrownBy(() -> Topologies.mesh(2000, 2000, 2000, LINK))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("mesh of 2000x2000x2000 is too large: at most 715827882 nodes");
    assertThatThrownBy(() -> Topologies.groupRing(1, 4, LINK))
        .isInstanceOf(IllegalArgumentException.class).hasMessage("group-ring needs groups >= 2, got 1");
    assertThatThrownBy(() -> Topologies.groupRing(4, 0, LINK))
        .isInstanceOf(IllegalArgumentException.class).hasMessage("group-ring needs nodes-per-group >= 1, got 0");
    assertThatThrownBy(() -> Topologies.groupRing(100_000, 100_000, LINK))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("group-ring of 100000 groups of 100000 is too large: at most 715827882 nodes");
    assertThatThrownBy(() -> Topologies.groupRing(4, 4, new LinkSpec(0, 5)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("group-ring link needs positive bandwidth and latency, got 0 bit/s and 5 ps");
  }

  @Test
  void shouldBuildNameAndRouteItsKindWhenRouterNetworkSpec() {
    MeshSpec mesh = new MeshSpec(8, 8, 1, LINK);
    TorusSpec torus = new TorusSpec(4, 4, 4, LINK);
    GroupRingSpec groupRing = new GroupRingSpec(6, 4, LINK);

    assertThat(List.of(mesh, torus, groupRing)).extracting(TopologySpec::configName)
        .containsExactly("mesh", "torus", "group-ring");
    assertThat(List.of(mesh, torus, groupRing)).extracting(TopologySpec::hosts).containsExactly(64, 64, 24);
    assertThat(mesh.build().description()).isEqualTo("mesh: 8x8 (64 nodes, each a host and a router)");
    assertThat(torus.build().description()).isEqualTo("torus: 4x4x4 (64 nodes, each a host and a router)");
    assertThat(mesh.routerRouting(mesh.build())).containsInstanceOf(MeshDorRouting.class);
    assertThat(torus.routerRouting(torus.build())).containsInstanceOf(TorusDorRouting.class);
    assertThat(groupRing.routerRouting(groupRing.build())).containsInstanceOf(GroupRingRouting.class);
    // An oversized spec's hosts saturate rather than wrap round to a small or negative count.
    assertThat(new MeshSpec(2000, 2000, 2000, LINK).hosts()).isEqualTo(Integer.MAX_VALUE);
    assertThat(new GroupRingSpec(100_000, 100_000, LINK).hosts()).isEqualTo(Integer.MAX_VALUE);
    assertThatThrownBy(() -> new TorusSpec(1, 4, 1, LINK).build())
        .isInstanceOf(IllegalArgumentException.class).hasMessage("torus needs size-x >= 2, got 1");
  }
}
