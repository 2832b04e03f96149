package io.fabemu.core.topology;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabemu.core.topology.FatTreeSpec.ShapeProblem;
import io.fabemu.core.topology.Topology.Tier;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The three-tier fat-tree's numbering, tiers, cabling and refusals. */
class FatTreeSpecTest {
  private static final LinkSpec HOST_LINK = new LinkSpec(200_000_000_000L, 300_000L);
  private static final LinkSpec LEAF_LINK = new LinkSpec(400_000_000_000L, 500_000L);
  private static final LinkSpec CORE_LINK = new LinkSpec(400_000_000_000L, 700_000L);

  /** 4 pods x 2 leaves x 4 hosts, 2 aggregations per pod, 4 cores: the example's shape. */
  static FatTreeSpec example() {
    return FatTreeSpec.builder().pods(4).leavesPerPod(2).aggregationsPerPod(2).cores(4).hostsPerLeaf(4)
        .hostLink(HOST_LINK).leafLink(LEAF_LINK).coreLink(CORE_LINK).build();
  }

  private static List<Integer> neighbours(Topology t, int vertex) {
    List<Integer> out = new ArrayList<>();
    for (int p = 0; p < t.portCount(vertex); p++) out.add(t.neighbour(vertex, p));
    return out;
  }

  @Test
  void shouldNumberHostsThenLeavesThenAggregationsThenCores() {
    Topology t = example().build();
    // 32 hosts, 8 leaves (32..39), 8 aggregations (40..47), 4 cores (48..51).
    assertThat(t.hostCount()).isEqualTo(32);
    assertThat(t.vertexCount()).isEqualTo(52);
    assertThat(t.vertex(31).name()).isEqualTo("host31");
    assertThat(t.vertex(32).name()).isEqualTo("leaf0");
    assertThat(t.vertex(40).name()).isEqualTo("agg0");
    assertThat(t.vertex(48).name()).isEqualTo("core0");
    assertThat(t.tier(0)).isEqualTo(Tier.HOST);
    assertThat(t.tier(39)).isEqualTo(Tier.TOR);
    assertThat(t.tier(40)).isEqualTo(Tier.AGGREGATION);
    assertThat(t.tier(51)).isEqualTo(Tier.SPINE);
    // host (pod * L + leaf) * H + i: host 13 is host 1 of leaf 1 of pod 1 (leaf3), its TOR.
    assertThat(t.torOf(13)).isEqualTo(32 + 3);
    assertThat(t.description()).isEqualTo("fat-tree: 4 pods x 2 leaves x 4 hosts (32 hosts), 2 aggregations per pod,"
        + " 4 cores");
  }

  @Test
  void shouldCableEveryLeafToItsPodsAggregationsAndEachAggregationToItsShareOfCores() {
    Topology t = example().build();
    // leaf3 (pod 1): its hosts 12..15, then pod 1's aggregations agg2, agg3.
    assertThat(neighbours(t, 35)).containsExactly(12, 13, 14, 15, 42, 43);
    // agg3 (pod 1, j = 1): pod 1's leaves, then cores 2 and 3 (j*C/A .. (j+1)*C/A-1).
    assertThat(neighbours(t, 43)).containsExactly(34, 35, 50, 51);
    // core2: aggregation j = 1 of every pod.
    assertThat(neighbours(t, 50)).containsExactly(41, 43, 45, 47);
    assertThat(t.ports(35).get(4).spec()).isEqualTo(LEAF_LINK);
    assertThat(t.ports(43).get(2).spec()).isEqualTo(CORE_LINK);
    assertThat(t.ports(12).get(0).spec()).isEqualTo(HOST_LINK);
    assertThat(t.links()).hasSize(2 * (32 + 8 * 2 + 4 * 4));
  }

  @Test
  void shouldHaveNoParallelLinksAndEveryPortListInNeighbourOrder() {
    Topology t = example().toBuilder().pods(3).leavesPerPod(3).aggregationsPerPod(3).cores(6).build().build();
    for (int v = 0; v < t.vertexCount(); v++) {
      Set<Integer> seen = new HashSet<>();
      int previous = -1;
      for (int n : neighbours(t, v)) {
        assertThat(seen.add(n)).as("vertex %d: a second cable to %d", v, n).isTrue();
        assertThat(n).as("vertex %d: neighbours in order", v).isGreaterThan(previous);
        previous = n;
      }
    }
  }

  @Test
  void shouldBuildATwoTierTreeWhenOnePodHasNoCores() {
    FatTreeSpec twoTier = example().toBuilder().pods(1).cores(0).coreLink(null).build();
    Topology t = twoTier.build();
    assertThat(t.vertexCount()).isEqualTo(8 + 2 + 2);
    assertThat(twoTier.shapeProblem()).isEmpty();
  }

  @Test
  void shouldNameTheKeyOfEveryRuleAcrossTheComponents() {
    assertThat(example().toBuilder().cores(3).build().shapeProblem()).contains(new ShapeProblem("cores",
        "3 is not a multiple of aggregations-per-pod (2): aggregation j of every pod links to cores j*C/A .."
            + " (j+1)*C/A-1"));
    assertThat(example().toBuilder().cores(0).build().shapeProblem()).hasValueSatisfying(p -> {
      assertThat(p.key()).isEqualTo("cores");
      assertThat(p.reason()).startsWith("must be at least 1 with 4 pods");
    });
    assertThat(example().toBuilder().pods(1 << 20).leavesPerPod(1 << 10).build().shapeProblem())
        .hasValueSatisfying(p -> assertThat(p.key()).isEqualTo("pods"));
    assertThatThrownBy(() -> example().toBuilder().cores(5).build().build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("fat-tree cores: 5 is not a multiple of aggregations-per-pod (2)");
  }

  @Test
  void shouldRefuseAComponentOutOfRangeWhenBuilt() {
    assertThatThrownBy(() -> example().toBuilder().pods(0).build())
        .hasMessage("fat-tree needs pods >= 1, got 0");
    assertThatThrownBy(() -> example().toBuilder().aggregationsPerPod(0).build())
        .hasMessage("fat-tree needs aggregations-per-pod >= 1, got 0");
    assertThatThrownBy(() -> example().toBuilder().cores(-1).build()).hasMessage("fat-tree needs cores >= 0, got -1");
    assertThatThrownBy(() -> example().toBuilder().leafLink(null).build())
        .hasMessage("fat-tree needs a leaf-link spec, got none");
    assertThatThrownBy(() -> example().toBuilder().coreLink(null).build())
        .hasMessage("fat-tree needs a core-link spec, got none");
  }

  @Test
  void shouldKeepEveryComponentThroughTheBuilder() {
    FatTreeSpec spec = example();
    assertThat(spec.toBuilder().build()).isEqualTo(spec);
    assertThat(spec).isEqualTo(new FatTreeSpec(4, 2, 2, 4, 4, HOST_LINK, LEAF_LINK, CORE_LINK));
    assertThat(spec.hosts()).isEqualTo(32);
    assertThat(spec.coresPerAggregation()).isEqualTo(2);
    assertThat(spec.configName()).isEqualTo("fat-tree");
  }
}
