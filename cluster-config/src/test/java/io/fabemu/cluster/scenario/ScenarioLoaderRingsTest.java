package io.fabemu.cluster.scenario;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.typesafe.config.ConfigRenderOptions;
import io.fabemu.core.rings.PrismRings;
import io.fabemu.core.rings.RingEmbedding;
import io.fabemu.core.topology.LinkSpec;
import io.fabemu.core.topology.PrismSpec;
import java.util.List;
import org.assertj.core.api.AbstractThrowableAssert;
import org.junit.jupiter.api.Test;

/** The {@code rings} section: when it is resolved, its sources, the listed rings, and its one-line errors. */
class ScenarioLoaderRingsTest {
  private static final LinkSpec DEFAULT_LINK = new LinkSpec(100_000_000_000L, 100_000L);
  /** The triangular prism of two layers: hosts 0, 1, 2 below 3, 4, 5 (host 0 under host 3). */
  private static final String PRISM_3X2 = "topology { kind = prism, layers = 2 }\n";
  private static final String MULTI_RING = "workload.algorithms = [multi-ring]\n";
  /** A Hamiltonian ring of PRISM_3X2: along layer 0, up edge 2, back along layer 1, down edge 0. */
  private static final List<Integer> SNAKE = List.of(0, 1, 2, 5, 4, 3);

  private static LoadedScenario parse(String text) {
    return ScenarioLoader.parse(text, "x.conf");
  }

  private static RingEmbedding rings(String text) {
    return parse(text).spec().rings();
  }

  /** An error, checked to be one line that starts with the file (and the line, where the user wrote one). */
  private static AbstractThrowableAssert<?, ? extends Throwable> assertError(String text) {
    return assertThatThrownBy(() -> parse(text)).isInstanceOf(ScenarioException.class)
        .satisfies(e -> assertThat(e.getMessage()).doesNotContain("\n").startsWith("x.conf:"));
  }

  // ------------------------------------------------------------------------------ when the rings are resolved

  @Test
  void shouldUseTheFaceRuleByDefaultForMultiRingOnAPrism() {
    LoadedScenario loaded = parse("topology.kind = prism\n" + MULTI_RING);
    RingEmbedding rings = loaded.spec().rings();

    PrismSpec prism = new PrismSpec(3, 8, DEFAULT_LINK, DEFAULT_LINK);
    assertThat(rings.source()).isEqualTo(RingEmbedding.Source.FACE_RULE);
    assertThat(rings.rings()).hasSize(6).isEqualTo(PrismRings.faceRule(prism));
    assertThat(rings.rings().get(0)).hasSize(24);
    assertThat(rings.summary()).isEqualTo("6 directed rings of 24 hosts from the face rule, arc-disjoint");
    assertThat(rings.warnings()).isEmpty();
    // The echo keeps the section as written (here: the defaults), so it reloads to the same rings.
    assertThat(loaded.config().getString("rings.source")).isEqualTo("auto");
    String echoed = loaded.config().root().render(ConfigRenderOptions.concise());
    assertThat(rings(echoed)).isEqualTo(rings);
  }

  @Test
  void shouldResolveTheRingsForEveryEmbeddedRingAlgorithm() {
    for (String algorithm : List.of("single-ring", "bidirectional-ring", "line", "line-both-ends")) {
      assertThat(rings(PRISM_3X2 + "workload.algorithms = [ring, " + algorithm + "]\n").source())
          .as(algorithm).isEqualTo(RingEmbedding.Source.FACE_RULE);
    }
  }

  @Test
  void shouldLeaveTheRingsOutWithoutTheSectionOrARingAlgorithm() {
    LoadedScenario prism = parse("topology.kind = prism\nworkload.algorithms = [ring, recursive-doubling]\n");
    assertThat(prism.spec().rings()).isNull();
    assertThat(prism.config().hasPath("rings")).isFalse();
    LoadedScenario leafSpine = parse("name = plain\n");
    assertThat(leafSpine.spec().rings()).isNull();
    assertThat(leafSpine.config().hasPath("rings")).isFalse();
  }

  @Test
  void shouldResolveAWrittenSectionEvenWithoutARingAlgorithm() {
    RingEmbedding rings = rings(PRISM_3X2 + "rings.source = face-rule\n");
    assertThat(rings.source()).isEqualTo(RingEmbedding.Source.FACE_RULE);
    assertThat(rings.rings()).hasSize(6);
  }

  // ------------------------------------------------------------------------------ listed rings

