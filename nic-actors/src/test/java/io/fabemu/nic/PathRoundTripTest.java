package io.fabemu.nic;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabemu.core.routing.RoutingTable;
import io.fabemu.core.time.Units;
import io.fabemu.core.topology.LinkSpec;
import io.fabemu.core.topology.Topologies;
import io.fabemu.core.topology.Topology;
import org.junit.jupiter.api.Test;

/** The idle round trip of a message and its acknowledgement, walked along the routing. */
class PathRoundTripTest {
  private static final long PCIE_PS = 200_000L;

  @Test
  void aLineAddsItsCablesBothWaysPciBothWaysAndTheMessageOnceAtTheLinkRate() {
    Topology line = Topologies.line(8, new LinkSpec(100 * Units.GBPS, 1_000_000L));
    // A switch delay given, but a line has no switches: hosts 3 and 4 relay in their NICs, adding none.
    PathRoundTrip paths = new PathRoundTrip(2, line, RoutingTable.compute(line), 70_000L, PCIE_PS);
    // Host 2 to host 5: three 1 us cables.
    long idlePs = 2 * (3_000_000L + PCIE_PS);
    assertThat(paths.roundTripPs(5, 0)).isEqualTo(idlePs);
    // 4096 B at 100 Gb/s: 327.68 ns, rounded up to whole picoseconds.
    assertThat(paths.roundTripPs(5, 4096)).isEqualTo(idlePs + 327_680L);
    assertThat(paths.roundTripPs(3, 0)).isEqualTo(2 * (1_000_000L + PCIE_PS));
  }

  @Test
  void aLeafSpineCountsEachSwitchOnTheWayAndTheSlowestLink() {
    // 4 hosts per TOR, 2 TORs, 2 spines: host 0 to host 5 crosses TOR, spine, TOR.
    Topology fabric = Topologies.leafSpine(8, 4, 2, new LinkSpec(25 * Units.GBPS, 500_000L),
        new LinkSpec(100 * Units.GBPS, 300_000L));
    PathRoundTrip paths = new PathRoundTrip(0, fabric, RoutingTable.compute(fabric), 50_000L, PCIE_PS);
    long oneWayPs = 500_000L + 300_000L + 300_000L + 500_000L + 3 * 50_000L;
    assertThat(paths.roundTripPs(5, 0)).isEqualTo(2 * (oneWayPs + PCIE_PS));
    // 1 MiB at the 25 Gb/s host links.
    assertThat(paths.roundTripPs(5, 1 << 20)).isEqualTo(2 * (oneWayPs + PCIE_PS) + Units.transferPs(1 << 20,
        25 * Units.GBPS));
    // Under the same TOR: one switch.
    assertThat(paths.roundTripPs(1, 0)).isEqualTo(2 * (500_000L + 500_000L + 50_000L + PCIE_PS));
  }

  @Test
  void refusesNegativeDelays() {
    Topology line = Topologies.line(2, new LinkSpec(Units.GBPS, 1_000L));
    assertThatThrownBy(() -> new PathRoundTrip(0, line, RoutingTable.compute(line), -1L, 0L))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
