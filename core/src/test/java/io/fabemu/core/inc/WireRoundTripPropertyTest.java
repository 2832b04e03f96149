package io.fabemu.core.inc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.Function;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import net.jqwik.api.statistics.Statistics;
import net.jqwik.api.statistics.StatisticsReport;

class WireRoundTripPropertyTest {

  // Ranges are the full width of each field, so the generators' edge cases (0 and the maximum) hit every field.
  private static Arbitrary<Integer> u8() {
    return Arbitraries.integers().between(0, 0xFF);
  }

  private static Arbitrary<Integer> u16() {
    return Arbitraries.integers().between(0, 0xFFFF);
  }

  private static Arbitrary<Long> u32() {
    return Arbitraries.longs().between(0, 0xFFFFFFFFL);
  }

  @Provide
  Arbitrary<MpiHeader> mpiHeaders() {
    return Combinators.combine(Arbitraries.integers(), Arbitraries.integers(), u16(), u8(), u8(), u8(), u16())
        .as(MpiHeader::new);
  }

  @Provide
  Arbitrary<IncHeader0> header0s() {
    return Combinators.combine(u32(), u32(), u16(), u8(), u8(), u32()).as(IncHeader0::new);
  }

  @Provide
  Arbitrary<IncHeader1> header1s() {
    return Combinators.combine(u32(), u32(), u8(), u8(), u16(), u32(), u32(), u32()).as(IncHeader1::new);
  }

  /** Fragment count over 1..0xFFFF and an index below it, including count - 1. */
  @Provide
  Arbitrary<IncHeader2> header2s() {
    Arbitrary<int[]> fragment = Arbitraries.integers().between(1, 0xFFFF)
        .flatMap(count -> Arbitraries.integers().between(0, count - 1).map(index -> new int[] {index, count}));
    return Combinators.combine(u32(), fragment, u16(), u16(), u32())
        .as((task, f, bytes, flags, dst) -> new IncHeader2(task, f[0], f[1], bytes, flags, dst));
  }

  /** Widths of {@link ControlPayload}'s fields in declaration order, from its javadoc. */
  private static final int[] CONTROL_WIDTHS = {8, 8, 8, 16, 16, 16, 16, 16, 32, 32, 8, 8, 32, 32, 32, 32, 32, 16,
      32, 16, 16};

  @Provide
  Arbitrary<ControlPayload> controlPayloads() {
    List<Arbitrary<Long>> fields = new ArrayList<>();
    for (int bits : CONTROL_WIDTHS) fields.add(Arbitraries.longs().between(0, (1L << bits) - 1));
    return Combinators.combine(fields).as(WireRoundTripPropertyTest::control);
  }

  private static ControlPayload control(List<Long> v) {
    return new ControlPayload(v.get(0).intValue(), v.get(1).intValue(), v.get(2).intValue(), v.get(3).intValue(),
        v.get(4).intValue(), v.get(5).intValue(), v.get(6).intValue(), v.get(7).intValue(), v.get(8), v.get(9),
        v.get(10).intValue(), v.get(11).intValue(), v.get(12), v.get(13), v.get(14), v.get(15), v.get(16),
        v.get(17).intValue(), v.get(18), v.get(19).intValue(), v.get(20).intValue());
  }

  @Provide
  Arbitrary<IncFrame> frames() {
    return Combinators.combine(Arbitraries.of(IncPacketType.class), u32(), u32(), mpiHeaders(),
            header0s().injectNull(0.5), header2s().injectNull(0.5), controlPayloads().injectNull(0.5))
        .as(IncFrame::new);
  }

  // ---- one header: encode then decode ----

  private static <T> void roundTrip(T record, int size, Consumer<ByteBuffer> encode,
                                    Function<ByteBuffer, T> decode) {
    ByteBuffer out = ByteBuffer.allocate(size);
    encode.accept(out);
    assertThat(out.position()).isEqualTo(size);
    out.flip();
    assertThat(decode.apply(out)).isEqualTo(record);
    assertThat(out.remaining()).isZero();
  }

