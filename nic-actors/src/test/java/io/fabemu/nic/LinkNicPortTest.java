package io.fabemu.nic;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabemu.core.protocol.DeviceProtocol.NicSend;
import io.fabemu.core.protocol.DeviceProtocol.Packet;
import io.fabemu.core.protocol.DeviceProtocol.RouterCycle;
import io.fabemu.core.protocol.Message;
import io.fabemu.core.sim.Event;
import io.fabemu.core.sim.RecordingOutbox;
import org.junit.jupiter.api.Test;

/** The link port: a message's packets go out on the routed egress port, one after the other. */
class LinkNicPortTest {

  @Test
  void shouldPutEverySegmentOnTheLinkAndSayWhenTheLastLeft() {
    NicCore nic = NicFixtures.onLine(0).build();
    assertThat(nic.port()).isInstanceOf(LinkNicPort.class);
    RecordingOutbox outbox = new RecordingOutbox(0L);
    long leftPs = nic.services().transmitMessage(1, Message.synthetic(0, 1, 7L, 2_500L), 9L, 0, outbox);
    // 2500 B of 8 B elements in 1000 B segments: 1000, 1000, 500.
    assertThat(outbox.payloads(Packet.class)).extracting(Packet::segmentIndex).containsExactly(0, 1, 2);
    assertThat(outbox.payloads(Packet.class)).extracting(Packet::messageId).containsOnly(9L);
    assertThat(outbox.sent()).extracting(RecordingOutbox.Sent::targetDevice).containsOnly(1);
    // Work request 100 ns; DMA reads of 125 ns per 1000 B; at 25 Gbps 1064 B take 340.48 ns and 564 B 180.48 ns:
    // the first leaves from 225 ns, the others queue behind it, the last has left at 225 + 2 x 340.48 + 180.48 ns.
    assertThat(leftPs).isEqualTo(225_000L + 2 * 340_480L + 180_480L);
  }

  @Test
  void shouldCountLinkBytesInTheReport() {
    NicCore nic = NicFixtures.onLine(0).build();
    RecordingOutbox outbox = new RecordingOutbox(0L);
    nic.onEvent(new Event(0L, 2, 0L, 0, new NicSend(1, Message.synthetic(0, 1, 7L, 100L))), outbox);
    assertThat(nic.report().links()).hasSize(1);
    assertThat(nic.report().links().get(0).bytes()).isEqualTo(100L + NicFixtures.HEADER_BYTES);
  }

  @Test
  void shouldRefuseRouterPayloads() {
    NicCore nic = NicFixtures.onLine(1).build();
    RecordingOutbox outbox = new RecordingOutbox(0L);
    assertThatThrownBy(() -> nic.onEvent(new Event(0L, 1, 0L, 1, RouterCycle.INSTANCE), outbox))
        .isInstanceOf(IllegalArgumentException.class).hasMessage("NIC 1 cannot handle " + RouterCycle.INSTANCE);
  }
}
