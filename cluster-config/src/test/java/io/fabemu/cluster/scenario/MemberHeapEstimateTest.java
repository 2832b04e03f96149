package io.fabemu.cluster.scenario;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabemu.fabric.ScenarioSpec;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;

/** The heap per member of a run on N members, in whole placement groups, and the fewest members that fit. */
class MemberHeapEstimateTest {
  /** 1,000 B base, 100 B results, 4,000 B shared by the hosts. */
  private static final ResourceEstimate RUN = new ResourceEstimate(1_000 + 100 + 4_000, 100, 1_000, 7);
  /** 4,096 hosts in 128 TORs of 32. */
  private static final MemberHeapEstimate LEAF_SPINE = new MemberHeapEstimate(RUN, 4096, 128, 32);

  private static ScenarioSpec scenario(String topology) {
    return ScenarioLoader.parse("name = member-heap-test\ntopology { " + topology + " }\nworkload { collective = "
        + "allreduce, algorithms = [ring], sizes = [1 KiB] }\n", "member-heap-test.conf").spec();
  }

  @Test
  void shouldGiveTheWholeRunToOneMember() {
    assertThat(LEAF_SPINE.memberHeapBytes(1)).isEqualTo(5_100);
    assertThat(LEAF_SPINE.coordinatorHeapBytes(1)).isEqualTo(5_100);
    assertThat(LEAF_SPINE.largestMemberHosts(1)).isEqualTo(4096);
  }

  @Test
  void shouldGiveEachMemberTheBaseAndTheFullestMembersWholeTorsAndTheCoordinatorTheResults() {
    // 4 members: 32 TORs each, a quarter of the 4,000 B.
    assertThat(LEAF_SPINE.largestMemberHosts(4)).isEqualTo(1024);
    assertThat(LEAF_SPINE.memberHeapBytes(4)).isEqualTo(1_000 + 1_000);
    assertThat(LEAF_SPINE.coordinatorHeapBytes(4)).isEqualTo(1_000 + 1_000 + 100);
    // 3 members: the fullest holds 43 of the 128 TORs, 1,376 hosts: ⌈4,000 × 1,376 / 4,096⌉ = 1,344 B, not 1,334.
    assertThat(LEAF_SPINE.largestMemberHosts(3)).isEqualTo(1376);
    assertThat(LEAF_SPINE.memberHeapBytes(3)).isEqualTo(1_000 + 1_344);
    assertThat(LEAF_SPINE.coordinatorHeapBytes(3)).isEqualTo(1_000 + 1_344 + 100);
    // One TOR each: ⌈4,000 × 32 / 4,096⌉ = 32 B.
    assertThat(LEAF_SPINE.maxMembers()).isEqualTo(128);
    assertThat(LEAF_SPINE.memberHeapBytes(128)).isEqualTo(1_032);
  }

  @Test
  void shouldFindTheFewestMembersThatFitBothHeaps() {
    // 2 members: 64 TORs, 2,000 B each, 3,000 and 3,100 in all.
    assertThat(LEAF_SPINE.membersNeeded(5_100, 0)).isEqualTo(OptionalInt.of(1));
    assertThat(LEAF_SPINE.membersNeeded(5_099, 3_000)).isEqualTo(OptionalInt.of(2));
    assertThat(LEAF_SPINE.membersNeeded(3_100, 2_999)).isEqualTo(OptionalInt.of(3));
    assertThat(LEAF_SPINE.membersNeeded(2_444, 2_344)).isEqualTo(OptionalInt.of(3));
    // The coordinator's results decide: 2,443 B holds 4 members' coordinator (2,100), not 3's (2,444).
    assertThat(LEAF_SPINE.membersNeeded(2_443, 1_000_000)).isEqualTo(OptionalInt.of(4));
    // One TOR each needs 1,032 B per member and 1,132 in the coordinator's JVM.
    assertThat(LEAF_SPINE.membersNeeded(1_132, 1_032)).isEqualTo(OptionalInt.of(128));
    assertThat(LEAF_SPINE.membersNeeded(1_131, 1_000_000)).isEmpty();
    assertThat(LEAF_SPINE.membersNeeded(5_099, 1_031)).isEmpty();
  }

