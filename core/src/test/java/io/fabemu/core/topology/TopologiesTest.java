package io.fabemu.core.topology;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabemu.core.topology.Topology.Link;
import io.fabemu.core.topology.Topology.Tier;
import io.fabemu.core.topology.Topology.Vertex;
import io.fabemu.core.topology.Topology.VertexKind;
import java.util.List;
import org.junit.jupiter.api.Test;

class TopologiesTest {

  private static final LinkSpec HOST_LINK = new LinkSpec(100_000_000_000L, 500_000);
  private static final LinkSpec SPINE_LINK = new LinkSpec(400_000_000_000L, 700_000);

  /** Far-end vertex of each port of {@code vertex}, in port order. */
  private static List<Integer> neighbours(Topology t, int vertex) {
    return t.ports(vertex).stream().map(Link::to).toList();
  }

  private static void assertLinksConsistent(Topology t) {
    for (Link l : t.links()) {
      assertThat(t.links().get(l.id())).isSameAs(l);
      assertThat(t.ports(l.from()).get(l.fromPort())).isSameAs(l);
      Link back = t.reverse(l);
      assertThat(back.from()).isEqualTo(l.to());
      assertThat(back.to()).isEqualTo(l.from());
      assertThat(back.toPort()).isEqualTo(l.fromPort());
    }
  }

  @Test
  void shouldPlaceHostsThenTorsThenSpinesWhenLeafSpine() {
    Topology t = Topologies.leafSpine(16, 4, 2, HOST_LINK, SPINE_LINK);

    assertThat(t.hostCount()).isEqualTo(16);
    assertThat(t.vertexCount()).isEqualTo(16 + 4 + 2);
    assertThat(t.links()).hasSize(2 * (16 + 4 * 2));
    assertThat(t.vertex(0)).isEqualTo(new Vertex(0, VertexKind.HOST, "host0", Tier.HOST));
    assertThat(t.vertex(15)).isEqualTo(new Vertex(15, VertexKind.HOST, "host15", Tier.HOST));
    assertThat(t.vertex(16)).isEqualTo(new Vertex(16, VertexKind.SWITCH, "tor0", Tier.TOR));
    assertThat(t.vertex(19)).isEqualTo(new Vertex(19, VertexKind.SWITCH, "tor3", Tier.TOR));
    assertThat(t.vertex(20)).isEqualTo(new Vertex(20, VertexKind.SWITCH, "spine0", Tier.SPINE));
    assertThat(t.vertex(21)).isEqualTo(new Vertex(21, VertexKind.SWITCH, "spine1", Tier.SPINE));
    assertThat(t.description()).isEqualTo("leaf-spine: 16 hosts, 4 TORs (4 hosts each), 2 spines");
    assertLinksConsistent(t);
  }

  @Test
  void shouldOrderPortsHostsThenSpinesWhenTorOfLeafSpine() {
    Topology t = Topologies.leafSpine(16, 4, 2, HOST_LINK, SPINE_LINK);

    assertThat(neighbours(t, 16)).containsExactly(0, 1, 2, 3, 20, 21);
    assertThat(neighbours(t, 17)).containsExactly(4, 5, 6, 7, 20, 21);
    assertThat(neighbours(t, 20)).containsExactly(16, 17, 18, 19);
    assertThat(neighbours(t, 5)).containsExactly(17);
    assertThat(t.ports(16).get(0).spec()).isEqualTo(HOST_LINK);
    assertThat(t.ports(16).get(4).spec()).isEqualTo(SPINE_LINK);
  }

  @Test
  void shouldGiveLastTorFewerHostsWhenHostsDoNotDivideEvenly() {
    Topology t = Topologies.leafSpine(10, 4, 2, HOST_LINK, SPINE_LINK);

    assertThat(t.vertexCount()).isEqualTo(10 + 3 + 2);
    assertThat(t.links()).hasSize(2 * (10 + 3 * 2));
    assertThat(neighbours(t, 12)).containsExactly(8, 9, 13, 14);
    assertThat(neighbours(t, 9)).containsExactly(12);
    assertThat(t.description()).isEqualTo("leaf-spine: 10 hosts, 3 TORs (4 hosts each, last has 2), 2 spines");
  }

  @Test
  void shouldBuildSingleSwitchStarWhenOneTorAndNoSpines() {
    Topology t = Topologies.leafSpine(3, 8, 0, HOST_LINK, null);

    assertThat(t.vertexCount()).isEqualTo(4);
    assertThat(t.links()).hasSize(6);
    assertThat(t.vertex(3).name()).isEqualTo("tor0");
    assertThat(neighbours(t, 3)).containsExactly(0, 1, 2);
    assertThat(t.description()).isEqualTo("leaf-spine: 3 hosts, 1 TOR (3 hosts), 0 spines");
  }

  @Test
  void shouldRejectNoSpinesWhenSeveralTors() {
    assertThatThrownBy(() -> Topologies.leafSpine(10, 4, 0, HOST_LINK, SPINE_LINK))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("leaf-spine with 0 spines needs a single TOR, but 10 hosts at 4 per TOR need 3 TORs");
  }

