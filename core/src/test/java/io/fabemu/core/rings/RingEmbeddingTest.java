package io.fabemu.core.rings;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabemu.core.rings.RingEmbedding.Source;
import io.fabemu.core.topology.LeafSpineSpec;
import io.fabemu.core.topology.LinkSpec;
import io.fabemu.core.topology.PrismSpec;
import io.fabemu.core.topology.RingSpec;
import io.fabemu.core.topology.TopologySpec;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Resolving a ring embedding: the sources, the summary and warnings users see, and why rings are refused. */
class RingEmbeddingTest {
  private static final LinkSpec LINK = new LinkSpec(100_000_000_000L, 100_000);
  private static final long STEPS = 2_000_000;
  /** The triangular prism of two layers: hosts 0, 1, 2 below 3, 4, 5 (host 0 under host 3). */
  private static final PrismSpec PRISM_3X2 = new PrismSpec(3, 2, LINK, LINK);
  /** A Hamiltonian ring of PRISM_3X2: along layer 0, up edge 2, back along layer 1, down edge 0. */
  private static final List<Integer> SNAKE = List.of(0, 1, 2, 5, 4, 3);

  private static RingEmbedding resolve(TopologySpec spec, Source source, List<List<Integer>> listed, long steps,
                                       int maxRings) {
    return RingEmbedding.resolve(spec, spec.build(), source, listed, steps, maxRings);
  }

  private static RingEmbedding resolve(TopologySpec spec, Source source) {
    return resolve(spec, source, List.of(), STEPS, 0);
  }

  private static RingEmbedding listed(TopologySpec spec, List<List<Integer>> rings) {
    return resolve(spec, Source.LISTED, rings, STEPS, 0);
  }

  // ------------------------------------------------------------------------------ sources

  @Test
  void shouldTakeTheFaceRuleOnAPrismWhenAuto() {
    PrismSpec prism = new PrismSpec(3, 8, LINK, LINK);
    RingEmbedding rings = resolve(prism, Source.AUTO);
    assertThat(rings.source()).isEqualTo(Source.FACE_RULE);
    assertThat(rings.rings()).isEqualTo(PrismRings.faceRule(prism)).hasSize(6);
    assertThat(rings.summary()).isEqualTo("6 directed rings of 24 hosts from the face rule, arc-disjoint");
    assertThat(rings.warnings()).isEmpty();
    assertThat(resolve(prism, Source.FACE_RULE)).isEqualTo(rings);
  }

  @Test
  void shouldSearchOffAPrismWhenAuto() {
    RingEmbedding rings = resolve(new RingSpec(5, LINK), Source.AUTO);
    assertThat(rings.source()).isEqualTo(Source.SEARCH);
    assertThat(rings.rings()).containsExactly(List.of(0, 1, 2, 3, 4), List.of(0, 4, 3, 2, 1));
    assertThat(rings.summary()).isEqualTo("2 directed rings of 5 hosts from the search: 2 arc-disjoint directed "
        + "Hamiltonian rings (the upper bound: the fewest links leaving a host), arc-disjoint");
  }

  @Test
  void shouldSearchAPrismWhenAskedAndFindItsMaximum() {
    RingEmbedding rings = resolve(PRISM_3X2, Source.SEARCH);
    assertThat(rings.source()).isEqualTo(Source.SEARCH);
    assertThat(rings.rings()).hasSize(6);
    assertThat(RingCheck.check(HostGraph.of(PRISM_3X2.build()), rings.rings()).arcDisjoint()).isTrue();
    assertThat(rings.summary()).startsWith("6 directed rings of 6 hosts from the search: 6 arc-disjoint directed "
        + "Hamiltonian rings (the maximum: every set was tried in ").endsWith(" steps), arc-disjoint");
  }

  @Test
  void shouldStopTheSearchAtMaxRings() {
    RingEmbedding one = resolve(PRISM_3X2, Source.SEARCH, List.of(), STEPS, 1);
    assertThat(one.rings()).hasSize(1);
    assertThat(one.summary()).isEqualTo("1 directed ring of 6 hosts from the search: 1 arc-disjoint directed "
        + "Hamiltonian ring (the upper bound: the fewest links leaving a host), arc-disjoint");
  }

