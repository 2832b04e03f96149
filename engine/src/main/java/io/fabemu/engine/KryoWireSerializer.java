package io.fabemu.engine;

import com.esotericsoftware.kryo.Kryo;
import com.esotericsoftware.kryo.KryoException;
import com.esotericsoftware.kryo.Registration;
import com.esotericsoftware.kryo.Serializer;
import com.esotericsoftware.kryo.io.Input;
import com.esotericsoftware.kryo.io.Output;
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
 */
public final class KryoWireSerializer extends JSerializer {

  /** Pekko serializer id; 0 to 40 are Pekko's own. */
  public static final int IDENTIFIER = 0x0FABE0;

  public static final String REGISTRATIONS_PATH = "fabemu.wire.registrations";

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

  @Override
  public Object fromBinaryJava(byte[] bytes, Class<?> manifest) {
    Kryo kryo = kryos.obtain();
    try {
      return kryo.readClassAndObject(new Input(bytes));
    } catch (KryoException | IllegalArgumentException e) {
      throw new IllegalArgumentException("refused to deserialize " + bytes.length + " bytes: " + e.getMessage(), e);
    } finally {
      kryos.free(kryo);
    }
  }

  private Kryo newKryo() {
    Kryo kryo = new Kryo(new RegisteredOnlyClassResolver(), null);  // null: no reference tracking
    kryo.setRegistrationRequired(true);
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
      return resolver().resolveActorRef(input.readString());
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
      DataType dataType = TYPES[input.readVarInt(true)];
      int count = input.readVarInt(true);
      Object values = switch (dataType) {
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
      Object[] elements = new Object[input.readVarInt(true)];
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
      Object[] elements = new Object[input.readVarInt(true)];
      for (int i = 0; i < elements.length; i++) {
        elements[i] = kryo.readClassAndObject(input);
      }
      return Set.of(elements);
    }
  }
}
