package io.fabemu.core.routing;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabemu.core.fault.FaultAction;
import io.fabemu.core.fault.FaultEvent;
import io.fabemu.core.link.DetourViews;
import io.fabemu.core.protocol.DirectedLink;
import io.fabemu.core.topology.Topologies;
import io.fabemu.core.topology.Topology;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@link DetourTable}: the management node's via nodes around dead channels of an 8x8 mesh (node {@code x + 8y} is
 * host {@code x + 8y} and router vertex {@code 64 + x + 8y}), checked by hand on chosen pairs and, for every pair,
 * against a walk of both legs.
 */
class DetourTableTest {
  private static final int HOSTS = 64;
  private final Topology mesh = Topologies.mesh(8, 8, 1, RouterNetworkShapes.LINK);
  private final MeshDorRouting routing = MeshDorRouting.of(mesh, 8, 8, 1);

  private static int node(int x, int y) {
    return x + 8 * y;
  }

  /** Dead ports of {@code graph}: every port of {@code from} leading to {@code to}, for each link given. */
  private static boolean[][] deadPorts(PortGraph graph, List<DirectedLink> links) {
    boolean[][] dead = new boolean[graph.vertexCount()][];
    for (DirectedLink link : links) {
      for (int p = 0; p < graph.portCount(link.from()); p++) {
        if (graph.neighbour(link.from(), p) != link.to()) continue;
        if (dead[link.from()] == null) dead[link.from()] = new boolean[graph.portCount(link.from())];
        dead[link.from()][p] = true;
      }
    }
    return dead;
  }

  private List<DirectedLink> routerDown(int host) {
    return FaultEvent.device(0, FaultAction.DOWN, "router", routing.routerOf(host), mesh).links();
  }

  private List<DirectedLink> cable(int hostA, int hostB) {
    return FaultEvent.link(0, FaultAction.DOWN, "cable", routing.routerOf(hostA), routing.routerOf(hostB)).links();
  }

  /** Router-to-router hops from host {@code from}'s router to host {@code to}'s by dimension order; -1 if dead. */
  private static int legHops(PortGraph graph, RouterRouting routing, boolean[][] dead, int from, int to) {
    int router = routing.routerOf(from);
    int hops = 0;
    while (true) {
      int port = routing.outputPort(router, to);
      if (port == RouterRouting.LOCAL_PORT) return hops;
      if (dead[router] != null && dead[router][port]) return -1;
      router = graph.neighbour(router, port);
      hops++;
    }
  }

  @Test
  void aDeadRouterIsGoneAroundByTheShortestDetourWithTheLowestVia() {
    DetourTable table = DetourTable.compute(mesh, routing, deadPorts(mesh, routerDown(27)));
    // (0,3) -> (7,3) crosses (3,3): 9 hops by (0,2), (1,2), (2,2) or (0,4), (1,4), (2,4); the lowest is host 16:
    // leg 1 (0,3) -> (0,2), leg 2 (0,2) -> (7,2) -> (7,3).
    assertThat(table.via(24, 31)).isEqualTo(16);
    assertThat(table.via(26, 28)).isEqualTo(18);
    assertThat(table.via(28, 26)).isEqualTo(20);
    // (3,2) -> (3,4) crosses (3,3) in Y: a via in row 4 beside column 3, 4 hops; (2,4) is lower than (4,4).
    assertThat(table.via(19, 35)).isEqualTo(34);
    // Row 0 to row 0, and (0,0) -> (7,7) (X along row 0, then Y along column 7): never near (3,3).
    assertThat(table.via(0, 7)).isEqualTo(DetourTable.DIRECT);
    assertThat(table.via(0, 63)).isEqualTo(DetourTable.DIRECT);
    // (7,3) -> (0,3): vias (4..7, 2) and (4..7, 4), 9 hops; the lowest is (4,2).
    assertThat(table.via(31, 24)).isEqualTo(node(4, 2));
    for (int h = 0; h < HOSTS; h++) {
      if (h == 27) continue;
      assertThat(table.via(27, h)).as("27 to %d", h).isEqualTo(DetourTable.CUT_OFF);
      assertThat(table.via(h, 27)).as("%d to 27", h).isEqualTo(DetourTable.CUT_OFF);
      assertThat(table.reachable(27, h)).isFalse();
      assertThat(table.reachable(h, 27)).isFalse();
    }
    assertThat(table.reachable(27, 27)).isTrue();
    assertThat(table.reachable(24, 31)).isTrue();
    assertThat(table.reachable(0, 7)).isTrue();
    assertThat(table.hostCount()).isEqualTo(HOSTS);
  }

