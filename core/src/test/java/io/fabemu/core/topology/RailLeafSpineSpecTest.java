package io.fabemu.core.topology;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabemu.core.topology.Topology.Link;
import io.fabemu.core.topology.Topology.Tier;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The rail-optimized leaf-spine's numbering, tiers, ports and refusals. */
class RailLeafSpineSpecTest {
  private static final LinkSpec NIC = new LinkSpec(400_000_000_000L, 500_000);
  private static final LinkSpec SPINE = new LinkSpec(400_000_000_000L, 600_000);
  private static final LinkSpec NVLINK = new LinkSpec(3_600_000_000_000L, 100_000);

  private static List<Integer> neighbours(Topology t, int vertex) {
    return t.ports(vertex).stream().map(Link::to).toList();
  }

  @Test
  void shouldNumberHostsThenRailLeavesThenSpinesThenServerSwitches() {
    // 4 servers of 2 GPUs, 2 servers per leaf (2 groups), 3 spines.
    RailLeafSpineSpec spec = RailLeafSpineSpec.builder(4, 2, NIC).serversPerLeaf(2).spines(3, SPINE)
        .serverSwitch(NVLINK).build();
    Topology t = spec.build();
    assertThat(spec.hosts()).isEqualTo(8);
    assertThat(t.hostCount()).isEqualTo(8);
    assertThat(t.vertexCount()).isEqualTo(8 + 4 + 3 + 4);
    assertThat(t.vertex(8).name()).isEqualTo("leaf0.0");
    assertThat(t.vertex(11).name()).isEqualTo("leaf1.1");
    assertThat(t.vertex(12).name()).isEqualTo("spine0");
    assertThat(t.vertex(15).name()).isEqualTo("nvswitch0");
    assertThat(List.of(t.tier(8), t.tier(11), t.tier(12), t.tier(14), t.tier(15), t.tier(18)))
        .containsExactly(Tier.TOR, Tier.TOR, Tier.SPINE, Tier.SPINE, Tier.NONE, Tier.NONE);
    // Host 5 is GPU 1 of server 2 (group 1): its server switch first, then leaf1.1.
    assertThat(neighbours(t, 5)).containsExactly(17, 11);
    assertThat(spec.host(2, 1)).isEqualTo(5);
    // A server's GPUs are the hosts NCCL's tree chains.
    assertThat(spec.hostsPerServer()).isEqualTo(2);
    // A leaf: its servers' NICs in server order, then the spines; a spine: the leaves; a server switch: its GPUs.
    assertThat(neighbours(t, 11)).containsExactly(5, 7, 12, 13, 14);
    assertThat(neighbours(t, 13)).containsExactly(8, 9, 10, 11);
    assertThat(neighbours(t, 17)).containsExactly(4, 5);
    assertThat(t.ports(5).get(0).spec()).isEqualTo(NVLINK);
    assertThat(t.ports(5).get(1).spec()).isEqualTo(NIC);
    assertThat(t.ports(11).get(2).spec()).isEqualTo(SPINE);
    // The host's TOR is its rail leaf, beside its server switch.
    for (int h = 0; h < 8; h++) assertThat(t.torOf(h)).isEqualTo(8 + (h / 2 / 2) * 2 + h % 2);
    assertThat(t.description()).isEqualTo("rail-leaf-spine: 4 servers x 2 NICs (8 hosts), 4 rail leaves (2 servers"
        + " each), 3 spines, a server switch per server");
  }

  @Test
  void shouldPutEveryServerUnderOneLeafPerRailByDefault() {
    RailLeafSpineSpec spec = RailLeafSpineSpec.builder(3, 4, NIC).spines(1, SPINE).build();
    Topology t = spec.build();
    assertThat(spec.serversPerLeaf()).isEqualTo(3);
    assertThat(t.vertexCount()).isEqualTo(12 + 4 + 1);
    // Without a server switch a host has one port, to its rail leaf.
    assertThat(neighbours(t, 6)).containsExactly(14);
    assertThat(neighbours(t, 14)).containsExactly(2, 6, 10, 16);
    assertThat(t.torOf(6)).isEqualTo(14);
  }

  @Test
  void shouldGiveTheCountsOfTheBuiltFabricAndKeepAServerTogetherBehindItsSwitch() {
    RailLeafSpineSpec withSwitch = RailLeafSpineSpec.builder(4, 8, NIC).serversPerLeaf(2).spines(4, SPINE)
        .serverSwitch(NVLINK).build();
    RailLeafSpineSpec plain = RailLeafSpineSpec.builder(4, 8, NIC).serversPerLeaf(2).spines(4, SPINE).build();
    for (RailLeafSpineSpec spec : List.of(withSwitch, plain)) {
      Topology t = spec.build();
      assertThat(spec.switchCount()).as(spec.toString()).isEqualTo(t.vertexCount() - t.hostCount());
      assertThat(spec.cableCount()).as(spec.toString()).isEqualTo(t.links().size() / 2);
    }
    assertThat(withSwitch.switchCount()).isEqualTo(16 + 4 + 4);
    assertThat(withSwitch.hostsPerPlacementGroup()).isEqualTo(8);
    assertThat(plain.hostsPerPlacementGroup()).isEqualTo(2);
    // Ring neighbours: 7 in 8 across the server switch (2 links), 1 in 8 over two rails (4).
    assertThat(withSwitch.meanLinkHops(true)).isEqualTo(2.25);
    assertThat(plain.meanLinkHops(true)).isEqualTo(4);
    // Any partner: the 7 others of its server and the other server of its leaf are 2 links away, of 32.
    assertThat(withSwitch.meanLinkHops(false)).isEqualTo(4 - 2 * 9 / 32.0);
  }

  @Test
  void shouldRefuseShapesWhoseHostsCannotReachEachOther() {
    assertThatThrownBy(() -> RailLeafSpineSpec.builder(6, 2, NIC).serversPerLeaf(4).spines(1, SPINE).build()
        .build()).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("rail-leaf-spine needs servers (6) to be a multiple of servers-per-leaf (4)");
    assertThatThrownBy(() -> RailLeafSpineSpec.builder(4, 1, NIC).serversPerLeaf(2).build().build())
        .hasMessageContaining("0 spines needs a single group");
    assertThatThrownBy(() -> RailLeafSpineSpec.builder(4, 2, NIC).build().build())
        .hasMessageContaining("leaves its 2 rails unconnected");
    assertThatThrownBy(() -> RailLeafSpineSpec.builder(4, 2, NIC).spines(2, null).build().build())
        .hasMessageContaining("needs a spine link spec");
    assertThatThrownBy(() -> RailLeafSpineSpec.builder(0, 2, NIC).build().build())
        .hasMessageContaining("needs servers >= 1, got 0");
    // No spine is fine with one rail (a single leaf) or a server switch (the rails meet in every server).
    assertThat(RailLeafSpineSpec.builder(4, 1, NIC).build().build().vertexCount()).isEqualTo(5);
    assertThat(RailLeafSpineSpec.builder(4, 2, NIC).serverSwitch(NVLINK).build().build().vertexCount())
        .isEqualTo(8 + 2 + 4);
  }
}
