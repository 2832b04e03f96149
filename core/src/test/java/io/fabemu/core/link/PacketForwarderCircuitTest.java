package io.fabemu.core.link;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabemu.core.optical.ConnectionFormula;
import io.fabemu.core.optical.OcsReport;
import io.fabemu.core.protocol.DeviceProtocol.CircuitUp;
import io.fabemu.core.protocol.DeviceProtocol.Packet;
import io.fabemu.core.routing.RoutingTable;
import io.fabemu.core.sim.RecordingOutbox;
import io.fabemu.core.time.Units;
import io.fabemu.core.topology.LinkSpec;
import io.fabemu.core.topology.OpticalSpec;
import io.fabemu.core.topology.OpticalSpec.IntraServer;
import io.fabemu.core.topology.Topology;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * An optical port whose circuit is not up yet (docs/optical.md, "The OCS controller"), driven by hand: it holds what
 * it is handed, in order, and sends it when the controller's {@link CircuitUp} comes, at exact times.
 */
class PacketForwarderCircuitTest {
  private static final long OPTICAL_LATENCY_PS = 1_000_000L;
  private static final LinkSpec OPTICAL = new LinkSpec(100 * Units.GBPS, OPTICAL_LATENCY_PS);
  private static final LinkSpec INTRA = new LinkSpec(400 * Units.GBPS, 200_000L);
  /** 1000 B at 100 Gbps. */
  private static final long SERIALIZATION_PS = 80_000L;

  // Two servers of two NPUs by formula 3 (n = 1): hosts 0, 1 in server 0, hosts 2, 3 in server 1; circuit 0-2.
  private final OpticalSpec spec = new OpticalSpec(2, 2, IntraServer.FULL_MESH, INTRA, OPTICAL,
      ConnectionFormula.FORMULA_3);
  private final Topology topology = spec.build();
  private final RoutingTable routing = spec.routing(topology);

  private static Packet packet(int source, int destination, long messageId) {
    return Packet.builder().sourceHost(source).destinationHost(destination).messageId(messageId).segmentCount(1)
        .wireBytes(1_000).build();
  }

  @Test
  void shouldHoldPacketsUntilTheCircuitIsUpAndSendThemInOrderThen() {
    PacketForwarder npu0 = new PacketForwarder(0, topology, routing, 0L, ForwardingMode.STORE_AND_FORWARD);
    npu0.awaitCircuitsTo(List.of(2));
    RecordingOutbox outbox = new RecordingOutbox();
    EgressPort optical = npu0.egressToward(0, 2);
    EgressPort intra = npu0.egressToward(0, 1);
    assertThat(optical.toDevice()).isEqualTo(2);

    PacketForwarder.transmit(optical, 3_000L, packet(0, 2, 1), outbox.at(0L));
    PacketForwarder.transmit(optical, 7_000L, packet(0, 3, 2), outbox.at(5_000L));
    // Inside the server nothing waits.
    PacketForwarder.transmit(intra, 5_000L, packet(0, 1, 3), outbox.at(5_000L));
    assertThat(outbox.sent()).singleElement().satisfies(s -> assertThat(s.targetDevice()).isEqualTo(1));

    npu0.onCircuitUp(new CircuitUp(2, 0L), outbox.at(10_000_000L));
    // Both leave as the circuit comes up, one after the other, in the order they were handed over.
    assertThat(outbox.sent()).hasSize(3);
    assertThat(outbox.sent().get(1)).satisfies(s -> {
      assertThat(s.targetDevice()).isEqualTo(2);
      assertThat(s.timePs()).isEqualTo(10_000_000L + OPTICAL_LATENCY_PS);
      assertThat(((Packet) s.payload()).messageId()).isEqualTo(1);
      assertThat(((Packet) s.payload()).tailTimePs()).isEqualTo(10_000_000L + SERIALIZATION_PS + OPTICAL_LATENCY_PS);
    });
    assertThat(outbox.sent().get(2)).satisfies(s -> {
      assertThat(s.timePs()).isEqualTo(10_000_000L + SERIALIZATION_PS + OPTICAL_LATENCY_PS);
      assertThat(((Packet) s.payload()).messageId()).isEqualTo(2);
    });
    // Waits from each packet's ready time to the up time.
    assertThat(npu0.ocsReport()).isEqualTo(new OcsReport(0, 0L, 2L, (10_000_000L - 3_000L) + (10_000_000L - 7_000L),
        10_000_000L - 3_000L));

    // From then on the port is a plain link.
    PacketForwarder.transmit(optical, 12_000_000L, packet(0, 2, 4), outbox.at(12_000_000L));
    assertThat(outbox.sent().get(3).timePs()).isEqualTo(12_000_000L + OPTICAL_LATENCY_PS);
    assertThat(npu0.ocsReport().heldPackets()).isEqualTo(2);
  }

  @Test
  void shouldHoldTransitTrafficForwardedToTheCircuit() {
    // NPU 1 of server 0 sends to server 1 through NPU 0 (the gateway): NPU 0 forwards into its held port.
    PacketForwarder npu0 = new PacketForwarder(0, topology, routing, 100_000L, ForwardingMode.STORE_AND_FORWARD);
    npu0.awaitCircuitsTo(List.of(2));
    RecordingOutbox outbox = new RecordingOutbox();
    npu0.forward(packet(1, 3, 9).withTailTimePs(1_000_000L), outbox.at(900_000L));
    assertThat(outbox.sent()).isEmpty();

    npu0.onCircuitUp(new CircuitUp(2, 0L), outbox.at(5_000_000L));
    assertThat(outbox.sent()).singleElement().satisfies(s -> {
      assertThat(s.targetDevice()).isEqualTo(2);
      assertThat(s.timePs()).isEqualTo(5_000_000L + OPTICAL_LATENCY_PS);
    });
    assertThat(npu0.ocsReport().worstWaitPs()).isEqualTo(5_000_000L - 1_100_000L);
  }

  @Test
  void shouldRefuseACircuitUpWhenNoPortAwaitsOneAndAPeerWithoutALink() {
    PacketForwarder npu1 = new PacketForwarder(1, topology, routing, 0L, ForwardingMode.STORE_AND_FORWARD);
    assertThat(npu1.ocsReport()).isNull();
    assertThatThrownBy(() -> npu1.onCircuitUp(new CircuitUp(3, 0L), new RecordingOutbox()))
        .isInstanceOf(IllegalStateException.class).hasMessageContaining("awaits no circuit");
    assertThatThrownBy(() -> npu1.awaitCircuitsTo(List.of(3))).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("vertex 1 has no link to vertex 3");
  }
}
