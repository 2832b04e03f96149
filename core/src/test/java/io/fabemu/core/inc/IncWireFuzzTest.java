package io.fabemu.core.inc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.fail;

import io.fabemu.core.fuzz.FuzzTries;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.List;
import java.util.function.Function;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.Size;
import net.jqwik.api.lifecycle.AddLifecycleHook;

/**
 * Fuzzes the INC wire codec: random bytes and mutated valid frames either decode to a frame that encodes back to
 * exactly those bytes (the codec has no checksum, so a mutation that is still well formed cannot be told apart), or
 * are refused with a {@link WireFormatException} saying why; nothing else escapes.
 */
@AddLifecycleHook(FuzzTries.class)
class IncWireFuzzTest {

  @Provide
  Arbitrary<IncFrame> frames() {
    return new WireRoundTripPropertyTest().frames();
  }

  /** The bytes decode to a frame that is those bytes, or are refused as bad input with a message. */
  private static void assertDecodesExactlyOrIsRefused(byte[] bytes) {
    IncFrame frame;
    try {
      frame = IncWireCodec.decode(bytes);
    } catch (WireFormatException e) {
      assertThat(e.getMessage()).isNotBlank();
      return;
    } catch (Throwable e) {
      throw new AssertionError("decoding " + Arrays.toString(bytes) + " threw " + e, e);
    }
    assertThat(IncWireCodec.encode(frame)).isEqualTo(bytes);
  }

  @Property
  void randomBytesDecodeExactlyOrAreRefused(@ForAll @Size(max = 160) byte[] raw) {
    assertDecodesExactlyOrIsRefused(raw);
  }

  @Property
  void bitFlippedFramesDecodeExactlyOrAreRefused(@ForAll("frames") IncFrame frame,
                                                 @ForAll @Size(min = 1, max = 8) List<Integer> bits) {
    byte[] bytes = IncWireCodec.encode(frame);
    for (int bit : bits) {
      int at = Math.floorMod(bit, bytes.length * 8);
      bytes[at / 8] ^= (byte) (1 << (at % 8));
    }

    assertDecodesExactlyOrIsRefused(bytes);
  }

  /** Cut anywhere, or grown by bytes: the flag byte fixes the length, so both are refused. */
  @Property
  void resizedFramesAreRefused(@ForAll("frames") IncFrame frame, @ForAll int cut,
                               @ForAll @Size(min = 1, max = 64) byte[] extra) {
    byte[] bytes = IncWireCodec.encode(frame);
    byte[] shorter = Arrays.copyOf(bytes, 1 + Math.floorMod(cut, bytes.length - 1));  // empty: nullAndEmpty...
    byte[] longer = Arrays.copyOf(bytes, bytes.length + extra.length);
    System.arraycopy(extra, 0, longer, bytes.length, extra.length);

    assertThatThrownBy(() -> IncWireCodec.decode(shorter)).isInstanceOf(WireFormatException.class)
        .hasMessageContaining("needs");
    assertThatThrownBy(() -> IncWireCodec.decode(longer)).isInstanceOf(WireFormatException.class)
        .hasMessageContaining(extra.length + " trailing bytes");
  }

  /** Each header decoder alone, at any offset of random bytes: a record, or a refusal, and the buffer untouched. */
  @Property
  void headerDecodersReadOrRefuseWithoutMoving(@ForAll @Size(max = 80) byte[] raw, @ForAll int offset) {
    List<Function<ByteBuffer, Object>> decoders = List.of(MpiHeader::decode, IncHeader0::decode,
        IncHeader1::decode, IncHeader2::decode, ControlPayload::decode);
    int start = raw.length == 0 ? 0 : Math.floorMod(offset, raw.length + 1);
    for (Function<ByteBuffer, Object> decoder : decoders) {
      ByteBuffer in = ByteBuffer.wrap(raw);
      in.position(start);
      try {
        assertThat(decoder.apply(in)).isNotNull();
        assertThat(in.position()).isGreaterThan(start);
      } catch (WireFormatException e) {
        assertThat(e.getMessage()).isNotBlank();
        assertThat(in.position()).as("a refused header leaves the buffer as it was").isEqualTo(start);
      } catch (Throwable e) {
        fail("a header decoder threw " + e + " on " + Arrays.toString(raw) + " at " + start, e);
      }
    }
  }

  @Example
  void nullAndEmptyAreRefused() {
    assertThatThrownBy(() -> IncWireCodec.decode(null)).isInstanceOf(WireFormatException.class)
        .hasMessage("INC frame: no bytes to decode");
    assertThatThrownBy(() -> IncWireCodec.decode(new byte[0])).isInstanceOf(WireFormatException.class)
        .hasMessage("INC frame is empty");
  }

  @Example
  void triesComeFromTheSystemProperty() {
    String before = System.getProperty(FuzzTries.PROPERTY);
    try {
      System.clearProperty(FuzzTries.PROPERTY);
      assertThat(FuzzTries.tries()).isEqualTo(FuzzTries.DEFAULT_TRIES);
      System.setProperty(FuzzTries.PROPERTY, "12345");
      assertThat(FuzzTries.tries()).isEqualTo(12_345);
      System.setProperty(FuzzTries.PROPERTY, "0");
      assertThatThrownBy(FuzzTries::tries).hasMessage("fabemu.fuzz.tries must be a positive integer, got '0'");
    } finally {
      if (before == null) {
        System.clearProperty(FuzzTries.PROPERTY);
      } else {
        System.setProperty(FuzzTries.PROPERTY, before);
      }
    }
  }
}
