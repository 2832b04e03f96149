package io.fabemu.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.esotericsoftware.kryo.io.Output;
import io.fabemu.core.data.DataBuffer;
import io.fabemu.core.data.DataType;
import io.fabemu.core.fuzz.FuzzTries;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import net.jqwik.api.lifecycle.AddLifecycleHook;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.actor.typed.javadsl.Adapter;
import org.apache.pekko.serialization.SerializationExtension;

/**
 * Fuzzes the members' wire decoder, {@link KryoWireSerializer#fromBinaryJava}: random bytes, random bytes behind
 * every registered class id, and truncated, bit-flipped or spliced encodings of every engine message either decode
 * to a registered {@link WireMessage} or are refused with an {@link IllegalArgumentException} whose cause holds no
 * {@link Error} (an OutOfMemoryError or StackOverflowError that Kryo caught and wrapped would show there); hostile
 * length prefixes and nesting are refused before anything is allocated.
 */
@AddLifecycleHook(FuzzTries.class)
class KryoWireFuzzTest {
  private static ActorTestKit testKit;
  private static KryoWireSerializer serializer;
  private static List<byte[]> encodedSamples;

  @BeforeContainer
  static void startSystem() {
    testKit = ActorTestKit.create();
    serializer = (KryoWireSerializer) SerializationExtension.get(Adapter.toClassic(testKit.system()))
        .findSerializerFor(DeviceActor.CollectReport.INSTANCE);
    encodedSamples = KryoWireSerializerTest.engineMessages(testKit).stream().map(serializer::toBinary).toList();
  }

  @AfterContainer
  static void stopSystem() {
    testKit.shutdownTestKit();
  }

  /** Decodes to a registered wire message, or is refused as bad input, with no error anywhere in the cause. */
  private static void assertDecodesToAWireMessageOrIsRefused(byte[] bytes) {
    Object message;
    try {
      message = serializer.fromBinaryJava(bytes, null);
    } catch (IllegalArgumentException e) {
      assertThat(e.getMessage()).startsWith("refused to deserialize " + bytes.length + " bytes: ");
      for (Throwable cause = e; cause != null; cause = cause.getCause()) {
        if (cause instanceof Error) {
          throw new AssertionError("an error hid in the refusal of " + Arrays.toString(bytes), e);
        }
      }
      return;
    } catch (Throwable e) {
      throw new AssertionError("decoding " + Arrays.toString(bytes) + " threw " + e, e);
    }
    assertThat(message).isInstanceOf(WireMessage.class);
    assertThat(serializer.registrations()).contains(message.getClass());
  }

  @Provide
  Arbitrary<byte[]> samples() {
    return Arbitraries.of(encodedSamples).map(byte[]::clone);
  }

  @Provide
  Arbitrary<Class<?>> registered() {
    return Arbitraries.of(serializer.registrations());
  }

  @Property
  void randomBytesDecodeOrAreRefused(@ForAll @Size(max = 512) byte[] raw) {
    assertDecodesToAWireMessageOrIsRefused(raw);
  }

  /** Past the class id, so that every registered class's reader meets random bytes. */
  @Property
  void randomBytesBehindARegisteredClassDecodeOrAreRefused(@ForAll("registered") Class<?> type,
                                                          @ForAll @Size(max = 256) byte[] tail) {
    Output out = new Output(8 + tail.length);
    out.writeVarInt(serializer.classId(type) + 2, true);
    out.writeBytes(tail);

    assertDecodesToAWireMessageOrIsRefused(out.toBytes());
  }

