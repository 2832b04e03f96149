package io.fabemu.core.placement;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabemu.core.optical.ConnectionPolicy;
import io.fabemu.core.topology.LinkSpec;
import io.fabemu.core.topology.NodeGrid;
import io.fabemu.core.topology.OpticalSpec;
import io.fabemu.core.topology.Topologies;
import io.fabemu.core.topology.Topology;
import io.fabemu.core.topology.TopologyBuilder;
import org.junit.jupiter.api.Test;

/** {@link GridPlacement}: blocks of a node grid that cut the fewest and slowest links. */
class GridPlacementTest {

  private static final LinkSpec LINK = new LinkSpec(100_000_000_000L, 500_000);
  private static final LinkSpec FAST = new LinkSpec(100_000_000_000L, 100_000);
  private static final LinkSpec SLOW = new LinkSpec(100_000_000_000L, 1_000_000);

  private static int[] place(Topology t, int members) {
    return GridPlacement.memberOfNode(t, t.nodeGrid().orElseThrow(), GridPlacement.nodeOfVertex(t), members);
  }

  @Test
  void shouldCutRangesWhoseLengthsDifferByAtMostOneWithTheExtraFirst() {
    // 10 into 3: 4, 3, 3.
    int[] ranges = new int[10];
    for (int c = 0; c < 10; c++) ranges[c] = GridPlacement.range(c, 10, 3);
    assertThat(ranges).containsExactly(0, 0, 0, 0, 1, 1, 1, 2, 2, 2);
    assertThat(GridPlacement.range(3, 4, 4)).isEqualTo(3);
  }

  @Test
  void shouldListBlockSplitsSlowestDimensionFirstThenRuns() {
    // 4 x 4 on 4 members: rows (p1 = 4), 2 x 2 blocks, columns, then runs in numbering order (= rows).
    var candidates = GridPlacement.candidates(new NodeGrid(4, 4, 1), 4);
    assertThat(candidates).hasSize(4);
    assertThat(candidates.get(0).get()).containsExactly(0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3);
    assertThat(candidates.get(1).get()).containsExactly(0, 0, 1, 1, 0, 0, 1, 1, 2, 2, 3, 3, 2, 2, 3, 3);
    assertThat(candidates.get(2).get()).containsExactly(0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3);
    assertThat(candidates.get(3).get()).isEqualTo(candidates.get(0).get());
  }

  @Test
  void shouldPutEveryRouterWithItsHost() {
    Topology t = Topologies.mesh(3, 2, 1, LINK);
    assertThat(GridPlacement.nodeOfVertex(t)).containsExactly(0, 1, 2, 3, 4, 5, 0, 1, 2, 3, 4, 5);
  }

  @Test
  void shouldCutMeshIntoSquareBlocksWhenFourMembers() {
    // Rows or columns cut 12 cables, 2 x 2 blocks 8.
    assertThat(place(Topologies.mesh(4, 4, 1, LINK), 4))
        .containsExactly(0, 0, 1, 1, 0, 0, 1, 1, 2, 2, 3, 3, 2, 2, 3, 3);
  }

  @Test
  void shouldCutTorusIntoSlabsAlongTheSlowestDimensionWhenTwoMembers() {
    int[] members = place(Topologies.torus(4, 4, 4, LINK), 2);
    for (int n = 0; n < 64; n++) {
      assertThat(members[n]).as("node %d (z = %d)", n, n / 16).isEqualTo(n / 32);
    }
  }

  @Test
  void shouldKeepGroupsWholeWhenGroupRingIsSpread() {
    // 6 groups of 4 on 3 members: groups 0-1, 2-3, 4-5 (cutting a group's full mesh costs more than the ring).
    int[] members = place(Topologies.groupRing(6, 4, LINK), 3);
    for (int n = 0; n < 24; n++) {
      assertThat(members[n]).as("node %d (group %d)", n, n / 4).isEqualTo(n / 8);
    }
  }

  @Test
  void shouldKeepServersWholeWhenOpticalClusterIsSpread() {
    ConnectionPolicy policy = ConnectionPolicy.byDefaultFormula(4, 4);
    Topology t = Topologies.optical(policy, OpticalSpec.IntraServer.FULL_MESH, FAST, SLOW);
    int[] members = place(t, 2);
    for (int n = 0; n < 16; n++) {
      assertThat(members[n]).as("NPU %d (server %d)", n, n / 4).isEqualTo(n / 8);
    }
  }

  @Test
  void shouldCutThePrismsSlowerLinksWhenTheyDifferInLatency() {
    // 4 layers of 4. Between layers the cut is 8 cables, around the layers 20; the slower ones are cut.
    int[] byLayers = place(Topologies.prism(4, 4, FAST, SLOW), 2);
    for (int n = 0; n < 16; n++) {
      assertThat(byLayers[n]).as("node %d", n).isEqualTo(n / 8);
    }
    int[] byPositions = place(Topologies.prism(4, 4, SLOW, FAST), 2);
    for (int n = 0; n < 16; n++) {
      assertThat(byPositions[n]).as("node %d", n).isEqualTo(n % 4 / 2);
    }
    // Equal latencies: the fewer cables, between layers.
    assertThat(place(Topologies.prism(4, 4, LINK, LINK), 2)).isEqualTo(byLayers);
  }

  @Test
  void shouldPreferBalanceToFewerCutLinks() {
    // 4 x 4 x 4 on 3 members: no block split is even (2, 1, 1 slabs), runs of 22, 21, 21 nodes are.
    int[] members = place(Topologies.torus(4, 4, 4, LINK), 3);
    int[] nodes = new int[3];
    for (int m : members) nodes[m]++;
    assertThat(nodes).containsExactly(22, 21, 21);
  }

  @Test
  void shouldKeepServersWholeAtTheCostOfALineOfImbalanceWhenTheirCircuitsAreSlower() {
    // 6 servers of 5 NPUs on 4 members: runs of 8, 8, 7, 7 NPUs would split servers and cut their 100 ns links;
    // servers 0-1, 2-3, 4, 5 (10, 10, 5, 5 NPUs, 2 above the even share) cut only the 1 us circuits.
    ConnectionPolicy policy = ConnectionPolicy.byDefaultFormula(6, 5);
    Topology t = Topologies.optical(policy, OpticalSpec.IntraServer.FULL_MESH, FAST, SLOW);
    int[] members = place(t, 4);
    int[] serverMember = {0, 0, 1, 1, 2, 3};
    for (int n = 0; n < 30; n++) {
      assertThat(members[n]).as("NPU %d (server %d)", n, n / 5).isEqualTo(serverMember[n / 5]);
    }
    // With circuits as fast as the servers' links, the even runs.
    int[] even = place(Topologies.optical(policy, OpticalSpec.IntraServer.FULL_MESH, FAST, FAST), 4);
    int[] nodes = new int[4];
    for (int m : even) nodes[m]++;
    assertThat(nodes).containsExactly(8, 8, 7, 7);
  }

  @Test
  void shouldRejectSwitchServingSeveralHosts() {
    TopologyBuilder b = new TopologyBuilder();
    b.addHost("host0");
    b.addHost("host1");
    b.addSwitch("switch0", Topology.Tier.NONE);
    b.connect(0, 2, LINK).connect(1, 2, LINK);
    Topology t = b.build("two hosts on one switch", new NodeGrid(2, 1, 1));
    assertThatThrownBy(() -> GridPlacement.nodeOfVertex(t)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("switch0").hasMessageContaining("several hosts");
  }
}
