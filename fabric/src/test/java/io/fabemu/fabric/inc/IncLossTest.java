package io.fabemu.fabric.inc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabemu.core.data.DataBuffer;
import io.fabemu.core.data.DataType;
import io.fabemu.core.data.ReduceOp;
import io.fabemu.core.inc.IncDataPlaneMessages;
import io.fabemu.core.inc.IncPacketType;
import io.fabemu.core.link.EgressPort;
import io.fabemu.core.link.PacketDropSpec;
import io.fabemu.core.protocol.DeviceProtocol.MessageInfo;
import io.fabemu.core.protocol.DeviceProtocol.Packet;
import io.fabemu.core.sim.DeviceReport.LinkCounters;
import io.fabemu.core.time.Units;
import io.fabemu.core.topology.LinkSpec;
import io.fabemu.fabric.Fabric;
import io.fabemu.fabric.ScenarioSpec;
import io.fabemu.fabric.inc.IncDataPlaneHarness.Delivery;
import io.fabemu.nic.IncNicSpec;
import io.fabemu.nic.NicIncUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * Injected loss on the INC data plane: packets lost on a host-TOR, TOR-SPINE, SPINE-TOR and TOR-host link are
 * recovered by the NICs' retransmissions and the switches' duplicate handling, exactly once, and the run is
 * reproducible.
 */
class IncLossTest {
  /** hosts 0-7, TOR 8 (hosts 0-3), TOR 9 (hosts 4-7), spines 10 (the chosen one) and 11. */
  private static final int TOR0 = 8;
  private static final int TOR1 = 9;
  private static final int SPINE = 10;
  /** More than 256, so req_id wraps around while the group runs. */
  private static final int REQUESTS = 300;
  /** 100 int32 = 400 B: two fragments of 256 and 144 B. */
  private static final int ELEMENTS = 100;
  private static final double LOSS = 0.2;

  private static ScenarioSpec lossy(long seed) {
    List<PacketDropSpec> drops = List.of(
        new PacketDropSpec(1, TOR0, LOSS),
        new PacketDropSpec(TOR0, SPINE, LOSS),
        new PacketDropSpec(SPINE, TOR1, LOSS),
        new PacketDropSpec(TOR1, 6, LOSS));
    // A round trip takes about 10 us here; the timeout leaves room for the slowest leader's lag.
    return IncDataPlaneHarness.scenario(8, 4, 2, 256, 40 * Units.PS_PER_US, 30, drops, seed);
  }

  private static IncDataPlaneHarness run(long seed) {
    return IncDataPlaneTest.runAndCheck(lossy(seed), IntStream.range(0, 8).boxed().toList(), DataType.INT32,
        ReduceOp.SUM, ELEMENTS, REQUESTS);
  }

  @Test
  void shouldRecoverEveryLostPacketExactlyOnceAndGiveExactResults() {
    // runAndCheck compares every leader's every result with the exact sum: a contribution counted twice, or
    // lost for good, would show there (or the run would fail with the NIC's retransmission error).
    IncDataPlaneHarness h = run(42L);

    for (int[] link : new int[][] {{1, TOR0}, {TOR0, SPINE}, {SPINE, TOR1}, {TOR1, 6}}) {
      LinkCounters counters = h.links().stream()
          .filter(l -> l.fromDevice() == link[0] && l.toDevice() == link[1]).findFirst().orElseThrow();
      assertThat(counters.droppedPackets()).as("drops %d->%d", link[0], link[1]).isPositive();
      // About a fifth of what the link carried was lost.
      assertThat((double) counters.droppedPackets() / counters.packets()).isBetween(0.1, 0.3);
    }
    assertThat(h.links().stream().filter(l -> l.fromDevice() == 0).findFirst().orElseThrow().droppedPackets())
        .isZero();
    long resent = 0;
    for (int host = 0; host < 8; host++) resent += h.nicInc(host).fragmentsResent();
    assertThat(resent).isPositive();
    assertThat(h.switchAt(TOR0).incUnit().resends() + h.switchAt(TOR1).incUnit().resends()
        + h.switchAt(SPINE).incUnit().resends()).isPositive();
  }

  @Test
  void shouldLoseTheSamePacketsAndTakeTheSameTimesWhenTheSeedIsTheSame() {
    IncDataPlaneHarness first = run(7L);
    IncDataPlaneHarness second = run(7L);
    IncDataPlaneHarness other = run(8L);

    assertThat(times(second)).isEqualTo(times(first));
    assertThat(second.links()).isEqualTo(first.links());
    assertThat(second.lastWindowStartPs()).isEqualTo(first.lastWindowStartPs());
    assertThat(times(other)).isNotEqualTo(times(first));
  }

  private static List<Long> times(IncDataPlaneHarness h) {
    List<Long> times = new ArrayList<>();
    for (int host = 0; host < 8; host++) {
      for (Delivery d : h.deliveries(host)) times.add(d.timePs());
    }
    return times;
  }

  @Test
  void shouldNeverLoseOrdinaryOrControlPacketsWhichNothingRetransmits() {
    EgressPort port = new EgressPort(0, 8, new LinkSpec(100 * Units.GBPS, 500_000L), 0.9, 1L, 16);
    Packet ordinary = Packet.builder().sourceHost(0).destinationHost(1).messageId(0L).segmentIndex(0).segmentCount(1)
        .wireBytes(64).tailTimePs(0L).info(new MessageInfo(0, 1, 3L, 0, null, false, 0L)).elementOffset(0).slice(null)
        .build();
    NicIncUnit nic = new NicIncUnit(0, 8, new IncNicSpec(256, 0L, 1_000_000L, 3), 58);
    Packet control = nic.controlPacket(IncDataPlaneMessages.control(IncPacketType.TREE_DOWN, 0, 1,
        IncDataPlaneMessages.notify(5L, 1024, 2, 2, 1, 0, 0, 2, 1)), 1, 0L);
    Packet fragment = nic.startTask(IncDataPlaneMessages.task(0, 1, 3L, 5L, ReduceOp.SUM,
        DataBuffer.allocate(DataType.INT32, 4, false), 0), 1, 0L)[0];

    int taskLosses = 0;
    for (int i = 0; i < 100; i++) {
      assertThat(port.lostInTransit(ordinary)).isFalse();
      assertThat(port.lostInTransit(control)).isFalse();
      if (port.lostInTransit(fragment)) taskLosses++;
    }
    assertThat(taskLosses).isBetween(75, 100);
    assertThat(port.counters().droppedPackets()).isEqualTo(taskLosses);
  }

  @Test
  void shouldRefuseALossOnALinkThatDoesNotExist() {
    ScenarioSpec scenario = IncDataPlaneHarness.scenario(8, 4, 2, 256, 40 * Units.PS_PER_US, 30,
        List.of(new PacketDropSpec(1, TOR1, LOSS)), 1L);

    assertThatThrownBy(() -> Fabric.build(scenario)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("no link from vertex 1 to vertex 9");
  }
}
