package io.fabemu.core.routing;

import static io.fabemu.core.routing.RouterNetworkShapes.groupRing;
import static io.fabemu.core.routing.RouterNetworkShapes.mesh;
import static io.fabemu.core.routing.RouterNetworkShapes.torus;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.fail;

import io.fabemu.core.topology.GroupRingSpec;
import io.fabemu.core.topology.LinkSpec;
import io.fabemu.core.topology.MeshSpec;
import io.fabemu.core.topology.Topology;
import io.fabemu.core.topology.Topology.Link;
import io.fabemu.core.topology.TorusSpec;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The router routings of mesh, torus and group-ring, every (source, destination) pair of many shapes walked hop by
 * hop: the route reaches the destination's router in exactly the breadth-first distance (so it is minimal), corrects
 * the dimensions in order (X, Y, Z; the intra-group hop before the ring), goes the shorter way round a ring with ties
 * the + way, and takes the virtual-channel classes of the dateline rule.
 */
class RouterRoutingTest {

  /** One hop of a walked route: the dimension it moves in, its direction, and its class. */
  record Hop(int from, int to, int dimension, boolean plus, int vcClass) {}

  /** Tells which dimension and direction a router-router hop between two nodes moves in. */
  interface Geometry {
    /** {@code {dimension, plus ? 1 : 0}} of the hop from node {@code from} to node {@code to}. */
    int[] move(int from, int to);
  }

  /** A grid's coordinates, computed here independently of the routing's own. */
  record Grid(int sizeX, int sizeY, int sizeZ) implements Geometry {
    int[] sizes() {
      return new int[] {sizeX, sizeY, sizeZ};
    }

    int coordinate(int node, int dimension) {
      int[] strides = {1, sizeX, sizeX * sizeY};
      return node / strides[dimension] % sizes()[dimension];
    }

    @Override
    public int[] move(int from, int to) {
      for (int dim = 0; dim < 3; dim++) {
        int a = coordinate(from, dim);
        int b = coordinate(to, dim);
        // Round a ring of 3 or more the + way may wrap to 0; a dimension of 2 is one cable, + from 0 to 1.
        int size = sizes()[dim];
        if (a != b) return new int[] {dim, (size >= 3 ? b == (a + 1) % size : b > a) ? 1 : 0};
      }
      throw new AssertionError("hop " + from + " -> " + to + " moves in no dimension");
    }
  }

  /** A group-ring's two dimensions: 0 inside a group, 1 round a ring (+ towards the next group). */
  record Groups(int groups, int perGroup) implements Geometry {
    @Override
    public int[] move(int from, int to) {
      if (from / perGroup == to / perGroup) return new int[] {0, to > from ? 1 : 0};
      if (from % perGroup != to % perGroup) throw new AssertionError("hop " + from + " -> " + to + " is diagonal");
      return new int[] {1, to / perGroup == (from / perGroup + 1) % groups ? 1 : 0};
    }
  }

  @Test
  void shouldFollowShortestDimensionOrderRoutesWhenMesh() {
    for (MeshSpec spec : RouterNetworkShapes.meshes()) {
      Grid grid = new Grid(spec.sizeX(), spec.sizeY(), spec.sizeZ());
      Topology t = spec.build();
      RouterRouting routing = spec.routerRouting(t).orElseThrow();
      assertThat(routing).isInstanceOf(MeshDorRouting.class);
      assertThat(routing.vcClasses()).isEqualTo(1);
      checkEveryGridRoute(t, routing, grid, false);
    }
  }

  @Test
  void shouldFollowShortestDimensionOrderRoutesWithDatelineClassesWhenTorus() {
    for (TorusSpec spec : RouterNetworkShapes.tori()) {
      Grid grid = new Grid(spec.sizeX(), spec.sizeY(), spec.sizeZ());
      Topology t = spec.build();
      RouterRouting routing = spec.routerRouting(t).orElseThrow();
      assertThat(routing).isInstanceOf(TorusDorRouting.class);
      assertThat(routing.vcClasses()).isEqualTo(2);
      checkEveryGridRoute(t, routing, grid, true);
    }
  }

  @Test
  void shouldHopInsideGroupThenAroundRingWhenGroupRing() {
    for (GroupRingSpec spec : RouterNetworkShapes.groupRings()) {
      Topology t = spec.build();
      RouterRouting routing = spec.routerRouting(t).orElseThrow();
      assertThat(routing).isInstanceOf(GroupRingRouting.class);
      assertThat(routing.vcClasses()).isEqualTo(2);
      checkEveryGroupRingRoute(t, routing, spec.groups(), spec.nodesPerGroup());
    }
  }

