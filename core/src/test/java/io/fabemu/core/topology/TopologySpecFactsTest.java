package io.fabemu.core.topology;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabemu.core.optical.ConnectionFormula;
import io.fabemu.core.optical.OcsSpec;
import io.fabemu.core.topology.OpticalSpec.IntraServer;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The facts only some kinds have (the OCS settings, the connection policy, the optical cluster, the prism): each
 * kind that has one answers with its own, every other kind with the default, so no code outside core.topology
 * needs to test a spec's kind.
 */
class TopologySpecFactsTest {
  private static final LinkSpec LINK = new LinkSpec(100_000_000_000L, 1_000_000L);

  private static final List<TopologySpec> OTHER_KINDS = List.of(new LeafSpineSpec(64, 8, 4, LINK, LINK),
      new MeshSpec(4, 3, 1, LINK), new TorusSpec(3, 3, 3, LINK), new GroupRingSpec(3, 4, LINK),
      new FullMeshSpec(6, LINK), new LineSpec(5, LINK), new RingSpec(6, LINK),
      new FatTreeSpec(2, 2, 2, 2, 2, LINK, LINK, LINK));

  @Test
  void shouldAnswerTheOpticalClustersFactsWithItsOwn() {
    OcsSpec ocs = new OcsSpec(10_000_000_000L);
    OpticalSpec optical = new OpticalSpec(4, 4, IntraServer.SWITCH, LINK, LINK, ConnectionFormula.FORMULA_3, ocs);
    TopologySpec spec = optical;
    assertThat(spec.ocs()).isSameAs(ocs);
    assertThat(spec.ocs().setsUpDuringRun()).isTrue();
    assertThat(spec.connectionPolicy().map(p -> p.sameCircuits(optical.policy()))).contains(true);
    assertThat(spec.opticalCluster()).containsSame(optical);
    assertThat(spec.prism()).isEmpty();
  }

  @Test
  void shouldAnswerThePrismsFactWithItself() {
    PrismSpec prism = new PrismSpec(3, 2, LINK, LINK);
    TopologySpec spec = prism;
    assertThat(spec.prism()).containsSame(prism);
    assertThat(spec.opticalCluster()).isEmpty();
    assertThat(spec.connectionPolicy()).isEmpty();
    assertThat(spec.ocs()).isSameAs(OcsSpec.NONE);
  }

  @Test
  void shouldAnswerTheDefaultsForEveryOtherKind() {
    for (TopologySpec spec : OTHER_KINDS) {
      assertThat(spec.ocs()).as(spec.configName()).isSameAs(OcsSpec.NONE);
      assertThat(spec.ocs().setsUpDuringRun()).as(spec.configName()).isFalse();
      assertThat(spec.connectionPolicy()).as(spec.configName()).isEmpty();
      assertThat(spec.opticalCluster()).as(spec.configName()).isEmpty();
      assertThat(spec.prism()).as(spec.configName()).isEmpty();
    }
  }
}
