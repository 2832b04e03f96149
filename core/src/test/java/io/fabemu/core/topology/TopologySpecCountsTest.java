package io.fabemu.core.topology;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabemu.core.optical.ConnectionFormula;
import io.fabemu.core.topology.OpticalSpec.IntraServer;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The counts a spec gives without building its fabric (for the pre-flight estimate and placement), against the
 * fabric it builds where they are exact, and the kind's rough figures where they are not.
 */
class TopologySpecCountsTest {
  private static final LinkSpec LINK = new LinkSpec(100_000_000_000L, 1_000_000L);
  /** 6 servers of 4 rails, 3 servers per leaf (8 rail leaves), 2 spines; and the same with a server switch each. */
  private static final RailLeafSpineSpec RAIL = RailLeafSpineSpec.builder(6, 4, LINK).serversPerLeaf(3)
      .spines(2, LINK).build();
  private static final RailLeafSpineSpec RAIL_WITH_SERVER_SWITCHES = RailLeafSpineSpec.builder(6, 4, LINK)
      .serversPerLeaf(3).spines(2, LINK).serverSwitch(LINK).build();

  /** Switches and routers of a built fabric: its vertices that are not hosts. */
  private static long builtSwitches(Topology topology) {
    return topology.vertexCount() - topology.hostCount();
  }

  /** Cables of a built fabric: its links are directed, one each way. */
  private static long builtCables(Topology topology) {
    return topology.links().size() / 2;
  }

  @Test
  void shouldCountTheSwitchesOfEveryKindAsItsFabricHasThem() {
    List<TopologySpec> specs = List.of(new LeafSpineSpec(64, 8, 4, LINK, LINK), new LeafSpineSpec(20, 8, 2, LINK,
        LINK), new MeshSpec(4, 3, 1, LINK), new TorusSpec(3, 3, 3, LINK),
        new GroupRingSpec(3, 4, LINK), new FullMeshSpec(6, LINK), new LineSpec(5, LINK), new RingSpec(6, LINK),
        new PrismSpec(3, 2, LINK, LINK), new OpticalSpec(2, 2, IntraServer.FULL_MESH, LINK, LINK,
            ConnectionFormula.FORMULA_3), RAIL, RAIL_WITH_SERVER_SWITCHES, fatTree(4, 2, 2, 4, 4),
        fatTree(1, 3, 2, 0, 2));
    for (TopologySpec spec : specs) {
      Topology built = spec.build();
      if (spec instanceof OpticalSpec) {
        // The estimate counts a switch per server and the OCS, whichever the intra-server fabric.
        assertThat(spec.switchCount()).as(spec.toString()).isEqualTo(3);
      } else {
        assertThat(spec.switchCount()).as(spec.toString()).isEqualTo(builtSwitches(built));
      }
    }
  }

  @Test
  void shouldCountTheCablesExactlyWhereTheKindKnowsThemAndBoundThemElsewhere() {
    for (TopologySpec spec : List.of(new LeafSpineSpec(64, 8, 4, LINK, LINK), new LeafSpineSpec(20, 8, 2, LINK,
        LINK), new FullMeshSpec(6, LINK), RAIL, RAIL_WITH_SERVER_SWITCHES, fatTree(4, 2, 2, 4, 4),
        fatTree(3, 2, 3, 6, 1), fatTree(1, 3, 2, 0, 2))) {
      assertThat(spec.cableCount()).as(spec.toString()).isEqualTo(builtCables(spec.build()));
    }
    for (TopologySpec spec : List.of(new MeshSpec(4, 3, 1, LINK), new TorusSpec(3, 3, 3, LINK),
        new LineSpec(5, LINK), new RingSpec(6, LINK), new PrismSpec(3, 2, LINK, LINK))) {
      // Up to four per host and one per switch: an upper bound of what these kinds build.
      assertThat(spec.cableCount()).as(spec.toString()).isEqualTo(4L * spec.hosts() + spec.switchCount())
          .isGreaterThanOrEqualTo(builtCables(spec.build()));
    }
  }

  @Test
  void shouldCountASingleTorAsTheWholeFabric() {
    // Its spines carry nothing (every host is under the one TOR), so the estimate leaves them and their cables out.
    LeafSpineSpec oneTor = new LeafSpineSpec(8, 8, 2, LINK, LINK);
    assertThat(oneTor.switchCount()).isOne();
    assertThat(oneTor.cableCount()).isEqualTo(8);
    assertThat(builtSwitches(oneTor.build())).isEqualTo(3);
  }

