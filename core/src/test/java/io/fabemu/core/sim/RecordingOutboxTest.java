package io.fabemu.core.sim;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabemu.core.protocol.CircuitPayload;
import io.fabemu.core.protocol.DeviceProtocol.CircuitDown;
import io.fabemu.core.protocol.DeviceProtocol.CircuitUp;
import io.fabemu.core.protocol.DeviceProtocol.FaultDetected;
import io.fabemu.core.protocol.DeviceProtocol.StartWorkload;
import io.fabemu.core.sim.RecordingOutbox.Sent;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The shared test outbox: its time, what it records, and the views it gives of that. */
class RecordingOutboxTest {

  @Test
  void shouldStandAtTheTimeItIsMovedTo() {
    assertThat(new RecordingOutbox().nowPs()).isZero();
    assertThat(new RecordingOutbox(7_000L).nowPs()).isEqualTo(7_000L);
    RecordingOutbox outbox = new RecordingOutbox();
    assertThat(outbox.at(12_345L)).isSameAs(outbox);
    assertThat(outbox.nowPs()).isEqualTo(12_345L);
  }

  @Test
  void shouldRecordWhatIsSentInOrderWhateverTheTime() {
    RecordingOutbox outbox = new RecordingOutbox(5_000L);
    outbox.send(3, 9_000L, new FaultDetected(1));
    outbox.send(1, 6_000L, StartWorkload.INSTANCE);
    assertThat(outbox.sent()).containsExactly(new Sent(3, 9_000L, new FaultDetected(1)),
        new Sent(1, 6_000L, StartWorkload.INSTANCE));
  }

  @Test
  void shouldHandOutCopiesThatLaterSendsDoNotChange() {
    RecordingOutbox outbox = new RecordingOutbox();
    outbox.send(1, 1L, new FaultDetected(1));
    List<Sent> before = outbox.sent();
    outbox.send(2, 2L, new FaultDetected(2));
    assertThat(before).containsExactly(new Sent(1, 1L, new FaultDetected(1)));
    assertThat(outbox.sent()).hasSize(2);
  }

  @Test
  void shouldGiveWhatWasSentSinceAnIndexAndTakeOrClearEverything() {
    RecordingOutbox outbox = new RecordingOutbox();
    outbox.send(1, 10L, new FaultDetected(1));
    outbox.send(2, 20L, new FaultDetected(2));
    outbox.send(3, 30L, new FaultDetected(3));
    assertThat(outbox.since(1)).containsExactly(new Sent(2, 20L, new FaultDetected(2)),
        new Sent(3, 30L, new FaultDetected(3)));
    assertThat(outbox.since(3)).isEmpty();
    assertThat(outbox.take()).extracting(Sent::targetDevice).containsExactly(1, 2, 3);
    assertThat(outbox.take()).isEmpty();
    outbox.send(4, 40L, new FaultDetected(4));
    outbox.clear();
    assertThat(outbox.sent()).isEmpty();
  }

  @Test
  void shouldKeepOnePayloadTypeIncludingSubtypes() {
    RecordingOutbox outbox = new RecordingOutbox();
    outbox.send(1, 10L, new CircuitUp(2, 0L));
    outbox.send(1, 11L, new FaultDetected(5));
    outbox.send(2, 12L, new CircuitDown(1, 12L));
    assertThat(outbox.ofType(FaultDetected.class)).containsExactly(new Sent(1, 11L, new FaultDetected(5)));
    assertThat(outbox.ofType(CircuitPayload.class)).extracting(Sent::timePs).containsExactly(10L, 12L);
    assertThat(RecordingOutbox.ofType(outbox.sent(), CircuitDown.class)).extracting(Sent::targetDevice)
        .containsExactly(2);
    assertThat(outbox.payloads(CircuitUp.class)).containsExactly(new CircuitUp(2, 0L));
    assertThat(outbox.payloads(StartWorkload.class)).isEmpty();
  }
}
