package io.fabemu.nic;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabemu.core.fault.FaultAction;
import io.fabemu.core.fault.FaultEvent;
import io.fabemu.core.fault.FaultPlan;
import io.fabemu.core.fault.FaultSettings;
import io.fabemu.core.fault.FaultTally;
import io.fabemu.core.link.DetourViews;
import io.fabemu.core.protocol.DeviceProtocol.Flit;
import io.fabemu.core.protocol.DeviceProtocol.Packet;
import io.fabemu.core.protocol.DeviceProtocol.RouteUpdate;
import io.fabemu.core.protocol.DeviceProtocol.RouterCycle;
import io.fabemu.core.protocol.Message;
import io.fabemu.core.routing.DetourTable;
import io.fabemu.core.routing.RouterRouting;
import io.fabemu.core.sim.Event;
import io.fabemu.core.sim.RecordingOutbox;
import io.fabemu.core.sim.RecordingOutbox.Sent;
import io.fabemu.core.topology.MeshSpec;
import io.fabemu.core.topology.Topology;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The router port: segments become packets of flits that the terminal injects into the NIC's router. */
class RouterNicPortTest {

  @Test
  void shouldQueueSegmentsInTheTerminalAndInjectThemOnTheRouterCycle() {
    NicCore nic = NicFixtures.onMesh(0).build();
    RouterNicPort port = (RouterNicPort) nic.port();
    RecordingOutbox outbox = new RecordingOutbox(0L);
    long leftPs = nic.services().transmitMessage(1, Message.synthetic(0, 1, 7L, 100L), 3L, 0, outbox);
    assertThat(leftPs).as("queued: the terminal reports when it leaves").isEqualTo(-1L);
    assertThat(port.terminal().queuedPackets()).isEqualTo(1);
    List<Sent> cycles = outbox.ofType(RouterCycle.class);
    assertThat(cycles).hasSize(1);
    assertThat(cycles.get(0).targetDevice()).isZero();

    RecordingOutbox next = new RecordingOutbox(cycles.get(0).timePs());
    nic.onEvent(new Event(cycles.get(0).timePs(), 0, 1L, 0, RouterCycle.INSTANCE), next);
    List<Sent> flits = next.ofType(Flit.class);
    assertThat(flits).isNotEmpty();
    assertThat(flits).extracting(Sent::targetDevice).containsOnly(4); // host 0's router
    assertThat(nic.report().links().get(0).bytes())
        .isEqualTo(port.terminal().flitsInjected() * NicFixtures.ROUTER.flitBytes()).isPositive();
  }

  @Test
  void shouldDetourAndCountSegmentsAndAcknowledgementsBehindADeadLink() {
    MeshSpec mesh = NicFixtures.mesh();
    Topology topology = mesh.build();
    RouterRouting routing = mesh.routerRouting(topology).orElseThrow();
    // The cable between the routers of hosts 0 and 1 (routers 4 and 5) goes down: fault event 0.
    FaultEvent cable = FaultEvent.link(1_000_000L, FaultAction.DOWN, "cable", 4, 5);
    FaultPlan plan = new FaultPlan(FaultSettings.DEFAULTS, List.of(cable));
    NicCore nic = NicCore.builder(0, topology.computeNodeDevice(0), topology, mesh.routing(topology), NicFixtures.NIC,
            NicFixtures.PCIE, 8)
        .routerNetwork(NicFixtures.ROUTER, routing.vcClasses(), new DetourViews(topology, routing))
        .extension(s -> ReliableTransportExtension.onRouters(s, plan, 9, 1L,
            new PathRoundTrip(0, topology, mesh.routing(topology), 0L, 0L)))
        .build();
    RouterNicPort port = (RouterNicPort) nic.port();
    FaultTally tally = nic.services().forwarder().faultTally();
    assertThat(port.hasDetours()).isTrue();
    assertThat(port.via(0, 1)).as("before the management node's update").isEqualTo(DetourTable.DIRECT);

    nic.onEvent(new Event(2_000_000L, 9, 0L, 0, new RouteUpdate(1, cable.links(), 0)), new RecordingOutbox(2_000_000L));
    int via = port.via(0, 1);
    assertThat(via).as("host 1 is behind the dead cable: through another host").isIn(2, 3);
    assertThat(port.via(0, 2)).isEqualTo(DetourTable.DIRECT);
    assertThat(port.detoursCauseEventId()).isZero();

    RecordingOutbox outbox = new RecordingOutbox(2_000_000L);
    nic.services().transmitMessage(1, Message.synthetic(0, 1, 7L, 100L), 0L, 0, outbox);
    nic.services().transmitMessage(2, Message.synthetic(0, 2, 8L, 100L), 1L, 0, outbox);
    assertThat(tally.detouredPackets(0)).as("the segment to host 1 only").isEqualTo(1);
    Packet ack = Packet.builder().sourceHost(0).destinationHost(1).messageId(4L).segmentCount(1)
        .wireBytes(NicFixtures.HEADER_BYTES).ack(true).build();
    port.sendAck(1, ack, 2_000_000L, outbox);
    assertThat(tally.detouredPackets(0)).as("and the acknowledgement").isEqualTo(2);
    assertThat(tally.lostPackets(0)).isZero();
    assertThat(port.terminal().queuedPackets()).isEqualTo(2);
  }

  @Test
  void shouldRefuseToBeUsedBeforeItsNicIsBuilt() {
    NicExtension early = new NicExtension() {
      @Override
      public void claim(NicClaims claims) {}
    };
    assertThatThrownBy(() -> NicFixtures.onMesh(0).extension(s -> {
      s.routerPort("a test").onRouterCycle(RouterCycle.INSTANCE, new RecordingOutbox(0L));
      return early;
    }).build()).isInstanceOf(IllegalStateException.class)
        .hasMessage("NIC 0: its router port was used before the NIC was built");
  }

  @Test
  void shouldBeTheRouterPortOnlyOfARouterNetwork() {
    NicCore onMesh = NicFixtures.onMesh(1).build();
    assertThat(onMesh.services().routerPort("a test")).isSameAs(onMesh.port());
    assertThatThrownBy(() -> onMesh.services().linkPort("INC"))
        .isInstanceOf(IllegalArgumentException.class).hasMessage("NIC 1: INC needs links, not a router network");
    NicCore onLine = NicFixtures.onLine(1).build();
    assertThat(onLine.services().linkPort("a test")).isSameAs(onLine.port());
    assertThatThrownBy(() -> onLine.services().routerPort("synthetic traffic"))
        .isInstanceOf(IllegalArgumentException.class).hasMessage("NIC 1: synthetic traffic needs a router network");
  }
}