  @Property
  void mpiHeaderRoundTrips(@ForAll("mpiHeaders") MpiHeader h) {
    roundTrip(h, MpiHeader.WIRE_BYTES, h::encode, MpiHeader::decode);
  }

  @Property
  void header0RoundTrips(@ForAll("header0s") IncHeader0 h) {
    roundTrip(h, IncHeader0.WIRE_BYTES, h::encode, IncHeader0::decode);
  }

  @Property
  void header1RoundTrips(@ForAll("header1s") IncHeader1 h) {
    roundTrip(h, IncHeader1.WIRE_BYTES, h::encode, IncHeader1::decode);
  }

  @Property
  void header2RoundTrips(@ForAll("header2s") IncHeader2 h) {
    roundTrip(h, IncHeader2.WIRE_BYTES, h::encode, IncHeader2::decode);
  }

  @Property
  void controlPayloadRoundTrips(@ForAll("controlPayloads") ControlPayload c) {
    roundTrip(c, ControlPayload.WIRE_BYTES, c::encode, ControlPayload::decode);
  }

  @Example
  void controlWidthsMatchTheWireSize() {
    assertThat(Arrays.stream(CONTROL_WIDTHS).sum() / 8).isEqualTo(ControlPayload.WIRE_BYTES);
    assertThat(ControlPayload.class.getRecordComponents()).hasSize(CONTROL_WIDTHS.length);
  }

  // ---- one header: decode then encode, over raw bytes ----

  /** Every bit pattern is a valid header (all fields are full-width), so decoding then encoding is the identity. */
  @Property
  void everyByteStringIsAHeader(@ForAll @Size(ControlPayload.WIRE_BYTES) byte[] raw) {
    assertBytesRoundTrip(raw, MpiHeader.WIRE_BYTES, MpiHeader::decode, MpiHeader::encode);
    assertBytesRoundTrip(raw, IncHeader0.WIRE_BYTES, IncHeader0::decode, IncHeader0::encode);
    assertBytesRoundTrip(raw, IncHeader1.WIRE_BYTES, IncHeader1::decode, IncHeader1::encode);
    assertBytesRoundTrip(raw, ControlPayload.WIRE_BYTES, ControlPayload::decode, ControlPayload::encode);
  }

  private interface Encoder<T> {
    void encode(T record, ByteBuffer out);
  }

  private static <T> void assertBytesRoundTrip(byte[] raw, int size, Function<ByteBuffer, T> decode,
                                               Encoder<T> encode) {
    byte[] slice = Arrays.copyOf(raw, size);
    T record = decode.apply(ByteBuffer.wrap(slice));
    ByteBuffer out = ByteBuffer.allocate(size);
    encode.encode(record, out);
    assertThat(out.array()).isEqualTo(slice);
  }

  /** Header2 bytes decode exactly when the index is below a non-zero count, and then encode back to themselves. */
  @Property
  void header2BytesDecodeWhenValid(@ForAll @Size(IncHeader2.WIRE_BYTES) byte[] raw) {
    ByteBuffer in = ByteBuffer.wrap(raw);
    int index = in.getShort(4) & 0xFFFF;
    int count = in.getShort(6) & 0xFFFF;
    if (index < count) {
      IncHeader2 h = IncHeader2.decode(in);
      assertThat(h.fragmentIndex()).isEqualTo(index);
      assertThat(h.fragmentCount()).isEqualTo(count);
      ByteBuffer out = ByteBuffer.allocate(IncHeader2.WIRE_BYTES);
      h.encode(out);
      assertThat(out.array()).isEqualTo(raw);
    } else {
      assertThatThrownBy(() -> IncHeader2.decode(in))
          .isInstanceOf(WireFormatException.class)
          .hasMessage("Header2: fragment index " + index + " out of " + count);
    }
  }

