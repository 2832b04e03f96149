package io.fabemu.engine;

import com.esotericsoftware.kryo.Kryo;
import com.esotericsoftware.kryo.KryoException;
import com.esotericsoftware.kryo.Registration;
import com.esotericsoftware.kryo.Serializer;
import com.esotericsoftware.kryo.io.Input;
import com.esotericsoftware.kryo.io.Output;
import com.esotericsoftware.kryo.serializers.CollectionSerializer;
import com.esotericsoftware.kryo.serializers.DefaultArraySerializers.BooleanArraySerializer;
import com.esotericsoftware.kryo.util.DefaultClassResolver;
import com.esotericsoftware.kryo.util.Pool;
import com.typesafe.config.Config;
import com.typesafe.config.ConfigList;
import com.typesafe.config.ConfigObject;
import com.typesafe.config.ConfigValue;
import com.typesafe.config.ConfigValueType;
import io.fabemu.core.data.DataBuffer;
import io.fabemu.core.data.DataType;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.pekko.actor.ExtendedActorSystem;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.ActorRefResolver;
import org.apache.pekko.actor.typed.javadsl.Adapter;
import org.apache.pekko.serialization.JSerializer;

/**
 * Pekko serializer for every {@link WireMessage}, over Kryo with registration required: only classes listed
 * under {@code fabemu.wire.registrations} are written or read; any other class is refused with an exception and
 * never instantiated (class names on the wire are refused too, so a peer cannot name an arbitrary class).
 *
 * <p>Each module adds its own key, {@code fabemu.wire.registrations.<module> = ["fully.qualified.Name", ...]}
 * (nested classes as {@code Outer$Inner}, primitive arrays as {@code int[]}). Classes are registered in sorted key
 * order, list order within, so every member built from the same code assigns the same ids. Kryo is not
 * thread-safe: instances come from a pool.
 *
 * <p>Decoding refuses, with an {@link IllegalArgumentException} naming the cause (Pekko's remoting logs it and drops
 * the message), any bytes that are not exactly one registered {@link WireMessage}: an unknown class id or a class
 * name, a truncated message, trailing bytes, a top-level value that is null or no wire message, an enum ordinal out
 * of range, a record its constructor refuses, nesting deeper than {@link #MAX_DEPTH}, and any declared length
 * (array, string, collection) that the bytes left cannot hold, checked before anything is allocated for it, so a
 * hostile length prefix never costs more memory than the message's own size.
 *
 * <p>Past 500 lines: the registration order of every wire type is the wire format, and it is kept in one table with
 * the checked readers it needs.
 */
public final class KryoWireSerializer extends JSerializer {

  /** Pekko serializer id; 0 to 40 are Pekko's own. */
  public static final int IDENTIFIER = 0x0FABE0;

  public static final String REGISTRATIONS_PATH = "fabemu.wire.registrations";

  /**
   * The deepest object graph read: fabemu's messages nest about ten levels, and a limit keeps a message of nested
   * lists (two bytes a level) from overflowing the stack of the thread that decodes it.
   */
  public static final int MAX_DEPTH = 100;

  private static final int POOLED_OUTPUT_MAX_BYTES = 1 << 20;

  private static final Map<String, Class<?>> PRIMITIVE_ARRAYS = Map.of(
      "boolean[]", boolean[].class, "byte[]", byte[].class, "char[]", char[].class, "short[]", short[].class,
      "int[]", int[].class, "long[]", long[].class, "float[]", float[].class, "double[]", double[].class);

  /**
   * The JDK's unmodifiable lists (List.of, List.copyOf, Stream.toList, Collections.emptyList, singletonList,
   * unmodifiableList) have no no-arg constructor: when listed, they are written as their elements.
   */
  private static final Set<Class<?>> UNMODIFIABLE_LISTS = Set.of(List.of().getClass(), List.of(0).getClass(),
      Collections.emptyList().getClass(), Collections.singletonList(0).getClass(),
      Collections.unmodifiableList(new ArrayList<>()).getClass());
  /** The JDK's immutable sets ({@code Set.of}, {@code Set.copyOf}), as the INC specs hold them. */
  private static final Set<Class<?>> IMMUTABLE_SETS = Set.of(Set.of().getClass(), Set.of(0).getClass());