  /** A prefix of a message can never be a message: the decoder needs the bytes that were cut. */
  @Property
  void truncatedMessagesAreRefused(@ForAll("samples") byte[] bytes, @ForAll int cut) {
    byte[] shorter = Arrays.copyOf(bytes, Math.floorMod(cut, bytes.length));

    assertThatThrownBy(() -> serializer.fromBinaryJava(shorter, null)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("refused to deserialize " + shorter.length + " bytes: ");
  }

  @Property
  void bitFlippedMessagesDecodeOrAreRefused(@ForAll("samples") byte[] bytes,
                                            @ForAll @Size(min = 1, max = 8) List<Integer> bits) {
    for (int bit : bits) {
      int at = Math.floorMod(bit, bytes.length * 8);
      bytes[at / 8] ^= (byte) (1 << (at % 8));
    }

    assertDecodesToAWireMessageOrIsRefused(bytes);
  }

  /** Bytes overwritten, inserted or deleted: what a confused or hostile peer would send. */
  @Property
  void splicedMessagesDecodeOrAreRefused(@ForAll("samples") byte[] bytes, @ForAll int at,
                                         @ForAll @IntRange(max = 2) int kind, @ForAll @Size(max = 8) byte[] patch) {
    int from = Math.floorMod(at, bytes.length);
    byte[] spliced;
    if (kind == 0) {
      spliced = bytes;
      for (int i = 0; i < patch.length && from + i < bytes.length; i++) spliced[from + i] = patch[i];
    } else if (kind == 1) {
      spliced = new byte[bytes.length + patch.length];
      System.arraycopy(bytes, 0, spliced, 0, from);
      System.arraycopy(patch, 0, spliced, from, patch.length);
      System.arraycopy(bytes, from, spliced, from + patch.length, bytes.length - from);
    } else {
      int cut = Math.min(bytes.length - from, 1 + patch.length);
      spliced = new byte[bytes.length - cut];
      System.arraycopy(bytes, 0, spliced, 0, from);
      System.arraycopy(bytes, from + cut, spliced, from, bytes.length - from - cut);
    }

    assertDecodesToAWireMessageOrIsRefused(spliced);
  }

  // ---- hostile messages, each once refused only by an OutOfMemoryError, a StackOverflowError or an escape ----

  private static Output header(Class<?> type) {
    Output out = new Output(64, -1);
    out.writeVarInt(serializer.classId(type) + 2, true);
    return out;
  }

  private static void assertRefused(Output out, String reason) {
    byte[] bytes = out.toBytes();
    assertThatThrownBy(() -> serializer.fromBinaryJava(bytes, null)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("refused to deserialize " + bytes.length + " bytes: ")
        .hasMessageContaining(reason);
  }

  @Example
  void hugeArrayLengthsAreRefusedBeforeAllocating() {
    for (Class<?> type : List.of(boolean[].class, byte[].class, short[].class, int[].class, long[].class,
        float[].class, double[].class)) {
      Output out = header(type);
      out.writeVarInt(Integer.MAX_VALUE, true);
      out.writeBytes(new byte[16]);

      assertRefused(out, "declares " + (Integer.MAX_VALUE - 1) + " elements, but only 16 bytes are left");
    }
  }

  @Example
  void hugeCollectionSizesAreRefusedBeforeAllocating() {
    Output list = header(ArrayList.class);
    list.writeVarInt(Integer.MAX_VALUE, true);
    assertRefused(list, "a list declares");

    Output immutableList = header(List.of(1, 2, 3).getClass());
    immutableList.writeVarInt(Integer.MAX_VALUE, true);
    assertRefused(immutableList, "a list declares " + Integer.MAX_VALUE + " elements, but only 0 bytes are left");

    Output immutableSet = header(Set.of(1, 2, 3).getClass());
    immutableSet.writeVarInt(-1, true);
    assertRefused(immutableSet, "a set declares -1 elements");
  }

  @Example
  void hugeAndNegativeStringLengthsAreRefused() {
    Output huge = header(Coordinator.Abort.class);
    huge.writeVarIntFlag(true, Integer.MAX_VALUE, true);
    huge.writeBytes(new byte[4]);
    assertRefused(huge, "a string declares " + (Integer.MAX_VALUE - 1) + " elements, but only 4 bytes are left");

    Output negative = header(Coordinator.Abort.class);
    negative.writeVarIntFlag(true, -5, true);
    assertRefused(negative, "a string declares -6 elements");
  }

  @Example
  void deepNestingIsRefusedBeforeTheStackOverflows() {
    Output out = new Output(1 << 16, -1);
    int listId = serializer.classId(List.of(1, 2, 3).getClass());
    for (int i = 0; i < 100_000; i++) {
      out.writeVarInt(listId + 2, true);
      out.writeVarInt(1, true);
    }
    out.writeVarInt(0, true);

    assertRefused(out, "Max depth exceeded: " + KryoWireSerializer.MAX_DEPTH);
  }

  @Example
  void anUnknownDataTypeIsRefused() {
    Output out = header(DataBuffer.class);
    out.writeVarInt(99, true);
    assertRefused(out, "a data buffer names data type 99 of " + DataType.values().length);
  }

  @Example
  void aSetWithNullOrDuplicatesIsRefused() {
    Output withNull = header(Set.of(1, 2, 3).getClass());
    withNull.writeVarInt(1, true);
    withNull.writeVarInt(0, true);
    assertRefused(withNull, "a set holds null");

    Output duplicates = header(Set.of(1, 2, 3).getClass());
    duplicates.writeVarInt(2, true);
    for (int i = 0; i < 2; i++) {
      duplicates.writeVarInt(serializer.classId(DataType.class) + 2, true);
      duplicates.writeVarInt(DataType.INT32.ordinal(), true);
    }
    assertRefused(duplicates, "duplicate element");
  }

  @Example
  void onlyExactlyOneWireMessageIsAccepted() {
    Output nothing = new Output(1);
    nothing.writeVarInt(0, true);
    assertRefused(nothing, "the bytes hold no message (null)");

    Output notAMessage = new Output(serializer.toBinary(new ArrayList<>(List.of(DataType.INT16))), -1);
    notAMessage.setPosition(notAMessage.getBuffer().length);
    assertRefused(notAMessage, "a java.util.ArrayList is no wire message");

    byte[] valid = serializer.toBinary(new Coordinator.Abort("cancelled"));
    Output trailing = new Output(valid.length + 2);
    trailing.writeBytes(valid);
    trailing.writeBytes(new byte[] {7, 7});
    assertRefused(trailing, "2 trailing bytes after the message's " + valid.length);
  }

  @Example
  void everyEngineMessageStillDecodes() {
    for (byte[] bytes : encodedSamples) {
      assertThat(serializer.fromBinaryJava(bytes, null)).isInstanceOf(WireMessage.class);
    }
  }
}
