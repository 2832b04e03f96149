package io.fabemu.core.link;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabemu.core.protocol.Message;
import io.fabemu.core.routing.RoutingTable;
import io.fabemu.core.sim.DeviceReport.LinkCounters;
import io.fabemu.core.topology.LinkSpec;
import io.fabemu.core.topology.PrismSpec;
import io.fabemu.core.topology.Topology;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Lanes ({@link Message#laneOf}): where parallel links join two prism neighbours, lanes 0..k-1 of one flow leave by
 * k different links, and lane 0 is the port the flow took before lanes existed.
 */
class LaneRoutingTest {
  private static final LinkSpec LINK = new LinkSpec(100_000_000_000L, 100_000L);
  private static final long PIPELINE_PS = 50_000L;

  // Three layers of 3: hosts 0..2 (an end layer: 3 intra-layer links a pair), 3..5 (2), 6..8 (3); 2 links up.
  private final PrismSpec spec = new PrismSpec(3, 3, LINK, LINK);
  private final Topology topology = spec.build();
  private final RoutingTable routing = spec.routing(topology);

  private PacketForwarder forwarder(int vertex) {
    return new PacketForwarder(vertex, topology, routing, PIPELINE_PS, ForwardingMode.STORE_AND_FORWARD);
  }

  /** The index of {@code port} among the forwarder's ports: the one whose packet count a transmission raises. */
  private static int indexOf(PacketForwarder forwarder, EgressPort port) {
    List<LinkCounters> before = forwarder.counters();
    port.transmit(0L, 1, 0L);
    List<LinkCounters> after = forwarder.counters();
    List<Integer> changed = new ArrayList<>();
    for (int p = 0; p < before.size(); p++) {
      if (after.get(p).packets() != before.get(p).packets()) changed.add(p);
    }
    assertThat(changed).hasSize(1);
    return changed.get(0);
  }

  /** The ports of {@code vertex} whose links lead to {@code neighbour}. */
  private List<Integer> portsTo(int vertex, int neighbour) {
    List<Integer> ports = new ArrayList<>();
    for (int p = 0; p < topology.ports(vertex).size(); p++) {
      if (topology.ports(vertex).get(p).to() == neighbour) ports.add(p);
    }
    return ports;
  }

  /** Lanes 0..k-1 from {@code from} to its neighbour {@code to}, as port indices. */
  private List<Integer> lanePorts(int from, int to, int lanes) {
    PacketForwarder forwarder = forwarder(from);
    List<Integer> ports = new ArrayList<>();
    for (int lane = 0; lane < lanes; lane++) {
      EgressPort port = forwarder.egressToward(from, to, lane);
      assertThat(port.toDevice()).isEqualTo(to);
      ports.add(indexOf(forwarder, port));
    }
    return ports;
  }

  @Test
  void theLanesOfAFlowTakeEachOfThreeParallelLinksInAnEndLayer() {
    assertThat(portsTo(0, 1)).hasSize(PrismSpec.END_LAYER_LINKS);
    List<Integer> lanes = lanePorts(0, 1, PrismSpec.END_LAYER_LINKS);
    assertThat(lanes).doesNotHaveDuplicates().containsExactlyInAnyOrderElementsOf(portsTo(0, 1));
    // Lane k is the k-th link after the flow's own: lane 3 is back on lane 0's.
    assertThat(lanePorts(0, 1, PrismSpec.END_LAYER_LINKS + 1).get(PrismSpec.END_LAYER_LINKS))
        .isEqualTo(lanes.get(0));
    assertThat(lanePorts(8, 6, PrismSpec.END_LAYER_LINKS))
        .doesNotHaveDuplicates().containsExactlyInAnyOrderElementsOf(portsTo(8, 6));
  }

  @Test
  void theLanesOfAFlowTakeBothParallelLinksInAnIntermediateLayerAndBetweenLayers() {
    assertThat(portsTo(3, 4)).hasSize(PrismSpec.INTRA_LAYER_LINKS);
    assertThat(lanePorts(3, 4, 2)).doesNotHaveDuplicates().containsExactlyInAnyOrderElementsOf(portsTo(3, 4));
    assertThat(lanePorts(5, 3, 2)).doesNotHaveDuplicates().containsExactlyInAnyOrderElementsOf(portsTo(5, 3));
    assertThat(portsTo(4, 7)).hasSize(PrismSpec.INTER_LAYER_LINKS);
    assertThat(lanePorts(4, 7, 2)).doesNotHaveDuplicates().containsExactlyInAnyOrderElementsOf(portsTo(4, 7));
    assertThat(lanePorts(4, 1, 2)).doesNotHaveDuplicates().containsExactlyInAnyOrderElementsOf(portsTo(4, 1));
  }

  @Test
  void everyPairOfNeighboursGetsAsManyDistinctLinksAsLanesUpToItsParallelLinks() {
    for (int u = 0; u < topology.hostCount(); u++) {
      Set<Integer> neighbours = new HashSet<>();
      for (Topology.Link link : topology.ports(u)) neighbours.add(link.to());
      for (int v : neighbours) {
        int parallel = portsTo(u, v).size();
        assertThat(lanePorts(u, v, parallel)).as("%d -> %d", u, v).doesNotHaveDuplicates();
      }
    }
  }

  @Test
  void laneZeroIsTheFlowsOwnPortAsBeforeLanes() {
    for (int vertex = 0; vertex < topology.hostCount(); vertex++) {
      PacketForwarder forwarder = forwarder(vertex);
      for (int source = 0; source < topology.hostCount(); source++) {
        for (int destination = 0; destination < topology.hostCount(); destination++) {
          if (destination == vertex) continue;
          EgressPort lane0 = forwarder.egressToward(source, destination, 0);
          assertThat(forwarder.egressToward(source, destination)).isSameAs(lane0);
          // The port the flow hash picks, as every run took it before lanes existed.
          int flowsOwn = routing.egressPort(vertex, destination, RoutingTable.flowHash(source, destination));
          assertThat(indexOf(forwarder, lane0)).as("%d -> %d at %d", source, destination, vertex)
              .isEqualTo(flowsOwn);
        }
      }
    }
  }

  @Test
  void theLaneIsTheTagsLowFourBitsAndZeroForTheOtherAlgorithms() {
    assertThat(Message.laneOf(0L)).isZero();
    assertThat(Message.laneOf(0x0000_0007_1234_5670L)).isZero();
    assertThat(Message.laneOf(0x0000_0007_1234_5672L)).isEqualTo(2);
    assertThat(Message.laneOf(-1L)).isEqualTo(15);
  }
}