  @Test
  void shouldAcceptListedRingsByIndex() {
    RingEmbedding rings = rings(PRISM_3X2 + MULTI_RING + """
        rings {
          source = listed
          listed = [[0, 1, 2, 5, 4, 3], [3, 4, 5, 2, 1, 0]]
        }
        """);
    assertThat(rings.source()).isEqualTo(RingEmbedding.Source.LISTED);
    assertThat(rings.rings()).containsExactly(SNAKE, PrismRings.reversed(SNAKE));
    assertThat(rings.summary()).isEqualTo("2 directed rings of 6 hosts from the scenario's list, arc-disjoint");
    assertThat(rings.warnings()).isEmpty();
  }

  @Test
  void shouldAcceptListedRingsByNameAndMixed() {
    RingEmbedding rings = rings(PRISM_3X2 + MULTI_RING + """
        rings {
          source = listed
          listed = [["host0", "host1", "host2", "host5", "host4", "host3"], [3, "host4", 5, 2, " host1 ", 0]]
        }
        """);
    assertThat(rings.rings()).containsExactly(SNAKE, PrismRings.reversed(SNAKE));
  }

  @Test
  void shouldRefuseAListedRingThatMissesAHost() {
    assertError(PRISM_3X2 + MULTI_RING + "rings {\n  source = listed\n  listed = [[0, 1, 2, 5, 4]]\n}\n")
        .hasMessage("x.conf:5: rings.listed: ring 0 has 5 hosts, but a ring must visit all 6 hosts once");
  }

  @Test
  void shouldRefuseAListedRingThatRepeatsAHost() {
    assertError(PRISM_3X2 + MULTI_RING + "rings {\n  source = listed\n  listed = [[0, 1, 2, 5, 4, 3], "
        + "[0, 1, 2, 5, 4, 4]]\n}\n")
        .hasMessage("x.conf:5: rings.listed: ring 1 visits host 4 twice");
  }

  @Test
  void shouldRefuseAListedRingThatHopsWhereNoLinkIs() {
    // Host 2 (layer 0, position 2) and host 3 (layer 1, position 0) are not neighbours.
    assertError(PRISM_3X2 + MULTI_RING + "rings {\n  source = listed\n  listed = [[0, 1, 2, 3, 4, 5]]\n}\n")
        .hasMessage("x.conf:5: rings.listed: ring 0 hops from host 2 to host 3, which no link joins");
  }

  @Test
  void shouldRefuseAListedHostThatIsNoHost() {
    assertError(PRISM_3X2 + "rings {\n  source = listed\n  listed = [[0, 1, 2, 5, 4, 6]]\n}\n")
        .hasMessage("x.conf:4: rings.listed[0][5]: 6 is above the limit of 5");
    assertError(PRISM_3X2 + "rings {\n  source = listed\n  listed = [[0, 1, 2, 5, 4, \"host9\"]]\n}\n")
        .hasMessage("x.conf:4: rings.listed[0][5]: 'host9' is not a host of this topology (host0..host5)");
    assertError(PRISM_3X2 + "rings {\n  source = listed\n  listed = [0, 1, 2]\n}\n")
        .hasMessage("x.conf:4: rings.listed[0]: expected a ring: a list of hosts such as [0, 1, 4, 3], got 0");
  }

  @Test
  void shouldRefuseSourceListedWithoutRings() {
    assertError(PRISM_3X2 + "rings.source = listed\n")
        .hasMessage("x.conf:2: rings.source: source = listed, but no ring is listed");
  }

  @Test
  void shouldLoadListedRingsThatShareLinksWithAWarningPerSharedHop() {
    // Three copies of one ring: the intra-layer hops have 3 links each (end layers), the inter-layer ones only 2.
    RingEmbedding rings = rings(PRISM_3X2 + MULTI_RING + """
        rings {
          source = listed
          listed = [[0, 1, 2, 5, 4, 3], [0, 1, 2, 5, 4, 3], [0, 1, 2, 5, 4, 3]]
        }
        """);
    assertThat(rings.rings()).containsExactly(SNAKE, SNAKE, SNAKE);
    assertThat(rings.summary()).isEqualTo("3 directed rings of 6 hosts from the scenario's list, sharing links");
    assertThat(rings.warnings()).containsExactly(
        "host 2 -> host 5 is used by 3 rings [0, 1, 2] but has 2 links: up to 2 rings share one link's bandwidth",
        "host 3 -> host 0 is used by 3 rings [0, 1, 2] but has 2 links: up to 2 rings share one link's bandwidth",
        "2 hops carry more rings than links; the worst link carries 2 rings, each at 1/2 of its rate there");
  }

