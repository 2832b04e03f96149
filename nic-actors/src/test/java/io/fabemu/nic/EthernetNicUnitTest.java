package io.fabemu.nic;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabemu.core.ethernet.AddressTable.Entry;
import io.fabemu.core.ethernet.EthernetFrame;
import io.fabemu.core.ethernet.EthernetReport.IoNicCounters;
import io.fabemu.core.ethernet.EthernetSpec;
import io.fabemu.core.ethernet.FramePayloads;
import io.fabemu.core.ethernet.MacAddress;
import io.fabemu.core.protocol.DeviceProtocol.EthernetCarriage;
import io.fabemu.core.time.Units;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@link EthernetNicUnit} driven by hand: outbound frames register their sender and go out on the cable one after
 * another; inbound frames go to the node the table names or to every node, bad ones are dropped; a disabled NIC, or
 * one whose router is down, drops everything; each case is counted.
 */
class EthernetNicUnitTest {
  private static final int HOST = 3;
  private static final long LATENCY_PS = 500_000L;
  private static final int FRAME_BYTES = 100;
  /** 118 bytes of frame with 20 of preamble and gap: 1104 bits at 10 Gbps. */
  private static final long SERIALIZATION_PS = 110_400L;
  private static final EthernetSpec SPEC = new EthernetSpec(List.of(HOST), List.of(), 10 * Units.GBPS, LATENCY_PS,
      2, 0, 1, 1, 0, FRAME_BYTES, 1_000_000L, 0L);

  /** A frame from node {@code node}'s MAC to {@code destination}. */
  private static byte[] frame(int node, long destination) {
    long source = MacAddress.ofNode(node);
    return new EthernetFrame(destination, source, EthernetFrame.ETHER_TYPE,
        FramePayloads.of(source, 0, FRAME_BYTES, 1L)).encode();
  }

  /** A frame from external host {@code host} to node {@code node}. */
  private static byte[] inbound(int host, int node) {
    long source = MacAddress.ofExternalHost(host);
    return new EthernetFrame(MacAddress.ofNode(node), source, EthernetFrame.ETHER_TYPE,
        FramePayloads.of(source, 0, FRAME_BYTES, 1L)).encode();
  }

  @Test
  void shouldRegisterTheSenderOfAnOutboundFrameAndSendItToThatNodeWhenAFrameComesBack() {
    EthernetNicUnit unit = new EthernetNicUnit(HOST, SPEC, true);
    assertThat(unit.fromNode(new EthernetCarriage(frame(5, MacAddress.ofExternalHost(0)), 5, 7, true))).isTrue();
    assertThat(unit.table().entries()).containsExactly(new Entry(MacAddress.ofNode(5), 5, 7));

    List<int[]> to = unit.fromCable(inbound(0, 5), 8, n -> -1);
    assertThat(to).singleElement().satisfies(nodeAndVia -> assertThat(nodeAndVia).containsExactly(5, 7));
    assertThat(unit.counters()).isEqualTo(new IoNicCounters(HOST, true, 1, 0, 1, 0, 1, 0,
        List.of(new Entry(MacAddress.ofNode(5), 5, 7))));
  }

  @Test
  void shouldBroadcastAFrameForAnUnknownMacToEveryNodeWithItsViaNode() {
    EthernetNicUnit unit = new EthernetNicUnit(HOST, SPEC, true);
    List<int[]> to = unit.fromCable(inbound(1, 2), 4, n -> n == 2 ? -1 : 10 + n);
    assertThat(to).extracting(nodeAndVia -> nodeAndVia[0] + "/" + nodeAndVia[1])
        .containsExactly("0/10", "1/11", "2/-1", "3/13");
    assertThat(unit.counters().broadcasts()).isEqualTo(1);
    assertThat(unit.counters().tableHits()).isZero();
  }

