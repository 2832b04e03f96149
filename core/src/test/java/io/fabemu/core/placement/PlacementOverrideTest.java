package io.fabemu.core.placement;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabemu.core.topology.LinkSpec;
import io.fabemu.core.topology.Topologies;
import io.fabemu.core.topology.Topology;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;

class PlacementOverrideTest {

  private static final LinkSpec LINK = new LinkSpec(100_000_000_000L, 500_000);
  /** 16 hosts (0..15), TORs 16..19 (tor0..tor3), spines 20..21; compute nodes 22..37. */
  private static final Topology LEAF_SPINE = Topologies.leafSpine(16, 4, 2, LINK, LINK);

  @SafeVarargs
  private static PlacementOverride override(List<String>... members) {
    return new PlacementOverride(List.of(members), "x.conf", 3);
  }

  private static PlacementPlan plan(Topology t, PlacementOverride override) {
    return PlacementPlan.compute(t, t.deviceCount(), override.memberCount(), override);
  }

  @Test
  void shouldPutWholeGroupsWhereTheyAreNamedWhenLeafSpine() {
    PlacementPlan plan = plan(LEAF_SPINE, override(List.of("tor0", "tor1", "spine0"), List.of("tor2", "tor3",
        "spine1")));
    for (int h = 0; h < 16; h++) {
      int member = h < 8 ? 0 : 1;
      assertThat(plan.memberOf(h)).as("NIC %d", h).isEqualTo(member);
      assertThat(plan.memberOf(LEAF_SPINE.computeNodeDevice(h))).as("compute node %d", h).isEqualTo(member);
    }
    assertThat(plan.memberOf(20)).isZero();
    assertThat(plan.memberOf(21)).isEqualTo(1);
    assertThat(plan.devicesOf(0)).hasSize(19);
  }

  @Test
  void shouldPutAHostsWholeTorGroupWhereTheHostIsNamed() {
    // host5 is under tor1: tor1, its four hosts and their compute nodes go to member 1.
    PlacementPlan plan = plan(LEAF_SPINE, override(List.of("tor0"), List.of("host5")));
    assertThat(plan.memberOf(17)).isEqualTo(1);
    for (int h = 4; h < 8; h++) assertThat(plan.memberOf(h)).isEqualTo(1);
  }

  @Test
  void shouldMatchGlobsAgainstEveryDeviceName() {
    // "spine*" names both spines; "*r3" names tor3 (no other name ends so).
    PlacementPlan plan = plan(LEAF_SPINE, override(List.of("spine*"), List.of("*r3")));
    assertThat(plan.memberOf(20)).isZero();
    assertThat(plan.memberOf(21)).isZero();
    assertThat(plan.memberOf(19)).isEqualTo(1);
    // A glob is matched whole: "host1*" is host1 and host10..host15, all under tor0 (host1), tor2 and tor3.
    PlacementPlan hosts = plan(LEAF_SPINE, override(List.of("host1*"), List.of("tor1")));
    assertThat(hosts.memberOf(16)).isZero();
    assertThat(hosts.memberOf(18)).isZero();
    assertThat(hosts.memberOf(19)).isZero();
    assertThat(hosts.memberOf(17)).isEqualTo(1);
  }

  @Test
  void shouldPlaceGroupsNotNamedOnTheMemberWithTheFewestDevices() {
    // Named: member 0 has tor0 (9 devices), member 1 spine0 (1). Then in group order: tor1 to member 1 (1 < 9: 10),
    // tor2 to member 0 (9 < 10: 18), tor3 to member 1 (10 < 18: 19), spine1 to member 0 (18 < 19: 19).
    PlacementPlan plan = plan(LEAF_SPINE, override(List.of("tor0"), List.of("spine0")));
    assertThat(plan.memberOf(16)).isZero();
    assertThat(plan.memberOf(20)).isEqualTo(1);
    assertThat(plan.memberOf(17)).isEqualTo(1);
    assertThat(plan.memberOf(18)).isZero();
    assertThat(plan.memberOf(19)).isEqualTo(1);
    assertThat(plan.memberOf(21)).isZero();
    assertThat(plan.devicesOf(0)).hasSize(19);
    assertThat(plan.devicesOf(1)).hasSize(19);
  }

  @Test
  void shouldKeepDevicesOutsideTheTopologyOnMemberZero() {
    // A fault plan's management node is one device past the topology's.
    PlacementPlan plan = PlacementPlan.compute(LEAF_SPINE, LEAF_SPINE.deviceCount() + 1, 2,
        override(List.of("tor0"), List.of("tor1", "tor2", "tor3", "spine*")));
    assertThat(plan.memberOf(LEAF_SPINE.deviceCount())).isZero();
  }

  @Test
  void shouldGiveTheSamePlanWhenComputedTwice() {
    PlacementOverride o = override(List.of("tor3"), List.of("spine1"), List.of("host0"));
    assertThat(plan(LEAF_SPINE, o).memberOfDevices()).isEqualTo(plan(LEAF_SPINE, o).memberOfDevices());
  }

