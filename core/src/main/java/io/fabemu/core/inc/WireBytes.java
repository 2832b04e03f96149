package io.fabemu.core.inc;

import java.nio.ByteBuffer;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * Fixed-size big-endian reading and writing for the wire records.
 *
 * <p>Bytes go one at a time through absolute gets and puts, so the caller's {@link ByteBuffer#order()} does not
 * matter: the headers are big-endian whatever buffer they land in. The buffer's position moves only once the whole
 * header is done, so a header that fails to decode (or has no room to encode) leaves the buffer as it was.
 */
final class WireBytes {
  private WireBytes() {}

  static Reader reader(ByteBuffer in, String header, int size) {
    Objects.requireNonNull(in, () -> header + ": no buffer to decode from");
    if (in.remaining() < size) {
      throw new WireFormatException(header + " needs " + size + " bytes, got " + in.remaining());
    }
    return new Reader(in, header, size);
  }

  static Writer writer(ByteBuffer out, String header, int size) {
    Objects.requireNonNull(out, () -> header + ": no buffer to encode into");
    if (out.remaining() < size) {
      throw new IllegalArgumentException(header + " needs " + size + " bytes of room, got " + out.remaining());
    }
    return new Writer(out, header, size);
  }

  static final class Reader {
    private final ByteBuffer in;
    private final String header;
    private final int start;
    private final int end;
    private int at;

    private Reader(ByteBuffer in, String header, int size) {
      this.in = in;
      this.header = header;
      this.start = in.position();
      this.at = start;
      this.end = start + size;
    }

    int u8() {
      return in.get(at++) & 0xFF;
    }

    int u16() {
      return (u8() << 8) | u8();
    }

    long u32() {
      return ((long) u16() << 16) | u16();
    }

    /** A 4-byte field the record keeps as a signed int (two's complement, as C would). */
    int s32() {
      return (int) u32();
    }

    /**
     * Builds the record from the fields read inside {@code build}. Widths are fixed by the reads, so what the record
     * can still refuse is a relation between fields; that refusal is reported as bad input naming the header.
     */
    <T> T finish(Supplier<T> build) {
      T value;
      try {
        value = build.get();
      } catch (WireFormatException e) {
        throw e;
      } catch (IllegalArgumentException e) {
        throw new WireFormatException(header + ": " + e.getMessage(), e);
      }
      if (at != end) {
        throw new IllegalStateException(header + " decoder read " + (at - start) + " bytes of its " + (end - start));
      }
      in.position(end);
      return value;
    }
  }

  static final class Writer {
    private final ByteBuffer out;
    private final String header;
    private final int start;
    private final int end;
    private int at;

    private Writer(ByteBuffer out, String header, int size) {
      this.out = out;
      this.header = header;
      this.start = out.position();
      this.at = start;
      this.end = start + size;
    }

    Writer u8(long v) {
      out.put(at++, (byte) v);
      return this;
    }

    Writer u16(long v) {
      return u8(v >>> 8).u8(v);
    }

    Writer u32(long v) {
      return u16(v >>> 16).u16(v);
    }

    void finish() {
      if (at != end) {
        throw new IllegalStateException(header + " encoder wrote " + (at - start) + " bytes of its " + (end - start));
      }
      out.position(end);
    }
  }
}
