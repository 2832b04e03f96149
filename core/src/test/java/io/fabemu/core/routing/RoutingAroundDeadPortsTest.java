package io.fabemu.core.routing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabemu.core.topology.LinkSpec;
import io.fabemu.core.topology.Topologies;
import io.fabemu.core.topology.Topology;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@link RoutingTable#computeAvoiding}: the routes of a fault's view, around dead ports, against the full table of
 * the fabric as built ({@link RoutingTable#compute}) and against the routes of the graph that is left.
 */
class RoutingAroundDeadPortsTest {
  private static final LinkSpec LINK = new LinkSpec(100_000_000_000L, 500_000);

  // 16 hosts (0..15), TORs 16..19 (4 hosts each), spines 20 and 21. A TOR's ports: 0..3 its hosts, 4 spine0,
  // 5 spine1; a spine's port t goes to TOR 16 + t.
  private final Topology leafSpine = Topologies.leafSpine(16, 4, 2, LINK, LINK);
  private final RoutingTable leafSpineRoutes = RoutingTable.compute(leafSpine);

  /** The port of {@code vertex} that leads to {@code neighbour} (the topology has no parallel links here). */
  private static int port(Topology topology, int vertex, int neighbour) {
    for (int p = 0; p < topology.portCount(vertex); p++) {
      if (topology.neighbour(vertex, p) == neighbour) return p;
    }
    throw new AssertionError("vertex " + vertex + " has no port to " + neighbour);
  }

  /** Dead ports: both directions of the cable between {@code a} and {@code b}, for each pair given. */
  private static boolean[][] deadCables(Topology topology, int... pairs) {
    boolean[][] dead = new boolean[topology.vertexCount()][];
    for (int i = 0; i < pairs.length; i += 2) {
      kill(topology, dead, pairs[i], pairs[i + 1]);
      kill(topology, dead, pairs[i + 1], pairs[i]);
    }
    return dead;
  }

  private static void kill(Topology topology, boolean[][] dead, int from, int to) {
    if (dead[from] == null) dead[from] = new boolean[topology.portCount(from)];
    dead[from][port(topology, from, to)] = true;
  }

  /** Every (vertex, destination host) whose port array differs between the two tables, as "v->d". */
  private static List<String> differences(Topology topology, RoutingTable a, RoutingTable b) {
    List<String> out = new ArrayList<>();
    for (int v = 0; v < topology.vertexCount(); v++) {
      for (int d = 0; d < topology.hostCount(); d++) {
        if (!Arrays.equals(a.nextHopPorts(v, d), b.nextHopPorts(v, d))) out.add(v + "->" + d);
      }
    }
    return out;
  }

  private static void assertSameRoutes(Topology topology, RoutingTable expected, RoutingTable actual) {
    for (int v = 0; v < topology.vertexCount(); v++) {
      for (int d = 0; d < topology.hostCount(); d++) {
        assertThat(actual.nextHopPorts(v, d)).as("vertex %d to host %d", v, d)
            .containsExactly(expected.nextHopPorts(v, d));
        assertThat(actual.reachable(v, d)).as("vertex %d reaches host %d", v, d).isTrue();
      }
    }
  }

  @Test
  void withNoDeadPortTheRoutesAreTheFullTableArrayForArray() {
    Topology ring8 = Topologies.ring(8, LINK);
    Topology ring7 = Topologies.ring(7, LINK);
    // Null rows (no dead port of that vertex) and rows of falses mean the same.
    assertSameRoutes(leafSpine, leafSpineRoutes,
        RoutingTable.computeAvoiding(leafSpine, new boolean[leafSpine.vertexCount()][]));
    boolean[][] allAlive = new boolean[leafSpine.vertexCount()][];
    for (int v = 0; v < allAlive.length; v++) allAlive[v] = new boolean[leafSpine.portCount(v)];
    assertSameRoutes(leafSpine, leafSpineRoutes, RoutingTable.computeAvoiding(leafSpine, allAlive));
    assertSameRoutes(ring8, RoutingTable.compute(ring8),
        RoutingTable.computeAvoiding(ring8, new boolean[ring8.vertexCount()][]));
    assertSameRoutes(ring7, RoutingTable.compute(ring7),
        RoutingTable.computeAvoiding(ring7, new boolean[ring7.vertexCount()][]));
  }

  @Test
  void aDeadTorSpineCableTakesThatSpineOutOfTheEcmpSetsThatCrossedItAndChangesNothingElse() {
    int tor0 = 16;
    int spine1 = 21;
    RoutingTable avoiding = RoutingTable.computeAvoiding(leafSpine, deadCables(leafSpine, tor0, spine1));

    List<String> expectedChanges = new ArrayList<>();
    for (int d = 4; d < 16; d++) {
      // tor0 to the other TORs' hosts: spine0 only (port 4), no longer {4, 5}.
      assertThat(avoiding.nextHopPorts(tor0, d)).as("tor0 to host %d", d).containsExactly(4);
      expectedChanges.add(tor0 + "->" + d);
    }
    for (int d = 0; d < 4; d++) {
      for (int tor = 17; tor <= 19; tor++) {
        // The other TORs to tor0's hosts: spine1 no longer reaches tor0 directly, so spine0 only.
        assertThat(avoiding.nextHopPorts(tor, d)).as("tor %d to host %d", tor, d).containsExactly(4);
        expectedChanges.add(tor + "->" + d);
      }
    }
    for (int d = 0; d < 4; d++) {
      // spine1 to tor0's hosts: down to any other TOR, which goes up spine0: 4 hops over three equal paths.
      assertThat(avoiding.nextHopPorts(spine1, d)).as("spine1 to host %d", d).containsExactly(1, 2, 3);
      assertThat(avoiding.distance(spine1, d)).isEqualTo(4);
      expectedChanges.add(spine1 + "->" + d);
    }
    assertThat(differences(leafSpine, leafSpineRoutes, avoiding)).containsExactlyInAnyOrderElementsOf(expectedChanges);
    for (int s = 0; s < 4; s++) {
      for (int d = 4; d < 16; d++) {
        assertThat(avoiding.path(s, d)).as("path %d to %d", s, d).containsExactly(s, tor0, 20, 16 + d / 4, d);
      }
    }
  }

  @Test
  void aHostCutOffHasNoRouteEitherWayAndEveryOtherPairKeepsItsRoutes() {
    int host5 = 5;
    int tor1 = 17;
    RoutingTable avoiding = RoutingTable.computeAvoiding(leafSpine, deadCables(leafSpine, host5, tor1));

    for (int v = 0; v < leafSpine.vertexCount(); v++) {
      if (v == host5) continue;
      assertThat(avoiding.nextHopPorts(v, host5)).as("vertex %d to host 5", v).isEmpty();
      assertThat(avoiding.reachable(v, host5)).as("vertex %d reaches host 5", v).isFalse();
      if (v < 16) {
        assertThat(avoiding.nextHopPorts(host5, v)).as("host 5 to host %d", v).isEmpty();
        assertThat(avoiding.reachable(host5, v)).as("host 5 reaches host %d", v).isFalse();
      }
    }
    assertThat(avoiding.reachable(host5, host5)).isTrue();
    for (int v = 0; v < leafSpine.vertexCount(); v++) {
      for (int d = 0; d < 16; d++) {
        if (v == host5 || d == host5) continue;
        assertThat(avoiding.nextHopPorts(v, d)).as("vertex %d to host %d", v, d)
            .containsExactly(leafSpineRoutes.nextHopPorts(v, d));
      }
    }
  }

  @Test
  void aDeadPortLeavesEveryOtherPortItsNumber() {
    int tor0 = 16;
    int tor1 = 17;
    // tor0's port 4 (spine0) and tor1's port 1 (host 5) die: the ports after them are not renumbered.
    RoutingTable avoiding = RoutingTable.computeAvoiding(leafSpine, deadCables(leafSpine, tor0, 20, 5, tor1));
    assertThat(avoiding.nextHopPorts(tor0, 9)).containsExactly(5);
    assertThat(avoiding.egressPort(tor0, 9, RoutingTable.flowHash(0, 9))).isEqualTo(5);
    assertThat(avoiding.nextHopPorts(tor1, 6)).containsExactly(2);
    assertThat(avoiding.nextHopPorts(tor1, 7)).containsExactly(3);
    assertThat(avoiding.path(0, 6)).containsExactly(0, tor0, 21, tor1, 6);

    Topology ring = Topologies.ring(8, LINK);
    // Host 0's ports: 0 to host 1, 1 to host 7. With the cable to host 1 dead, host 0 reaches host 1 the long way
    // by its port 1, which keeps its number.
    RoutingTable ringAvoiding = RoutingTable.computeAvoiding(ring, deadCables(ring, 0, 1));
    assertThat(ringAvoiding.nextHopPorts(0, 1)).containsExactly(port(ring, 0, 7)).containsExactly(1);
    assertThat(ringAvoiding.path(0, 1)).containsExactly(0, 7, 6, 5, 4, 3, 2, 1);
  }

  @Test
  void aRingWithItsClosingCableDeadRoutesAsTheLine() {
    // The ring's ports are the line's (left then right) plus the closing cable's, last: with that cable dead the
    // routes are the line's, port for port.
    for (int hosts = 3; hosts <= 12; hosts++) {
      Topology ring = Topologies.ring(hosts, LINK);
      Topology line = Topologies.line(hosts, LINK);
      RoutingTable avoiding = RoutingTable.computeAvoiding(ring, deadCables(ring, hosts - 1, 0));
      assertSameRoutes(line, RoutingTable.compute(line), avoiding);
    }
  }

  @Test
  void aRingHostCutOffLeavesTheOthersALine() {
    Topology ring = Topologies.ring(8, LINK);
    RoutingTable avoiding = RoutingTable.computeAvoiding(ring, deadCables(ring, 3, 2, 3, 4));
    for (int v = 0; v < 8; v++) {
      if (v == 3) continue;
      assertThat(avoiding.reachable(v, 3)).as("host %d reaches host 3", v).isFalse();
      assertThat(avoiding.reachable(3, v)).as("host 3 reaches host %d", v).isFalse();
    }
    // Host 2 reaches host 4 the long way round: 2, 1, 0, 7, 6, 5, 4.
    assertThat(avoiding.path(2, 4)).containsExactly(2, 1, 0, 7, 6, 5, 4);
    assertThat(avoiding.distance(4, 2)).isEqualTo(6);
  }

  @Test
  void deadPortsForAnotherNumberOfVerticesAreRefused() {
    assertThatThrownBy(() -> RoutingTable.computeAvoiding(leafSpine, new boolean[3][]))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("dead ports for 3 vertices, the graph has 22");
  }
}
