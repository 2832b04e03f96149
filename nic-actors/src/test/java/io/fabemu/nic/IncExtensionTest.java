package io.fabemu.nic;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabemu.core.fault.FaultPlan;
import io.fabemu.core.inc.ControlPayload;
import io.fabemu.core.inc.IncDataPlaneMessages;
import io.fabemu.core.inc.IncPacketType;
import io.fabemu.core.link.PcieSpec;
import io.fabemu.core.protocol.DeviceProtocol.NicSend;
import io.fabemu.core.protocol.DeviceProtocol.Packet;
import io.fabemu.core.protocol.Message;
import io.fabemu.core.routing.RoutingTable;
import io.fabemu.core.sim.Event;
import io.fabemu.core.sim.RecordingOutbox;
import io.fabemu.core.sim.RecordingOutbox.Sent;
import io.fabemu.core.time.Units;
import io.fabemu.core.topology.LinkSpec;
import io.fabemu.core.topology.Topologies;
import io.fabemu.core.topology.Topology;
import org.junit.jupiter.api.Test;

/** INC on a NIC: only under a TOR, and then its INC messages share the chassis's DMA read channel. */
class IncExtensionTest {
  private static final IncNicSpec INC = new IncNicSpec(256, 10_000L, 50_000_000L, 3);
  /** A PCIe slow enough that reading a control payload takes longer than a work request (100 ns). */
  private static final PcieSpec SLOW_PCIE = new PcieSpec(Units.GBPS, NicFixtures.PCIE_LATENCY_PS);

  /** Host 1 of four, two under each TOR; its NIC has INC. */
  private static NicCore incNicOfHost1() {
    LinkSpec link = new LinkSpec(25 * Units.GBPS, 500_000L);
    Topology topology = Topologies.leafSpine(4, 2, 1, link, link);
    return NicCore.builder(1, topology.computeNodeDevice(1), topology, RoutingTable.compute(topology),
        NicFixtures.NIC, SLOW_PCIE, 8).extension(s -> new IncExtension(s, INC, FaultPlan.NONE)).build();
  }

  /** When the first packet of message {@code messageId} reaches the TOR. */
  private static long firstPacketAtTorPs(RecordingOutbox outbox, long messageId) {
    return outbox.ofType(Packet.class).stream().filter(s -> ((Packet) s.payload()).messageId() == messageId)
        .mapToLong(Sent::timePs).min().orElseThrow();
  }

  @Test
  void shouldNeedAHostUnderATor() {
    assertThatThrownBy(() -> NicFixtures.onLine(0).extension(s -> new IncExtension(s, INC, FaultPlan.NONE)).build())
        .isInstanceOf(IllegalArgumentException.class).hasMessage("NIC 0: INC needs a host that hangs off a TOR");
  }

  @Test
  void shouldMakeAPlainMessageWaitForTheIncReadBeforeIt() {
    Message control = IncDataPlaneMessages.control(IncPacketType.TREE_UP, 1, 0,
        IncDataPlaneMessages.query(7L, 2, 0, 1));
    Message plain = Message.synthetic(1, 3, 5L, 100L);

    NicCore alone = incNicOfHost1();
    RecordingOutbox aloneOut = new RecordingOutbox(0L);
    alone.onEvent(new Event(0L, 5, 0L, 1, new NicSend(3, plain)), aloneOut);

    NicCore shared = incNicOfHost1();
    RecordingOutbox sharedOut = new RecordingOutbox(0L);
    shared.onEvent(new Event(0L, 5, 0L, 1, new NicSend(0, control)), sharedOut);
    shared.onEvent(new Event(0L, 5, 1L, 1, new NicSend(3, plain)), sharedOut);

    // Alone, the plain message (id 0) is read once its work request is done. Behind the INC message (id 0, then the
    // plain one is id 1), its work request is done one overhead later, but its read waits for the control payload's,
    // which started one overhead earlier and takes longer than that.
    long controlReadPs = Units.transferPs(ControlPayload.WIRE_BYTES, SLOW_PCIE.bitsPerSecond());
    assertThat(controlReadPs).isGreaterThan(NicFixtures.NIC.perMessageOverheadPs());
    assertThat(firstPacketAtTorPs(sharedOut, 1L) - firstPacketAtTorPs(aloneOut, 0L)).isEqualTo(controlReadPs);
  }
}