  @Test
  void shouldGiveRouterHopsAndASaturationGuessOnlyOnRouterNetworks() {
    assertThat(new MeshSpec(8, 8, 1, LINK).meanRouterHops()).isEqualTo(17 / 3.0);
    assertThat(new TorusSpec(8, 8, 1, LINK).meanRouterHops()).isEqualTo(17 / 4.0);
    assertThat(new GroupRingSpec(8, 4, LINK).meanRouterHops()).isEqualTo(4.0);
    assertThat(new MeshSpec(8, 8, 1, LINK).saturationLoadGuess()).isEqualTo(0.375);
    assertThat(new TorusSpec(8, 8, 1, LINK).saturationLoadGuess()).isEqualTo(0.3);
    assertThat(new GroupRingSpec(8, 4, LINK).saturationLoadGuess()).isEqualTo(Double.MAX_VALUE);
    assertThat(new LeafSpineSpec(64, 8, 4, LINK, LINK).meanRouterHops()).isZero();
    assertThat(new LeafSpineSpec(64, 8, 4, LINK, LINK).saturationLoadGuess()).isEqualTo(Double.MAX_VALUE);
    // A router network's link hops are its router hops.
    assertThat(new TorusSpec(8, 8, 1, LINK).meanLinkHops(true)).isEqualTo(17 / 4.0);
  }

  @Test
  void shouldCountALeafSpinesHopsByWhetherPartnersShareATor() {
    LeafSpineSpec oneTor = new LeafSpineSpec(8, 8, 2, LINK, LINK);
    LeafSpineSpec eightTors = new LeafSpineSpec(64, 8, 4, LINK, LINK);
    assertThat(oneTor.meanLinkHops(false)).isEqualTo(2);
    // A ring's neighbour is under another TOR once in 8; any partner 7 times in 8.
    assertThat(eightTors.meanLinkHops(true)).isEqualTo(2.25);
    assertThat(eightTors.meanLinkHops(false)).isEqualTo(3.75);
    assertThat(new FullMeshSpec(6, LINK).meanLinkHops(false)).isEqualTo(1);
    assertThat(new PrismSpec(3, 2, LINK, LINK).meanLinkHops(true)).isEqualTo(1);
  }

  @Test
  void shouldCountAFatTreesHopsByWhetherPartnersShareALeafOrAPod() {
    FatTreeSpec oneLeaf = fatTree(1, 1, 2, 0, 8);
    FatTreeSpec onePod = fatTree(1, 4, 2, 0, 8);
    FatTreeSpec fourPods = fatTree(4, 2, 2, 4, 4);
    assertThat(oneLeaf.meanLinkHops(false)).isEqualTo(2);
    // A ring's neighbour is under another leaf once in 8, in the same pod: 2 + 2/8.
    assertThat(onePod.meanLinkHops(true)).isEqualTo(2.25);
    // Any partner: under another leaf 3 times in 4.
    assertThat(onePod.meanLinkHops(false)).isEqualTo(3.5);
    // 32 hosts, 4 per leaf, 8 per pod: a ring's neighbour leaves its leaf once in 4 and its pod once in 8.
    assertThat(fourPods.meanLinkHops(true)).isEqualTo(2 + 2 * 0.25 + 2 * 0.125);
    // Any partner: another leaf 7 times in 8, another pod 3 times in 4.
    assertThat(fourPods.meanLinkHops(false)).isEqualTo(2 + 2 * 0.875 + 2 * 0.75);
  }

  @Test
  void shouldKeepATorsHostsOrAServersNpusTogetherWhenPlacingHosts() {
    assertThat(new LeafSpineSpec(64, 8, 4, LINK, LINK).hostsPerPlacementGroup()).isEqualTo(8);
    assertThat(new LeafSpineSpec(5, 8, 0, LINK, null).hostsPerPlacementGroup()).isEqualTo(5);
    assertThat(new OpticalSpec(2, 2, IntraServer.FULL_MESH, LINK, LINK, ConnectionFormula.FORMULA_3)
        .hostsPerPlacementGroup()).isEqualTo(1);
    assertThat(new TorusSpec(3, 3, 3, LINK).hostsPerPlacementGroup()).isEqualTo(1);
    // A rail leaf's NICs, or a server's GPUs when its switch is each GPU's first port.
    assertThat(RAIL.hostsPerPlacementGroup()).isEqualTo(3);
    assertThat(RAIL_WITH_SERVER_SWITCHES.hostsPerPlacementGroup()).isEqualTo(4);
    // A leaf's hosts, as the placement keeps them (a leaf is a TOR); a pod is no group of the placement.
    assertThat(fatTree(4, 2, 2, 4, 3).hostsPerPlacementGroup()).isEqualTo(3);
  }

  private static FatTreeSpec fatTree(int pods, int leavesPerPod, int aggregationsPerPod, int cores,
                                     int hostsPerLeaf) {
    return FatTreeSpec.builder().pods(pods).leavesPerPod(leavesPerPod).aggregationsPerPod(aggregationsPerPod)
        .cores(cores).hostsPerLeaf(hostsPerLeaf).hostLink(LINK).leafLink(LINK).coreLink(LINK).build();
  }
}
