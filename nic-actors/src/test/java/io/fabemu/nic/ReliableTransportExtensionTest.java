package io.fabemu.nic;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import io.fabemu.core.fault.FaultPlan;
import io.fabemu.core.fault.FaultReport;
import io.fabemu.core.fault.FaultSettings;
import io.fabemu.core.link.RoutingViews;
import io.fabemu.core.protocol.DeviceProtocol.NicSend;
import io.fabemu.core.protocol.DeviceProtocol.Packet;
import io.fabemu.core.protocol.DeviceProtocol.TransportTimer;
import io.fabemu.core.protocol.Message;
import io.fabemu.core.routing.RoutingTable;
import io.fabemu.core.sim.Event;
import io.fabemu.core.sim.RecordingOutbox;
import io.fabemu.core.time.Units;
import io.fabemu.core.topology.LinkSpec;
import io.fabemu.core.topology.MeshSpec;
import io.fabemu.core.topology.Topologies;
import io.fabemu.core.topology.Topology;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The reliable transport as a NIC feature: routing views on links, detours on a router network; it numbers the
 * messages and arms their timers, and reports the faults. Its protocol is in {@code NicCoreReliableTransportTest}.
 */
class ReliableTransportExtensionTest {
  private static final FaultPlan PLAN = new FaultPlan(FaultSettings.DEFAULTS, List.of());
  private static final int MANAGEMENT = 9;

  /** Host 0 of three on a line, with the reliable transport: hosts 1 and 2 are its peers. */
  private static NicCore hostZeroOfThree() {
    Topology topology = Topologies.line(3, new LinkSpec(25 * Units.GBPS, 500_000L));
    RoutingTable routing = RoutingTable.compute(topology);
    return NicCore.builder(0, topology.computeNodeDevice(0), topology, routing, NicFixtures.NIC, NicFixtures.PCIE, 8)
        .extension(s -> ReliableTransportExtension.onLinks(s, PLAN, new RoutingViews(topology, routing), MANAGEMENT,
            1L, new PathRoundTrip(0, topology, routing, 0L, 0L)))
        .build();
  }

  @Test
  void shouldNumberMessagesPerDestinationAndArmTheirTimers() {
    NicCore nic = hostZeroOfThree();
    RecordingOutbox outbox = new RecordingOutbox(0L);
    nic.onEvent(new Event(0L, 3, 0L, 0, new NicSend(1, Message.synthetic(0, 1, 1L, 10L))), outbox);
    nic.onEvent(new Event(0L, 3, 1L, 0, new NicSend(2, Message.synthetic(0, 2, 2L, 10L))), outbox);
    nic.onEvent(new Event(0L, 3, 2L, 0, new NicSend(1, Message.synthetic(0, 1, 3L, 10L))), outbox);
    // One sequence per destination (the chassis's plain transport would number them 0, 1, 2).
    assertThat(outbox.payloads(Packet.class)).extracting(Packet::destinationHost, Packet::messageId)
        .containsExactly(tuple(1, 0L), tuple(2, 0L), tuple(1, 1L));
    assertThat(outbox.payloads(TransportTimer.class)).extracting(TransportTimer::destinationHost,
        TransportTimer::sequence).containsExactly(tuple(1, 0L), tuple(2, 0L), tuple(1, 1L));
    assertThat(nic.report().part(FaultReport.class)).isNotNull();
    assertThat(nic.report().part(FaultReport.class).gaveUp()).isEmpty();
  }

  @Test
  void shouldTakeRoutingViewsOnlyOnLinksAndDetoursOnlyOnRouters() {
    MeshSpec mesh = NicFixtures.mesh();
    Topology meshTopology = mesh.build();
    RoutingTable meshRouting = mesh.routing(meshTopology);
    assertThatThrownBy(() -> NicFixtures.onMesh(0).extension(s -> ReliableTransportExtension.onLinks(s, PLAN,
        new RoutingViews(meshTopology, meshRouting), MANAGEMENT, 1L,
        new PathRoundTrip(0, meshTopology, meshRouting, 0L, 0L))).build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("NIC 0: the reliable transport with routing views needs links, not a router network");
    Topology line = NicFixtures.line();
    RoutingTable lineRouting = RoutingTable.compute(line);
    assertThatThrownBy(() -> NicFixtures.onLine(0).extension(s -> ReliableTransportExtension.onRouters(s, PLAN,
        MANAGEMENT, 1L, new PathRoundTrip(0, line, lineRouting, 0L, 0L))).build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("NIC 0: the reliable transport with detours needs a router network");
    assertThatThrownBy(() -> NicFixtures.onMesh(0).extension(s -> ReliableTransportExtension.onRouters(s, PLAN,
        MANAGEMENT, 1L, new PathRoundTrip(0, meshTopology, meshRouting, 0L, 0L))).build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("NIC 0: the reliable transport with detours needs a router port built with the detour views");
  }
}