  private final List<Class<?>> registrations;
  private final ClassLoader classLoader;
  /** Resolves typed actor refs on the wire; null without an actor system (refs are then refused). */
  private final ExtendedActorSystem system;
  private final Pool<Kryo> kryos;
  private final Pool<Output> outputs;

  /** Used by Pekko: reads the registrations from the system's configuration. */
  public KryoWireSerializer(ExtendedActorSystem system) {
    this(system.settings().config(), system.dynamicAccess().classLoader(), system);
  }

  /**
   * Reads {@code fabemu.wire.registrations} from {@code config} and resolves the classes with {@code classLoader}.
   *
   * @throws IllegalArgumentException when the key is missing, a module's entry is not a list, or a class is unknown
   */
  public KryoWireSerializer(Config config, ClassLoader classLoader) {
    this(config, classLoader, null);
  }

  private KryoWireSerializer(Config config, ClassLoader classLoader, ExtendedActorSystem system) {
    this.classLoader = classLoader;
    this.system = system;
    this.registrations = resolveRegistrations(config, classLoader);
    this.kryos = new Pool<>(true, false, 64) {
      @Override
      protected Kryo create() {
        return newKryo();
      }
    };
    this.outputs = new Pool<>(true, false, 64) {
      @Override
      protected Output create() {
        return new Output(4096, -1);
      }
    };
    kryos.free(kryos.obtain());  // builds one Kryo now, so a bad registration fails at start-up
  }

  @Override
  public int identifier() {
    return IDENTIFIER;
  }

  @Override
  public boolean includeManifest() {
    return false;  // the Kryo class id says it all
  }

  /** The registered classes, in id order. */
  public List<Class<?>> registrations() {
    return registrations;
  }

  @Override
  public byte[] toBinary(Object message) {
    Kryo kryo = kryos.obtain();
    Output output = outputs.obtain();
    try {
      output.reset();
      kryo.writeClassAndObject(output, message);
      return output.toBytes();
    } catch (KryoException | IllegalArgumentException e) {
      throw new IllegalArgumentException("cannot serialize " + message.getClass().getName() + ": "
          + e.getMessage() + " (every class on the wire must be listed under " + REGISTRATIONS_PATH + ")", e);
    } finally {
      kryos.free(kryo);
      // A buffer grown by a huge message is dropped rather than kept for ever.
      if (output.getBuffer().length <= POOLED_OUTPUT_MAX_BYTES) {
        outputs.free(output);
      }
    }
  }

  /**
   * The message in {@code bytes}, which must hold exactly one registered {@link WireMessage}.
   *
   * @throws IllegalArgumentException naming what is wrong when the bytes are anything else (see the class comment)
   */
  @Override
  public Object fromBinaryJava(byte[] bytes, Class<?> manifest) {
    Kryo kryo = kryos.obtain();
    try {
      Input input = new BoundedInput(bytes);
      Object message = kryo.readClassAndObject(input);
      if (message == null) {
        throw new KryoException("the bytes hold no message (null)");
      }
      if (!(message instanceof WireMessage)) {
        throw new KryoException("a " + message.getClass().getName() + " is no wire message");
      }
      if (input.position() != bytes.length) {
        throw new KryoException((bytes.length - input.position()) + " trailing bytes after the message's "
            + input.position());
      }
      return message;
    } catch (KryoException | IllegalArgumentException e) {
      throw new IllegalArgumentException("refused to deserialize " + bytes.length + " bytes: " + e.getMessage(), e);
    } finally {
      kryos.free(kryo);
    }
  }

  /** The Kryo id of registered {@code type}; how a peer names it on the wire (written as id + 2). */
  int classId(Class<?> type) {
    Kryo kryo = kryos.obtain();
    try {
      return kryo.getRegistration(type).getId();
    } finally {
      kryos.free(kryo);
    }
  }