  @Test
  void detoursListsEveryPairOnADetourInSourceThenDestinationOrder() {
    DetourTable table = DetourTable.compute(mesh, routing, deadPorts(mesh, routerDown(27)));
    List<int[]> detours = table.detours();
    assertThat(detours).hasSize(table.detourCount());
    List<String> expected = new ArrayList<>();
    for (int s = 0; s < HOSTS; s++) {
      for (int d = 0; d < HOSTS; d++) {
        if (s != d && table.via(s, d) >= 0) expected.add(s + "->" + d + " via " + table.via(s, d));
      }
    }
    List<String> listed = new ArrayList<>();
    for (int[] detour : detours) listed.add(detour[0] + "->" + detour[1] + " via " + detour[2]);
    assertThat(listed).containsExactlyElementsOf(expected);
    assertThat(listed).contains("24->31 via 16", "19->35 via 34");
    // Column 3 and row 3 around (3,3): the pairs whose route crosses it, all but those from or to host 27.
    int crossing = 0;
    boolean[][] dead = deadPorts(mesh, routerDown(27));
    for (int s = 0; s < HOSTS; s++) {
      for (int d = 0; d < HOSTS; d++) {
        if (s != d && s != 27 && d != 27 && legHops(mesh, routing, dead, s, d) < 0) crossing++;
      }
    }
    assertThat(table.detourCount()).isEqualTo(crossing).isPositive();
  }

  @Test
  void everyDetourAvoidsEveryDeadPortAndIsTheShortestLowestOne() {
    List<List<DirectedLink>> failures = List.of(routerDown(27), cable(27, 28), routerDown(0), routerDown(63),
        concat(routerDown(27), cable(44, 52)), concat(cable(9, 10), cable(50, 58)));
    for (List<DirectedLink> links : failures) {
      boolean[][] dead = deadPorts(mesh, links);
      DetourTable table = DetourTable.compute(mesh, routing, dead);
      for (int s = 0; s < HOSTS; s++) {
        for (int d = 0; d < HOSTS; d++) {
          if (s == d) continue;
          boolean cutOff = (dead[s] != null && dead[s][0])
              || (dead[routing.routerOf(d)] != null && dead[routing.routerOf(d)][RouterRouting.LOCAL_PORT]);
          int direct = legHops(mesh, routing, dead, s, d);
          int bestVia = DetourTable.CUT_OFF;
          int bestHops = Integer.MAX_VALUE;
          for (int v = 0; v < HOSTS; v++) {
            if (v == s || v == d) continue;
            int first = legHops(mesh, routing, dead, s, v);
            int second = legHops(mesh, routing, dead, v, d);
            if (first >= 0 && second >= 0 && first + second < bestHops) {
              bestHops = first + second;
              bestVia = v;
            }
          }
          int expected = cutOff ? DetourTable.CUT_OFF : direct >= 0 ? DetourTable.DIRECT : bestVia;
          int via = table.via(s, d);
          assertThat(via).as("%s: %d to %d", links, s, d).isEqualTo(expected);
          if (via >= 0) {
            assertThat(legHops(mesh, routing, dead, s, via)).as("leg 1 of %d to %d", s, d).isNotNegative();
            assertThat(legHops(mesh, routing, dead, via, d)).as("leg 2 of %d to %d", s, d).isNotNegative();
          }
        }
      }
    }
  }

  private static List<DirectedLink> concat(List<DirectedLink> a, List<DirectedLink> b) {
    List<DirectedLink> out = new ArrayList<>(a);
    out.addAll(b);
    return out;
  }

  @Test
  void aDeadCableBetweenTwoRoutersIsGoneAroundEachWayAndCutsNobodyOff() {
    DetourTable table = DetourTable.compute(mesh, routing, deadPorts(mesh, cable(27, 28)));
    // (0,3) -> (7,3) crosses (3,3)-(4,3): vias (0..3, 2) and (0..3, 4), 9 hops; (7,3) -> (0,3): (4..7, 2) first.
    assertThat(table.via(24, 31)).isEqualTo(16);
    assertThat(table.via(31, 24)).isEqualTo(20);
    // The cable's own ends: (3,3) -> (4,3) by (3,2), 3 hops.
    assertThat(table.via(27, 28)).isEqualTo(19);
    assertThat(table.via(28, 27)).isEqualTo(20);
    // Moving in Y only, or in X along another row, never takes the cable.
    assertThat(table.via(3, 59)).isEqualTo(DetourTable.DIRECT);
    assertThat(table.via(16, 23)).isEqualTo(DetourTable.DIRECT);
    for (int h = 0; h < HOSTS; h++) {
      for (int d = 0; d < HOSTS; d++) {
        assertThat(table.reachable(h, d)).as("%d reaches %d", h, d).isTrue();
      }
    }
    // One direction only: the other way is direct.
    DetourTable oneWay = DetourTable.compute(mesh, routing,
        deadPorts(mesh, List.of(new DirectedLink(routing.routerOf(27), routing.routerOf(28)))));
    assertThat(oneWay.via(27, 28)).isEqualTo(19);
    assertThat(oneWay.via(28, 27)).isEqualTo(DetourTable.DIRECT);
    assertThat(oneWay.via(24, 31)).isEqualTo(16);
    assertThat(oneWay.via(31, 24)).isEqualTo(DetourTable.DIRECT);
  }

