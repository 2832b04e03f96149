package io.fabemu.core.link;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabemu.core.protocol.DirectedLink;
import io.fabemu.core.routing.RoutingTable;
import io.fabemu.core.topology.LeafSpineSpec;
import io.fabemu.core.topology.LinkSpec;
import io.fabemu.core.topology.Topology;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The routes of each view of what is down, computed once and shared by the devices of a fabric. */
class RoutingViewsTest {
  private static final LinkSpec LINK = new LinkSpec(100_000_000_000L, 500_000);

  // 16 hosts (0..15), TORs 16..19, spines 20 and 21; a TOR's port 4 goes to spine0, 5 to spine1.
  private final LeafSpineSpec spec = new LeafSpineSpec(16, 4, 2, LINK, LINK);
  private final Topology topology = spec.build();
  private final RoutingTable built = spec.routing(topology);
  private final RoutingViews views = new RoutingViews(topology, built);

  /** Both directions of the cable between tor0 and spine1, sorted as the management node sends them. */
  private static List<DirectedLink> tor0Spine1() {
    return List.of(new DirectedLink(16, 21), new DirectedLink(21, 16));
  }

  @Test
  void withNoDeadLinkTheViewIsTheBuiltTable() {
    assertThat(views.built()).isSameAs(built);
    assertThat(views.tableFor(List.of())).isSameAs(built);
    assertThat(views.tableFor(new ArrayList<>())).isSameAs(built);
  }

  @Test
  void anEqualListOfDeadLinksGetsTheSameTableOnce() {
    List<DirectedLink> asked = new ArrayList<>(tor0Spine1());
    RoutingTable first = views.tableFor(asked);
    // The cache keys a copy: changing the caller's list afterwards changes nothing.
    asked.clear();
    assertThat(views.tableFor(new ArrayList<>(tor0Spine1()))).isSameAs(first);
    assertThat(views.tableFor(tor0Spine1())).isSameAs(first);
    assertThat(first).isNotSameAs(built);
    assertThat(views.tableFor(List.of(new DirectedLink(16, 20), new DirectedLink(20, 16)))).isNotSameAs(first);
  }

  @Test
  void aViewHasTheRoutesOfComputeAvoidingWithTheLinksPortsDead() {
    RoutingTable view = views.tableFor(tor0Spine1());
    boolean[][] dead = new boolean[topology.vertexCount()][];
    dead[16] = new boolean[] {false, false, false, false, false, true};
    dead[21] = new boolean[] {true, false, false, false};
    RoutingTable expected = RoutingTable.computeAvoiding(topology, dead);
    for (int v = 0; v < topology.vertexCount(); v++) {
      for (int d = 0; d < topology.hostCount(); d++) {
        assertThat(view.nextHopPorts(v, d)).as("vertex %d to host %d", v, d)
            .containsExactly(expected.nextHopPorts(v, d));
      }
    }
    assertThat(view.nextHopPorts(16, 9)).containsExactly(4);
    assertThat(built.nextHopPorts(16, 9)).containsExactly(4, 5);
  }

  @Test
  void aViewWithOneDirectionDeadStillRoutesTheOtherWay() {
    // Only tor0 -> spine1 is dead: tor0 sends up spine0 only, but spine1 still reaches tor0's hosts directly.
    RoutingTable view = views.tableFor(List.of(new DirectedLink(16, 21)));
    assertThat(view.nextHopPorts(16, 9)).containsExactly(4);
    assertThat(view.nextHopPorts(21, 0)).containsExactly(0);
    assertThat(view.nextHopPorts(17, 0)).containsExactly(4, 5);
  }
}