  private Kryo newKryo() {
    Kryo kryo = new Kryo(new RegisteredOnlyClassResolver(), null);  // null: no reference tracking
    kryo.setRegistrationRequired(true);
    kryo.setMaxDepth(MAX_DEPTH);
    kryo.setClassLoader(classLoader);
    for (Class<?> type : registrations) {
      Serializer<?> custom = customSerializer(type);
      if (custom != null) {
        kryo.register(type, custom);
      } else {
        kryo.register(type);
      }
    }
    return kryo;
  }

  private Serializer<?> customSerializer(Class<?> type) {
    if (ActorRef.class.isAssignableFrom(type)) {
      return new ActorRefSerializer();
    }
    if (type == DataBuffer.class) {
      return new DataBufferSerializer();
    }
    if (UNMODIFIABLE_LISTS.contains(type)) {
      return new UnmodifiableListSerializer();
    }
    if (IMMUTABLE_SETS.contains(type)) {
      return new ImmutableSetSerializer();
    }
    if (type == ArrayList.class) {
      return new ArrayListSerializer();
    }
    if (type == boolean[].class) {
      return new BoundedBooleanArraySerializer();
    }
    return null;
  }

  private static List<Class<?>> resolveRegistrations(Config config, ClassLoader classLoader) {
    if (!config.hasPath(REGISTRATIONS_PATH)) {
      throw new IllegalArgumentException("missing configuration " + REGISTRATIONS_PATH);
    }
    ConfigObject modules = config.getObject(REGISTRATIONS_PATH);
    List<String> keys = new ArrayList<>(modules.keySet());
    Collections.sort(keys);
    List<Class<?>> classes = new ArrayList<>();
    for (String key : keys) {
      ConfigValue value = modules.get(key);
      if (value.valueType() != ConfigValueType.LIST) {
        throw new IllegalArgumentException(REGISTRATIONS_PATH + "." + key + " (" + value.origin().description()
            + ") must be a list of class names, not " + value.valueType());
      }
      for (ConfigValue entry : (ConfigList) value) {
        String name = String.valueOf(entry.unwrapped());
        Class<?> type = PRIMITIVE_ARRAYS.get(name);
        try {
          type = type != null ? type : Class.forName(name, false, classLoader);
        } catch (ClassNotFoundException e) {
          throw new IllegalArgumentException(REGISTRATIONS_PATH + "." + key + " (" + entry.origin().description()
              + ") names an unknown class " + name + " (nested classes are written Outer$Inner)", e);
        }
        if (!classes.contains(type)) {
          classes.add(type);
        }
      }
    }
    return List.copyOf(classes);
  }

  /**
   * Throws unless {@code count} items of at least {@code minBytesEach} bytes fit in what {@code input} has left;
   * called with a length prefix before anything is allocated for it.
   */
  static void requireRoom(Input input, int count, int minBytesEach, String what) {
    int left = input.limit() - input.position();
    if (count < 0 || (long) count * minBytesEach > left) {
      throw new KryoException(what + " declares " + count + " elements, but only " + left + " bytes are left");
    }
  }

  /**
   * The bytes of one message, with every array and string length Kryo reads checked against the bytes left:
   * Kryo sizes its arrays from the length prefix alone.
   */
  private static final class BoundedInput extends Input {
    BoundedInput(byte[] bytes) {
      super(bytes);
    }

    @Override
    public byte[] readBytes(int length) {
      requireRoom(this, length, 1, "a byte array");
      return super.readBytes(length);
    }

    @Override
    public int[] readInts(int length) {
      requireRoom(this, length, Integer.BYTES, "an int array");
      return super.readInts(length);
    }

    @Override
    public int[] readInts(int length, boolean optimizePositive) {
      requireRoom(this, length, varEncoding ? 1 : Integer.BYTES, "an int array");
      return super.readInts(length, optimizePositive);
    }

    @Override
    public long[] readLongs(int length) {
      requireRoom(this, length, Long.BYTES, "a long array");
      return super.readLongs(length);
    }

