package io.fabemu.app.report;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabemu.core.topology.FatTreeSpec;
import io.fabemu.core.topology.LinkSpec;
import io.fabemu.core.topology.Topology;
import org.junit.jupiter.api.Test;

/** The tiers the link sections show, the fat-tree's three switch tiers among them, and their order. */
class LinkTiersTest {
  private static final LinkSpec LINK = new LinkSpec(100_000_000_000L, 500_000L);

  @Test
  void shouldShowAFatTreesAggregationsBetweenItsLeavesAndItsCores() {
    // 2 pods x 1 leaf x 2 hosts, 1 aggregation per pod, 1 core: hosts 0..3, leaves 4, 5, aggregations 6, 7, core 8.
    Topology fatTree = new FatTreeSpec(2, 1, 1, 1, 2, LINK, LINK, LINK).build();
    LinkTiers tiers = new LinkTiers(fatTree);
    assertThat(tiers.tier(0)).isEqualTo("host");
    assertThat(tiers.tier(4)).isEqualTo("tor");
    assertThat(tiers.tier(6)).isEqualTo("aggregation");
    assertThat(tiers.tier(8)).isEqualTo("spine");
    assertThat(tiers.tier(9)).isEqualTo("node");
    assertThat(tiers.name(7)).isEqualTo("agg1");
    assertThat(LinkTiers.order("tor")).isLessThan(LinkTiers.order("aggregation"));
    assertThat(LinkTiers.order("aggregation")).isLessThan(LinkTiers.order("spine"));
  }

  @Test
  void shouldNameDevicesByIdWithoutATopology() {
    LinkTiers tiers = new LinkTiers(null);
    assertThat(tiers.name(7)).isEqualTo("device7");
    assertThat(tiers.tier(7)).isEqualTo("device");
    assertThat(LinkTiers.order("unknown")).isGreaterThan(LinkTiers.order("device"));
  }
}
