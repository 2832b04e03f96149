package io.fabemu.core.inc;

import static io.fabemu.core.inc.WireSamples.bytes;
import static io.fabemu.core.inc.WireSamples.hex;
import static io.fabemu.core.inc.WireSamples.plain;
import static io.fabemu.core.inc.WireSamples.written;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.function.Consumer;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

class WireHeaderCodecTest {

  @Test
  void sizesAddUpToTheDocumentedWidths() {
    assertThat(MpiHeader.WIRE_BYTES).isEqualTo(15);
    assertThat(IncHeader0.WIRE_BYTES).isEqualTo(16);
    assertThat(IncHeader1.WIRE_BYTES).isEqualTo(24);
    assertThat(IncHeader2.WIRE_BYTES).isEqualTo(16);
    assertThat(ControlPayload.WIRE_BYTES).isEqualTo(53);
  }

  // ---- golden bytes: field order, widths and big-endianness ----

  @Test
  void mpiHeaderGolden() {
    byte[] b = written(MpiHeader.WIRE_BYTES, WireSamples.MPI::encode);
    assertThat(hex(b)).isEqualTo(plain(WireSamples.MPI_HEX));
    // comm_id sits after tag and src_rank, high byte first.
    assertThat(b[8] & 0xFF).isEqualTo(0xAB);
    assertThat(b[9] & 0xFF).isEqualTo(0xCD);
    assertThat(MpiHeader.decode(ByteBuffer.wrap(b))).isEqualTo(WireSamples.MPI);
  }

  @Test
  void mpiHeaderSignedFieldsAreTwosComplement() {
    MpiHeader h = new MpiHeader(-1, Integer.MIN_VALUE, MpiHeader.CONTROL_COMM_ID, 0, 0, 0, 0);
    byte[] b = written(MpiHeader.WIRE_BYTES, h::encode);
    assertThat(hex(b)).isEqualTo(plain("ffffffff 80000000 ffff 00 00 00 0000"));
    assertThat(MpiHeader.decode(ByteBuffer.wrap(b))).isEqualTo(h);
  }

  @Test
  void header0Golden() {
    byte[] b = written(IncHeader0.WIRE_BYTES, WireSamples.HEADER0::encode);
    assertThat(hex(b)).isEqualTo(plain(WireSamples.HEADER0_HEX));
    assertThat(IncHeader0.decode(ByteBuffer.wrap(b))).isEqualTo(WireSamples.HEADER0);
  }

  @Test
  void header1Golden() {
    byte[] b = written(IncHeader1.WIRE_BYTES, WireSamples.HEADER1::encode);
    assertThat(hex(b)).isEqualTo(plain(WireSamples.HEADER1_HEX));
    assertThat(IncHeader1.decode(ByteBuffer.wrap(b))).isEqualTo(WireSamples.HEADER1);
  }

  @Test
  void header2Golden() {
    byte[] b = written(IncHeader2.WIRE_BYTES, WireSamples.HEADER2::encode);
    assertThat(hex(b)).isEqualTo(plain(WireSamples.HEADER2_HEX));
    assertThat(IncHeader2.decode(ByteBuffer.wrap(b))).isEqualTo(WireSamples.HEADER2);
  }

  @Test
  void controlPayloadGolden() {
    byte[] b = written(ControlPayload.WIRE_BYTES, WireSamples.CONTROL::encode);
    assertThat(hex(b)).isEqualTo(plain(WireSamples.CONTROL_HEX));
    // c_id (0xABCD) follows job_id at offset 43.
    assertThat(b[43] & 0xFF).isEqualTo(0xAB);
    assertThat(b[44] & 0xFF).isEqualTo(0xCD);
    ControlPayload decoded = ControlPayload.decode(ByteBuffer.wrap(b));
    assertThat(decoded).isEqualTo(WireSamples.CONTROL);
    assertThat(decoded.isNotify()).isTrue();
    assertThat(decoded.hops()).isEqualTo(2);
  }

  @Test
  void allOnesAndAllZerosRoundTrip() {
    ControlPayload max = new ControlPayload(0xFF, 0xFF, 0xFF, 0xFFFF, 0xFFFF, 0xFFFF, 0xFFFF, 0xFFFF, 0xFFFFFFFFL,
        0xFFFFFFFFL, 0xFF, 0xFF, 0xFFFFFFFFL, 0xFFFFFFFFL, 0xFFFFFFFFL, 0xFFFFFFFFL, 0xFFFFFFFFL, 0xFFFF,
        0xFFFFFFFFL, 0xFFFF, 0xFFFF);
    byte[] ones = written(ControlPayload.WIRE_BYTES, max::encode);
    assertThat(hex(ones)).isEqualTo("ff".repeat(ControlPayload.WIRE_BYTES));
    assertThat(ControlPayload.decode(ByteBuffer.wrap(ones))).isEqualTo(max);

    ControlPayload zero = ControlPayload.decode(ByteBuffer.wrap(new byte[ControlPayload.WIRE_BYTES]));
    assertThat(zero).isEqualTo(new ControlPayload(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0));
  }