    @Override
    public long[] readLongs(int length, boolean optimizePositive) {
      requireRoom(this, length, varEncoding ? 1 : Long.BYTES, "a long array");
      return super.readLongs(length, optimizePositive);
    }

    @Override
    public float[] readFloats(int length) {
      requireRoom(this, length, Float.BYTES, "a float array");
      return super.readFloats(length);
    }

    @Override
    public double[] readDoubles(int length) {
      requireRoom(this, length, Double.BYTES, "a double array");
      return super.readDoubles(length);
    }

    @Override
    public short[] readShorts(int length) {
      requireRoom(this, length, Short.BYTES, "a short array");
      return super.readShorts(length);
    }

    @Override
    public char[] readChars(int length) {
      requireRoom(this, length, Character.BYTES, "a char array");
      return super.readChars(length);
    }

    @Override
    public boolean[] readBooleans(int length) {
      requireRoom(this, length, 1, "a boolean array");
      return super.readBooleans(length);
    }

    @Override
    public String readString() {
      checkStringLength();
      return super.readString();
    }

    @Override
    public StringBuilder readStringBuilder() {
      checkStringLength();
      return super.readStringBuilder();
    }

    /** A UTF-8 string's char count (+1, 0 for null) precedes its chars, each at least one byte; ASCII has none. */
    private void checkStringLength() {
      int start = position;
      if (readVarIntFlag()) {
        int charCountPlusOne = readVarIntFlag(true);
        requireRoom(this, charCountPlusOne == 0 ? 0 : charCountPlusOne - 1, 1, "a string");
      }
      setPosition(start);
    }
  }

  /**
   * {@code ArrayList}s, sized only once the bytes left can hold their elements (each takes at least a byte: a
   * class id or a null mark).
   */
  @SuppressWarnings("rawtypes")
  private static final class ArrayListSerializer extends CollectionSerializer<ArrayList> {
    @Override
    protected ArrayList create(Kryo kryo, Input input, Class<? extends ArrayList> type, int size) {
      requireRoom(input, size, 1, "a list");
      return new ArrayList<>(size);
    }
  }

  /** {@code boolean[]}: Kryo's own allocates the declared length before reading. */
  private static final class BoundedBooleanArraySerializer extends BooleanArraySerializer {
    @Override
    public boolean[] read(Kryo kryo, Input input, Class type) {
      int lengthPlusOne = input.readVarInt(true);
      if (lengthPlusOne == Kryo.NULL) {
        return null;
      }
      return input.readBooleans(lengthPlusOne - 1);
    }
  }

  /** Typed actor refs, written as their serialization format through {@link ActorRefResolver}. */
  private final class ActorRefSerializer extends Serializer<ActorRef<?>> {
    private volatile ActorRefResolver resolver;

    ActorRefSerializer() {
      setImmutable(true);
    }

    private ActorRefResolver resolver() {
      if (system == null) {
        throw new KryoException("actor refs need an actor system; this serializer was built without one");
      }
      ActorRefResolver r = resolver;
      if (r == null) {
        r = ActorRefResolver.get(Adapter.toTyped(system));
        resolver = r;
      }
      return r;
    }

    @Override
    public void write(Kryo kryo, Output output, ActorRef<?> ref) {
      output.writeString(resolver().toSerializationFormat(ref));
    }

    @Override
    public ActorRef<?> read(Kryo kryo, Input input, Class<? extends ActorRef<?>> type) {
      String path = input.readString();
      if (path == null) {
        throw new KryoException("an actor ref has no path");
      }
      return resolver().resolveActorRef(path);
    }
  }

  /** Refuses classes written by name: with registration required only ids are legitimate on the wire. */
  private static final class RegisteredOnlyClassResolver extends DefaultClassResolver {
    @Override
    protected Registration readName(Input input) {
      throw new KryoException("a class name on the wire was refused: only registered classes are accepted");
    }
  }

  /** {@link DataBuffer}: type, count, the buffer's values, then the optional locations (read back unshared). */
  private static final class DataBufferSerializer extends Serializer<DataBuffer> {
    private static final DataType[] TYPES = DataType.values();

