package io.fabemu.nic;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabemu.core.protocol.DeviceProtocol.NicSend;
import io.fabemu.core.protocol.DeviceProtocol.Packet;
import io.fabemu.core.protocol.DeviceProtocol.RoutedPacket;
import io.fabemu.core.protocol.DeviceProtocol.TransportTimer;
import io.fabemu.core.protocol.Message;
import io.fabemu.core.sim.RecordingOutbox;
import org.junit.jupiter.api.Test;

/** The chassis's own transport: each message once, under a new id; acknowledgements and losses are errors. */
class PlainTransportTest {

  @Test
  void shouldSendEachMessageOnceUnderANewId() {
    NicCore nic = NicFixtures.onLine(0).build();
    PlainTransport plain = new PlainTransport(nic.services(), nic);
    RecordingOutbox outbox = new RecordingOutbox(0L);
    plain.send(new NicSend(1, Message.synthetic(0, 1, 1L, 10L)), outbox);
    plain.send(new NicSend(1, Message.synthetic(0, 1, 2L, 10L)), outbox);
    assertThat(outbox.payloads(Packet.class)).extracting(Packet::messageId).containsExactly(0L, 1L);
    assertThat(plain.arrives(1, 5L)).isTrue();
    assertThat(plain.discardsCopy(outbox.payloads(Packet.class).get(0), outbox)).isFalse();
  }

  @Test
  void shouldRefuseWhatOnlyTheReliableTransportHas() {
    NicCore nic = NicFixtures.onLine(0).build();
    PlainTransport plain = new PlainTransport(nic.services(), nic);
    Packet ack = Packet.builder().sourceHost(1).destinationHost(0).segmentCount(1).wireBytes(64).ack(true).build();
    assertThatThrownBy(() -> plain.acknowledged(ack, 0L)).isInstanceOf(IllegalStateException.class)
        .hasMessage("NIC 0 got an acknowledgement from host 1 in a run without the reliable transport");
    RoutedPacket lost = new RoutedPacket(4L, 0, 1, 2, 0L, false, null);
    assertThatThrownBy(() -> plain.packetLost(lost, 3)).isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("lost to fault event 3 in a run without a fault plan");
    TransportTimer timer = new TransportTimer(1, 0L, 0);
    assertThatThrownBy(() -> plain.onTimer(timer, new RecordingOutbox()))
        .isInstanceOf(IllegalArgumentException.class).hasMessage("NIC 0 cannot handle " + timer);
  }
}
