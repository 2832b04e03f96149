package io.fabemu.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabemu.cluster.scenario.ScenarioException;
import io.fabemu.cluster.scenario.ScenarioLoader;
import io.fabemu.core.placement.PlacementPlan;
import io.fabemu.core.topology.Topology;
import io.fabemu.fabric.ScenarioSpec;
import org.junit.jupiter.api.Test;

/** {@link MemberPlacement}: the scenario's {@code cluster.placement} against the run's member count. */
class MemberPlacementTest {
  /** 16 hosts (0..15) under tor0..tor3 (16..19), spine0 and spine1 (20, 21). */
  private static final String LEAF_SPINE = "topology { kind = leaf-spine, hosts = 16, hosts-per-tor = 4 }\n";

  private static ScenarioSpec scenario(String placement) {
    return ScenarioLoader.parse(LEAF_SPINE + placement, "x.conf").spec();
  }

  private static PlacementPlan plan(ScenarioSpec spec, int members) {
    Topology topology = spec.topology().build();
    return MemberPlacement.plan(spec, topology, topology.deviceCount(), members);
  }

  @Test
  void shouldPlaceAsTheScenariosPlacementSays() {
    ScenarioSpec spec = scenario("cluster.placement = [[\"tor3\", \"spine*\"], [\"tor0\"]]\n");
    PlacementPlan plan = plan(spec, 2);
    assertThat(plan.memberOf(19)).isZero();
    assertThat(plan.memberOf(20)).isZero();
    assertThat(plan.memberOf(16)).isEqualTo(1);
    // The automatic plan puts tor0 with spine0 on member 0, never with tor3 apart from both spines.
    assertThat(plan(scenario(""), 2).memberOf(16)).isNotEqualTo(plan(scenario(""), 2).memberOf(19));
    assertThat(MemberPlacement.sourceLine(spec, 2)).isEqualTo("placement: from cluster.placement (x.conf:2)");
    assertThat(MemberPlacement.sourceLine(scenario(""), 2)).isEqualTo("placement: automatic");
  }

  @Test
  void shouldRefuseAnotherMemberCountNamingTheKeysLineAndBothCounts() {
    ScenarioSpec spec = scenario("\ncluster.placement = [[\"tor0\"], [\"tor1\"]]\n");
    assertThatThrownBy(() -> plan(spec, 3)).isInstanceOf(ScenarioException.class)
        .hasMessage("x.conf:3: cluster.placement: lists 2 members, but the run is on 3 (--members 3); list one per "
            + "member, or run on 2");
  }

  @Test
  void shouldPlaceEverythingOnOneMemberAndWarnWhenTheRunIsOnOne() {
    ScenarioSpec spec = scenario("cluster.placement = [[\"tor0\"], [\"tor1\"]]\n");
    assertThat(plan(spec, 1).devicesOf(0)).hasSize(spec.topology().build().deviceCount());
    assertThat(MemberPlacement.oneMemberWarning(spec, 1)).hasValue("fabemu: warning: cluster.placement lists 2 "
        + "members; this run is on one, which hosts every device (the placement applies to --members 2)");
    assertThat(MemberPlacement.oneMemberWarning(spec, 2)).isEmpty();
    assertThat(MemberPlacement.oneMemberWarning(scenario("cluster.placement = [[\"tor*\"]]\n"), 1)).isEmpty();
    assertThat(MemberPlacement.oneMemberWarning(scenario(""), 1)).isEmpty();
  }
}