    DataBufferSerializer() {
      setImmutable(true);  // Kryo.copy may share it; serialization is unaffected
    }

    @Override
    public void write(Kryo kryo, Output output, DataBuffer buffer) {
      int count = buffer.count();
      int from = buffer.arrayOffset();  // a view (a segment of a message) writes its own elements only
      output.writeVarInt(buffer.type().ordinal(), true);
      output.writeVarInt(count, true);
      Object values = buffer.valuesArray();
      switch (buffer.type()) {
        case INT8 -> output.writeBytes((byte[]) values, from, count);
        case INT16 -> output.writeShorts((short[]) values, from, count);
        case INT32 -> output.writeInts((int[]) values, from, count);
        case INT64 -> output.writeLongs((long[]) values, from, count);
        case FLOAT32 -> output.writeFloats((float[]) values, from, count);
        case FLOAT64 -> output.writeDoubles((double[]) values, from, count);
      }
      int[] locations = buffer.locationsArray();
      output.writeBoolean(locations != null);
      if (locations != null) {
        output.writeInts(locations, from, count);
      }
    }

    @Override
    public DataBuffer read(Kryo kryo, Input input, Class<? extends DataBuffer> type) {
      int ordinal = input.readVarInt(true);
      if (ordinal < 0 || ordinal >= TYPES.length) {
        throw new KryoException("a data buffer names data type " + ordinal + " of " + TYPES.length);
      }
      DataType dataType = TYPES[ordinal];
      int count = input.readVarInt(true);
      Object values = switch (dataType) {
        case INT8 -> input.readBytes(count);
        case INT16 -> input.readShorts(count);
        case INT32 -> input.readInts(count);
        case INT64 -> input.readLongs(count);
        case FLOAT32 -> input.readFloats(count);
        case FLOAT64 -> input.readDoubles(count);
      };
      int[] locations = input.readBoolean() ? input.readInts(count) : null;
      return DataBuffer.wrap(dataType, values, locations);
    }
  }

  /** The JDK's unmodifiable lists: the elements, read back as {@code List.of} (or an unmodifiable view if null). */
  private static final class UnmodifiableListSerializer extends Serializer<List<?>> {
    UnmodifiableListSerializer() {
      setImmutable(true);
    }

    @Override
    public void write(Kryo kryo, Output output, List<?> list) {
      int size = list.size();
      output.writeVarInt(size, true);
      for (int i = 0; i < size; i++) {
        kryo.writeClassAndObject(output, list.get(i));
      }
    }

    @Override
    public List<?> read(Kryo kryo, Input input, Class<? extends List<?>> type) {
      int size = input.readVarInt(true);
      requireRoom(input, size, 1, "a list");  // each element has at least its class id
      Object[] elements = new Object[size];
      boolean hasNull = false;
      for (int i = 0; i < elements.length; i++) {
        elements[i] = kryo.readClassAndObject(input);
        hasNull |= elements[i] == null;
      }
      // Stream.toList allows nulls, List.of does not.
      return hasNull ? Collections.unmodifiableList(Arrays.asList(elements)) : List.of(elements);
    }
  }

  /** The JDK's immutable sets: the elements, read back as {@code Set.of} (no nulls: those sets hold none). */
  private static final class ImmutableSetSerializer extends Serializer<Set<?>> {
    ImmutableSetSerializer() {
      setImmutable(true);
    }

    @Override
    public void write(Kryo kryo, Output output, Set<?> set) {
      output.writeVarInt(set.size(), true);
      for (Object element : set) {
        kryo.writeClassAndObject(output, element);
      }
    }

    @Override
    public Set<?> read(Kryo kryo, Input input, Class<? extends Set<?>> type) {
      int size = input.readVarInt(true);
      requireRoom(input, size, 1, "a set");  // each element has at least its class id
      Object[] elements = new Object[size];
      for (int i = 0; i < elements.length; i++) {
        elements[i] = kryo.readClassAndObject(input);
        if (elements[i] == null) {
          throw new KryoException("a set holds null");
        }
      }
      return Set.of(elements);  // refuses duplicates with an IllegalArgumentException
    }
  }
}
