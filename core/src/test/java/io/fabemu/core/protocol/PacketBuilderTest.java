package io.fabemu.core.protocol;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabemu.core.data.DataBuffer;
import io.fabemu.core.data.DataType;
import io.fabemu.core.inc.IncFrame;
import io.fabemu.core.inc.IncHeader2;
import io.fabemu.core.inc.IncPacketType;
import io.fabemu.core.inc.MpiHeader;
import io.fabemu.core.protocol.DeviceProtocol.MessageInfo;
import io.fabemu.core.protocol.DeviceProtocol.Packet;
import org.junit.jupiter.api.Test;

/** {@link Packet#builder()} and {@link Packet#toBuilder()} set every component, each under its own name. */
class PacketBuilderTest {
  private static final DataBuffer SLICE = DataBuffer.wrap(DataType.INT32, new int[] {1, 2, 3}, null);
  private static final MessageInfo INFO = new MessageInfo(11, 12, 13L, 3, DataType.INT32, false, 12L);
  private static final IncFrame FRAME = new IncFrame(IncPacketType.TASK_UP, 0x0A000001L, 0x0A000002L,
      new MpiHeader(21, 22, 23, 24, 25, 26, 27), null, new IncHeader2(31L, 32, 33, 34, 0, 0x0A000003L), null);

  /** Distinct values for all eleven components, through the canonical constructor. */
  private static final Packet SAMPLE = new Packet(1, 2, 3L, 4, 5, 6, 7L, INFO, 8, SLICE, FRAME);

  @Test
  void shouldSetEveryComponentWhenBuiltByName() {
    Packet built = Packet.builder().sourceHost(1).destinationHost(2).messageId(3L).segmentIndex(4).segmentCount(5)
        .wireBytes(6).tailTimePs(7L).info(INFO).elementOffset(8).slice(SLICE).extension(FRAME).build();

    assertThat(built).isEqualTo(SAMPLE);
  }

  @Test
  void shouldCarryTheTransmissionOfAResentCopyThroughEveryCopyOfThePacket() {
    Packet resent = SAMPLE.toBuilder().transmission(2).build();

    assertThat(resent.transmission()).isEqualTo(2);
    assertThat(resent.withTailTimePs(70L).transmission()).isEqualTo(2);
    assertThat(resent.asCorrupted().transmission()).isEqualTo(2);
    assertThat(SAMPLE.transmission()).isZero();
  }

  @Test
  void shouldDefaultEveryComponentToZeroOrNullWhenNotSet() {
    assertThat(Packet.builder().build()).isEqualTo(new Packet(0, 0, 0L, 0, 0, 0, 0L, null, 0, null, null));
  }

  @Test
  void shouldCopyEveryComponentWhenRebuiltFromToBuilder() {
    assertThat(SAMPLE.toBuilder().build()).isEqualTo(SAMPLE);
  }

  @Test
  void shouldChangeOnlyTheComponentSetWhenCopiedThroughToBuilder() {
    Packet ordinary = SAMPLE.toBuilder().destinationHost(9).extension(null).build();

    assertThat(ordinary).isEqualTo(new Packet(1, 9, 3L, 4, 5, 6, 7L, INFO, 8, SLICE, null));
    assertThat(SAMPLE.withTailTimePs(70L)).isEqualTo(SAMPLE.toBuilder().tailTimePs(70L).build());
  }
}
