package io.fabemu.core.placement;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabemu.core.topology.LinkSpec;
import io.fabemu.core.topology.Topologies;
import io.fabemu.core.topology.Topology;
import java.util.Arrays;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;

class PlacementPlanPropertyTest {

  private static final LinkSpec LINK = new LinkSpec(100_000_000_000L, 500_000);

  @Property(tries = 200)
  void shouldPlaceEveryDeviceOnceKeepTorGroupsAndBalanceWhenLeafSpine(
      @ForAll @IntRange(min = 1, max = 200) int hosts, @ForAll @IntRange(min = 1, max = 24) int hostsPerTor,
      @ForAll @IntRange(min = 1, max = 8) int spines, @ForAll @IntRange(min = 1, max = 64) int membersWanted) {
    Topology t = Topologies.leafSpine(hosts, hostsPerTor, spines, LINK, LINK);
    int tors = (hosts - 1) / hostsPerTor + 1;
    int members = 1 + (membersWanted - 1) % tors;
    int devices = t.vertexCount() + hosts;
    PlacementPlan plan = PlacementPlan.compute(t, devices, members);

    assertEveryDevicePlacedOnce(plan, devices, members);
    for (int h = 0; h < hosts; h++) {
      int tor = hosts + h / hostsPerTor;
      assertThat(plan.memberOf(h)).isEqualTo(plan.memberOf(tor));
      assertThat(plan.memberOf(t.vertexCount() + h)).isEqualTo(plan.memberOf(tor));
    }
    assertBalanced(plan, members, 1 + 2 * Math.min(hosts, hostsPerTor));
  }

  @Property(tries = 100)
  void shouldPlaceEveryDeviceOnceInContiguousBlocksWhenDirect(
      @ForAll @IntRange(min = 1, max = 100) int hosts, @ForAll @IntRange(min = 1, max = 100) int membersWanted) {
    Topology t = Topologies.line(hosts, LINK);
    int members = 1 + (membersWanted - 1) % hosts;
    PlacementPlan plan = PlacementPlan.compute(t, 2 * hosts, members);

    assertEveryDevicePlacedOnce(plan, 2 * hosts, members);
    for (int h = 0; h < hosts; h++) {
      assertThat(plan.memberOf(hosts + h)).isEqualTo(plan.memberOf(h));
      if (h > 0) {
        assertThat(plan.memberOf(h)).isBetween(plan.memberOf(h - 1), plan.memberOf(h - 1) + 1);
      }
    }
    assertBalanced(plan, members, 2);
  }

  @Property(tries = 100)
  void shouldPlaceEveryDeviceOnceKeepNodesWholeAndBalanceWhenRouterNetwork(
      @ForAll @IntRange(min = 2, max = 6) int sizeX, @ForAll @IntRange(min = 2, max = 6) int sizeY,
      @ForAll @IntRange(min = 1, max = 4) int sizeZ, @ForAll boolean torus,
      @ForAll @IntRange(min = 1, max = 200) int membersWanted) {
    Topology t = torus ? Topologies.torus(sizeX, sizeY, sizeZ, LINK) : Topologies.mesh(sizeX, sizeY, sizeZ, LINK);
    int nodes = t.hostCount();
    int members = 1 + (membersWanted - 1) % nodes;
    PlacementPlan plan = PlacementPlan.compute(t, t.deviceCount(), members);

    assertEveryDevicePlacedOnce(plan, t.deviceCount(), members);
    for (int h = 0; h < nodes; h++) {
      assertThat(plan.memberOf(nodes + h)).as("router %d", h).isEqualTo(plan.memberOf(h));
      assertThat(plan.memberOf(t.computeNodeDevice(h))).as("compute node %d", h).isEqualTo(plan.memberOf(h));
    }
    // Every link has the same latency, so no imbalance buys a longer lookahead: the largest member holds no more
    // nodes than the even share, rounded up.
    int share = (nodes - 1) / members + 1;
    for (int m = 0; m < members; m++) {
      assertThat(plan.devicesOf(m).length).as("member %d", m).isLessThanOrEqualTo(3 * share);
    }
  }

  private static void assertEveryDevicePlacedOnce(PlacementPlan plan, int devices, int members) {
    int[] seen = new int[devices];
    for (int m = 0; m < members; m++) {
      assertThat(plan.devicesOf(m)).as("member %d hosts something", m).isNotEmpty();
      for (int id : plan.devicesOf(m)) {
        seen[id]++;
        assertThat(plan.memberOf(id)).isEqualTo(m);
      }
    }
    assertThat(seen).containsOnly(1);
  }

  private static void assertBalanced(PlacementPlan plan, int members, int largestGroup) {
    int[] sizes = new int[members];
    for (int m = 0; m < members; m++) {
      sizes[m] = plan.devicesOf(m).length;
    }
    int spread = Arrays.stream(sizes).max().orElseThrow() - Arrays.stream(sizes).min().orElseThrow();
    assertThat(spread).as("device counts %s", Arrays.toString(sizes)).isLessThanOrEqualTo(largestGroup);
  }
}
