package io.fabemu.core.ethernet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabemu.core.fuzz.FuzzTries;
import java.util.Arrays;
import java.util.List;
import java.util.zip.CRC32;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import net.jqwik.api.lifecycle.AddLifecycleHook;

/**
 * Fuzzes the Ethernet frame codec and the frame payloads: random bytes are refused with an
 * {@link EthernetFormatException} or decode to a frame that encodes back to them; a corrupted valid frame is always
 * refused (its FCS is a CRC-32, which catches every error of up to three bits or one burst of up to 32 bits in a
 * frame this short); a corrupted payload never verifies.
 */
@AddLifecycleHook(FuzzTries.class)
class EthernetFrameFuzzTest {

  @Provide
  Arbitrary<EthernetFrame> frames() {
    Arbitrary<Long> macs = Arbitraries.longs().between(0, (1L << 48) - 1);
    Arbitrary<Integer> types = Arbitraries.integers().between(0x0600, 0xFFFF);
    Arbitrary<byte[]> payloads = Arbitraries.bytes().array(byte[].class).ofMaxSize(EthernetFrame.MAX_PAYLOAD_BYTES);
    return Combinators.combine(macs, macs, types, payloads).as(EthernetFrame::new);
  }

  /** Decoded to a frame that is exactly these bytes, or refused with a message; nothing else. */
  private static void assertDecodesExactlyOrIsRefused(byte[] bytes) {
    EthernetFrame frame;
    try {
      frame = EthernetFrame.decode(bytes);
    } catch (EthernetFormatException e) {
      assertThat(e.getMessage()).isNotBlank();
      return;
    } catch (Throwable e) {
      throw new AssertionError("decoding " + bytes.length + " bytes threw " + e, e);
    }
    assertThat(frame.encode()).isEqualTo(bytes);
  }

  @Property
  void randomBytesDecodeExactlyOrAreRefused(@ForAll @Size(max = EthernetFrame.MAX_FRAME_BYTES + 8) byte[] raw) {
    assertDecodesExactlyOrIsRefused(raw);
  }

  /** Random bytes under a correct FCS reach the EtherType check and the payload copy. */
  @Property
  void randomBytesUnderACorrectFcsDecodeExactlyOrAreRefused(
      @ForAll @Size(min = EthernetFrame.MIN_FRAME_BYTES - 4, max = EthernetFrame.MAX_FRAME_BYTES - 4) byte[] body) {
    byte[] bytes = Arrays.copyOf(body, body.length + EthernetFrame.FCS_BYTES);
    CRC32 crc = new CRC32();
    crc.update(body);
    for (int i = 0; i < EthernetFrame.FCS_BYTES; i++) bytes[body.length + i] = (byte) (crc.getValue() >>> (8 * i));

    assertThat(EthernetFrame.fcsMatches(bytes)).isTrue();
    assertDecodesExactlyOrIsRefused(bytes);
  }

  @Property
  void framesWithUpToThreeFlippedBitsAreRefused(@ForAll("frames") EthernetFrame frame,
                                                @ForAll @Size(min = 1, max = 3) List<Integer> bits) {
    byte[] bytes = frame.encode();
    int bitCount = bytes.length * 8;
    List<Integer> distinct = bits.stream().map(b -> Math.floorMod(b, bitCount)).distinct().toList();
    for (int at : distinct) bytes[at / 8] ^= (byte) (1 << (at % 8));

    assertThatThrownBy(() -> EthernetFrame.decode(bytes)).isInstanceOf(EthernetFormatException.class)
        .hasMessageContaining("does not match its CRC-32");
  }

  @Property
  void framesWithABurstOfErrorsAreRefused(@ForAll("frames") EthernetFrame frame, @ForAll int start,
                                          @ForAll @IntRange(min = 1, max = 32) int burstBits, @ForAll int pattern) {
    byte[] bytes = frame.encode();
    int first = Math.floorMod(start, bytes.length * 8 - burstBits + 1);
    // A burst starts and ends with a flipped bit; those between follow the pattern.
    for (int i = 0; i < burstBits; i++) {
      if (i == 0 || i == burstBits - 1 || ((pattern >>> i) & 1) != 0) {
        int at = first + i;
        bytes[at / 8] ^= (byte) (1 << (at % 8));
      }
    }

    assertThatThrownBy(() -> EthernetFrame.decode(bytes)).isInstanceOf(EthernetFormatException.class);
  }

  /** Cut or grown: refused (a shifted FCS matches with odds of 2^-32, which this test takes). */
  @Property
  void resizedFramesAreRefused(@ForAll("frames") EthernetFrame frame, @ForAll int cut,
                               @ForAll @Size(min = 1, max = 64) byte[] extra) {
    byte[] bytes = frame.encode();
    byte[] shorter = Arrays.copyOf(bytes, Math.floorMod(cut, bytes.length));
    byte[] longer = Arrays.copyOf(bytes, bytes.length + extra.length);
    System.arraycopy(extra, 0, longer, bytes.length, extra.length);

    assertThatThrownBy(() -> EthernetFrame.decode(shorter)).isInstanceOf(EthernetFormatException.class);
    assertThatThrownBy(() -> EthernetFrame.decode(longer)).isInstanceOf(EthernetFormatException.class);
  }

  @Property
  void payloadReadersNeverThrow(@ForAll @Size(max = 1600) byte[] payload, @ForAll long mac, @ForAll long seed) {
    boolean verified = FramePayloads.verify(mac, payload, seed);
    long sequence = FramePayloads.sequenceOf(payload);

    if (payload.length < FramePayloads.MIN_BYTES) {
      assertThat(verified).isFalse();
      assertThat(sequence).isEqualTo(-1);
    }
  }

  /**
   * A flipped bit in a payload's generated bytes or its zero padding fails verification. (Its sequence and length
   * bytes are covered by the frame's FCS: a change there may name another valid payload.)
   */
  @Property
  void corruptedPayloadsDoNotVerify(@ForAll long mac, @ForAll long sequence, @ForAll long seed,
                                    @ForAll @IntRange(min = FramePayloads.MIN_BYTES + 1, max = 1500) int length,
                                    @ForAll @IntRange(max = 46) int padding, @ForAll int bit) {
    byte[] sent = FramePayloads.of(mac, sequence, length, seed);
    byte[] received = Arrays.copyOf(sent, Math.min(EthernetFrame.MAX_PAYLOAD_BYTES, length + padding));
    assertThat(FramePayloads.verify(mac, received, seed)).isTrue();
    int bits = (received.length - FramePayloads.MIN_BYTES) * 8;
    int at = FramePayloads.MIN_BYTES * 8 + Math.floorMod(bit, bits);
    received[at / 8] ^= (byte) (1 << (at % 8));

    assertThat(FramePayloads.verify(mac, received, seed)).isFalse();
  }
}
