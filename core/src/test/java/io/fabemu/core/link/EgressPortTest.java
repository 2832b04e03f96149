package io.fabemu.core.link;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabemu.core.sim.DeviceReport.LinkCounters;
import io.fabemu.core.time.Units;
import io.fabemu.core.topology.LinkSpec;
import org.junit.jupiter.api.Test;

/** FIFO serialization and counters of a link's sending end. */
class EgressPortTest {
  private static final long LATENCY_PS = 500_000L;

  @Test
  void shouldCountOnlySerializationAsBusyWhenCutThroughWaitsForTheTail() {
    // Cut-through from a 25 Gbps ingress to a 100 Gbps egress: the egress cannot finish before the tail is in,
    // 4x later than its own serialization; the wait is idle time on the wire, not busy time.
    EgressPort port = new EgressPort(0, 1, new LinkSpec(100 * Units.GBPS, LATENCY_PS));
    int wireBytes = 1_088;
    long tailInPs = 10_000L + Units.transferPs(wireBytes, 25 * Units.GBPS);

    port.transmit(10_000L, wireBytes, tailInPs);
    port.transmit(10_000L, wireBytes, tailInPs + Units.transferPs(wireBytes, 25 * Units.GBPS));

    LinkCounters counters = port.counters();
    assertThat(counters.bytes()).isEqualTo(2L * wireBytes);
    assertThat(counters.packets()).isEqualTo(2);
    assertThat(counters.busyPs()).isEqualTo(2L * wireBytes * 8 * Units.PS_PER_S / (100 * Units.GBPS));
    // The port is still held until the tail has left.
    assertThat(port.lastTailArrivalPs())
        .isEqualTo(tailInPs + Units.transferPs(wireBytes, 25 * Units.GBPS) + LATENCY_PS);
  }

  @Test
  void shouldQueuePacketsWhenPortIsBusy() {
    EgressPort port = new EgressPort(0, 1, new LinkSpec(100 * Units.GBPS, LATENCY_PS));

    port.transmit(0L, 1_000, 0L);
    port.transmit(0L, 1_000, 0L);

    assertThat(port.lastHeadArrivalPs()).isEqualTo(80_000L + LATENCY_PS);
    assertThat(port.lastTailArrivalPs()).isEqualTo(160_000L + LATENCY_PS);
    assertThat(port.counters().busyPs()).isEqualTo(160_000L);
  }
}
