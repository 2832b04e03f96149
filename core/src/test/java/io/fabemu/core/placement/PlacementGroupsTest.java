package io.fabemu.core.placement;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabemu.core.topology.LinkSpec;
import io.fabemu.core.topology.Topologies;
import io.fabemu.core.topology.Topology;
import org.junit.jupiter.api.Test;

class PlacementGroupsTest {

  private static final LinkSpec LINK = new LinkSpec(100_000_000_000L, 500_000);

  @Test
  void shouldGroupEachTorWithItsHostsAndLeaveSpinesAloneWhenLeafSpine() {
    // 12 hosts (0..11), TORs 12..14, spines 15..16.
    Topology t = Topologies.leafSpine(12, 4, 2, LINK, LINK);
    PlacementGroups groups = PlacementGroups.of(t);
    assertThat(groups.count()).isEqualTo(5);
    assertThat(groups.hostGroups()).isEqualTo(3);
    for (int h = 0; h < 12; h++) assertThat(groups.groupOf(h)).as("host %d", h).isEqualTo(groups.groupOf(12 + h / 4));
    // Numbered by their head vertex: the TORs' groups, then each spine's.
    assertThat(groups.groupOf(12)).isZero();
    assertThat(groups.groupOf(14)).isEqualTo(2);
    assertThat(groups.groupOf(15)).isEqualTo(3);
    assertThat(groups.groupOf(16)).isEqualTo(4);
    assertThat(groups.head(1)).isEqualTo(13);
    // A TOR, its 4 NICs and their 4 compute nodes; a spine alone.
    assertThat(groups.devices(0)).isEqualTo(9);
    assertThat(groups.devices(3)).isEqualTo(1);
  }

  @Test
  void shouldGroupEachHostWithItsRouterWhenRouterNetwork() {
    // 3x2 mesh: hosts 0..5, routers 6..11 (router 6 + h is host h's).
    Topology t = Topologies.mesh(3, 2, 1, LINK);
    PlacementGroups groups = PlacementGroups.of(t);
    assertThat(groups.count()).isEqualTo(6);
    assertThat(groups.hostGroups()).isEqualTo(6);
    for (int h = 0; h < 6; h++) {
      assertThat(groups.groupOf(6 + h)).isEqualTo(groups.groupOf(h)).isEqualTo(h);
      assertThat(groups.devices(h)).as("router, NIC, compute node").isEqualTo(3);
      assertThat(groups.head(h)).isEqualTo(h);
    }
  }

  @Test
  void shouldMakeEachHostAGroupWhenDirect() {
    PlacementGroups groups = PlacementGroups.of(Topologies.ring(5, LINK));
    assertThat(groups.count()).isEqualTo(5);
    assertThat(groups.groupOf(3)).isEqualTo(3);
    assertThat(groups.devices(3)).isEqualTo(2);
  }
}