  @Test
  void shouldLoadTheFaceRuleOnFivePerLayerWithWarnings() {
    RingEmbedding rings = rings("topology { kind = prism, nodes-per-layer = 5, layers = 4 }\n" + MULTI_RING);
    assertThat(rings.source()).isEqualTo(RingEmbedding.Source.FACE_RULE);
    assertThat(rings.rings()).hasSize(5);
    assertThat(rings.summary()).isEqualTo("5 directed rings of 20 hosts from the face rule, sharing links");
    assertThat(rings.warnings()).isNotEmpty();
    assertThat(rings.warnings().get(rings.warnings().size() - 1))
        .matches("\\d+ hops carry more rings than links; the worst link carries \\d+ rings, each at 1/\\d+ of its "
            + "rate there");
  }

  @Test
  void shouldRefuseListedRingsUnlessTheSourceIsListed() {
    assertError(PRISM_3X2 + "rings {\n  source = search\n  listed = [[0, 1, 2, 5, 4, 3]]\n}\n")
        .hasMessage("x.conf:4: rings.listed: lists rings, but source is search (set source = listed to use them)");
    assertError(PRISM_3X2 + "rings.listed = [[0, 1, 2, 5, 4, 3]]\n")
        .hasMessage("x.conf:2: rings.listed: lists rings, but source is auto (set source = listed to use them)");
  }

  // ------------------------------------------------------------------------------ sources

  @Test
  void shouldRefuseTheFaceRuleOffAPrism() {
    assertError("topology { kind = ring, hosts = 6 }\nrings.source = face-rule\n")
        .hasMessage("x.conf:2: rings.source: the face rule needs a prism; this topology is ring (use source = "
            + "search or list the rings)");
  }

  @Test
  void shouldSearchARingTopologyByDefault() {
    RingEmbedding rings = rings("topology { kind = ring, hosts = 5 }\n" + MULTI_RING);
    assertThat(rings.source()).isEqualTo(RingEmbedding.Source.SEARCH);
    // The two directions of the ring: each host has one link to each neighbour.
    assertThat(rings.rings()).containsExactly(List.of(0, 1, 2, 3, 4), List.of(0, 4, 3, 2, 1));
    assertThat(rings.summary()).isEqualTo("2 directed rings of 5 hosts from the search: 2 arc-disjoint directed "
        + "Hamiltonian rings (the upper bound: the fewest links leaving a host), arc-disjoint");
  }

  @Test
  void shouldSearchAFullMesh() {
    RingEmbedding rings = rings("topology { kind = full-mesh, hosts = 5 }\n" + MULTI_RING
        + "rings.source = search\n");
    assertThat(rings.source()).isEqualTo(RingEmbedding.Source.SEARCH);
    // The complete digraph on 5 hosts splits into 4 arc-disjoint Hamiltonian rings.
    assertThat(rings.rings()).hasSize(4);
    assertThat(rings.warnings()).isEmpty();
    assertThat(rings.summary()).endsWith(", arc-disjoint");
  }

  @Test
  void shouldSearchAFullMeshOfSixToItsMaximumOfFour() {
    // The complete digraph on 6 hosts has no split into 5 Hamiltonian rings (Tillson): the search proves 4 best.
    RingEmbedding rings = rings("topology { kind = full-mesh, hosts = 6 }\n" + MULTI_RING);
    assertThat(rings.source()).isEqualTo(RingEmbedding.Source.SEARCH);
    assertThat(rings.rings()).hasSize(4);
    assertThat(rings.summary()).isEqualTo("4 directed rings of 6 hosts from the search: 4 arc-disjoint directed "
        + "Hamiltonian rings (the maximum: every set was tried in 60653 steps), arc-disjoint");
  }

  @Test
  void shouldHonourMaxRingsAndTheStepLimit() {
    RingEmbedding two = rings("topology { kind = full-mesh, hosts = 6 }\n" + MULTI_RING + "rings.max-rings = 2\n");
    assertThat(two.rings()).hasSize(2);
    assertError("topology { kind = full-mesh, hosts = 6 }\n" + MULTI_RING + "rings.search-steps = 0\n")
        .hasMessage("x.conf:3: rings.search-steps: must be at least 1, got 0");
    assertError("topology { kind = full-mesh, hosts = 6 }\n" + MULTI_RING + "rings.max-rings = 2000\n")
        .hasMessage("x.conf:3: rings.max-rings: 2000 is above the limit of 1024");
  }