  @Test
  void shouldRouteTheSeedsExampleWhenSixGroupsOfFour() {
    GroupRingSpec spec = groupRing(6, 4);
    Topology t = spec.build();
    RouterRouting routing = spec.routerRouting(t).orElseThrow();
    Groups groups = new Groups(6, 4);

    // 1G1 (group 0, index 1) to 4G2 (group 3, index 2): to index 2 in group 0, then 3 groups either way: the + way.
    assertThat(routerPath(t, routing, groups, 1, 3 * 4 + 2)).containsExactly("router1", "router2", "router6",
        "router10", "router14");
    // Group 5 to group 1, index 0: the + way through the closing cable (5 -> 0), so class 1 from its first hop.
    assertThat(walk(t, routing, groups, 20, 4)).extracting(Hop::vcClass).containsExactly(1, 1);
    // Group 1 to group 5, index 3: the - way, through the closing cable (0 -> 5) on its second hop.
    assertThat(routerPath(t, routing, groups, 7, 23)).containsExactly("router7", "router3", "router23");
    assertThat(walk(t, routing, groups, 7, 23)).extracting(Hop::vcClass).containsExactly(0, 1);
  }

  @Test
  void shouldCrossDatelineInClassOneAndResetInNextDimensionWhenTorus() {
    Topology t = torus(5, 5, 1).build();
    RouterRouting routing = torus(5, 5, 1).routerRouting(t).orElseThrow();

    // (3,3) to (0,0): +X through the wrap (3 -> 4 -> 0), then +Y through the wrap (3 -> 4 -> 0).
    List<Hop> hops = walk(t, routing, new Grid(5, 5, 1), 3 + 5 * 3, 0);
    assertThat(hops).extracting(Hop::dimension).containsExactly(0, 0, 1, 1);
    assertThat(hops).extracting(Hop::plus).containsOnly(true);
    assertThat(hops).extracting(Hop::vcClass).containsExactly(0, 1, 0, 1);
    // Ejection is class 0, whatever the packet came in on.
    int router = routing.routerOf(1);
    assertThat(routing.outputPort(router, 1)).isEqualTo(RouterRouting.LOCAL_PORT);
    assertThat(routing.outputVcClass(router, 4, 1, RouterRouting.LOCAL_PORT, 1)).isZero();
  }

  @Test
  void shouldBreakTiesThePlusWayWhenHalfWayRoundEvenRing() {
    Topology t = torus(4, 4, 1).build();
    RouterRouting routing = torus(4, 4, 1).routerRouting(t).orElseThrow();
    Grid grid = new Grid(4, 4, 1);

    // (1,0) to (3,0) is 2 hops either way: +X.
    assertThat(routerPath(t, routing, grid, 1, 3)).containsExactly("router1", "router2", "router3");
    // (3,0) to (1,0): +X too, through the wrap.
    assertThat(routerPath(t, routing, grid, 3, 1)).containsExactly("router3", "router0", "router1");
  }

  @Test
  void shouldUsePortOrderOfTheBuildersWhenComputingPorts() {
    // 4x4x4 torus, node (0, 1, 3) = 0 + 4 * (1 + 4 * 3) = 52: X ports +X first (coordinate 0), Y and Z -d first.
    Topology t = torus(4, 4, 4).build();
    RouterRouting routing = torus(4, 4, 4).routerRouting(t).orElseThrow();
    int router = routing.routerOf(52);
    assertThat(routing.outputPort(router, 53)).isEqualTo(1); // +X
    assertThat(routing.outputPort(router, 55)).isEqualTo(2); // -X (wrap)
    assertThat(routing.outputPort(router, 48)).isEqualTo(3); // -Y
    assertThat(routing.outputPort(router, 56)).isEqualTo(4); // +Y
    assertThat(routing.outputPort(router, 36)).isEqualTo(5); // -Z
    assertThat(routing.outputPort(router, 4)).isEqualTo(6); // +Z (wrap)
    assertThat(routing.outputPort(router, 52)).isEqualTo(RouterRouting.LOCAL_PORT);

    // 3x3 mesh corner (0,0): +X on 1, +Y on 2; centre (1,1): -X 1, +X 2, -Y 3, +Y 4.
    Topology m = mesh(3, 3, 1).build();
    RouterRouting meshRouting = mesh(3, 3, 1).routerRouting(m).orElseThrow();
    assertThat(meshRouting.outputPort(9, 1)).isEqualTo(1);
    assertThat(meshRouting.outputPort(9, 3)).isEqualTo(2);
    assertThat(meshRouting.outputPort(13, 3)).isEqualTo(1);
    assertThat(meshRouting.outputPort(13, 5)).isEqualTo(2);
    assertThat(meshRouting.outputPort(13, 1)).isEqualTo(3);
    assertThat(meshRouting.outputPort(13, 7)).isEqualTo(4);
  }

