package io.fabemu.core.placement;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabemu.core.topology.LinkSpec;
import io.fabemu.core.topology.Topologies;
import io.fabemu.core.topology.Topology;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;

/** {@link PlacementReport}: devices, cut links and the cut's lookahead per member, counted by hand below. */
class PlacementReportTest {

  private static final LinkSpec HOST_LINK = new LinkSpec(100_000_000_000L, 200_000);
  private static final LinkSpec SPINE_LINK = new LinkSpec(100_000_000_000L, 500_000);
  private static final long PIPELINE_PS = 600_000;
  private static final long ROUTER_LOOKAHEAD_PS = 500;

  private static PlacementReport routerReport(Topology t, int members) {
    return PlacementReport.ofRouterNetwork(t, PlacementPlan.compute(t, t.deviceCount(), members), ROUTER_LOOKAHEAD_PS);
  }

  @Test
  void shouldCountTheTorSpineCablesBetweenMembersWhenLeafSpine() {
    // 8 hosts, TORs 8 and 9, spines 10 and 11: spine 10 and TOR 8 (with hosts 0-3) on member 0, spine 11 and TOR 9
    // on member 1. Cut: tor8-spine11 and tor9-spine10, 2 cables = 4 directed links, each with an end on each member.
    Topology t = Topologies.leafSpine(8, 4, 2, HOST_LINK, SPINE_LINK);
    PlacementReport report = PlacementReport.of(t, PlacementPlan.compute(t, t.deviceCount(), 2), PIPELINE_PS);
    assertThat(report.devices(0)).isEqualTo(10);
    assertThat(report.devices(1)).isEqualTo(10);
    assertThat(report.cutLinks(0)).isEqualTo(4);
    assertThat(report.cutLinks(1)).isEqualTo(4);
    assertThat(report.cutLinks()).isEqualTo(4);
    assertThat(report.links()).isEqualTo(24); // 8 host cables + 4 spine cables, two links each
    // Every cut link leaves a switch: 500 ns + the 600 ns pipeline.
    assertThat(report.cutLookaheadPs(0)).hasValue(1_100_000L);
    assertThat(report.cutLookaheadPs()).hasValue(1_100_000L);
    assertThat(report.lines()).containsExactly(
        "member 0: 10 devices, 4 cut links, cut lookahead 1100 ns",
        "member 1: 10 devices, 4 cut links, cut lookahead 1100 ns",
        "total: 4 of 24 links cut, cut lookahead 1100 ns");
  }

  @Test
  void shouldCutOneRowBoundaryWhenMeshOnTwoMembersAndSquareBlocksOnFour() {
    // 4 x 4 mesh: 16 host cables, 12 X, 12 Y = 40 cables, 80 links.
    Topology mesh = Topologies.mesh(4, 4, 1, SPINE_LINK);
    PlacementReport two = routerReport(mesh, 2);
    // Rows 0-1 | 2-3: the 4 Y cables between rows 1 and 2.
    assertThat(two.cutLinks()).isEqualTo(8);
    assertThat(two.links()).isEqualTo(80);
    assertThat(two.cutLinks(0)).isEqualTo(8);
    assertThat(two.devices(0)).isEqualTo(24);
    PlacementReport four = routerReport(mesh, 4);
    // 2 x 2 blocks: 4 X cables (x = 1 | 2) + 4 Y cables (y = 1 | 2); each block has 2 of each.
    assertThat(four.cutLinks()).isEqualTo(16);
    for (int m = 0; m < 4; m++) {
      assertThat(four.cutLinks(m)).as("member %d", m).isEqualTo(8);
      assertThat(four.devices(m)).isEqualTo(12);
      assertThat(four.cutLookaheadPs(m)).hasValue(ROUTER_LOOKAHEAD_PS);
    }
  }

  @Test
  void shouldCountTheWrapAroundCablesWhenTorus() {
    // 4 x 4 torus: 16 host cables, 16 X, 16 Y = 48 cables, 96 links.
    Topology torus = Topologies.torus(4, 4, 1, SPINE_LINK);
    PlacementReport two = routerReport(torus, 2);
    // Rows 0-1 | 2-3: 4 Y cables between rows 1 and 2 and 4 wrapping from row 3 to row 0.
    assertThat(two.cutLinks()).isEqualTo(16);
    assertThat(two.links()).isEqualTo(96);
    assertThat(two.cutLinks(0)).isEqualTo(16);
    assertThat(two.cutLinks(1)).isEqualTo(16);
    PlacementReport four = routerReport(torus, 4);
    // One row each (rows, blocks and columns all cut 16 cables; rows come first): 4 cables up and 4 down per row.
    assertThat(four.cutLinks()).isEqualTo(32);
    for (int m = 0; m < 4; m++) {
      assertThat(four.cutLinks(m)).as("member %d", m).isEqualTo(16);
    }
    assertThat(four.lines().get(0)).isEqualTo("member 0: 12 devices, 16 cut links, cut lookahead 0.5 ns");
  }

  @Test
  void shouldCutTheRingBetweenWholeGroupsWhenGroupRing() {
    // 4 groups of 2: 8 host cables, 4 intra-group, 8 ring cables = 20 cables, 40 links. Groups 0-1 | 2-3: the ring
    // cables g1-g2 and g3-g0 of both indices.
    Topology t = Topologies.groupRing(4, 2, SPINE_LINK);
    PlacementReport report = routerReport(t, 2);
    assertThat(report.cutLinks()).isEqualTo(8);
    assertThat(report.links()).isEqualTo(40);
    assertThat(report.cutLinks(0)).isEqualTo(8);
    assertThat(report.cutLinks(1)).isEqualTo(8);
    assertThat(report.devices(0)).isEqualTo(12);
  }

  @Test
  void shouldCutNothingWhenOneMember() {
    Topology t = Topologies.leafSpine(8, 4, 2, HOST_LINK, SPINE_LINK);
    PlacementReport report = PlacementReport.of(t, PlacementPlan.compute(t, t.deviceCount() + 1, 1), PIPELINE_PS);
    assertThat(report.devices(0)).isEqualTo(21);
    assertThat(report.cutLookaheadPs(0)).isEmpty();
    assertThat(report.lines()).containsExactly("member 0: 21 devices, 0 cut links, cut lookahead none",
        "total: 0 of 24 links cut, cut lookahead none");
  }

  @Test
  void shouldTakeNothingForANicSenderAndTheLeastOverTheMembersCut() {
    // A line of 4 hosts on 2 members: the cable host1-host2, host senders, so the link latency alone.
    Topology line = Topologies.line(4, HOST_LINK);
    PlacementReport report = PlacementReport.of(line, PlacementPlan.compute(line, 8, 2), PIPELINE_PS);
    assertThat(report.cutLookaheadPs(1)).hasValue(200_000L);
    assertThat(PlacementReport.nanoseconds(OptionalLong.of(1_234))).isEqualTo("1.234 ns");
  }

  @Test
  void shouldRejectAPlanForFewerDevicesOrBadDelays() {
    Topology t = Topologies.line(4, HOST_LINK);
    assertThatThrownBy(() -> PlacementReport.of(t, PlacementPlan.singleMember(3), 0))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("places 3");
    assertThatThrownBy(() -> PlacementReport.of(t, PlacementPlan.singleMember(8), -1))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("negative");
    assertThatThrownBy(() -> PlacementReport.ofRouterNetwork(t, PlacementPlan.singleMember(8), 0))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("positive");
  }
}
