package io.fabemu.nic;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabemu.core.protocol.DeviceProtocol.NicSend;
import io.fabemu.core.protocol.DeviceProtocol.Packet;
import io.fabemu.core.protocol.Message;
import io.fabemu.core.sim.Event;
import io.fabemu.core.sim.RecordingOutbox;
import io.fabemu.core.time.Units;
import org.junit.jupiter.api.Test;

/**
 * The GPU-direct host bus in a NIC: a message to a GPU of the own server leaves without its DMA read over PCIe; one
 * to another server reads each segment over PCIe first, as a NIC without the extension does.
 */
class GpuDirectExtensionTest {

  /** When the first packet of a 3-segment message from host 0 to host 1, posted at 0, reaches host 1. */
  private static long firstArrivalPs(NicBuilder builder) {
    NicCore nic = builder.build();
    RecordingOutbox outbox = new RecordingOutbox(0L);
    long bytes = 3L * NicFixtures.SEGMENT_BYTES;
    nic.onEvent(new Event(0L, 2, 0L, 0, new NicSend(1, Message.synthetic(0, 1, 1L, bytes))), outbox);
    return outbox.ofType(Packet.class).get(0).timePs();
  }

  @Test
  void shouldSkipThePcieReadOnlyForAGpuOfTheOwnServer() {
    long plain = firstArrivalPs(NicFixtures.onLine(0));
    long sameServer = firstArrivalPs(NicFixtures.onLine(0)
        .extension(s -> new GpuDirectExtension(s, 2, NicFixtures.PCIE)));
    long otherServer = firstArrivalPs(NicFixtures.onLine(0)
        .extension(s -> new GpuDirectExtension(s, 1, NicFixtures.PCIE)));
    // A segment of 1,000 B takes 125 ns over the fixtures' 64 Gb/s PCIe before it may leave.
    long segmentReadPs = Units.transferPs(NicFixtures.SEGMENT_BYTES, NicFixtures.PCIE.bitsPerSecond());
    assertThat(segmentReadPs).isEqualTo(125_000L);
    assertThat(sameServer).isEqualTo(plain - segmentReadPs);
    assertThat(otherServer).isEqualTo(plain);
  }

  @Test
  void shouldRefuseASecondHostBus() {
    assertThatThrownBy(() -> NicFixtures.onLine(0)
        .extension(s -> new GpuDirectExtension(s, 2, NicFixtures.PCIE))
        .extension(s -> new GpuDirectExtension(s, 2, NicFixtures.PCIE)).build())
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("NIC 0: two extensions claim the host bus");
  }
}
