package io.fabemu.nic;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabemu.core.ethernet.EthernetReport;
import io.fabemu.core.ethernet.EthernetSpec;
import io.fabemu.core.protocol.DeviceProtocol.CableFrame;
import io.fabemu.core.protocol.DeviceProtocol.EthernetTimer;
import io.fabemu.core.protocol.DeviceProtocol.RouterCycle;
import io.fabemu.core.sim.Event;
import io.fabemu.core.sim.RecordingOutbox;
import io.fabemu.core.time.Units;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The I/O nodes' Ethernet on a router-network NIC. */
class EthernetExtensionTest {
  private static final int ETHERNET_DEVICE = 6;
  /** Host 0 is the only I/O node; each node sends two frames, 5 us apart. */
  private static final EthernetSpec SPEC = new EthernetSpec(List.of(0), List.of(), 10 * Units.GBPS, 2_000_000L, 2,
      0.0, 1, 2, 5, 200, 5_000_000L, 0L);

  private static NicCore nic(int host) {
    return NicFixtures.onMesh(host).extension(s -> new EthernetExtension(s, SPEC, ETHERNET_DEVICE, 7L)).build();
  }

  @Test
  void shouldSendAnIoNodesOwnFrameStraightOutOnItsCable() {
    NicCore io = nic(0);
    RecordingOutbox outbox = new RecordingOutbox(0L);
    io.onEvent(new Event(0L, 0, 0L, 0, new EthernetTimer(0)), outbox);
    assertThat(outbox.ofType(CableFrame.class)).extracting(RecordingOutbox.Sent::targetDevice)
        .containsExactly(ETHERNET_DEVICE);
    assertThat(outbox.payloads(EthernetTimer.class)).extracting(EthernetTimer::round).containsExactly(1);
    EthernetReport report = io.report().part(EthernetReport.class);
    assertThat(report.routedSent()).isEqualTo(1);
    assertThat(report.routedArrived()).isEqualTo(1);
  }

  @Test
  void shouldSendAnotherNodesFrameIntoTheRouterNetwork() {
    NicCore node = nic(1);
    RecordingOutbox outbox = new RecordingOutbox(0L);
    node.onEvent(new Event(0L, 1, 0L, 1, new EthernetTimer(1)), outbox);
    assertThat(outbox.ofType(CableFrame.class)).isEmpty();
    assertThat(outbox.ofType(RouterCycle.class)).hasSize(1);
    assertThat(((RouterNicPort) node.port()).terminal().queuedPackets()).isEqualTo(1);
    assertThat(outbox.payloads(EthernetTimer.class)).as("the last round").isEmpty();
  }

  @Test
  void shouldNeedARouterNetwork() {
    assertThatThrownBy(() -> NicFixtures.onLine(0).extension(s -> new EthernetExtension(s, SPEC, 6, 7L)).build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("NIC 0: Ethernet through I/O nodes needs a router network");
  }
}
