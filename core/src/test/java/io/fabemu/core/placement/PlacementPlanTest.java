package io.fabemu.core.placement;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabemu.core.topology.LinkSpec;
import io.fabemu.core.topology.Topologies;
import io.fabemu.core.topology.Topology;
import org.junit.jupiter.api.Test;

class PlacementPlanTest {

  private static final LinkSpec LINK = new LinkSpec(100_000_000_000L, 500_000);

  private static PlacementPlan plan(Topology t, int members) {
    return PlacementPlan.compute(t, t.vertexCount() + t.hostCount(), members);
  }

  @Test
  void shouldKeepEachTorWithItsHostsAndComputeNodesWhenLeafSpineIsSpread() {
    // 12 hosts (0..11), TORs 12..14, spines 15..16, compute nodes 17..28.
    Topology t = Topologies.leafSpine(12, 4, 2, LINK, LINK);
    PlacementPlan plan = plan(t, 3);
    int v = t.vertexCount();
    for (int h = 0; h < 12; h++) {
      int tor = 12 + h / 4;
      assertThat(plan.memberOf(h)).as("NIC %d", h).isEqualTo(plan.memberOf(tor));
      assertThat(plan.memberOf(v + h)).as("compute node %d", h).isEqualTo(plan.memberOf(tor));
    }
    // Spines round-robin, then each TOR group to the least-loaded member (ties to the lowest id).
    assertThat(plan.memberOf(15)).isZero();
    assertThat(plan.memberOf(16)).isEqualTo(1);
    assertThat(plan.memberOf(12)).isEqualTo(2);
    assertThat(plan.memberOf(13)).isZero();
    assertThat(plan.memberOf(14)).isEqualTo(1);
    assertThat(plan.devicesOf(0)).hasSize(10);
    assertThat(plan.devicesOf(1)).hasSize(10);
    assertThat(plan.devicesOf(2)).containsExactly(0, 1, 2, 3, 12, 17, 18, 19, 20);
  }

  @Test
  void shouldPutEverythingOnMemberZeroWhenOneMember() {
    Topology t = Topologies.leafSpine(10, 4, 2, LINK, LINK);
    PlacementPlan plan = plan(t, 1);
    assertThat(plan.devicesOf(0)).hasSize(t.vertexCount() + t.hostCount());
    assertThat(PlacementPlan.singleMember(7).devicesOf(0)).containsExactly(0, 1, 2, 3, 4, 5, 6);
  }

  @Test
  void shouldSplitHostsIntoContiguousBlocksWhenTopologyIsDirect() {
    Topology t = Topologies.ring(7, LINK);
    PlacementPlan plan = plan(t, 3);
    // Blocks of 3, 2, 2 hosts; each NIC (h) with its compute node (7 + h).
    assertThat(plan.devicesOf(0)).containsExactly(0, 1, 2, 7, 8, 9);
    assertThat(plan.devicesOf(1)).containsExactly(3, 4, 10, 11);
    assertThat(plan.devicesOf(2)).containsExactly(5, 6, 12, 13);
  }

  @Test
  void shouldGiveTheSamePlanWhenComputedTwice() {
    Topology t = Topologies.leafSpine(37, 5, 3, LINK, LINK);
    assertThat(plan(t, 4).memberOfDevices()).isEqualTo(plan(t, 4).memberOfDevices());
  }

  @Test
  void shouldRejectWithClearMessageWhenMoreMembersThanTors() {
    Topology t = Topologies.leafSpine(12, 4, 2, LINK, LINK);
    assertThatThrownBy(() -> plan(t, 4))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("4 member(s)")
        .hasMessageContaining("at most 3")
        .hasMessageContaining("TOR");
  }

  @Test
  void shouldPlaceRouterNetworkInBlocksOfWholeNodes() {
    // 4 x 4 torus: hosts 0..15, routers 16..31, compute nodes 32..47; 2 members: rows 0-1 and rows 2-3.
    Topology t = Topologies.torus(4, 4, 1, LINK);
    PlacementPlan plan = plan(t, 2);
    assertThat(plan.devicesOf(0)).containsExactly(0, 1, 2, 3, 4, 5, 6, 7, 16, 17, 18, 19, 20, 21, 22, 23, 32, 33, 34,
        35, 36, 37, 38, 39);
    assertThat(plan.groupCount()).isEqualTo(16);
    assertThat(plan.largestGroupSize()).isEqualTo(3);
  }

  @Test
  void shouldRejectWithClearMessageWhenMoreMembersThanNodes() {
    Topology t = Topologies.mesh(2, 2, 1, LINK);
    assertThatThrownBy(() -> plan(t, 5)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("at most 4").hasMessageContaining("node (router, NIC and compute node)");
  }

  @Test
  void shouldRejectWhenMemberCountIsBelowOne() {
    Topology t = Topologies.line(4, LINK);
    assertThatThrownBy(() -> plan(t, 0)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("at least 1");
  }

  @Test
  void shouldRejectWhenDeviceCountDoesNotMatchTopology() {
    Topology t = Topologies.line(4, LINK);
    assertThatThrownBy(() -> PlacementPlan.compute(t, 7, 1)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("8 devices");
  }
}
