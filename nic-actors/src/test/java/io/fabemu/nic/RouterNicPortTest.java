package io.fabemu.nic;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabemu.core.protocol.DeviceProtocol.Flit;
import io.fabemu.core.protocol.DeviceProtocol.RouterCycle;
import io.fabemu.core.protocol.Message;
import io.fabemu.core.routing.DetourTable;
import io.fabemu.core.sim.Event;
import io.fabemu.core.sim.RecordingOutbox;
import io.fabemu.core.sim.RecordingOutbox.Sent;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The router port: segments become packets of flits that the terminal injects into the NIC's router. */
class RouterNicPortTest {

  @Test
  void shouldQueueSegmentsInTheTerminalAndInjectThemOnTheRouterCycle() {
    NicCore nic = NicFixtures.onMesh(0).build();
    RouterNicPort port = (RouterNicPort) nic.port();
    RecordingOutbox outbox = new RecordingOutbox(0L);
    long leftPs = nic.transmitMessage(1, Message.synthetic(0, 1, 7L, 100L), 3L, 0, outbox);
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
  void shouldGoDirectWithoutDetours() {
    RouterNicPort port = (RouterNicPort) NicFixtures.onMesh(0).build().port();
    assertThat(port.via(0, 1)).isEqualTo(DetourTable.DIRECT);
    assertThat(port.detoursCauseEventId()).isEqualTo(-1);
  }

  @Test
  void shouldBeTheRouterPortOnlyOfARouterNetwork() {
    NicCore onMesh = NicFixtures.onMesh(1).build();
    assertThat(onMesh.routerPort("a test")).isSameAs(onMesh.port());
    assertThatThrownBy(() -> NicFixtures.onLine(1).build().routerPort("synthetic traffic"))
        .isInstanceOf(IllegalArgumentException.class).hasMessage("NIC 1: synthetic traffic needs a router network");
  }
}
