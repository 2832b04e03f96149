package io.fabemu.core.rings;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabemu.core.topology.LinkSpec;
import io.fabemu.core.topology.PrismSpec;
import io.fabemu.core.topology.Topologies;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class PrismRingsTest {

  private static final LinkSpec LINK = new LinkSpec(100_000_000_000L, 100_000);

  private static PrismSpec prism(int perLayer, int layers) {
    return new PrismSpec(perLayer, layers, LINK, LINK);
  }

  @Test
  void shouldSnakeUpTheOppositeFaceAndComeBackDownTheEdgeWhenThePrismIsTriangular() {
    // Hosts: layer * 3 + position. Ring of edge 0: up the face of positions 1 and 2, down edge 0.
    PrismSpec p = prism(3, 4);
    assertThat(PrismRings.faceRing(p, 0)).containsExactly(1, 2, 5, 4, 7, 8, 11, 10, 9, 6, 3, 0);
    assertThat(PrismRings.faceRing(p, 2)).containsExactly(0, 1, 4, 3, 6, 7, 10, 9, 11, 8, 5, 2);
  }

  @Test
  void shouldGiveTheSeedsThreeRingsAndTheirReversesArcDisjointWhenThePrismIsTriangular() {
    PrismSpec p = prism(3, 8);
    List<List<Integer>> rings = PrismRings.faceRule(p);
    assertThat(rings).hasSize(6);
    assertThat(rings.subList(0, 3)).containsExactly(PrismRings.faceRing(p, 0), PrismRings.faceRing(p, 1),
        PrismRings.faceRing(p, 2));
    assertThat(rings.get(3)).isEqualTo(PrismRings.reversed(rings.get(0)));
    RingCheck.Result check = RingCheck.check(HostGraph.of(p.build()), rings);
    assertThat(check.errors()).isEmpty();
    assertThat(check.arcDisjoint()).isTrue();
    assertThat(check.maxSharing()).isEqualTo(1);
  }

  @ParameterizedTest
  @CsvSource({"3, 2, 6", "3, 5, 6", "4, 2, 8", "4, 7, 8", "5, 2, 5", "5, 3, 5", "6, 4, 6"})
  void shouldGiveOneRingPerEdgeAndTheReversesOnlyWhileArcDisjoint(int perLayer, int layers, int expected) {
    PrismSpec p = prism(perLayer, layers);
    List<List<Integer>> rings = PrismRings.faceRule(p);
    assertThat(rings).hasSize(expected);
    RingCheck.Result check = RingCheck.check(HostGraph.of(p.build()), rings);
    assertThat(check.valid()).isTrue();
    // From 5 per layer on, the N - 2 rings walking an intra-layer pair the same way exceed its 2 links.
    assertThat(check.arcDisjoint()).isEqualTo(perLayer <= 4);
  }

  @Test
  void shouldShareIntraLayerArcsThreeRingsOnTwoLinksWhenFivePerLayer() {
    PrismSpec p = prism(5, 3);
    RingCheck.Result check = RingCheck.check(HostGraph.of(p.build()), PrismRings.faceRule(p));
    // The middle layer's 5 pairs, walked backwards by 3 rings each, have 2 links; each end layer's 5 pairs, walked
    // forwards by 4 rings (3 walking it, 1 entering or leaving its edge), have 3: 15 shared arc pairs.
    assertThat(check.sharedArcs()).isEqualTo(15);
    assertThat(check.maxSharing()).isEqualTo(2);
    assertThat(check.warnings()).contains("host 6 -> host 5 is used by 3 rings [2, 3, 4] but has 2 links: up to 2"
        + " rings share one link's bandwidth");
  }

  @Test
  void shouldRefuseAnEdgeOutsideTheLayer() {
    assertThatThrownBy(() -> PrismRings.faceRing(prism(3, 2), 3)).hasMessage("edge 3 is not in 0..2");
  }

  @Test
  void shouldCheckRingsOnAnyTopologyWhenTheyComeFromAnotherBuilder() {
    HostGraph ring = HostGraph.of(Topologies.ring(4, LINK));
    assertThat(RingCheck.check(ring, List.of(List.of(0, 1, 2, 3), List.of(3, 2, 1, 0))).arcDisjoint()).isTrue();
  }
}
