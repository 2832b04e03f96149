package io.fabemu.nic;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabemu.core.fault.FaultPlan;
import io.fabemu.core.fault.FaultReport;
import io.fabemu.core.fault.FaultSettings;
import io.fabemu.core.link.DetourViews;
import io.fabemu.core.link.RoutingViews;
import io.fabemu.core.protocol.DeviceProtocol.NicSend;
import io.fabemu.core.protocol.DeviceProtocol.Packet;
import io.fabemu.core.protocol.DeviceProtocol.TransportTimer;
import io.fabemu.core.protocol.Message;
import io.fabemu.core.routing.RoutingTable;
import io.fabemu.core.sim.Event;
import io.fabemu.core.sim.RecordingOutbox;
import io.fabemu.core.topology.MeshSpec;
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

  private static NicCore onLine(int host) {
    Topology topology = NicFixtures.line();
    RoutingTable routing = RoutingTable.compute(topology);
    return NicFixtures.onLine(host).extension(s -> ReliableTransportExtension.onLinks(s, PLAN,
        new RoutingViews(topology, routing), MANAGEMENT, 1L, new PathRoundTrip(host, topology, routing, 0L, 0L)))
        .build();
  }

  @Test
  void shouldNumberMessagesPerDestinationAndArmTheirTimers() {
    NicCore nic = onLine(0);
    RecordingOutbox outbox = new RecordingOutbox(0L);
    nic.onEvent(new Event(0L, 2, 0L, 0, new NicSend(1, Message.synthetic(0, 1, 1L, 10L))), outbox);
    nic.onEvent(new Event(0L, 2, 1L, 0, new NicSend(1, Message.synthetic(0, 1, 2L, 10L))), outbox);
    assertThat(outbox.payloads(Packet.class)).extracting(Packet::messageId).containsExactly(0L, 1L);
    assertThat(outbox.payloads(TransportTimer.class)).extracting(TransportTimer::sequence).containsExactly(0L, 1L);
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
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("takes detours");
    Topology line = NicFixtures.line();
    RoutingTable lineRouting = RoutingTable.compute(line);
    assertThatThrownBy(() -> NicFixtures.onLine(0).extension(s -> ReliableTransportExtension.onRouters(s, PLAN,
        new DetourViews(meshTopology, mesh.routerRouting(meshTopology).orElseThrow()), MANAGEMENT, 1L,
        new PathRoundTrip(0, line, lineRouting, 0L, 0L))).build())
        .isInstanceOf(IllegalArgumentException.class).hasMessage("NIC 0: detours needs a router network");
  }
}
