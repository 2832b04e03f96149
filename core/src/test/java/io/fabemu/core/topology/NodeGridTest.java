package io.fabemu.core.topology;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabemu.core.optical.ConnectionPolicy;
import org.junit.jupiter.api.Test;

/** {@link NodeGrid} and the grids the topology kinds give their hosts. */
class NodeGridTest {

  private static final LinkSpec LINK = new LinkSpec(100_000_000_000L, 500_000);

  @Test
  void shouldGiveEachGridKindItsSizesFastestFirst() {
    assertThat(Topologies.mesh(4, 3, 2, LINK).nodeGrid()).contains(new NodeGrid(4, 3, 2));
    assertThat(Topologies.torus(4, 4, 1, LINK).nodeGrid()).contains(new NodeGrid(4, 4, 1));
    assertThat(Topologies.groupRing(6, 4, LINK).nodeGrid()).contains(new NodeGrid(4, 6, 1));
    assertThat(Topologies.prism(3, 8, LINK, LINK).nodeGrid()).contains(new NodeGrid(3, 8, 1));
    ConnectionPolicy policy = ConnectionPolicy.byDefaultFormula(4, 4);
    assertThat(Topologies.optical(policy, OpticalSpec.IntraServer.FULL_MESH, LINK, LINK).nodeGrid())
        .contains(new NodeGrid(4, 4, 1));
  }

  @Test
  void shouldGiveNoGridWhereSwitchesServeSeveralHostsOrTheKindHasNone() {
    ConnectionPolicy policy = ConnectionPolicy.byDefaultFormula(4, 4);
    assertThat(Topologies.optical(policy, OpticalSpec.IntraServer.SWITCH, LINK, LINK).nodeGrid()).isEmpty();
    assertThat(Topologies.leafSpine(8, 4, 2, LINK, LINK).nodeGrid()).isEmpty();
    assertThat(Topologies.ring(5, LINK).nodeGrid()).isEmpty();
  }

  @Test
  void shouldCountNodesAndAnswerSizesByDimension() {
    NodeGrid grid = new NodeGrid(4, 3, 2);
    assertThat(grid.nodeCount()).isEqualTo(24);
    assertThat(grid.size(0)).isEqualTo(4);
    assertThat(grid.size(2)).isEqualTo(2);
    assertThatThrownBy(() -> grid.size(3)).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void shouldRejectSizesBelowOneOrAGridThatDoesNotFitTheHosts() {
    assertThatThrownBy(() -> new NodeGrid(0, 1, 1)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("at least 1");
    TopologyBuilder b = new TopologyBuilder();
    b.addHost("host0");
    assertThatThrownBy(() -> b.build("one host", new NodeGrid(2, 1, 1)))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("does not fit 1 hosts");
  }
}
