package io.fabemu.core.routing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabemu.core.topology.Topologies;
import io.fabemu.core.topology.Topology;
import io.fabemu.core.topology.Topology.Link;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@link DetourRouting}: a packet with a via node goes by dimension order to the via node's router in leg 1's
 * classes, then on to its destination in leg 2's; a packet on the direct route keeps the leg it was injected in.
 */
class DetourRoutingTest {
  private final Topology mesh = Topologies.mesh(8, 8, 1, RouterNetworkShapes.LINK);
  private final MeshDorRouting meshRouting = MeshDorRouting.of(mesh, 8, 8, 1);
  private final Topology torus = Topologies.torus(4, 4, 1, RouterNetworkShapes.LINK);
  private final TorusDorRouting torusRouting = TorusDorRouting.of(torus, 4, 4, 1);

  /**
   * The hops of a packet injected at {@code source}'s router in {@code injectedClass}: "router:class" per channel
   * it leaves by, the last one the way out to the NIC.
   */
  private static List<String> walk(Topology topology, DetourRouting routing, int source, int destination, int via,
                                   int injectedClass) {
    List<String> hops = new ArrayList<>();
    int router = routing.base().routerOf(source);
    int inputPort = RouterRouting.LOCAL_PORT;
    int inputClass = injectedClass;
    for (int step = 0; step < 64; step++) {
      int port = routing.outputPort(router, inputClass, destination, via);
      int outputClass = routing.outputVcClass(router, inputPort, inputClass, port, destination, via);
      hops.add((router - routing.hostCount()) + ":" + outputClass);
      if (port == RouterRouting.LOCAL_PORT) return hops;
      Link link = topology.ports(router).get(port);
      router = link.to();
      inputPort = link.toPort();
      inputClass = outputClass;
    }
    throw new AssertionError("no arrival");
  }

  /** The same walk by the base routing alone, its classes shifted by {@code offset}, ending at {@code target}. */
  private static List<String> baseWalk(Topology topology, RouterRouting base, int from, int target, int offset) {
    List<String> hops = new ArrayList<>();
    int router = base.routerOf(from);
    int inputPort = RouterRouting.LOCAL_PORT;
    int inputClass = 0;
    while (true) {
      int port = base.outputPort(router, target);
      int outputClass = base.outputVcClass(router, inputPort, inputClass, port, target);
      hops.add((router - base.hostCount()) + ":" + (offset + outputClass));
      if (port == RouterRouting.LOCAL_PORT) return hops;
      Link link = topology.ports(router).get(port);
      router = link.to();
      inputPort = link.toPort();
      inputClass = outputClass;
    }
  }

  @Test
  void theRoutersNeedTwiceTheBaseClasses() {
    DetourRouting onMesh = DetourRouting.of(meshRouting);
    DetourRouting onTorus = DetourRouting.of(torusRouting);
    assertThat(onMesh.vcClasses()).isEqualTo(2);
    assertThat(onMesh.classesPerLeg()).isEqualTo(1);
    assertThat(onMesh.hostCount()).isEqualTo(64);
    assertThat(onMesh.base()).isSameAs(meshRouting);
    assertThat(onTorus.vcClasses()).isEqualTo(4);
    assertThat(onTorus.classesPerLeg()).isEqualTo(2);
    assertThatThrownBy(() -> DetourRouting.of(null)).isInstanceOf(NullPointerException.class);
  }

  @Test
  void aViaPacketOnAMeshGoesToTheViaRouterInClass0AndOnInClass1() {
    DetourRouting routing = DetourRouting.of(meshRouting);
    // 24 = (0,3) to 31 = (7,3) via 16 = (0,2): one hop down in leg 1, then along row 2 and up in leg 2.
    assertThat(walk(mesh, routing, 24, 31, 16, 0)).containsExactly(
        "24:0", "16:1", "17:1", "18:1", "19:1", "20:1", "21:1", "22:1", "23:1", "31:1");
    // Without the via node the same packet crosses (3,3), in the leg it was injected in.
    assertThat(walk(mesh, routing, 24, 31, -1, 0)).containsExactly(
        "24:0", "25:0", "26:0", "27:0", "28:0", "29:0", "30:0", "31:0");
    assertThat(walk(mesh, routing, 24, 31, -1, 1)).containsExactly(
        "24:1", "25:1", "26:1", "27:1", "28:1", "29:1", "30:1", "31:1");
  }

