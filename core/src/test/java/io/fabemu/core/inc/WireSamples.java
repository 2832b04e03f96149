package io.fabemu.core.inc;

import java.nio.ByteBuffer;
import java.util.HexFormat;

/**
 * Records whose every field has a distinct byte pattern, so that a field written at the wrong offset, in the wrong
 * order or little-endian shows up in the golden hex. Shared by the header and frame tests.
 */
final class WireSamples {
  private WireSamples() {}

  static final MpiHeader MPI = new MpiHeader(0x01020304, 0x8090A0B0, 0xABCD, 0x11, 0x22, 0x33, 0x4455);
  static final String MPI_HEX = "01020304 8090a0b0 abcd 11 22 33 4455";

  static final IncHeader0 HEADER0 = new IncHeader0(0x01020304L, 0xF1F2F3F4L, 0xABCD, 0x02, 0x01, 0x0A000005L);
  static final String HEADER0_HEX = "01020304 f1f2f3f4 abcd 02 01 0a000005";

  static final IncHeader1 HEADER1 = new IncHeader1(0x01020304L, 0x05060708L, 0x09, 0x0A, 0xABCD, 0x11121314L,
      0x21222324L, 0xC0A80001L);
  static final String HEADER1_HEX = "01020304 05060708 09 0a abcd 11121314 21222324 c0a80001";

  static final IncHeader2 HEADER2 = new IncHeader2(0xDEADBEEFL, 0x0102, 0x0304, 0x0506, 0x0001, 0x0A000007L);
  static final String HEADER2_HEX = "deadbeef 0102 0304 0506 0001 0a000007";

  static final ControlPayload CONTROL = new ControlPayload(0x01, 0x82, 0x03, 0x0405, 0x0607, 0x0100, 0x0809,
      0x0A0B, 0x0C0D0E0FL, 0x10111213L, 0x14, 0x15, 0x16171819L, 0x0A000001L, 0x0A000002L, 0x0A000003L,
      0x1A1B1C1DL, 0xABCD, 0x1E1F2021L, 0x2223, 0x2425);
  static final String CONTROL_HEX = "01 82 03 0405 0607 0100 0809 0a0b 0c0d0e0f 10111213 14 15 16171819"
      + " 0a000001 0a000002 0a000003 1a1b1c1d abcd 1e1f2021 2223 2425";

  static String hex(byte[] bytes) {
    return HexFormat.of().formatHex(bytes);
  }

  /** Spaces in the expected hex mark field boundaries for the reader; they are not on the wire. */
  static String plain(String spacedHex) {
    return spacedHex.replace(" ", "");
  }

  static byte[] bytes(String spacedHex) {
    return HexFormat.of().parseHex(plain(spacedHex));
  }

  static byte[] written(int size, java.util.function.Consumer<ByteBuffer> encode) {
    ByteBuffer out = ByteBuffer.allocate(size);
    encode.accept(out);
    return out.array();
  }
}
