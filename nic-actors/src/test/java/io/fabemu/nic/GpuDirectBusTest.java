package io.fabemu.nic;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabemu.core.link.PcieSpec;
import io.fabemu.core.time.Units;
import org.junit.jupiter.api.Test;

/** NVLink to the GPUs of the own server, PCIe to everything else; the PCIe channels are the {@link PcieBus}'s. */
class GpuDirectBusTest {

  /** 8 Gb/s: a byte takes 1,000 ps. */
  private static final PcieSpec PCIE = new PcieSpec(8 * Units.GBPS, 500_000L);

  @Test
  void shouldGoOverNvlinkToTheGpusOfItsServerOnly() {
    GpuDirectBus bus = new GpuDirectBus(13, 4, new PcieBus(PCIE)); // server 3: hosts 12..15
    assertThat(bus.overNvlink(12)).isTrue();
    assertThat(bus.overNvlink(15)).isTrue();
    assertThat(bus.overNvlink(11)).isFalse();
    assertThat(bus.overNvlink(16)).isFalse();
    assertThat(bus.overNvlink(HostBus.NETWORK)).isFalse();
  }

  @Test
  void shouldHoldNoPcieChannelWhenThePeerIsInTheServer() {
    GpuDirectBus bus = new GpuDirectBus(1, 4, new PcieBus(PCIE));
    // A PCIe message of 1,000 B read from 0: ready at 1 us, the read channel busy until then.
    long start = bus.readStartPs(9, 0);
    long ready = bus.readReadyPs(9, start, 1_000);
    bus.readDone(9, ready);
    assertThat(ready).isEqualTo(1_000_000L);
    // To GPU 2 of the server at 200 ns: neither waits for the channel nor takes time on it.
    assertThat(bus.readStartPs(2, 200_000L)).isEqualTo(200_000L);
    assertThat(bus.readReadyPs(2, 200_000L, 1_000_000)).isEqualTo(200_000L);
    bus.readDone(2, 200_000L);
    // The PCIe channel still remembers its own message: the next one to another server waits for it.
    assertThat(bus.readStartPs(9, 300_000L)).isEqualTo(1_000_000L);
    // Writes the same way: a segment from GPU 0 is in memory when it is ready; one from host 8 takes the channel.
    assertThat(bus.writtenPs(0, 50_000L, 4_096)).isEqualTo(50_000L);
    assertThat(bus.writtenPs(8, 50_000L, 1_000)).isEqualTo(1_050_000L);
    assertThat(bus.writtenPs(8, 60_000L, 1_000)).isEqualTo(2_050_000L);
    assertThat(bus.writtenPs(HostBus.NETWORK, 60_000L, 1_000)).isEqualTo(3_050_000L);
  }

  @Test
  void shouldRefuseANegativeHostOrAServerWithoutGpus() {
    assertThatThrownBy(() -> new GpuDirectBus(-1, 4, new PcieBus(PCIE))).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new GpuDirectBus(0, 0, new PcieBus(PCIE))).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("at least one GPU");
  }
}