  @Test
  void shouldRefuseASearchWhereNoRingIsPossible() {
    // Leaf-spine hosts reach each other only through switches: no host-to-host link at all.
    assertError("topology { kind = leaf-spine, hosts = 8 }\n" + MULTI_RING)
        .hasMessage("x.conf:2: workload.algorithms: multi-ring runs on embedded rings (rings.source = auto), but no "
            + "ring is possible: a host has no direct link to another host (rings run on host-to-host links, never "
            + "through a switch), as on leaf-spine; use a topology that cables hosts to each other (prism, ring, "
            + "full-mesh)");
    assertError("topology { kind = leaf-spine, hosts = 8 }\nrings.source = search\n")
        .hasMessageStartingWith("x.conf:2: rings.source: no ring is possible: ");
    // A line's end hosts have one neighbour: the search tries everything and finds nothing.
    assertError("topology { kind = line, hosts = 4 }\n" + MULTI_RING)
        .hasMessageStartingWith("x.conf:2: workload.algorithms: multi-ring runs on embedded rings (rings.source = "
            + "auto), but no directed Hamiltonian ring exists on this topology (searched all, ");
  }

  @Test
  void shouldRefuseABadSourceName() {
    assertError(PRISM_3X2 + "rings.source = face\n")
        .hasMessage("x.conf:2: rings.source: 'face' is not one of auto, face-rule, search, listed");
  }

  // ------------------------------------------------------------------------------ workload and size limits

  @Test
  void shouldRefuseMoreThanOneRankPerNode() {
    assertError(PRISM_3X2 + "workload {\n  algorithms = [multi-ring]\n  ppn = 2\n}\n")
        .hasMessage("x.conf:4: workload.ppn: multi-ring runs one rank per node on the embedded rings; set ppn = 1");
  }

  @Test
  void shouldRefuseHierarchical() {
    assertError(PRISM_3X2 + "workload {\n  algorithms = [single-ring]\n  hierarchical = true\n}\n")
        .hasMessageStartingWith("x.conf:4: workload.hierarchical: ");
  }

  @Test
  void shouldRefuseMoreHostsThanARingEmbeddingHolds() {
    assertError("topology { kind = prism, nodes-per-layer = 64, layers = 65 }\n" + MULTI_RING)
        .hasMessage("x.conf:2: workload.algorithms: multi-ring runs on embedded rings (rings.source = auto), but "
            + "ring embedding is limited to 4096 hosts; this topology has 4160");
    assertError("topology { kind = prism, nodes-per-layer = 64, layers = 65 }\nrings.source = face-rule\n")
        .hasMessage("x.conf:2: rings.source: ring embedding is limited to 4096 hosts; this topology has 4160");
  }

  @Test
  void shouldRefuseMoreRingsOnAHopThanLanes() {
    // The face rule on 18 per layer: the last layer's backward hop 17 -> 16 carries the 16 rings walking the layer
    // and ring 16 stepping over to its edge, one more than 4 lane bits tell apart.
    assertError("topology { kind = prism, nodes-per-layer = 18, layers = 2 }\n" + MULTI_RING)
        .hasMessage("x.conf:2: workload.algorithms: multi-ring runs on embedded rings (rings.source = auto), but "
            + "more than 16 rings use the hop host 35 -> host 34; rings sharing a hop are told apart by 4 tag bits");
    assertThat(rings("topology { kind = prism, nodes-per-layer = 17, layers = 2 }\n" + MULTI_RING).rings())
        .hasSize(17);
  }

  @Test
  void shouldCheckTheLanesOnlyWhenTheMultiRingAlgorithmRuns() {
    // single-ring and the line run on ring 0 alone (bidirectional-ring on it and its reverse): no hop has 17 rings.
    assertThat(rings("topology { kind = prism, nodes-per-layer = 18, layers = 2 }\n"
        + "workload.algorithms = [single-ring, bidirectional-ring, line]\n").rings()).hasSize(18);
  }

  @Test
  void shouldReadTheLinesFragmentCountAndRefuseOneOutOfRange() {
    assertThat(rings(PRISM_3X2 + MULTI_RING).lineFragments()).isZero();
    assertThat(rings(PRISM_3X2 + "workload.algorithms = [line]\nrings.line-fragments = 1024\n").lineFragments())
        .isEqualTo(1024);
    assertError(PRISM_3X2 + "workload.algorithms = [line]\nrings.line-fragments = 70000\n")
        .hasMessageStartingWith("x.conf:3: rings.line-fragments: ");
  }

  @Test
  void shouldPointAtTheKeyTheUserWroteWhenNothingNeedsTheRingsAndTheSourceIsTheDefault() {
    assertError("topology { kind = leaf-spine, hosts = 8 }\nrings { max-rings = 2 }\n")
        .hasMessageStartingWith("x.conf:2: rings.max-rings: ");
  }
}