  @Test
  void shouldRejectWhenGraphIsNotTheRoutingsShape() {
    LinkSpec link = RouterNetworkShapes.LINK;
    Topology torus = torus(4, 4, 1).build();
    // As many vertices, other cables.
    assertThatThrownBy(() -> MeshDorRouting.of(torus, 4, 4, 1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("mesh routing of 4x4 expects 3 ports on router0");
    assertThatThrownBy(() -> TorusDorRouting.of(torus, 2, 8, 1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("torus routing of 2x8 expects");
    assertThatThrownBy(() -> TorusDorRouting.of(torus, 4, 4, 2))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("expects 32 hosts and 64 vertices, but torus: 4x4 (16 nodes, each a host and a router)"
            + " has 16 and 32");
    assertThatThrownBy(() -> GroupRingRouting.of(torus, 4, 4))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("group-ring routing of 4 groups of 4 expects");
    assertThatThrownBy(() -> MeshDorRouting.of(mesh(4, 4, 1).build(), 1, 16, 1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("mesh routing needs size-x >= 2, got 1");
    assertThatThrownBy(() -> TorusDorRouting.of(torus, 4, 4, 0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("torus routing needs size-z >= 1, got 0");
    assertThatThrownBy(() -> GroupRingRouting.of(new GroupRingSpec(2, 2, link).build(), 1, 4))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("group-ring routing needs groups >= 2, got 1");
  }

  @Test
  void shouldRejectWhenRouterOrDestinationIsOutOfRange() {
    Topology t = torus(3, 3, 1).build();
    RouterRouting routing = torus(3, 3, 1).routerRouting(t).orElseThrow();

    assertThatThrownBy(() -> routing.outputPort(8, 0)).isInstanceOf(IndexOutOfBoundsException.class);
    assertThatThrownBy(() -> routing.outputPort(18, 0)).isInstanceOf(IndexOutOfBoundsException.class);
    assertThatThrownBy(() -> routing.outputPort(9, 9)).isInstanceOf(IndexOutOfBoundsException.class);
    assertThatThrownBy(() -> routing.outputVcClass(9, 0, 0, 5, 1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("has router ports 1..4, not 5");
  }

  /** Every pair of {@code grid}: minimal, X then Y then Z, one direction per dimension, ties +, dateline classes. */
  private static void checkEveryGridRoute(Topology t, RouterRouting routing, Grid grid, boolean torus) {
    RoutingTable bfs = RoutingTable.compute(t);
    int n = routing.hostCount();
    int[] sizes = grid.sizes();
    for (int s = 0; s < n; s++) {
      for (int d = 0; d < n; d++) {
        List<Hop> hops = walk(t, routing, grid, s, d);
        String route = t + ": route " + s + " -> " + d + " " + hops;
        // Minimal: the BFS distance from the source's router to host d counts the ejection hop too.
        if (hops.size() != bfs.distance(routing.routerOf(s), d) - 1) fail("%s is not minimal", route);
        for (int i = 0; i < hops.size(); i++) {
          Hop hop = hops.get(i);
          Hop previous = i == 0 ? null : hops.get(i - 1);
          int dim = hop.dimension();
          boolean newDimension = previous == null || previous.dimension() != dim;
          if (previous != null && dim < previous.dimension()) fail("%s goes back to an earlier dimension", route);
          if (!newDimension && hop.plus() != previous.plus()) fail("%s turns round in dimension %d", route, dim);
          int size = sizes[dim];
          int here = grid.coordinate(hop.from() - n, dim);
          int there = grid.coordinate(d, dim);
          boolean expectPlus = torus && size >= 3 ? 2 * Math.floorMod(there - here, size) <= size : there > here;
          if (newDimension && hop.plus() != expectPlus) fail("%s starts dimension %d the wrong way", route, dim);
          boolean dateline = torus && size >= 3 && (hop.plus() ? here == size - 1 : here == 0);
          int expectedClass = dateline ? 1 : newDimension ? 0 : previous.vcClass();
          if (hop.vcClass() != expectedClass) {
            fail("%s: hop %d class %d, not %d", route, i, hop.vcClass(), expectedClass);
          }
        }
      }
    }
  }

  /** Every pair of a group-ring: the intra-group hop first, then the ring the shorter way, ties +, dateline classes. */
  private static void checkEveryGroupRingRoute(Topology t, RouterRouting routing, int groups, int perGroup) {
    RoutingTable bfs = RoutingTable.compute(t);
    Groups geometry = new Groups(groups, perGroup);
    int n = routing.hostCount();
    for (int s = 0; s < n; s++) {
      for (int d = 0; d < n; d++) {
        List<Hop> hops = walk(t, routing, geometry, s, d);
        String route = t + ": route " + s + " -> " + d + " " + hops;
        if (hops.size() != bfs.distance(routing.routerOf(s), d) - 1) fail("%s is not minimal", route);
        int intraHops = s % perGroup == d % perGroup ? 0 : 1;
        int plusHops = Math.floorMod(d / perGroup - s / perGroup, groups);
        boolean plus = 2 * plusHops <= groups;
        int ringHops = plus ? plusHops : groups - plusHops;
        if (hops.size() != intraHops + ringHops) fail("%s has the wrong length", route);
        int expectedClass = 0;
        for (int i = 0; i < hops.size(); i++) {
          Hop hop = hops.get(i);
          if (i < intraHops) {
            // The intra-group hop: inside the source group, to the destination's index, class 0.
            if (hop.dimension() != 0 || (hop.to() - n) % perGroup != d % perGroup || hop.vcClass() != 0) {
              fail("%s: hop %d is not the intra-group hop", route, i);
            }
            continue;
          }
          if (hop.dimension() != 1) fail("%s: hop %d leaves the ring", route, i);
          if (groups > 2 && hop.plus() != plus) fail("%s: hop %d goes the wrong way round", route, i);
          int group = (hop.from() - n) / perGroup;
          if (groups > 2 && (plus ? group == groups - 1 : group == 0)) expectedClass = 1;
          if (hop.vcClass() != expectedClass) {
            fail("%s: hop %d class %d, not %d", route, i, hop.vcClass(), expectedClass);
          }
        }
      }
    }
  }

  /**
   * Follows the routing from the source's router to the destination's, checking that each port exists and leads to
   * a router and that the route ends there; each hop's dimension and direction come from {@code geometry}.
   */
  private static List<Hop> walk(Topology t, RouterRouting routing, Geometry geometry, int source, int destination) {
    int n = routing.hostCount();
    List<Hop> hops = new ArrayList<>();
    int router = routing.routerOf(source);
    int inputPort = RouterRouting.LOCAL_PORT;
    int inputClass = 0;
    while (true) {
      int port = routing.outputPort(router, destination);
      if (port == RouterRouting.LOCAL_PORT) break;
      if (port < 1 || port >= t.portCount(router)) fail("%s has no router port %d", t.vertexName(router), port);
      Link link = t.ports(router).get(port);
      if (link.to() < n) fail("%s port %d leads to a host", t.vertexName(router), port);
      int vcClass = routing.outputVcClass(router, inputPort, inputClass, port, destination);
      int[] move = geometry.move(link.from() - n, link.to() - n);
      hops.add(new Hop(link.from(), link.to(), move[0], move[1] == 1, vcClass));
      if (hops.size() > n) fail("route %d -> %d does not end: %s", source, destination, hops);
      router = link.to();
      inputPort = link.toPort();
      inputClass = vcClass;
    }
    if (router != routing.routerOf(destination)) {
      fail("route %d -> %d ends at %s: %s", source, destination, t.vertexName(router), hops);
    }
    return hops;
  }

  private static List<String> routerPath(Topology t, RouterRouting routing, Geometry geometry, int source,
                                         int destination) {
    List<String> names = new ArrayList<>();
    names.add(t.vertexName(routing.routerOf(source)));
    for (Hop hop : walk(t, routing, geometry, source, destination)) names.add(t.vertexName(hop.to()));
    return names;
  }
}
