package io.fabemu.core.routing;

import static io.fabemu.core.routing.RouterNetworkShapes.groupRing;
import static io.fabemu.core.routing.RouterNetworkShapes.mesh;
import static io.fabemu.core.routing.RouterNetworkShapes.torus;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabemu.core.topology.Topology;
import io.fabemu.core.topology.Topology.Link;
import io.fabemu.core.topology.TopologySpec;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Deadlock freedom of the router routings, proved on their channel dependency graphs: acyclic for every routing on
 * every kind up to 8x8x8, by two independent builders ({@link ChannelDependencies}, a plain walk of every route
 * with Kahn's algorithm, and {@link ChannelDependencyGraph}, the production search). And the check can fail: the
 * same routings with their classes taken away, or a mesh routing that mixes dimension orders, have cycles, which
 * both find, and the production one names as a chain of real channels.
 */
class ChannelDependencyGraphTest {

  private static final Pattern CHANNEL = Pattern.compile("(router\\d+)->(router\\d+) \\(class (\\d+)\\)");

  @Test
  void shouldBeAcyclicWhenMeshDimensionOrder() {
    for (TopologySpec spec : List.of(mesh(2, 2, 1), mesh(3, 3, 1), mesh(4, 4, 1), mesh(8, 8, 1), mesh(2, 3, 4),
        mesh(4, 4, 4), mesh(8, 8, 8))) {
      assertDeadlockFree(spec);
    }
  }

  @Test
  void shouldBeAcyclicWhenTorusDimensionOrderWithDatelines() {
    for (TopologySpec spec : List.of(torus(2, 2, 1), torus(3, 3, 1), torus(4, 4, 1), torus(5, 3, 1),
        torus(8, 8, 1), torus(2, 3, 4), torus(4, 4, 4), torus(8, 8, 8))) {
      assertDeadlockFree(spec);
    }
  }

  @Test
  void shouldBeAcyclicWhenGroupRingWithDateline() {
    for (TopologySpec spec : List.of(groupRing(6, 4), groupRing(2, 3), groupRing(3, 1), groupRing(4, 3),
        groupRing(8, 8))) {
      assertDeadlockFree(spec);
    }
  }

  @Test
  void shouldFindCycleWhenTorusHasOneClass() {
    TopologySpec spec = torus(4, 4, 1);
    Topology t = spec.build();
    RouterRouting oneClass = new OneClass(spec.routerRouting(t).orElseThrow());

    assertThat(ChannelDependencies.of(t, oneClass).isAcyclic()).isFalse();
    List<String> cycle = ChannelDependencyGraph.findCycle(t, oneClass).orElseThrow();
    assertIsChainOfChannels(t, cycle);
    // A ring of one dimension, 4 channels the + way round (the ties go + and so make 2-hop routes that way).
    assertThat(cycle).hasSize(4);
  }

  @Test
  void shouldFindCycleWhenGroupRingHasOneClass() {
    TopologySpec spec = groupRing(6, 4);
    Topology t = spec.build();
    RouterRouting oneClass = new OneClass(spec.routerRouting(t).orElseThrow());

    assertThat(ChannelDependencies.of(t, oneClass).isAcyclic()).isFalse();
    assertIsChainOfChannels(t, ChannelDependencyGraph.findCycle(t, oneClass).orElseThrow());
  }

  @Test
  void shouldFindTurnCycleWhenMeshMixesDimensionOrders() {
    // X first to even destinations, Y first to odd ones: every turn is taken somewhere, closing a cycle of turns.
    TopologySpec spec = mesh(3, 3, 1);
    Topology t = spec.build();
    RouterRouting mixed = new MixedOrder(t, 3);

    assertThat(ChannelDependencies.of(t, mixed).isAcyclic()).isFalse();
    assertIsChainOfChannels(t, ChannelDependencyGraph.findCycle(t, mixed).orElseThrow());
  }

  @Test
  void shouldRejectWhenRoutingLeavesByMissingPortOrClass() {
    Topology t = torus(3, 3, 1).build();
    RouterRouting torus = torus(3, 3, 1).routerRouting(t).orElseThrow();
    RouterRouting badClass = new OneClass(torus) {
      @Override
      public int outputVcClass(int router, int inputPort, int inputVcClass, int outputPort, int destinationHost) {
        return 1;
      }
    };

    assertThatThrownBy(() -> ChannelDependencyGraph.findCycle(t, badClass))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("routing gives class 1 at router")
        .hasMessageContaining("but has 1 classes");
    assertThatThrownBy(() -> ChannelDependencyGraph.findCycle(mesh(3, 3, 1).build(), torus))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("out of port");
  }

  private static void assertDeadlockFree(TopologySpec spec) {
    Topology t = spec.build();
    RouterRouting routing = spec.routerRouting(t).orElseThrow();
    ChannelDependencies dependencies = ChannelDependencies.of(t, routing);

    assertThat(dependencies.isAcyclic()).as("%s: CDG acyclic", t).isTrue();
    assertThat(ChannelDependencyGraph.findCycle(t, routing)).as("%s: no cycle", t).isEmpty();
    // Not vacuous: routes of several hops make dependencies, and on rings of 3 or more the dateline class is used.
    if (t.vertexCount() > 8) assertThat(dependencies.edgeCount()).as("%s: dependencies", t).isPositive();
  }

  /**
   * Each name is a router-router channel of {@code t} and each channel starts where the one before it ends, the
   * last closing the cycle at the first.
   */
  private static void assertIsChainOfChannels(Topology t, List<String> cycle) {
    assertThat(cycle).isNotEmpty();
    for (int i = 0; i < cycle.size(); i++) {
      Matcher channel = CHANNEL.matcher(cycle.get(i));
      Matcher next = CHANNEL.matcher(cycle.get((i + 1) % cycle.size()));
      assertThat(channel.matches()).as(cycle.get(i)).isTrue();
      assertThat(next.matches()).isTrue();
      assertThat(channel.group(2)).as("%s continues %s", cycle.get((i + 1) % cycle.size()), cycle.get(i))
          .isEqualTo(next.group(1));
      int from = vertexNamed(t, channel.group(1));
      int to = vertexNamed(t, channel.group(2));
      assertThat(t.ports(from)).extracting(Link::to).contains(to);
    }
  }

  private static int vertexNamed(Topology t, String name) {
    for (int v = 0; v < t.vertexCount(); v++) {
      if (t.vertexName(v).equals(name)) return v;
    }
    throw new AssertionError("no vertex " + name);
  }

  /** A routing with its virtual-channel classes taken away: its ports, every channel in class 0. */
  private static class OneClass implements RouterRouting {
    private final RouterRouting routing;

    OneClass(RouterRouting routing) {
      this.routing = routing;
    }

    @Override
    public int hostCount() {
      return routing.hostCount();
    }

    @Override
    public int outputPort(int router, int destinationHost) {
      return routing.outputPort(router, destinationHost);
    }

    @Override
    public int vcClasses() {
      return 1;
    }

    @Override
    public int outputVcClass(int router, int inputPort, int inputVcClass, int outputPort, int destinationHost) {
      return 0;
    }
  }

  /** A 2-D mesh routed X then Y to even destinations and Y then X to odd ones: minimal, not dimension-ordered. */
  private static final class MixedOrder implements RouterRouting {
    private final Topology topology;
    private final int sizeX;

    MixedOrder(Topology topology, int sizeX) {
      this.topology = topology;
      this.sizeX = sizeX;
    }

    @Override
    public int hostCount() {
      return topology.hostCount();
    }

    @Override
    public int outputPort(int router, int destinationHost) {
      int node = router - hostCount();
      int dx = Integer.compare(destinationHost % sizeX, node % sizeX);
      int dy = Integer.compare(destinationHost / sizeX, node / sizeX);
      if (dx == 0 && dy == 0) return LOCAL_PORT;
      boolean xFirst = destinationHost % 2 == 0;
      int target = hostCount() + ((xFirst ? dx != 0 : dy == 0) ? node + dx : node + dy * sizeX);
      for (Link link : topology.ports(router)) {
        if (link.to() == target) return link.fromPort();
      }
      throw new AssertionError("no link from " + router + " to " + target);
    }

    @Override
    public int vcClasses() {
      return 1;
    }

    @Override
    public int outputVcClass(int router, int inputPort, int inputVcClass, int outputPort, int destinationHost) {
      return 0;
    }
  }
}
