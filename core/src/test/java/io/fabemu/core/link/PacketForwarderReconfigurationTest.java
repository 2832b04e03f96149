package io.fabemu.core.link;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import io.fabemu.core.optical.ConnectionFormula;
import io.fabemu.core.optical.OcsReport;
import io.fabemu.core.optical.OcsSpec;
import io.fabemu.core.protocol.DeviceProtocol.CircuitDown;
import io.fabemu.core.protocol.DeviceProtocol.CircuitUp;
import io.fabemu.core.protocol.DeviceProtocol.Packet;
import io.fabemu.core.routing.RoutingTable;
import io.fabemu.core.sim.RecordingOutbox;
import io.fabemu.core.sim.RecordingOutbox.Sent;
import io.fabemu.core.time.Units;
import io.fabemu.core.topology.LinkSpec;
import io.fabemu.core.topology.OpticalSpec;
import io.fabemu.core.topology.OpticalSpec.IntraServer;
import io.fabemu.core.topology.Topology;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A connection-policy change at an NPU's optical ports (docs/optical.md, "The OCS controller"), driven by hand with
 * exact times: the routes switch at the change, a torn-down port drains what it had taken, the new circuit sends only
 * once that drain is over, and a circuit torn down before it came up hands what it held to the new routes.
 *
 * <p>M = 4 servers of N = 4 NPUs, formula 3 then formula 1 (no circuit in common). NPU 1 of server 0 (host 1) joins
 * server 2 (host 9) by formula 3 and server 1 (host 5) by formula 1; from server 0, server 2 is reached through NPU 1
 * by formula 3 and through NPU 2 (host 2, plane (0 + 2) mod 4) by formula 1.
 */
class PacketForwarderReconfigurationTest {
  private static final long OPTICAL_LATENCY_PS = 1_000_000L;
  private static final long INTRA_LATENCY_PS = 200_000L;
  private static final LinkSpec OPTICAL = new LinkSpec(100 * Units.GBPS, OPTICAL_LATENCY_PS);
  private static final LinkSpec INTRA = new LinkSpec(400 * Units.GBPS, INTRA_LATENCY_PS);
  /** 1000 B at 100 Gbps. */
  private static final long SERIALIZATION_PS = 80_000L;
  private static final long DELAY_PS = 100_000L;
  private static final long CHANGE_PS = 2_000_000L;

  private static Packet packet(int source, int destination, long messageId) {
    return Packet.builder().sourceHost(source).destinationHost(destination).messageId(messageId).segmentCount(1)
        .wireBytes(1_000).build();
  }

  /** Host 1's forwarder in a run of formula 3, then each of {@code later} at {@code CHANGE_PS}, DELAY_PS apart. */
  private static PacketForwarder npu1(ConnectionFormula... later) {
    List<OcsSpec.PolicyChange> changes = new ArrayList<>();
    List<Long> times = new ArrayList<>();
    for (int i = 0; i < later.length; i++) {
      changes.add(new OcsSpec.PolicyChange(CHANGE_PS + i * DELAY_PS, later[i]));
      times.add(CHANGE_PS + i * DELAY_PS);
    }
    OpticalSpec spec = new OpticalSpec(4, 4, IntraServer.FULL_MESH, INTRA, OPTICAL, ConnectionFormula.FORMULA_3,
        new OcsSpec(DELAY_PS, changes));
    Topology topology = spec.build();
    List<RoutingTable> routings = spec.routings(topology);
    PacketForwarder npu1 = new PacketForwarder(1, topology, routings.get(0), 0L, ForwardingMode.STORE_AND_FORWARD);
    npu1.awaitCircuitsTo(List.of(9, 5));
    npu1.useRouteChanges(times, routings.subList(1, routings.size()));
    return npu1;
  }