  @Test
  void shouldRejectBadLeafSpineArgumentsWhenOutOfRange() {
    assertThatThrownBy(() -> Topologies.leafSpine(16, 0, 2, HOST_LINK, SPINE_LINK))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("leaf-spine needs hosts-per-tor >= 1, got 0");
    assertThatThrownBy(() -> Topologies.leafSpine(0, 4, 2, HOST_LINK, SPINE_LINK))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("leaf-spine needs hosts >= 1, got 0");
    assertThatThrownBy(() -> Topologies.leafSpine(16, 4, -1, HOST_LINK, SPINE_LINK))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("leaf-spine needs spines >= 0, got -1");
    assertThatThrownBy(() -> Topologies.leafSpine(16, 4, 2, null, SPINE_LINK))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("leaf-spine needs a host link spec, got none");
    assertThatThrownBy(() -> Topologies.leafSpine(16, 4, 2, HOST_LINK, new LinkSpec(1, 0)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("leaf-spine spine link needs positive bandwidth and latency, got 1 bit/s and 0 ps");
  }

  @Test
  void shouldChainHostsWhenLine() {
    Topology t = Topologies.line(5, HOST_LINK);

    assertThat(t.vertexCount()).isEqualTo(5);
    assertThat(t.hostCount()).isEqualTo(5);
    assertThat(t.links()).hasSize(2 * 4);
    assertThat(neighbours(t, 0)).containsExactly(1);
    assertThat(neighbours(t, 2)).containsExactly(1, 3);
    assertThat(neighbours(t, 4)).containsExactly(3);
    assertThat(t.description()).isEqualTo("line: 5 hosts");
    assertLinksConsistent(t);
  }

  @Test
  void shouldCloseLineIntoCycleWhenRing() {
    Topology t = Topologies.ring(5, HOST_LINK);

    assertThat(t.links()).hasSize(2 * 5);
    for (int h = 0; h < 5; h++) assertThat(t.ports(h)).hasSize(2);
    assertThat(neighbours(t, 0)).containsExactly(1, 4);
    assertThat(neighbours(t, 4)).containsExactly(3, 0);
    assertThat(t.description()).isEqualTo("ring: 5 hosts");
    assertLinksConsistent(t);
  }

  @Test
  void shouldUseOneCableWhenRingOfTwo() {
    Topology t = Topologies.ring(2, HOST_LINK);

    assertThat(t.links()).hasSize(2);
    assertThat(neighbours(t, 0)).containsExactly(1);
    assertThat(neighbours(t, 1)).containsExactly(0);
  }

  @Test
  void shouldHaveNoLinksWhenDirectNetworkOfOneHost() {
    assertThat(Topologies.ring(1, HOST_LINK).links()).isEmpty();
    assertThat(Topologies.line(1, HOST_LINK).links()).isEmpty();
    assertThat(Topologies.fullMesh(1, HOST_LINK).description()).isEqualTo("full-mesh: 1 host");
  }

  @Test
  void shouldCableEveryPairInNeighbourOrderWhenFullMesh() {
    Topology t = Topologies.fullMesh(5, HOST_LINK);

    assertThat(t.vertexCount()).isEqualTo(5);
    assertThat(t.links()).hasSize(5 * 4);
    for (int h = 0; h < 5; h++) {
      for (int p = 0; p < 4; p++) assertThat(t.ports(h).get(p).to()).isEqualTo(p < h ? p : p + 1);
    }
    assertLinksConsistent(t);
  }

  @Test
  void shouldRejectBadDirectArgumentsWhenOutOfRange() {
    assertThatThrownBy(() -> Topologies.line(0, HOST_LINK))
        .isInstanceOf(IllegalArgumentException.class).hasMessage("line needs hosts >= 1, got 0");
    assertThatThrownBy(() -> Topologies.ring(-3, HOST_LINK))
        .isInstanceOf(IllegalArgumentException.class).hasMessage("ring needs hosts >= 1, got -3");
    assertThatThrownBy(() -> Topologies.fullMesh(4, null))
        .isInstanceOf(IllegalArgumentException.class).hasMessage("full-mesh needs a link spec, got none");
  }

  @Test
  void shouldBuildItsOwnKindWhenSpecIsBuilt() {
    Topology leafSpine = new LeafSpineSpec(8, 4, 2, HOST_LINK, SPINE_LINK).build();
    Topology line = new LineSpec(3, HOST_LINK).build();
    Topology ring = new RingSpec(4, HOST_LINK).build();
    Topology mesh = new FullMeshSpec(4, HOST_LINK).build();

    assertThat(leafSpine.description()).isEqualTo("leaf-spine: 8 hosts, 2 TORs (4 hosts each), 2 spines");
    assertThat(line.links()).hasSize(4);
    assertThat(ring.links()).hasSize(8);
    assertThat(mesh.links()).hasSize(12);
  }

  @Test
  void shouldNameItsKindAsScenariosWriteItWhenAsked() {
    assertThat(List.of(new LeafSpineSpec(4, 4, 0, HOST_LINK, null), new LineSpec(2, HOST_LINK),
        new RingSpec(3, HOST_LINK), new FullMeshSpec(4, HOST_LINK)))
        .extracting(TopologySpec::configName).containsExactly("leaf-spine", "line", "ring", "full-mesh");
  }

  @Test
  void shouldRejectSpecWithTheBuildersMessageWhenAFieldIsOutOfRange() {
    assertThatThrownBy(() -> new LeafSpineSpec(8, 4, 0, HOST_LINK, null).build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("leaf-spine with 0 spines needs a single TOR, but 8 hosts at 4 per TOR need 2 TORs");
    assertThatThrownBy(() -> new RingSpec(0, HOST_LINK).build())
        .isInstanceOf(IllegalArgumentException.class).hasMessage("ring needs hosts >= 1, got 0");
  }
}
