package io.fabemu.core.inc;

import java.nio.ByteBuffer;
import java.util.StringJoiner;

/**
 * The bytes of an {@link IncFrame} as they follow the RoCEv2 headers of an INC packet, big-endian:
 *
 * <pre>
 *   1 B  flag byte: bit 0 INC flag (always set), bits 1-3 {@link IncPacketType#code()}, bit 4 Header0 present,
 *        bit 5 Header2 present, bit 6 control payload present, bit 7 stream header present
 *   4 B  IP source
 *   4 B  IP destination
 *  15 B  {@link MpiHeader}
 *  16 B  {@link IncHeader0}      when present
 *  16 B  {@link IncHeader2}      when present
 *  10 B  {@link IncStreamHeader}  when present (a chunk of a streamed task)
 *  53 B  {@link ControlPayload}  when present
 * </pre>
 *
 * <p>The presence bits make a frame self-describing, so the codec does not tie headers to packet types: whatever
 * {@link IncFrame} holds comes back out. Every byte string {@link #decode} accepts encodes back to itself.
 */
public final class IncWireCodec {
  /** Bytes every frame has: the flag byte, the two addresses and the MPI header. */
  public static final int BASE_BYTES = 1 + 4 + 4 + MpiHeader.WIRE_BYTES;

  static final int INC_FLAG = 0x01;
  static final int TYPE_SHIFT = 1;
  static final int TYPE_MASK = 0x07;
  static final int HAS_HEADER0 = 0x10;
  static final int HAS_HEADER2 = 0x20;
  static final int HAS_CONTROL = 0x40;
  static final int HAS_STREAM = 0x80;

  private static final String NAME = "INC frame";

  private IncWireCodec() {}

  /** The encoded length of {@code frame}; allocation-free, as the emulator calls it for every INC packet. */
  public static int wireBytes(IncFrame frame) {
    return BASE_BYTES
        + (frame.header0() != null ? IncHeader0.WIRE_BYTES : 0)
        + (frame.header2() != null ? IncHeader2.WIRE_BYTES : 0)
        + (frame.stream() != null ? IncStreamHeader.WIRE_BYTES : 0)
        + (frame.control() != null ? ControlPayload.WIRE_BYTES : 0);
  }

  /**
   * The frame's bytes.
   *
   * @throws IllegalArgumentException when the frame has no type or MPI header, or an address does not fit 32 bits
   */
  public static byte[] encode(IncFrame frame) {
    if (frame == null) throw new IllegalArgumentException(NAME + ": no frame to encode");
    if (frame.type() == null) throw new IllegalArgumentException(NAME + ": no packet type");
    if (frame.mpi() == null) throw new IllegalArgumentException(NAME + ": no MPI header");
    checkAddress("ip_source", frame.ipSource());
    checkAddress("ip_destination", frame.ipDestination());

    int flags = INC_FLAG | (frame.type().code() << TYPE_SHIFT);
    if (frame.header0() != null) flags |= HAS_HEADER0;
    if (frame.header2() != null) flags |= HAS_HEADER2;
    if (frame.control() != null) flags |= HAS_CONTROL;
    if (frame.stream() != null) flags |= HAS_STREAM;

    byte[] bytes = new byte[wireBytes(frame)];
    ByteBuffer out = ByteBuffer.wrap(bytes);
    WireBytes.writer(out, NAME, 1 + 4 + 4).u8(flags).u32(frame.ipSource()).u32(frame.ipDestination()).finish();
    frame.mpi().encode(out);
    if (frame.header0() != null) frame.header0().encode(out);
    if (frame.header2() != null) frame.header2().encode(out);
    if (frame.stream() != null) frame.stream().encode(out);
    if (frame.control() != null) frame.control().encode(out);
    return bytes;
  }

  /**
   * The frame in {@code bytes}, which must hold exactly one frame.
   *
   * @throws WireFormatException when the INC flag is missing, the type code is unknown, the length is not the one the
   *     flag byte announces, or a header holds values its record refuses
   */
  public static IncFrame decode(byte[] bytes) {
    if (bytes == null) throw new WireFormatException(NAME + ": no bytes to decode");
    if (bytes.length == 0) throw new WireFormatException(NAME + " is empty");
    int flags = bytes[0] & 0xFF;
    String flagByte = String.format("flag byte 0x%02X", flags);
    if ((flags & INC_FLAG) == 0) {
      throw new WireFormatException(NAME + " " + flagByte + " has no INC flag (bit 0)");
    }
    int code = (flags >>> TYPE_SHIFT) & TYPE_MASK;
    IncPacketType type = IncPacketType.ofCode(code);
    if (type == null) {
      throw new WireFormatException(NAME + " " + flagByte + " has unknown packet type code " + code);
    }
    boolean hasHeader0 = (flags & HAS_HEADER0) != 0;
    boolean hasHeader2 = (flags & HAS_HEADER2) != 0;
    boolean hasControl = (flags & HAS_CONTROL) != 0;
    boolean hasStream = (flags & HAS_STREAM) != 0;

    // The length is checked against the flag byte up front, so that the headers below never run short and a
    // truncated or padded frame is reported as such rather than as whichever header happened to be cut.
    int expected = BASE_BYTES
        + (hasHeader0 ? IncHeader0.WIRE_BYTES : 0)
        + (hasHeader2 ? IncHeader2.WIRE_BYTES : 0)
        + (hasStream ? IncStreamHeader.WIRE_BYTES : 0)
        + (hasControl ? ControlPayload.WIRE_BYTES : 0);
    String shape = describe(type, hasHeader0, hasHeader2, hasStream, hasControl);
    if (bytes.length < expected) {
      throw new WireFormatException(shape + " needs " + expected + " bytes, got " + bytes.length);
    }
    if (bytes.length > expected) {
      throw new WireFormatException(shape + " has " + (bytes.length - expected) + " trailing bytes after its "
          + expected);
    }

    ByteBuffer in = ByteBuffer.wrap(bytes, 1, bytes.length - 1);
    WireBytes.Reader r = WireBytes.reader(in, NAME, 4 + 4);
    long[] addresses = r.finish(() -> new long[] {r.u32(), r.u32()});
    MpiHeader mpi = MpiHeader.decode(in);
    IncHeader0 header0 = hasHeader0 ? IncHeader0.decode(in) : null;
    IncHeader2 header2 = hasHeader2 ? IncHeader2.decode(in) : null;
    IncStreamHeader stream = hasStream ? IncStreamHeader.decode(in) : null;
    ControlPayload control = hasControl ? ControlPayload.decode(in) : null;
    return new IncFrame(type, addresses[0], addresses[1], mpi, header0, header2, control, stream);
  }

  private static void checkAddress(String field, long address) {
    try {
      WireChecks.unsigned(field, address, 32);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(NAME + ": " + e.getMessage(), e);
    }
  }

  /** "INC frame (TREE_UP, Header0, control payload)": what the flag byte says the frame holds. */
  private static String describe(IncPacketType type, boolean hasHeader0, boolean hasHeader2, boolean hasStream,
                                 boolean hasControl) {
    StringJoiner s = new StringJoiner(", ", NAME + " (", ")");
    s.add(type.name());
    if (hasHeader0) s.add(IncHeader0.NAME);
    if (hasHeader2) s.add(IncHeader2.NAME);
    if (hasStream) s.add(IncStreamHeader.NAME);
    if (hasControl) s.add(ControlPayload.NAME);
    return s.toString();
  }
}
