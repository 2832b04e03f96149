package io.fabemu.core.placement;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabemu.core.topology.LinkSpec;
import io.fabemu.core.topology.Topologies;
import io.fabemu.core.topology.Topology;
import org.junit.jupiter.api.Test;

/** {@link PlacementPlan#crossLookaheadPs}: the window between global barriers of a distributed run. */
class CrossLookaheadTest {
  private static final long PIPELINE_PS = 600_000L;
  private static final long PCIE_PS = 250_000L;
  private static final LinkSpec HOST_LINK = new LinkSpec(25_000_000_000L, 500_000L);
  private static final LinkSpec SPINE_LINK = new LinkSpec(100_000_000_000L, 700_000L);

  private static PlacementPlan plan(Topology t, int members) {
    return PlacementPlan.compute(t, t.vertexCount() + t.hostCount(), members);
  }

  private static long local(Topology t) {
    return Math.min(t.minLatencyPs(), PCIE_PS);
  }

  @Test
  void shouldBeTheSpineLinkLatencyPlusThePipelineWhenLeafSpineIsSpread() {
    Topology t = Topologies.leafSpine(12, 4, 2, HOST_LINK, SPINE_LINK);
    for (int members = 2; members <= 3; members++) {
      assertThat(plan(t, members).crossLookaheadPs(t, PIPELINE_PS, local(t))).as("%d members", members)
          .isEqualTo(700_000L + PIPELINE_PS);
    }
  }

  @Test
  void shouldBeTheLocalLookaheadWhenOneMemberHostsEverything() {
    Topology t = Topologies.leafSpine(12, 4, 2, HOST_LINK, SPINE_LINK);
    assertThat(plan(t, 1).crossLookaheadPs(t, PIPELINE_PS, local(t))).isEqualTo(PCIE_PS);
    Topology ring = Topologies.ring(6, HOST_LINK);
    assertThat(plan(ring, 1).crossLookaheadPs(ring, PIPELINE_PS, local(ring))).isEqualTo(PCIE_PS);
  }

  @Test
  void shouldBeTheLinkLatencyAloneWhenNicsOfADirectTopologyAreNeighboursAcrossMembers() {
    // NICs send and relay: no pipeline is added for them (conservative), whatever the switches' setting.
    Topology ring = Topologies.ring(7, HOST_LINK);
    assertThat(plan(ring, 3).crossLookaheadPs(ring, PIPELINE_PS, local(ring))).isEqualTo(500_000L);
    Topology line = Topologies.line(4, new LinkSpec(25_000_000_000L, 2_000_000L));
    assertThat(plan(line, 2).crossLookaheadPs(line, PIPELINE_PS, 250_000L)).isEqualTo(2_000_000L);
  }

  @Test
  void shouldNeverFallBelowTheLocalLookahead() {
    Topology t = Topologies.leafSpine(8, 4, 1, HOST_LINK, SPINE_LINK);
    // A local lookahead above latency + pipeline cannot happen in a fabric; the method still never goes below it.
    assertThat(plan(t, 2).crossLookaheadPs(t, 0L, 900_000L)).isEqualTo(900_000L);
    assertThat(plan(t, 2).crossLookaheadPs(t, 0L, 250_000L)).isEqualTo(700_000L);
  }

  @Test
  void shouldTakeTheLocalLookaheadWhenAHostsNicAndComputeNodeAreSplit() {
    Topology ring = Topologies.ring(4, HOST_LINK);
    // Hand-made plan (PlacementPlan never splits a host): NIC 0 on member 0, its compute node (4) on member 1.
    int[] memberOf = {0, 0, 1, 1, 1, 0, 1, 1};
    PlacementPlan split = planOf(memberOf, 2);
    assertThat(split.crossLookaheadPs(ring, PIPELINE_PS, PCIE_PS)).isEqualTo(PCIE_PS);
  }

  @Test
  void shouldRejectATopologyWithMoreDevicesThanThePlanPlaces() {
    // 29 devices; a plan may place more than its topology's (a fault plan's management node), never fewer.
    Topology t = Topologies.leafSpine(12, 4, 2, HOST_LINK, SPINE_LINK);
    Topology other = Topologies.ring(20, HOST_LINK);
    assertThatThrownBy(() -> plan(t, 2).crossLookaheadPs(other, PIPELINE_PS, PCIE_PS))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("devices");
  }

  /** A plan with an arbitrary split, which PlacementPlan.compute never makes. */
  private static PlacementPlan planOf(int[] memberOf, int members) {
    return PlacementPlan.of(memberOf, members);
  }
}
