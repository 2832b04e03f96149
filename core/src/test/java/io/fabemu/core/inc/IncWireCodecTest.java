package io.fabemu.core.inc;

import static io.fabemu.core.inc.WireSamples.bytes;
import static io.fabemu.core.inc.WireSamples.hex;
import static io.fabemu.core.inc.WireSamples.plain;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

class IncWireCodecTest {

  private static final long SRC = 0x0A000001L;
  private static final long DST = 0x0A000002L;

  /** The frame each type carries in the emulator, per {@link IncPacketType}'s javadoc. */
  private static IncFrame typical(IncPacketType type) {
    return switch (type) {
      case TREE_UP, TREE_DOWN -> new IncFrame(type, SRC, DST, WireSamples.MPI, WireSamples.HEADER0, null,
          WireSamples.CONTROL);
      case TASK_UP, TASK_DOWN -> new IncFrame(type, SRC, DST, WireSamples.MPI, null, WireSamples.HEADER2, null);
      case RELEASE -> new IncFrame(type, SRC, DST, WireSamples.MPI, null, null, WireSamples.CONTROL);
    };
  }

  @Test
  void taskFrameGolden() {
    IncFrame frame = typical(IncPacketType.TASK_UP);
    // 0x27 = INC flag | TASK_UP (3) << 1 | Header2 present.
    String expected = "27 0a000001 0a000002 " + WireSamples.MPI_HEX + " " + WireSamples.HEADER2_HEX;
    assertThat(hex(IncWireCodec.encode(frame))).isEqualTo(plain(expected));
    assertThat(IncWireCodec.wireBytes(frame)).isEqualTo(40);
  }

  @Test
  void treeFrameGolden() {
    IncFrame frame = typical(IncPacketType.TREE_DOWN);
    // 0x55 = INC flag | TREE_DOWN (2) << 1 | Header0 present | control present.
    String expected = "55 0a000001 0a000002 " + WireSamples.MPI_HEX + " " + WireSamples.HEADER0_HEX + " "
        + WireSamples.CONTROL_HEX;
    assertThat(hex(IncWireCodec.encode(frame))).isEqualTo(plain(expected));
    assertThat(IncWireCodec.wireBytes(frame)).isEqualTo(93);
  }

  @Test
  void allHeadersFollowInTheirFixedOrder() {
    IncFrame frame = new IncFrame(IncPacketType.RELEASE, 0, 0xFFFFFFFFL, WireSamples.MPI, WireSamples.HEADER0,
        WireSamples.HEADER2, WireSamples.CONTROL);
    String expected = "7b 00000000 ffffffff " + WireSamples.MPI_HEX + " " + WireSamples.HEADER0_HEX + " "
        + WireSamples.HEADER2_HEX + " " + WireSamples.CONTROL_HEX;
    assertThat(hex(IncWireCodec.encode(frame))).isEqualTo(plain(expected));
    assertThat(IncWireCodec.decode(bytes(expected))).isEqualTo(frame);
  }

  @ParameterizedTest
  @EnumSource(IncPacketType.class)
  void everyTypeRoundTrips(IncPacketType type) {
    IncFrame frame = typical(type);
    byte[] b = IncWireCodec.encode(frame);
    assertThat(b).hasSize(IncWireCodec.wireBytes(frame));
    assertThat(b[0] & 0x0F).isEqualTo(1 | type.code() << 1);
    assertThat(IncWireCodec.decode(b)).isEqualTo(frame);
  }

  @Test
  void typeCodesAndSizes() {
    assertThat(IncWireCodec.BASE_BYTES).isEqualTo(24);
    assertThat(IncWireCodec.encode(typical(IncPacketType.TREE_UP))[0] & 0xFF).isEqualTo(0x53);
    assertThat(IncWireCodec.encode(typical(IncPacketType.TASK_DOWN))[0] & 0xFF).isEqualTo(0x29);
    assertThat(IncWireCodec.encode(typical(IncPacketType.RELEASE))[0] & 0xFF).isEqualTo(0x4B);
    assertThat(IncWireCodec.wireBytes(typical(IncPacketType.RELEASE))).isEqualTo(24 + 53);
    assertThat(IncWireCodec.wireBytes(new IncFrame(IncPacketType.TASK_UP, SRC, DST, WireSamples.MPI, null, null,
        null))).isEqualTo(24);
  }

  // ---- bad input ----

  private static byte[] taskBytes() {
    return IncWireCodec.encode(typical(IncPacketType.TASK_UP));
  }

  @Test
  void missingIncFlag() {
    byte[] b = taskBytes();
    b[0] &= ~1;
    assertThatThrownBy(() -> IncWireCodec.decode(b))
        .isInstanceOf(WireFormatException.class)
        .hasMessage("INC frame flag byte 0x26 has no INC flag (bit 0)");
  }

  @Test
  void unknownTypeCodes() {
    for (int code : new int[] {0, 6, 7}) {
      byte[] b = taskBytes();
      b[0] = (byte) (b[0] & ~0x0E | code << 1);
      assertThatThrownBy(() -> IncWireCodec.decode(b))
          .isInstanceOf(WireFormatException.class)
          .hasMessage(String.format("INC frame flag byte 0x%02X has unknown packet type code %d", b[0] & 0xFF,
              code));
    }
  }