  @Test
  void shouldDropAFrameWhoseFcsFails() {
    EthernetNicUnit unit = new EthernetNicUnit(HOST, SPEC, true);
    byte[] corrupted = inbound(0, 1);
    corrupted[20] ^= 0x10;
    assertThat(unit.fromCable(corrupted, 4, n -> -1)).isEmpty();
    assertThat(unit.fromCable(new byte[12], 4, n -> -1)).as("too short to be a frame").isEmpty();
    assertThat(unit.counters().framesIn()).isEqualTo(2);
    assertThat(unit.counters().fcsDrops()).isEqualTo(2);
    assertThat(unit.counters().broadcasts()).isZero();
  }

  @Test
  void shouldDropEverythingWhileDisabledOrItsRouterIsDown() {
    EthernetNicUnit unit = new EthernetNicUnit(HOST, SPEC, false);
    assertThat(unit.enabled()).isFalse();
    assertThat(unit.fromCable(inbound(0, 1), 4, n -> -1)).isEmpty();
    assertThat(unit.fromNode(new EthernetCarriage(frame(1, MacAddress.ofExternalHost(0)), 1, -1, true))).isFalse();

    unit.setEnabled(true);
    unit.setRouterUp(false);
    assertThat(unit.fromCable(inbound(0, 1), 4, n -> -1)).isEmpty();
    unit.setRouterUp(true);
    assertThat(unit.fromCable(inbound(0, 1), 4, n -> -1)).hasSize(4);

    IoNicCounters counters = unit.counters();
    assertThat(counters.disabledDrops()).isEqualTo(3);
    assertThat(counters.framesIn()).isEqualTo(1);
    assertThat(counters.framesOut()).isZero();
    assertThat(counters.table()).as("a dropped outbound frame registers nothing").isEmpty();
  }

  @Test
  void shouldPutFramesOnTheCableOneAfterAnother() {
    EthernetNicUnit unit = new EthernetNicUnit(HOST, SPEC, true);
    int bytes = EthernetFrame.wireBytes(FRAME_BYTES);
    assertThat(unit.cableArrivalPs(1_000L, bytes)).isEqualTo(1_000L + SERIALIZATION_PS + LATENCY_PS);
    assertThat(unit.cableArrivalPs(1_000L, bytes)).isEqualTo(1_000L + 2 * SERIALIZATION_PS + LATENCY_PS);
    // After the cable went idle, a frame leaves at once.
    assertThat(unit.cableArrivalPs(1_000_000L, bytes)).isEqualTo(1_000_000L + SERIALIZATION_PS + LATENCY_PS);
  }

  @Test
  void shouldRefreshEveryEntrysViaNodeAndUpdateAnEntryANewFrameChanges() {
    EthernetNicUnit unit = new EthernetNicUnit(HOST, SPEC, true);
    unit.fromNode(new EthernetCarriage(frame(1, MacAddress.ofExternalHost(0)), 1, -1, true));
    unit.fromNode(new EthernetCarriage(frame(2, MacAddress.ofExternalHost(1)), 2, -1, true));
    unit.refresh(n -> 100 + n);
    assertThat(unit.table().entries()).containsExactly(new Entry(MacAddress.ofNode(1), 1, 101),
        new Entry(MacAddress.ofNode(2), 2, 102));
    unit.fromNode(new EthernetCarriage(frame(2, MacAddress.ofExternalHost(1)), 2, 6, true));
    assertThat(unit.table().lookup(MacAddress.ofNode(2))).isEqualTo(new Entry(MacAddress.ofNode(2), 2, 6));
  }

  @Test
  void shouldRefuseBytesFromANodeThatAreNoFrame() {
    EthernetNicUnit unit = new EthernetNicUnit(HOST, SPEC, true);
    assertThatThrownBy(() -> unit.fromNode(new EthernetCarriage(new byte[12], 4, -1, true)))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageStartingWith("Ethernet NIC of host 3: node 4 sent no valid frame: ");
  }
}