  @Test
  void shouldPutEachNodeWithItsRouterWhenRouterNetwork() {
    // 4x4 mesh: hosts 0..15, routers 16..31; "router1*" is router1 and router10..15's nodes.
    Topology mesh = Topologies.mesh(4, 4, 1, LINK);
    PlacementPlan plan = plan(mesh, override(List.of("router1*"), List.of("host0")));
    for (int n : new int[] {1, 10, 11, 12, 13, 14, 15}) {
      assertThat(plan.memberOf(n)).as("node %d", n).isZero();
      assertThat(plan.memberOf(16 + n)).isZero();
    }
    assertThat(plan.memberOf(0)).isEqualTo(1);
    assertThat(plan.memberOf(16)).isEqualTo(1);
  }

  @Test
  void shouldIgnoreTheOverrideWhenOneMember() {
    PlacementPlan plan = PlacementPlan.compute(LEAF_SPINE, LEAF_SPINE.deviceCount(), 1,
        override(List.of("tor0"), List.of("tor1")));
    assertThat(plan.devicesOf(0)).hasSize(LEAF_SPINE.deviceCount());
  }

  @Test
  void shouldRefuseAMemberCountOtherThanTheOverrides() {
    assertThatThrownBy(() -> PlacementPlan.compute(LEAF_SPINE, LEAF_SPINE.deviceCount(), 3,
        override(List.of("tor0"), List.of("tor1"))))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("cluster.placement lists 2 members, but the run is on 3");
  }

  @Test
  void shouldRefuseANameThatMatchesNothingNamingItsEntry() {
    assertThatThrownBy(() -> override(List.of("tor0"), List.of("tor1", "tor9")).check(LEAF_SPINE))
        .isInstanceOfSatisfying(PlacementOverride.Problem.class, p -> {
          assertThat(p.keyPath()).isEqualTo("cluster.placement[1][1]");
          assertThat(p.reason()).startsWith("'tor9' names no device of ").contains("host0, tor0");
        });
    assertThatThrownBy(() -> override(List.of("leaf*")).check(LEAF_SPINE))
        .isInstanceOfSatisfying(PlacementOverride.Problem.class,
            p -> assertThat(p.keyPath()).isEqualTo("cluster.placement[0][0]"));
  }

  @Test
  void shouldRefuseAGroupNamedOnTwoMembersNamingBothEntries() {
    // host5 is under tor1, which member 0 has.
    assertThatThrownBy(() -> override(List.of("tor0", "tor1"), List.of("host5")).check(LEAF_SPINE))
        .isInstanceOfSatisfying(PlacementOverride.Problem.class, p -> {
          assertThat(p.keyPath()).isEqualTo("cluster.placement[1][0]");
          assertThat(p.reason()).isEqualTo("'host5' names host5, whose placement group (tor1 and its 8 other "
              + "devices) member 0 already has (cluster.placement[0][1] 'tor1'); a group is never split");
        });
  }

  @Test
  void shouldAcceptAGroupNamedTwiceOnOneMember() {
    PlacementPlan plan = plan(LEAF_SPINE, override(List.of("tor1", "host5", "host*"), List.of("spine*")));
    assertThat(plan.devicesOf(0)).hasSize(36);
  }

  @Test
  void shouldRefuseAMemberThatListsNothing() {
    assertThatThrownBy(() -> override(List.of("tor0"), List.of()).check(LEAF_SPINE))
        .isInstanceOfSatisfying(PlacementOverride.Problem.class, p -> {
          assertThat(p.keyPath()).isEqualTo("cluster.placement[1]");
          assertThat(p.entry()).isEqualTo(-1);
        });
  }

  @Test
  void shouldRefuseMoreGlobsThanTheLimitAtTheFirstOneBeyond() {
    List<String> globs = Collections.nCopies(PlacementOverride.MAX_GLOBS, "host*");
    override(globs).check(LEAF_SPINE);
    List<String> tooMany = new ArrayList<>(globs);
    tooMany.add("tor0");
    tooMany.add("spine*");
    assertThatThrownBy(() -> override(tooMany).check(LEAF_SPINE))
        .isInstanceOfSatisfying(PlacementOverride.Problem.class, p -> {
          assertThat(p.keyPath()).isEqualTo("cluster.placement[0][" + (PlacementOverride.MAX_GLOBS + 1) + "]");
          assertThat(p.reason()).startsWith("more than 256 globs");
        });
  }

  @Test
  void shouldCompareEntriesOnlyNotWhereTheyWereWritten() {
    assertThat(new PlacementOverride(List.of(List.of("tor0")), "a.conf", 3))
        .isEqualTo(new PlacementOverride(List.of(List.of("tor0")), "echo.conf", 9))
        .isNotEqualTo(new PlacementOverride(List.of(List.of("tor1")), "a.conf", 3));
  }
}