  @Test
  void shouldRefuseFrameWhenBit7AnnouncesStreamHeaderThatIsMissing() {
    byte[] b = taskBytes();
    b[0] |= (byte) 0x80;
    assertThatThrownBy(() -> IncWireCodec.decode(b))
        .isInstanceOf(WireFormatException.class)
        .hasMessage("INC frame (TASK_UP, Header2, stream header) needs 50 bytes, got 40");
  }

  @Test
  void shouldRoundTripChunkOfStreamedTaskWithStreamHeaderAfterHeader2() {
    IncFrame plain = IncWireCodec.decode(taskBytes());
    IncStreamHeader stream = new IncStreamHeader(70_000L, 262_144L, 64);
    IncFrame chunk = new IncFrame(plain.type(), plain.ipSource(), plain.ipDestination(), plain.mpi(), null,
        plain.header2(), null, stream);
    byte[] bytes = IncWireCodec.encode(chunk);
    assertThat(bytes).hasSize(50);
    assertThat(bytes[0] & 0x80).isEqualTo(0x80);
    assertThat(Arrays.copyOf(bytes, 40)).isEqualTo(withFlag(taskBytes(), 0x80));
    assertThat(IncWireCodec.decode(bytes)).isEqualTo(chunk);
    assertThat(IncWireCodec.wireBytes(chunk)).isEqualTo(50);
  }

  private static byte[] withFlag(byte[] b, int flag) {
    b[0] |= (byte) flag;
    return b;
  }

  @Test
  void tooShortForWhatTheFlagByteAnnounces() {
    byte[] b = Arrays.copyOf(taskBytes(), 39);
    assertThatThrownBy(() -> IncWireCodec.decode(b))
        .isInstanceOf(WireFormatException.class)
        .hasMessage("INC frame (TASK_UP, Header2) needs 40 bytes, got 39");

    byte[] tree = IncWireCodec.encode(typical(IncPacketType.TREE_UP));
    assertThatThrownBy(() -> IncWireCodec.decode(Arrays.copyOf(tree, 5)))
        .hasMessage("INC frame (TREE_UP, Header0, control payload) needs 93 bytes, got 5");

    // A flag byte that drops a header makes a correct-length frame too long, not a misread one.
    byte[] noHeader2 = taskBytes();
    noHeader2[0] &= ~0x20;
    assertThatThrownBy(() -> IncWireCodec.decode(noHeader2))
        .hasMessage("INC frame (TASK_UP) has 16 trailing bytes after its 24");
  }

  @Test
  void trailingBytes() {
    byte[] b = Arrays.copyOf(taskBytes(), 43);
    assertThatThrownBy(() -> IncWireCodec.decode(b))
        .isInstanceOf(WireFormatException.class)
        .hasMessage("INC frame (TASK_UP, Header2) has 3 trailing bytes after its 40");
  }

  @Test
  void emptyAndNull() {
    assertThatThrownBy(() -> IncWireCodec.decode(new byte[0]))
        .isInstanceOf(WireFormatException.class).hasMessage("INC frame is empty");
    assertThatThrownBy(() -> IncWireCodec.decode(null))
        .isInstanceOf(WireFormatException.class).hasMessage("INC frame: no bytes to decode");
  }

  @Test
  void outOfRangeFieldInsideAFrame() {
    byte[] b = taskBytes();
    // Header2 starts after the 24 base bytes; fragment_index (bytes 4-5) := 0x0304, equal to fragment_count.
    b[24 + 4] = 0x03;
    b[24 + 5] = 0x04;
    assertThatThrownBy(() -> IncWireCodec.decode(b))
        .isInstanceOf(WireFormatException.class)
        .hasMessage("Header2: fragment index 772 out of 772");
  }

  @Test
  void encodeRefusesIncompleteFrames() {
    assertThatThrownBy(() -> IncWireCodec.encode(new IncFrame(null, SRC, DST, WireSamples.MPI, null, null, null)))
        .isInstanceOf(IllegalArgumentException.class).hasMessage("INC frame: no packet type");
    assertThatThrownBy(() -> IncWireCodec.encode(new IncFrame(IncPacketType.RELEASE, SRC, DST, null, null, null,
        WireSamples.CONTROL)))
        .isInstanceOf(IllegalArgumentException.class).hasMessage("INC frame: no MPI header");
    assertThatThrownBy(() -> IncWireCodec.encode(new IncFrame(IncPacketType.RELEASE, 1L << 32, DST,
        WireSamples.MPI, null, null, null)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("INC frame: ip_source = 4294967296 does not fit 32 unsigned bits (0..4294967295)");
    assertThatThrownBy(() -> IncWireCodec.encode(new IncFrame(IncPacketType.RELEASE, SRC, -1,
        WireSamples.MPI, null, null, null)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("INC frame: ip_destination = -1 does not fit");
  }

  @Test
  void fabricAddressesSurvive() {
    IncFrame frame = new IncFrame(IncPacketType.TASK_DOWN, IncAddresses.ofVertex(0),
        IncAddresses.ofVertex(0x00FFFFFD), WireSamples.MPI, null, WireSamples.HEADER2, null);
    IncFrame back = IncWireCodec.decode(IncWireCodec.encode(frame));
    assertThat(IncAddresses.vertexOf(back.ipSource())).isZero();
    assertThat(IncAddresses.vertexOf(back.ipDestination())).isEqualTo(0x00FFFFFD);
  }
}
