package io.fabemu.nic;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabemu.core.optical.OcsReport;
import io.fabemu.core.protocol.DeviceProtocol.CircuitUp;
import io.fabemu.core.protocol.DeviceProtocol.NicSend;
import io.fabemu.core.protocol.DeviceProtocol.Packet;
import io.fabemu.core.protocol.Message;
import io.fabemu.core.sim.Event;
import io.fabemu.core.sim.RecordingOutbox;
import java.util.List;
import org.junit.jupiter.api.Test;

/** OCS circuit waits: the port toward a circuit peer holds its packets until the controller says it is up. */
class CircuitWaitExtensionTest {

  @Test
  void shouldHoldPacketsUntilTheCircuitIsUp() {
    NicCore nic = NicFixtures.onLine(0).extension(s -> new CircuitWaitExtension(s, List.of(1), List.of(), List.of()))
        .build();
    RecordingOutbox outbox = new RecordingOutbox(0L);
    nic.onEvent(new Event(0L, 2, 0L, 0, new NicSend(1, Message.synthetic(0, 1, 1L, 10L))), outbox);
    assertThat(outbox.ofType(Packet.class)).as("held").isEmpty();
    outbox.at(5_000_000L);
    nic.onEvent(new Event(5_000_000L, 7, 1L, 0, new CircuitUp(1, 0L)), outbox);
    assertThat(outbox.ofType(Packet.class)).hasSize(1);
    assertThat(nic.report().part(OcsReport.class)).isNotNull();
  }

  @Test
  void shouldRefuseARouterNetwork() {
    assertThatThrownBy(() -> NicFixtures.onMesh(0)
        .extension(s -> new CircuitWaitExtension(s, List.of(), List.of(), List.of())).build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("NIC 0: an optical circuit needs links, not a router network");
  }
}
