package io.fabemu.core.inc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import org.junit.jupiter.api.Test;

class IncStreamHeaderTest {

  @Test
  void shouldPlaceChunksOnWindowPositionsRoundByRound() {
    // 10 chunks over a window of 4: positions 0..3 take chunks 0-3, then 4-7, then 8-9.
    IncStreamHeader chunk9 = new IncStreamHeader(9, 10, 4);
    assertThat(chunk9.slotPosition()).isEqualTo(1);
    assertThat(chunk9.round()).isEqualTo(2);
    assertThat(chunk9.lastRound()).isEqualTo(2);
    IncStreamHeader chunk3 = new IncStreamHeader(3, 10, 4);
    assertThat(chunk3.slotPosition()).isEqualTo(3);
    assertThat(chunk3.round()).isZero();
    assertThat(chunk3.lastRound()).isEqualTo(1); // chunk 7 is the last at position 3
  }

  @Test
  void shouldEncodeTenBytesBigEndianAndDecodeThemBack() {
    IncStreamHeader header = new IncStreamHeader(0x01020304L, 0x0A0B0C0DL, 0x0E0F);
    ByteBuffer out = ByteBuffer.allocate(IncStreamHeader.WIRE_BYTES);
    header.encode(out);
    assertThat(out.array()).containsExactly(1, 2, 3, 4, 10, 11, 12, 13, 14, 15);
    assertThat(IncStreamHeader.decode(ByteBuffer.wrap(out.array()))).isEqualTo(header);
  }

  @Test
  void shouldRefuseStreamOfOneChunkOrChunkBeyondCount() {
    assertThatThrownBy(() -> new IncStreamHeader(0, 1, 4)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new IncStreamHeader(5, 5, 4)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new IncStreamHeader(0, 5, 0)).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void shouldCarryStreamWindowInSupCommTypeBitsBesideAllreduceBit() {
    int commType = IncCodes.withStreamWindow(1, 64);
    assertThat(commType).isEqualTo(1 | 64 << 1);
    assertThat(IncCodes.streamWindow(commType)).isEqualTo(64);
    assertThat(IncCodes.streamWindow(1)).isZero();
    assertThatThrownBy(() -> IncCodes.withStreamWindow(1, 128)).isInstanceOf(IllegalArgumentException.class);
  }
}
