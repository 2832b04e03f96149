package io.fabemu.core.routing;

import static io.fabemu.core.routing.RouterNetworkShapes.groupRing;
import static io.fabemu.core.routing.RouterNetworkShapes.mesh;
import static io.fabemu.core.routing.RouterNetworkShapes.torus;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabemu.core.topology.Topology;
import io.fabemu.core.topology.TopologySpec;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The router patent's detours stay deadlock-free only because each leg has a virtual-channel class set of its own:
 * every detour any table can give (every pair through every via node, and direct packets in either set) leaves the
 * channel dependency graph acyclic, by the production search ({@link ChannelDependencyGraph#findCycle(
 * io.fabemu.core.routing.PortGraph, DetourRouting)}) and by the test's own walk ({@link ChannelDependencies}); and
 * the check can fail: the same detours with both legs in one class set have a cycle (the turn at a via node is one
 * dimension order forbids).
 */
class DetourDeadlockFreedomTest {

  private static final List<TopologySpec> SHAPES = List.of(mesh(3, 3, 1), mesh(4, 4, 1), mesh(8, 8, 1),
      mesh(2, 3, 4), torus(3, 3, 1), torus(4, 4, 1), torus(4, 4, 4), groupRing(4, 4), groupRing(6, 4));

  @Test
  void shouldBeAcyclicWhenEveryDetourOfEveryShapeIsWalked() {
    for (TopologySpec spec : SHAPES) {
      Topology t = spec.build();
      RouterRouting base = spec.routerRouting(t).orElseThrow();
      DetourRouting detours = DetourRouting.of(base);

      assertThat(ChannelDependencyGraph.findCycle(t, detours)).as("%s", t.description()).isEmpty();
      ChannelDependencies plain = ChannelDependencies.ofDetours(t, base, true);
      assertThat(plain.isAcyclic()).as("%s", t.description()).isTrue();
      // Leg 2 really uses its own classes.
      assertThat(plain.classesUsed()).as("%s", t.description()).contains(base.vcClasses());
    }
  }

  @Test
  void shouldFindCycleWhenBothLegsShareOneClassSet() {
    for (TopologySpec spec : List.of(mesh(3, 3, 1), mesh(8, 8, 1), torus(4, 4, 1))) {
      Topology t = spec.build();
      RouterRouting base = spec.routerRouting(t).orElseThrow();

      assertThat(ChannelDependencies.ofDetours(t, base, false).isAcyclic()).as("%s", t.description()).isFalse();
    }
  }

  @Test
  void shouldTakeTwiceTheBaseClasses() {
    Topology t = torus(4, 4, 1).build();
    RouterRouting base = torus(4, 4, 1).routerRouting(t).orElseThrow();

    assertThat(DetourRouting.of(base).vcClasses()).isEqualTo(2 * base.vcClasses());
    assertThat(DetourRouting.of(base).classesPerLeg()).isEqualTo(base.vcClasses());
  }
}
