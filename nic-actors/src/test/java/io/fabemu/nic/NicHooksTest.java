package io.fabemu.nic;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabemu.core.protocol.DeviceProtocol.CircuitUp;
import io.fabemu.core.protocol.DeviceProtocol.EthernetTimer;
import io.fabemu.core.protocol.DeviceProtocol.IncRetransmitTimer;
import io.fabemu.core.protocol.DeviceProtocol.StartWorkload;
import io.fabemu.core.protocol.EthernetPayload;
import io.fabemu.core.sim.Event;
import io.fabemu.core.sim.Outbox;
import io.fabemu.core.sim.RecordingOutbox;
import org.junit.jupiter.api.Test;

/** The claims of a NIC's extensions: each taken once; what nobody claims is plain or refused. */
class NicHooksTest {

  /** An extension that claims the Ethernet family and records the timers it gets. */
  private static final class EthernetProbe implements NicExtension, EthernetPayload.Handler<Outbox> {
    int timers;

    @Override
    public void claim(NicClaims claims) {
      claims.ethernet(this);
    }

    @Override
    public String deviceName() {
      return "probe";
    }

    @Override
    public void onEthernetTimer(EthernetTimer timer, Outbox outbox) {
      timers++;
    }

    @Override
    public void onCableFrame(io.fabemu.core.protocol.DeviceProtocol.CableFrame frame, Outbox outbox) {}

    @Override
    public void onEthernetControl(io.fabemu.core.protocol.DeviceProtocol.EthernetControl control, Outbox outbox) {}
  }

  @Test
  void shouldHandAClaimedFamilyToItsExtension() {
    EthernetProbe probe = new EthernetProbe();
    NicCore nic = NicFixtures.onLine(0).extension(s -> probe).build();
    nic.onEvent(new Event(0L, 0, 0L, 0, new EthernetTimer(0)), new RecordingOutbox(0L));
    assertThat(probe.timers).isEqualTo(1);
    assertThat(nic.extension(EthernetProbe.class)).containsSame(probe);
  }

  @Test
  void shouldRefuseAClaimTakenTwice() {
    assertThatThrownBy(() -> NicFixtures.onLine(0).extension(s -> new EthernetProbe())
        .extension(s -> new EthernetProbe()).build())
        .isInstanceOf(IllegalStateException.class).hasMessage("NIC 0: two extensions claim the Ethernet family");
    NicExtension frames = new NicExtension() {
      @Override
      public void claim(NicClaims claims) {
        claims.routerFrames((carriage, tailArrivalPs, outbox) -> {});
      }
    };
    assertThatThrownBy(() -> NicFixtures.onMesh(0).extension(s -> frames).extension(s -> frames).build())
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("NIC 0: two extensions claim the router port's Ethernet frames");
  }

  @Test
  void shouldRefuseUnclaimedFamiliesAndMissingInc() {
    NicCore nic = NicFixtures.onLine(1).build();
    RecordingOutbox outbox = new RecordingOutbox(0L);
    CircuitUp up = new CircuitUp(0, 0L);
    assertThatThrownBy(() -> nic.onEvent(new Event(0L, 0, 0L, 1, up), outbox))
        .isInstanceOf(IllegalArgumentException.class).hasMessage("NIC 1 cannot handle " + up);
    assertThatThrownBy(() -> nic.onEvent(new Event(0L, 0, 1L, 1, StartWorkload.INSTANCE), outbox))
        .isInstanceOf(IllegalArgumentException.class).hasMessage("NIC 1 cannot handle " + StartWorkload.INSTANCE);
    assertThatThrownBy(() -> nic.onEvent(new Event(0L, 1, 2L, 1, new IncRetransmitTimer(0, 0L, 0)), outbox))
        .isInstanceOf(IllegalStateException.class).hasMessageContaining("has no INC unit");
  }
}