  // ---- buffer handling ----

  @Test
  void byteOrderOfTheCallersBufferDoesNotMatter() {
    ByteBuffer little = ByteBuffer.allocate(MpiHeader.WIRE_BYTES).order(ByteOrder.LITTLE_ENDIAN);
    WireSamples.MPI.encode(little);
    assertThat(hex(little.array())).isEqualTo(plain(WireSamples.MPI_HEX));
    little.flip();
    assertThat(MpiHeader.decode(little)).isEqualTo(WireSamples.MPI);
  }

  @Test
  void headersFollowEachOtherInOneBuffer() {
    ByteBuffer out = ByteBuffer.allocate(3 + MpiHeader.WIRE_BYTES + IncHeader2.WIRE_BYTES + 2);
    out.put(new byte[] {9, 9, 9});
    WireSamples.MPI.encode(out);
    assertThat(out.position()).isEqualTo(3 + MpiHeader.WIRE_BYTES);
    WireSamples.HEADER2.encode(out);
    assertThat(out.position()).isEqualTo(3 + MpiHeader.WIRE_BYTES + IncHeader2.WIRE_BYTES);
    assertThat(hex(out.array())).isEqualTo(plain("090909" + WireSamples.MPI_HEX + WireSamples.HEADER2_HEX + "0000"));

    ByteBuffer in = ByteBuffer.wrap(out.array());
    in.position(3);
    assertThat(MpiHeader.decode(in)).isEqualTo(WireSamples.MPI);
    assertThat(IncHeader2.decode(in)).isEqualTo(WireSamples.HEADER2);
    assertThat(in.remaining()).isEqualTo(2);
  }

  // ---- bad input ----

  @Test
  void shortBufferNamesTheHeaderAndTheCounts() {
    assertShort(MpiHeader::decode, 9, "MPI header needs 15 bytes, got 9");
    assertShort(IncHeader0::decode, 15, "Header0 needs 16 bytes, got 15");
    assertShort(IncHeader1::decode, 0, "Header1 needs 24 bytes, got 0");
    assertShort(IncHeader2::decode, 4, "Header2 needs 16 bytes, got 4");
    assertShort(ControlPayload::decode, 52, "control payload needs 53 bytes, got 52");
  }

  private static void assertShort(Function<ByteBuffer, ?> decode, int available, String message) {
    ByteBuffer in = ByteBuffer.wrap(new byte[available + 5]);
    in.position(5);
    assertThatThrownBy(() -> decode.apply(in)).isInstanceOf(WireFormatException.class).hasMessage(message);
    assertThat(in.position()).as("position after a failed decode").isEqualTo(5);
  }

  @Test
  void header2FragmentIndexAtOrAboveCountIsRefusedOnDecode() {
    ByteBuffer in = ByteBuffer.wrap(bytes("00000001 0005 0003 0100 0000 0a000001"));
    assertThatThrownBy(() -> IncHeader2.decode(in))
        .isInstanceOf(WireFormatException.class)
        .hasMessage("Header2: fragment index 5 out of 3")
        .hasCauseInstanceOf(IllegalArgumentException.class);
    assertThat(in.position()).isZero();

    assertThatThrownBy(() -> IncHeader2.decode(ByteBuffer.wrap(bytes("00000001 0003 0003 0100 0000 0a000001"))))
        .hasMessage("Header2: fragment index 3 out of 3");
    assertThatThrownBy(() -> IncHeader2.decode(ByteBuffer.wrap(bytes("00000001 0000 0000 0100 0000 0a000001"))))
        .hasMessage("Header2: fragment index 0 out of 0");
  }

  @Test
  void encodeWithoutRoomSaysSoAndWritesNothing() {
    ByteBuffer out = ByteBuffer.allocate(20);
    out.position(10);
    assertThatThrownBy(() -> WireSamples.HEADER0.encode(out))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("Header0 needs 16 bytes of room, got 10");
    assertThat(out.position()).isEqualTo(10);
    assertThat(out.array()).containsOnly(0);
  }

  @Test
  void nullBuffersAreNamed() {
    assertThatThrownBy(() -> ControlPayload.decode(null)).hasMessage("control payload: no buffer to decode from");
    Consumer<ByteBuffer> encode = WireSamples.HEADER1::encode;
    assertThatThrownBy(() -> encode.accept(null)).hasMessage("Header1: no buffer to encode into");
  }
}