  @Test
  void shouldDrainTheTornDownCircuitAndBringTheNewOneUpOnlyThen() {
    PacketForwarder npu1 = npu1(ConnectionFormula.FORMULA_1);
    RecordingOutbox outbox = new RecordingOutbox();
    npu1.onCircuitUp(new CircuitUp(9, 0L), outbox.at(DELAY_PS));
    // Three packets for server 2 just before the change: on the formula-3 circuit, back to back from 1.9 us.
    npu1.routesAt(1_900_000L);
    for (int m = 0; m < 3; m++) {
      PacketForwarder.transmit(npu1.egressToward(1, 9), 1_900_000L, packet(1, 9, m), outbox.at(1_900_000L));
    }
    assertThat(outbox.sent()).extracting(Sent::targetDevice).containsExactly(9, 9, 9);
    assertThat(outbox.sent()).extracting(Sent::timePs).containsExactly(2_900_000L, 2_980_000L, 3_060_000L);

    // The change at 2 us: the old circuit is torn down, and drains until 1.9 us + 3 x 80 ns = 2.14 us.
    npu1.onCircuitDown(new CircuitDown(9, CHANGE_PS), outbox.at(CHANGE_PS));
    assertThat(outbox.sent()).hasSize(3);
    // After it, this NPU's own packet for server 1 waits for the new circuit (the routes switched at 2 us) ...
    npu1.routesAt(2_050_000L);
    EgressPort toServer1 = npu1.egressToward(1, 5);
    assertThat(toServer1.toDevice()).isEqualTo(5);
    PacketForwarder.transmit(toServer1, 2_050_000L, packet(1, 5, 3), outbox.at(2_050_000L));
    // ... and its own packet and a transit packet for server 2 go the new way: to NPU 2 inside the server.
    EgressPort toServer2 = npu1.egressToward(1, 10);
    assertThat(toServer2.toDevice()).isEqualTo(2);
    PacketForwarder.transmit(toServer2, 2_050_000L, packet(1, 10, 4), outbox.at(2_050_000L));
    npu1.forward(packet(0, 9, 5).withTailTimePs(2_060_000L), outbox.at(2_050_000L));
    assertThat(outbox.since(3)).extracting(Sent::targetDevice, Sent::timePs).containsExactly(
        tuple(2, 2_050_000L + INTRA_LATENCY_PS),
        // 1000 B at 400 Gbps take 20 ns: the transit packet, ready at its tail (2.06 us), follows on the same link.
        tuple(2, 2_070_000L + INTRA_LATENCY_PS));

    // The new circuit's word comes at 2.1 us, while the old one still drains: it takes effect at 2.14 us.
    CircuitUp up = new CircuitUp(5, CHANGE_PS);
    npu1.onCircuitUp(up, outbox.at(CHANGE_PS + DELAY_PS));
    assertThat(outbox.since(5)).singleElement().isEqualTo(new Sent(1, 2_140_000L, up));
    npu1.onCircuitUp(up, outbox.at(2_140_000L));
    assertThat(outbox.since(6)).singleElement().satisfies(s -> {
      assertThat(s.targetDevice()).isEqualTo(5);
      assertThat(s.timePs()).isEqualTo(2_140_000L + OPTICAL_LATENCY_PS);
      assertThat(((Packet) s.payload()).messageId()).isEqualTo(3);
      assertThat(((Packet) s.payload()).tailTimePs()).isEqualTo(2_140_000L + SERIALIZATION_PS + OPTICAL_LATENCY_PS);
    });
    // Nothing waited for the initial circuit; one packet waited 90 ns for the change's.
    assertThat(npu1.ocsReport()).isEqualTo(new OcsReport(0, 0L, 0L, 0L, 0L,
        List.of(new OcsReport.ChangeCost(CHANGE_PS, 0, 0, 2_140_000L, 1L, 90_000L, 90_000L))));
    assertThatThrownBy(() -> npu1.onCircuitUp(up, outbox.at(2_200_000L))).isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("is up already");
  }