  @Test
  void aViaPacketOnATorusKeepsTheDatelineClassesWithinEachLeg() {
    DetourRouting routing = DetourRouting.of(torusRouting);
    // 3 = (3,0) to 13 = (1,3) via 1 = (1,0). Leg 1: X + way (a tie of 2 hops goes +), over the dateline 3 -> 0 in
    // class 1 and on to 1 in class 1. Leg 2 from (1,0): Y - way over the dateline 0 -> 3, base class 1 = class 3;
    // the way out to the NIC is leg 2's class 0 = class 2.
    assertThat(walk(torus, routing, 3, 13, 1, 0)).containsExactly("3:1", "0:1", "1:3", "13:2");
    List<String> expected = new ArrayList<>(baseWalk(torus, torusRouting, 3, 1, 0));
    expected.remove(expected.size() - 1); // leg 1 turns at the via router instead of ejecting
    expected.addAll(baseWalk(torus, torusRouting, 1, 13, 2));
    assertThat(walk(torus, routing, 3, 13, 1, 0)).containsExactlyElementsOf(expected);
    // Every pair, every via: leg 1 as the base routing to the via (classes 0..1), leg 2 as the base routing from it
    // (classes 2..3).
    for (int s = 0; s < 16; s++) {
      for (int d = 0; d < 16; d++) {
        for (int v = 0; v < 16; v++) {
          if (s == d || v == s || v == d) continue;
          List<String> legs = new ArrayList<>(baseWalk(torus, torusRouting, s, v, 0));
          legs.remove(legs.size() - 1);
          legs.addAll(baseWalk(torus, torusRouting, v, d, 2));
          assertThat(walk(torus, routing, s, d, v, 0)).as("%d to %d via %d", s, d, v).containsExactlyElementsOf(legs);
        }
      }
    }
  }

  @Test
  void aDirectPacketStaysInTheLegItWasInjectedIn() {
    DetourRouting routing = DetourRouting.of(torusRouting);
    for (int s = 0; s < 16; s++) {
      for (int d = 0; d < 16; d++) {
        if (s == d) continue;
        assertThat(walk(torus, routing, s, d, -1, 0)).as("%d to %d in leg 1", s, d)
            .containsExactlyElementsOf(baseWalk(torus, torusRouting, s, d, 0));
        assertThat(walk(torus, routing, s, d, -1, 2)).as("%d to %d in leg 2", s, d)
            .containsExactlyElementsOf(baseWalk(torus, torusRouting, s, d, 2));
      }
    }
    // 3 = (3,0) to 1 = (1,0) in leg 2: over the dateline in class 3, then out in class 2.
    assertThat(walk(torus, routing, 3, 1, -1, 2)).containsExactly("3:3", "0:3", "1:2");
  }

  @Test
  void aViaPacketArrivingAtTheViaRouterInLeg2DoesNotTurnAgain() {
    DetourRouting routing = DetourRouting.of(meshRouting);
    int router16 = meshRouting.routerOf(16);
    // Arrived in class 1 (leg 2): it heads for its destination, by the base class shifted into leg 2.
    int port = routing.outputPort(router16, 1, 31, 16);
    assertThat(port).isEqualTo(meshRouting.outputPort(router16, 31));
    assertThat(routing.outputVcClass(router16, 1, 1, port, 31, 16)).isEqualTo(1);
    // Arrived in class 0 (leg 1) at another router: it still heads for the via node.
    int router24 = meshRouting.routerOf(24);
    assertThat(routing.outputPort(router24, 0, 31, 16)).isEqualTo(meshRouting.outputPort(router24, 16));
  }
}