  /** A header written at any offset of a little-endian buffer has the bytes it has alone. */
  @Property
  void offsetAndByteOrderDoNotChangeTheBytes(@ForAll("controlPayloads") ControlPayload c,
                                             @ForAll @IntRange(max = 40) int offset) {
    ByteBuffer alone = ByteBuffer.allocate(ControlPayload.WIRE_BYTES);
    c.encode(alone);
    ByteBuffer shifted = ByteBuffer.allocate(offset + ControlPayload.WIRE_BYTES).order(ByteOrder.LITTLE_ENDIAN);
    shifted.position(offset);
    c.encode(shifted);
    assertThat(Arrays.copyOfRange(shifted.array(), offset, shifted.capacity())).isEqualTo(alone.array());
    shifted.position(offset);
    assertThat(ControlPayload.decode(shifted)).isEqualTo(c);
  }

  // ---- whole frames ----

  @Property
  void frameRoundTrips(@ForAll("frames") IncFrame frame) {
    byte[] b = IncWireCodec.encode(frame);
    assertThat(b).hasSize(IncWireCodec.wireBytes(frame));
    assertThat(IncWireCodec.decode(b)).isEqualTo(frame);
  }

  /** A frame cut short anywhere, or with anything appended, is refused as bad input, never as an index error. */
  @Property
  void truncatedOrPaddedFramesAreRefused(@ForAll("frames") IncFrame frame, @ForAll @IntRange(max = 200) int cut,
                                         @ForAll @IntRange(min = 1, max = 8) int extra) {
    byte[] b = IncWireCodec.encode(frame);
    byte[] shortened = Arrays.copyOf(b, cut % b.length);
    assertThatThrownBy(() -> IncWireCodec.decode(shortened)).isInstanceOf(WireFormatException.class);
    byte[] padded = Arrays.copyOf(b, b.length + extra);
    assertThatThrownBy(() -> IncWireCodec.decode(padded))
        .isInstanceOf(WireFormatException.class)
        .hasMessageEndingWith(" has " + extra + " trailing bytes after its " + b.length);
  }

  /** Arbitrary bytes either decode to a frame that encodes back to them, or are refused as bad input. */
  @Property(tries = 3000)
  @StatisticsReport(onFailureOnly = true)
  void arbitraryBytesDecodeOrAreRefused(@ForAll("frameLikeBytes") byte[] raw) {
    // Both outcomes must be common, or the property tests only one side.
    Statistics.coverage(c -> {
      c.check("decoded").percentage(p -> p > 3);
      c.check("refused").percentage(p -> p > 3);
    });
    IncFrame frame;
    try {
      frame = IncWireCodec.decode(raw);
    } catch (WireFormatException e) {
      assertThat(e.getMessage()).isNotBlank();
      Statistics.collect("refused");
      return;
    }
    assertThat(IncWireCodec.encode(frame)).isEqualTo(raw);
    Statistics.collect("decoded");
  }

  /**
   * Bytes of a valid length for their flag byte most of the time (purely random lengths would nearly always be
   * refused on length alone), with the flag byte itself random.
   */
  @Provide
  Arbitrary<byte[]> frameLikeBytes() {
    Arbitrary<byte[]> sized = Arbitraries.integers().between(0, 0xFF).flatMap(flags -> {
      int length = IncWireCodec.BASE_BYTES
          + ((flags & IncWireCodec.HAS_HEADER0) != 0 ? IncHeader0.WIRE_BYTES : 0)
          + ((flags & IncWireCodec.HAS_HEADER2) != 0 ? IncHeader2.WIRE_BYTES : 0)
          + ((flags & IncWireCodec.HAS_CONTROL) != 0 ? ControlPayload.WIRE_BYTES : 0);
      return Arbitraries.bytes().array(byte[].class).ofSize(length).map(b -> {
        b[0] = (byte) (int) flags;
        return b;
      });
    });
    Arbitrary<byte[]> any = Arbitraries.bytes().array(byte[].class).ofMaxSize(120);
    return Arbitraries.frequencyOf(Tuple.of(4, sized), Tuple.of(1, any));
  }
}