  @Test
  void shouldSendWhatACircuitTornDownBeforeItCameUpHeldByTheNewRoutes() {
    // Formula 3, formula 1 at 2 us, formula 3 again at 2.1 us: the formula-1 circuit to host 5 waits for the old
    // circuit's drain (to 2.14 us) and is torn down at 2.1 us before it came up.
    PacketForwarder npu1 = npu1(ConnectionFormula.FORMULA_1, ConnectionFormula.FORMULA_3);
    RecordingOutbox outbox = new RecordingOutbox();
    npu1.onCircuitUp(new CircuitUp(9, 0L), outbox.at(DELAY_PS));
    npu1.routesAt(1_900_000L);
    for (int m = 0; m < 3; m++) {
      PacketForwarder.transmit(npu1.egressToward(1, 9), 1_900_000L, packet(1, 9, m), outbox.at(1_900_000L));
    }
    npu1.onCircuitDown(new CircuitDown(9, CHANGE_PS), outbox.at(CHANGE_PS));
    npu1.routesAt(2_050_000L);
    PacketForwarder.transmit(npu1.egressToward(1, 5), 2_050_000L, packet(1, 5, 3), outbox.at(2_050_000L));
    CircuitUp deferred = new CircuitUp(5, CHANGE_PS);
    long secondChangePs = CHANGE_PS + DELAY_PS;
    npu1.onCircuitUp(deferred, outbox.at(secondChangePs));
    assertThat(outbox.since(3)).singleElement().isEqualTo(new Sent(1, 2_140_000L, deferred));

    // Formula 3 again: the held packet for server 1 goes by its route, through NPU 0 (plane 0), at once.
    npu1.onCircuitDown(new CircuitDown(5, secondChangePs), outbox.at(secondChangePs));
    assertThat(outbox.since(4)).singleElement().satisfies(s -> {
      assertThat(s.targetDevice()).isZero();
      assertThat(s.timePs()).isEqualTo(secondChangePs + INTRA_LATENCY_PS);
      assertThat(((Packet) s.payload()).messageId()).isEqualTo(3);
    });
    // The deferred word finds its circuit torn down: nothing happens.
    npu1.onCircuitUp(deferred, outbox.at(2_140_000L));
    assertThat(outbox.sent()).hasSize(5);
    // A packet for server 2 waits for the formula-3 circuit, which comes back at 2.2 us (its drain ended at 2.14).
    PacketForwarder.transmit(npu1.egressToward(1, 9), 2_150_000L, packet(1, 9, 6), outbox.at(2_150_000L));
    npu1.onCircuitUp(new CircuitUp(9, secondChangePs), outbox.at(secondChangePs + DELAY_PS));
    assertThat(outbox.since(5)).singleElement().satisfies(s -> {
      assertThat(s.targetDevice()).isEqualTo(9);
      assertThat(s.timePs()).isEqualTo(2_200_000L + OPTICAL_LATENCY_PS);
    });
    assertThat(npu1.ocsReport().changes()).containsExactly(
        new OcsReport.ChangeCost(secondChangePs, 0, 0, 2_200_000L, 1L, 50_000L, 50_000L));
  }

  @Test
  void shouldRefuseATeardownWithoutCircuitsOrForAPeerWithoutACircuitPort() {
    OpticalSpec spec = new OpticalSpec(4, 4, IntraServer.FULL_MESH, INTRA, OPTICAL, ConnectionFormula.FORMULA_3);
    Topology topology = spec.build();
    PacketForwarder plain = new PacketForwarder(1, topology, spec.routing(topology), 0L,
        ForwardingMode.STORE_AND_FORWARD);
    assertThatThrownBy(() -> plain.onCircuitDown(new CircuitDown(9, CHANGE_PS), new RecordingOutbox()))
        .isInstanceOf(IllegalStateException.class).hasMessageContaining("awaits no circuit");
    PacketForwarder npu1 = npu1(ConnectionFormula.FORMULA_1);
    assertThatThrownBy(() -> npu1.onCircuitDown(new CircuitDown(2, CHANGE_PS), new RecordingOutbox()))
        .isInstanceOf(IllegalStateException.class).hasMessageContaining("no port leads to that peer");
    assertThatThrownBy(() -> npu1.useRouteChanges(List.of(2L, 1L), List.of(spec.routing(topology),
        spec.routing(topology)))).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("route change times must increase, got [2, 1]");
  }
}