  @Test
  void failuresNoSingleViaGetsAroundCutAConnectedPairOff() {
    // A 4x2 mesh: (1,0)-(2,0) and (2,1)-(3,1) dead. (0,0) still reaches (3,0) through (0,1) and (2,0) (two vias),
    // but every single via's legs take one of the dead cables.
    Topology small = Topologies.mesh(4, 2, 1, RouterNetworkShapes.LINK);
    MeshDorRouting smallRouting = MeshDorRouting.of(small, 4, 2, 1);
    List<DirectedLink> links = new ArrayList<>(
        FaultEvent.link(0, FaultAction.DOWN, "a", 8 + 1, 8 + 2).links());
    links.addAll(FaultEvent.link(0, FaultAction.DOWN, "b", 8 + 6, 8 + 7).links());
    boolean[][] dead = deadPorts(small, links);
    DetourTable table = DetourTable.compute(small, smallRouting, dead);
    assertThat(table.via(0, 3)).isEqualTo(DetourTable.CUT_OFF);
    assertThat(table.reachable(0, 3)).isFalse();
    assertThat(legHops(small, smallRouting, dead, 0, 4)).isEqualTo(1);
    assertThat(legHops(small, smallRouting, dead, 4, 2)).isEqualTo(3);
    assertThat(legHops(small, smallRouting, dead, 2, 3)).isEqualTo(1);
    // The other way round one via does it: (3,0) -> (2,0) -> (2,1), then (2,1) -> (0,1) -> (0,0).
    assertThat(table.via(3, 0)).isEqualTo(6);
    assertThat(table.via(0, 1)).isEqualTo(DetourTable.DIRECT);
  }

  @Test
  void theDirectTableHasNoDetourAndReachesEverything() {
    DetourTable direct = DetourTable.direct(HOSTS);
    assertThat(direct.hostCount()).isEqualTo(HOSTS);
    assertThat(direct.detourCount()).isZero();
    assertThat(direct.detours()).isEmpty();
    for (int s = 0; s < HOSTS; s++) {
      for (int d = 0; d < HOSTS; d++) {
        assertThat(direct.via(s, d)).isEqualTo(DetourTable.DIRECT);
        assertThat(direct.reachable(s, d)).isTrue();
      }
    }
    // With nothing dead the computed table is the direct one.
    DetourTable computed = DetourTable.compute(mesh, routing, new boolean[mesh.vertexCount()][]);
    assertThat(computed.detourCount()).isZero();
    for (int v = 0; v < mesh.vertexCount(); v++) assertThat(computed.sameRoutesAt(v, direct)).isTrue();
  }

  @Test
  void sameRoutesAtComparesAHostsViaNodesAndNeverARouters() {
    DetourTable direct = DetourTable.direct(HOSTS);
    DetourTable routerDead = DetourTable.compute(mesh, routing, deadPorts(mesh, routerDown(27)));
    DetourTable again = DetourTable.compute(mesh, routing, deadPorts(mesh, routerDown(27)));
    DetourTable cableDead = DetourTable.compute(mesh, routing, deadPorts(mesh, cable(27, 28)));
    for (int h = 0; h < HOSTS; h++) {
      // Every host has host 27 cut off.
      assertThat(routerDead.sameRoutesAt(h, direct)).as("host %d", h).isFalse();
      assertThat(direct.sameRoutesAt(h, routerDead)).as("host %d", h).isFalse();
      assertThat(routerDead.sameRoutesAt(h, again)).as("host %d", h).isTrue();
    }
    for (int r = HOSTS; r < 2 * HOSTS; r++) assertThat(routerDead.sameRoutesAt(r, direct)).isTrue();
    // Host 63 moves along row 7 then down a column: never over the cable of row 3.
    assertThat(cableDead.sameRoutesAt(63, direct)).isTrue();
    assertThat(cableDead.sameRoutesAt(24, direct)).isFalse();
    assertThat(cableDead.sameRoutesAt(24, routerDead)).isFalse();
  }

  @Test
  void detourViewsComputeEachSetOfDeadLinksOnceAndAnEmptySetIsTheBuiltTable() {
    DetourViews views = new DetourViews(mesh, routing);
    assertThat(views.viewFor(List.of())).isSameAs(views.built());
    assertThat(views.built().detourCount()).isZero();
    List<DirectedLink> sorted = new ArrayList<>(routerDown(27));
    sorted.sort(null);
    DetourTable view = views.viewFor(sorted);
    assertThat(views.viewFor(new ArrayList<>(sorted))).isSameAs(view);
    assertThat(view.via(24, 31)).isEqualTo(16);
    assertThat(view.via(0, 27)).isEqualTo(DetourTable.CUT_OFF);
  }
}