  @Test
  void shouldRefuseWhenTheStepLimitEndsTheSearchBeforeAnyRing() {
    assertThatThrownBy(() -> resolve(PRISM_3X2, Source.SEARCH, List.of(), 3, 0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("no directed Hamiltonian ring found within the step limit (3 steps); list the rings in the "
            + "scenario or raise the limit");
  }

  @Test
  void shouldSayWhyNoRingIsPossibleWhenHostsHaveNoHostToHostLinks() {
    assertThatThrownBy(() -> resolve(new LeafSpineSpec(8, 4, 2, LINK, LINK), Source.AUTO))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("no ring is possible: a host has no direct link to another host (rings run on host-to-host "
            + "links, never through a switch), as on leaf-spine; use a topology that cables hosts to each other "
            + "(prism, ring, full-mesh)");
  }

  @Test
  void shouldRefuseTheFaceRuleOffAPrism() {
    assertThatThrownBy(() -> resolve(new RingSpec(6, LINK), Source.FACE_RULE))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("the face rule needs a prism; this topology is ring (use source = search or list the rings)");
  }

  @Test
  void shouldRefuseMoreHostsThanTheLimitButTakeTheLimit() {
    assertThatThrownBy(() -> resolve(new PrismSpec(64, 65, LINK, LINK), Source.AUTO))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("ring embedding is limited to 4096 hosts; this topology has 4160");
    RingEmbedding atTheLimit = resolve(new RingSpec(RingEmbedding.MAX_HOSTS, LINK), Source.AUTO);
    assertThat(atTheLimit.rings()).hasSize(2);
    assertThat(atTheLimit.rings().get(0)).hasSize(4096);
  }

  // ------------------------------------------------------------------------------ listed rings

  @Test
  void shouldTakeListedRingsAsGiven() {
    RingEmbedding rings = listed(PRISM_3X2, List.of(SNAKE, PrismRings.reversed(SNAKE)));
    assertThat(rings.source()).isEqualTo(Source.LISTED);
    assertThat(rings.rings()).containsExactly(SNAKE, List.of(3, 4, 5, 2, 1, 0));
    assertThat(rings.summary()).isEqualTo("2 directed rings of 6 hosts from the scenario's list, arc-disjoint");
    assertThat(rings.warnings()).isEmpty();
  }

  @Test
  void shouldRefuseAnEmptyListOrABadRingWithTheFirstReason() {
    assertThatThrownBy(() -> listed(PRISM_3X2, List.of()))
        .hasMessage("source = listed, but no ring is listed");
    assertThatThrownBy(() -> listed(PRISM_3X2, List.of(SNAKE, List.of(0, 1, 2, 5, 4))))
        .hasMessage("ring 1 has 5 hosts, but a ring must visit all 6 hosts once");
    assertThatThrownBy(() -> listed(PRISM_3X2, List.of(List.of(0, 1, 2, 5, 5, 3))))
        .hasMessage("ring 0 visits host 5 twice");
    assertThatThrownBy(() -> listed(PRISM_3X2, List.of(List.of(0, 1, 2, 3, 4, 5), List.of(0, 1, 2, 5, 5, 3))))
        .hasMessage("ring 0 hops from host 2 to host 3, which no link joins");
    assertThatThrownBy(() -> listed(PRISM_3X2, List.of(List.of(0, 1, 2, 5, 4, 9))))
        .hasMessage("ring 0 names host 9, not in 0..5");
  }

  @Test
  void shouldWarnOncePerSharedHopThenSummarizeTheWorstSharing() {
    // Three rings on the 2 inter-layer links 2 -> 5; 3 -> 0 carries only two of them.
    List<Integer> other = List.of(0, 2, 5, 3, 4, 1);
    List<Integer> rotated = List.of(1, 2, 5, 4, 3, 0);
    RingEmbedding one = listed(PRISM_3X2, List.of(SNAKE, other, rotated));
    assertThat(one.summary()).isEqualTo("3 directed rings of 6 hosts from the scenario's list, sharing links");
    assertThat(one.warnings()).containsExactly(
        "host 2 -> host 5 is used by 3 rings [0, 1, 2] but has 2 links: up to 2 rings share one link's bandwidth",
        "1 hop carries more rings than links; the worst link carries 2 rings, each at 1/2 of its rate there");

    // Five copies: the intra-layer hops (3 links in the end layers) share too, the inter-layer ones (2) worst.
    List<List<Integer>> five = new ArrayList<>();
    for (int i = 0; i < 5; i++) five.add(SNAKE);
    RingEmbedding many = listed(PRISM_3X2, five);
    assertThat(many.warnings()).hasSize(7).last()
        .isEqualTo("6 hops carry more rings than links; the worst link carries 3 rings, each at 1/3 of its rate "
            + "there");
    assertThat(many.warnings().get(0)).isEqualTo("host 0 -> host 1 is used by 5 rings [0, 1, 2, 3, 4] but has 3 "
        + "links: up to 2 rings share one link's bandwidth");
  }

  @Test
  void shouldLoadTheFaceRuleOnFivePerLayerSharingTheIntraLayerLinks() {
    RingEmbedding rings = resolve(new PrismSpec(5, 2, LINK, LINK), Source.AUTO);
    assertThat(rings.rings()).hasSize(5);
    assertThat(rings.summary()).isEqualTo("5 directed rings of 10 hosts from the face rule, sharing links");
    assertThat(rings.warnings()).isNotEmpty();
    // Every shared hop is an intra-layer one: the inter-layer hops carry at most their two links' worth.
    for (String warning : rings.warnings().subList(0, rings.warnings().size() - 1)) {
      String[] hosts = warning.replaceAll("^host (\\d+) -> host (\\d+) .*$", "$1 $2").split(" ");
      assertThat(Integer.parseInt(hosts[0]) / 5).as(warning).isEqualTo(Integer.parseInt(hosts[1]) / 5);
    }
  }

  // ------------------------------------------------------------------------------ the record

  @Test
  void shouldCopyTheRingsAndWarnings() {
    List<Integer> ring = new ArrayList<>(SNAKE);
    List<List<Integer>> rings = new ArrayList<>(List.of(ring));
    List<String> warnings = new ArrayList<>(List.of("w"));
    RingEmbedding embedding = new RingEmbedding(Source.LISTED, rings, "s", warnings);
    ring.set(0, 9);
    rings.add(SNAKE);
    warnings.clear();
    assertThat(embedding.rings()).containsExactly(SNAKE);
    assertThat(embedding.warnings()).containsExactly("w");
  }

  @Test
  void shouldNameEachSourceAsScenariosWriteIt() {
    assertThat(Source.FACE_RULE.configName()).isEqualTo("face-rule");
    for (Source s : Source.values()) assertThat(Source.fromConfigName(s.configName())).isEqualTo(s);
    assertThat(Source.fromConfigName("face_rule")).isNull();
    assertThat(Source.fromConfigName("AUTO")).isNull();
  }
}