  @Test
  void shouldTakeTheFullestMemberOfTheScenariosPlacementOnItsMembers() {
    // 16 hosts in 4 TORs: the placement puts three TORs (12 hosts) on member 0, where the even share is 2 (8 hosts).
    ScenarioSpec spec = ScenarioLoader.parse("name = member-heap-test\ntopology { kind = leaf-spine, hosts = 16, "
        + "hosts-per-tor = 4 }\ncluster.placement = [[\"tor0\", \"tor1\", \"tor2\"], [\"tor3\"]]\n",
        "member-heap-test.conf").spec();
    MemberHeapEstimate placed = MemberHeapEstimate.of(spec);
    assertThat(placed.largestMemberHosts(2)).isEqualTo(12);
    assertThat(placed.memberHeapBytes(2)).isGreaterThan(MemberHeapEstimate.of(spec.toBuilder().placement(null)
        .build()).memberHeapBytes(2));
    // Other member counts (refused by a run with this placement) keep the even share.
    assertThat(placed.largestMemberHosts(4)).isEqualTo(4);
    // Fewest members that fit: one, or the placement's two, nothing else.
    assertThat(placed.maxMembers()).isEqualTo(2);
    long coordinator = placed.coordinatorHeapBytes(2);
    assertThat(placed.membersNeeded(coordinator, placed.memberHeapBytes(2))).hasValue(2);
    assertThat(placed.membersNeeded(coordinator - 1, Long.MAX_VALUE)).isEmpty();
  }

  @Test
  void shouldTakeThePlacementGroupsOfEachTopologyKind() {
    // 100 hosts, 32 per TOR: 4 TORs, the last of 4 hosts.
    MemberHeapEstimate leafSpine = MemberHeapEstimate.of(scenario(
        "kind = leaf-spine, hosts = 100, hosts-per-tor = 32, spines = 2"));
    assertThat(leafSpine.maxMembers()).isEqualTo(4);
    assertThat(leafSpine.largestMemberHosts(2)).isEqualTo(64);
    assertThat(leafSpine.largestMemberHosts(3)).isEqualTo(64);
    assertThat(leafSpine.largestMemberHosts(4)).isEqualTo(32);
    // One TOR: one group, all its hosts.
    MemberHeapEstimate oneTor = MemberHeapEstimate.of(scenario(
        "kind = leaf-spine, hosts = 8, hosts-per-tor = 16, spines = 1"));
    assertThat(oneTor.maxMembers()).isEqualTo(1);
    assertThat(oneTor.largestMemberHosts(1)).isEqualTo(8);
    // A router network: one host with its router per group.
    MemberHeapEstimate torus = MemberHeapEstimate.of(scenario("kind = torus, dimensions = [4, 4, 4]"));
    assertThat(torus.maxMembers()).isEqualTo(64);
    assertThat(torus.largestMemberHosts(3)).isEqualTo(22);
    assertThat(torus.estimate()).isEqualTo(ResourceEstimate.of(scenario("kind = torus, dimensions = [4, 4, 4]")));
    // The optical cluster: a server with its switch, or each NPU when the NPUs of a server form a full mesh.
    String optical = "kind = optical, servers = 4, npus-per-server = 8, intra-server { kind = %s, bandwidth = "
        + "400 Gbps, latency = 200 ns }";
    assertThat(MemberHeapEstimate.of(scenario(optical.formatted("switch"))).maxMembers()).isEqualTo(4);
    assertThat(MemberHeapEstimate.of(scenario(optical.formatted("switch"))).largestMemberHosts(3)).isEqualTo(16);
    assertThat(MemberHeapEstimate.of(scenario(optical.formatted("full-mesh"))).maxMembers()).isEqualTo(32);
  }

  @Test
  void shouldRoundTheShareUpWithoutOverflowingOnEstimatesFarTooLargeForAnyHeap() {
    assertThat(MemberHeapEstimate.share(10, 1, 3)).isEqualTo(4);
    assertThat(MemberHeapEstimate.share(Long.MAX_VALUE - 1, 3, 4)).isEqualTo(Long.MAX_VALUE / 4 * 3 + 2);
    // An estimate that saturated at Long.MAX_VALUE (ResourceEstimate computes in doubles) stays positive.
    MemberHeapEstimate huge = new MemberHeapEstimate(new ResourceEstimate(Long.MAX_VALUE, 0, 64L << 20, 1),
        1 << 20, 1 << 20, 1);
    assertThat(huge.coordinatorHeapBytes(2)).isEqualTo((64L << 20) + (Long.MAX_VALUE - (64L << 20) + 1) / 2);
    // A quarter of the heap: 4 members hold a quarter each plus the base, 5 members a fifth.
    assertThat(huge.membersNeeded(Long.MAX_VALUE / 4, Long.MAX_VALUE / 4)).isEqualTo(OptionalInt.of(5));
  }

  @Test
  void shouldRefuseGroupsThatCannotHoldTheHosts() {
    assertThatThrownBy(() -> new MemberHeapEstimate(RUN, 100, 3, 32)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("member heap estimate: 3 groups of at most 32 hosts cannot hold 100 hosts");
  }
}
