package io.fabemu.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.esotericsoftware.kryo.Kryo;
import com.esotericsoftware.kryo.io.Output;
import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import io.fabemu.core.data.DataBuffer;
import io.fabemu.core.data.DataType;
import io.fabemu.core.ethernet.EthernetReport;
import io.fabemu.core.fault.FaultReport;
import io.fabemu.core.fault.FaultTally;
import io.fabemu.core.optical.OcsReport;
import io.fabemu.core.protocol.DeviceProtocol.CircuitDown;
import io.fabemu.core.protocol.DeviceProtocol.CircuitUp;
import io.fabemu.core.protocol.DeviceProtocol.LocalDelivery;
import io.fabemu.core.protocol.DeviceProtocol.MessageInfo;
import io.fabemu.core.protocol.DeviceProtocol.NicDeliver;
import io.fabemu.core.protocol.DeviceProtocol.NicSend;
import io.fabemu.core.protocol.DeviceProtocol.Packet;
import io.fabemu.core.protocol.DeviceProtocol.StartWorkload;
import io.fabemu.core.protocol.DeviceProtocol;
import io.fabemu.core.protocol.Message;
import io.fabemu.core.protocol.Payload;
import io.fabemu.core.sim.BusyProfile;
import io.fabemu.core.sim.DeviceReport.LinkCounters;
import io.fabemu.core.sim.DeviceReport.RankResult;
import io.fabemu.core.sim.DeviceReport;
import io.fabemu.core.sim.Event;
import io.fabemu.core.traffic.TrafficStats;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.pekko.actor.testkit.typed.javadsl.ActorTestKit;
import org.apache.pekko.actor.typed.javadsl.Adapter;
import org.apache.pekko.serialization.Serialization;
import org.apache.pekko.serialization.SerializationExtension;
import org.apache.pekko.serialization.Serializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class KryoWireSerializerTest {
  private static ActorTestKit testKit;
  private static Serialization serialization;

  @BeforeAll
  static void startSystem() {
    testKit = ActorTestKit.create();
    serialization = SerializationExtension.get(Adapter.toClassic(testKit.system()));
  }

  @AfterAll
  static void stopSystem() {
    testKit.shutdownTestKit();
  }

  /** Never registered: must be refused both ways. Counts constructions to prove none happens on read. */
  record Unlisted(int value) implements WireMessage {
    static final AtomicInteger CONSTRUCTED = new AtomicInteger();

    Unlisted {
      CONSTRUCTED.incrementAndGet();
    }
  }

  private static Object roundTrip(Object message) {
    Serializer serializer = serialization.findSerializerFor(message);
    assertThat(serializer).isInstanceOf(KryoWireSerializer.class);
    byte[] bytes = serializer.toBinary(message);
    return deserialize(bytes);
  }

  /** Field by field; DataBuffers by their own equality, which is bit for bit (NaN equals NaN). */
  private static void assertSameContent(Object copy, Object original) {
    assertThat(copy).usingRecursiveComparison()
        .withEqualsForType(DataBuffer::equals, DataBuffer.class)
        .withEqualsForType(Object::equals, refClass())
        .isEqualTo(original);
    assertThat(copy.getClass()).isEqualTo(original.getClass());
  }

  @SuppressWarnings("unchecked")
  private static Class<Object> refClass() {
    return (Class<Object>) (Class<?>) testKit.system().deadLetters().getClass();
  }

  private static KryoWireSerializer wireSerializer() {
    return (KryoWireSerializer) serialization.findSerializerFor(DeviceActor.CollectReport.INSTANCE);
  }

  /** Through Pekko's serialization, by serializer id, as a receiving member would. */
  private static Object deserialize(byte[] bytes) {
    return serialization.deserialize(bytes, KryoWireSerializer.IDENTIFIER, "").get();
  }

  private static DataBuffer float32(float... values) {
    return DataBuffer.wrap(DataType.FLOAT32, values, null);
  }

  private static DataBuffer maxloc() {
    return DataBuffer.wrap(DataType.INT32, new int[] {7, -3, 7}, new int[] {2, 0, 1});
  }

  private static Event packetEvent(DataBuffer slice) {
    MessageInfo info = new MessageInfo(1, 2, 99L, slice.count(), slice.type(), slice.hasLocations(),
        slice.sizeBytes());
    Packet packet = Packet.builder().sourceHost(1).destinationHost(2).messageId(5L).segmentIndex(0).segmentCount(1)
        .wireBytes(64 + (int) slice.sizeBytes()).tailTimePs(1_234L).info(info).elementOffset(0).slice(slice).build();
    return new Event(1_000L, 3, 17L, 4, packet);
  }

  private static DeviceReport report(int deviceId) {
    // a link with its busy periods, as ports record them
    BusyProfile busy = new BusyProfile(50L, new long[] {0L, 100L}, new long[] {20L, 130L}, new long[] {20L, 30L}, 0L);
    return new DeviceReport(deviceId, List.of(new LinkCounters(deviceId, 9, 100L, 2L, busy, 0L)),
        List.of(RankResult.builder(deviceId, 0, 10).totalLatencyPs(1_000L).minLatencyPs(90L).maxLatencyPs(110L)
            .build()));
  }

  /** One instance of every message class of the engine's protocol; refs are probes of {@code kit}. */
  static List<Object> engineMessages(ActorTestKit kit) {
    ArrayList<Event> events = new ArrayList<>(List.of(packetEvent(float32(1.5f, -0.0f, Float.NaN)),
        packetEvent(maxloc()), new Event(0L, Event.EXTERNAL_SOURCE, 0L, 1, StartWorkload.INSTANCE)));
    return List.of(
        new DeviceActor.Tick(2_000L, events),
        DeviceActor.CollectReport.INSTANCE,
        new MemberScheduler.Inject(events),
        new MemberScheduler.PeerDone(1, 7L, 3_000L, 4_000L, 5L, events),
        new MemberScheduler.PeerDone(1, 7L, 3_000L, Long.MAX_VALUE, 0L, List.of()),
        new MemberScheduler.WindowsSeen(16L),
        new MemberScheduler.TickDone(4, events, 12, 3L,
            new ArrayList<>(List.of(DeviceReport.RankResult.builder(8, 1, 2).totalLatencyPs(3_000L).minLatencyPs(1_000L)
                .maxLatencyPs(2_000L).build()))),
        MemberScheduler.CollectReports.INSTANCE,
        new MemberScheduler.ReportCollected(4, report(4), 9_000L),
        new Coordinator.WindowsDone(0, 7L, 3_000L, 12L, 3L, List.of(), true),
        new Coordinator.MemberUnreachable("127.0.0.1", 25520),
        new Coordinator.MemberReportPart(0, new ArrayList<>(List.of(report(1)))),
        new Coordinator.MemberReports(0, new ArrayList<>(List.of(report(2))), 9_000L,
            new MemberTraffic(0, 2, 5L, 640L)),
        new Coordinator.MemberFailed(0, "device 3 failed"),
        new Coordinator.Abort("cancelled"),
        new MemberScheduler.Peers(new ArrayList<>(List.of(schedulerRef(kit), schedulerRef(kit)))),
        new MemberScheduler.EventBatch(1, 7L, events),
        MemberScheduler.Stop.INSTANCE,
        new Coordinator.MemberReady(2, schedulerRef(kit)),
        new MemberAgent.PrepareRun("fabemu-run-1", 1, 3, new int[] {0, 1, 2, 1}, 250_000L, 1_100_000L,
            GossipBlueprint.zoned(5L),
            kit.<Coordinator.Command>createTestProbe().ref()));
  }

  private static org.apache.pekko.actor.typed.ActorRef<MemberScheduler.Command> schedulerRef(ActorTestKit kit) {
    return kit.<MemberScheduler.Command>createTestProbe().ref();
  }

  private static Set<Class<?>> declaredWireMessages() {
    return Stream.of(DeviceActor.class, MemberScheduler.class, Coordinator.class, MemberAgent.class)
        .flatMap(owner -> Arrays.stream(owner.getDeclaredClasses()))
        .filter(type -> WireMessage.class.isAssignableFrom(type) && !type.isInterface())
        .collect(Collectors.toSet());
  }

  @Test
  void shouldSerializeEveryMessageWhenTestsRun() {
    assertThat(testKit.system().settings().config().getBoolean("pekko.actor.serialize-messages")).isTrue();
    assertThat(testKit.system().settings().config().getBoolean("pekko.actor.allow-java-serialization")).isFalse();
  }

  @Test
  void shouldRoundTripEveryEngineMessageWhenRegistered() {
    List<Object> messages = engineMessages(testKit);
    Set<Class<?>> sampled = messages.stream().map(Object::getClass).collect(Collectors.toSet());
    Set<Class<?>> declared = declaredWireMessages().stream()
        .filter(type -> java.lang.reflect.Modifier.isPublic(type.getModifiers()))
        .collect(Collectors.toSet());

    assertThat(sampled).as("a sample of every public message").containsAll(declared);
    for (Object message : messages) {
      Object copy = roundTrip(message);
      assertSameContent(copy, message);
    }
  }

  @Test
  void shouldRegisterEveryMessageWhenDeclaredInEngineBehaviors() {
    KryoWireSerializer serializer = wireSerializer();
    assertThat(serializer.registrations()).as("private timer messages included")
        .containsAll(declaredWireMessages());
  }

  @Test
  void shouldRoundTripEventWhenItCarriesPacketWithFloat32AndMaxlocBuffers() {
    Event floats = packetEvent(float32(1.5f, -0.0f, Float.NaN, Float.MIN_VALUE));
    Event maxloc = packetEvent(maxloc());

    Event floatsCopy = ((DeviceActor.Tick) roundTrip(new DeviceActor.Tick(2_000L,
        new ArrayList<>(List.of(floats))))).events().get(0);
    Event maxlocCopy = ((DeviceActor.Tick) roundTrip(new DeviceActor.Tick(2_000L,
        new ArrayList<>(List.of(maxloc))))).events().get(0);

    assertThat(floatsCopy).isEqualTo(floats);  // DataBuffer equality is bit for bit (NaN, -0.0 included)
    DataBuffer slice = ((Packet) maxlocCopy.payload()).slice();
    assertThat(maxlocCopy).isEqualTo(maxloc);
    assertThat(slice.locationsArray()).containsExactly(2, 0, 1);
    assertThat((int[]) slice.valuesArray()).containsExactly(7, -3, 7);
  }

  @Test
  void shouldWriteTheViewOnlyWhenAPacketCarriesASegmentOfALargerBuffer() {
    DataBuffer message = DataBuffer.wrap(DataType.INT32, new int[] {1, 2, 3, 4, 5, 6}, new int[] {0, 1, 2, 3, 4, 5});
    Event segment = packetEvent(message.view(2, 3));

    Event copy = ((DeviceActor.Tick) roundTrip(new DeviceActor.Tick(2_000L, new ArrayList<>(List.of(segment)))))
        .events().get(0);

    DataBuffer slice = ((Packet) copy.payload()).slice();
    assertThat(slice.arrayOffset()).isZero();
    assertThat((int[]) slice.valuesArray()).containsExactly(3, 4, 5);
    assertThat(slice.locationsArray()).containsExactly(2, 3, 4);
    assertThat(copy).isEqualTo(segment);
  }

  @Test
  void shouldRoundTripEveryCorePayloadWhenCarriedByEvents() {
    Message message = new Message(3, 4, 77L, DataBuffer.wrap(DataType.FLOAT64, new double[] {1.25, -2.5}, null));
    List<Payload> payloads = List.of(
        StartWorkload.INSTANCE,
        new NicSend(4, message),
        new NicDeliver(new Message(3, 4, 78L, null)),
        new LocalDelivery(new Message(3, 3, 79L, DataBuffer.wrap(DataType.INT16, new short[] {1, -1}, null))),
        new NicSend(4, new Message(3, 4, 80L, DataBuffer.wrap(DataType.INT64, new long[] {Long.MIN_VALUE},
            new int[] {9}))),
        Packet.builder().sourceHost(3).destinationHost(4).messageId(1L).segmentIndex(0).segmentCount(1).wireBytes(64)
            .tailTimePs(10L).info(new MessageInfo(3, 4, 81L, 0, null, false, 0L)).build(),
        // A synthetic payload: sizes only, no data.
        new NicSend(4, Message.synthetic(3, 4, 82L, 20_484L)),
        new NicDeliver(Message.synthetic(3, 4, 83L, 12L)),
        Packet.builder().sourceHost(3).destinationHost(4).messageId(2L).segmentIndex(1).segmentCount(21)
            .wireBytes(1_084).tailTimePs(11L).info(new MessageInfo(3, 4, 82L, 0, null, false, 20_484L)).build(),
        GossipCore.wake(3),
        new CircuitUp(12, 0L),
        new CircuitDown(12, 20_000_000L));
    ArrayList<Event> events = new ArrayList<>();
    for (int i = 0; i < payloads.size(); i++) {
      events.add(new Event(i, 1, i, 2, payloads.get(i)));
    }

    MemberScheduler.TickDone copy = (MemberScheduler.TickDone) roundTrip(
        new MemberScheduler.TickDone(1, events, payloads.size(), 0L, List.of()));

    assertThat(copy.outgoing()).isEqualTo(events);
  }

  @Test
  void shouldRoundTripTheOcsPartOfADeviceReport() {
    DeviceReport report = DeviceReport.builder(7).part(new OcsReport(28, 10_000_000L, 56L, 257_058_000L, 8_841_000L,
        List.of(new OcsReport.ChangeCost(15_000_000L, 22, 22, 25_000_000L, 81L, 795_000_000L, 9_999_000L)))).build();

    DeviceReport copy = ((MemberScheduler.ReportCollected) roundTrip(
        new MemberScheduler.ReportCollected(1, report, 0L))).report();

    assertThat(copy).isEqualTo(report);
  }

  @Test
  void shouldRoundTripEveryFeaturePartOfADeviceReportInItsOrder() {
    FaultTally tally = new FaultTally(2);
    DeviceReport report = DeviceReport.builder(3)
        .part(new EthernetReport(List.of(), List.of(new EthernetReport.ExternalHostCounters(0, 4L, 5L, 1L)), 1L, 2L,
            3L, 4L, 5L, 6L, 7L, List.of("enabled host2")))
        .part(new FaultReport(tally, List.of(), "partitioned", List.of("gave up"), List.of("fell back")))
        .part(OcsReport.EMPTY)
        .build();

    DeviceReport copy = ((MemberScheduler.ReportCollected) roundTrip(
        new MemberScheduler.ReportCollected(3, report, 0L))).report();

    assertThat(copy).isEqualTo(report);
    assertThat(copy.parts()).extracting(Object::getClass)
        .containsExactly(EthernetReport.class, FaultReport.class, OcsReport.class);
    assertThat(copy.part(FaultReport.class).partition()).isEqualTo("partitioned");
  }

  @Test
  void shouldRoundTripTheTrafficPartOfADeviceReportWithItsPhasesAndRecords() {
    TrafficStats stats = new TrafficStats(10, 110, 200);
    stats.recordCreated(5, 4); // before the measurement window: not measured
    stats.recordCreated(20, 4);
    stats.recordCreated(30, 2);
    stats.recordFlitsEjected(50, 6);
    stats.recordArrived(20, 45, 3);
    stats.recordArrived(30, 250, 1); // after the drain's end: late
    DeviceReport report = DeviceReport.builder(5).part(stats).build();

    DeviceReport copy = ((MemberScheduler.ReportCollected) roundTrip(
        new MemberScheduler.ReportCollected(5, report, 0L))).report();

    // TrafficStats is mutable and compares by identity: compare what it measured, and that its phases crossed.
    TrafficStats copied = copy.part(TrafficStats.class);
    assertThat(copied).isNotSameAs(stats);
    assertThat(copied.result(0.5, 4)).isEqualTo(stats.result(0.5, 4));
    assertThat(copied.measuredPacketsCreated()).isEqualTo(2);
    assertThat(copied.measuredPacketsArrived()).isEqualTo(2);
    assertThat(copied.drainCompleted()).isFalse();
    assertThat(copied.wireBytesEstimate()).isEqualTo(stats.wireBytesEstimate());
    new TrafficStats(10, 110, 200).merge(copied);
    assertThatThrownBy(() -> new TrafficStats(0, 110, 200).merge(copied))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("got 10, 110, 200");
  }

  @Test
  void shouldKeepListsUnmodifiableWhenTheyWereImmutable() {
    List<LinkCounters> links = Stream.of(new LinkCounters(1, 2, 3L, 4L, 5L), new LinkCounters(1, 3, 3L, 4L, 5L))
        .toList();
    List<List<RankResult>> rankLists = List.of(List.of(), Collections.emptyList(),
        Collections.singletonList(RankResult.builder(1, 0, 1).totalLatencyPs(2L).minLatencyPs(3L).maxLatencyPs(4L)
            .build()),
        Collections.unmodifiableList(new ArrayList<>(List.of(RankResult.builder(1, 1, 1).totalLatencyPs(2L)
            .minLatencyPs(3L).maxLatencyPs(4L).build()))));
    for (List<RankResult> ranks : rankLists) {
      DeviceReport report = new DeviceReport(1, links, ranks);

      DeviceReport copy = ((MemberScheduler.ReportCollected) roundTrip(
          new MemberScheduler.ReportCollected(1, report, 0L))).report();

      assertThat(copy).isEqualTo(report);
      assertThatThrownBy(() -> copy.ranks().add(null)).isInstanceOf(UnsupportedOperationException.class);
    }
  }

  @Test
  void shouldRefuseSerializingWhenClassIsNotRegistered() {
    Serializer serializer = serialization.findSerializerFor(new Unlisted(1));

    assertThat(serializer).isInstanceOf(KryoWireSerializer.class);
    assertThatThrownBy(() -> serializer.toBinary(new Unlisted(1)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining(Unlisted.class.getName())
        .hasMessageContaining("fabemu.wire.registrations");
    // Nested inside a registered message too (a list that should hold case results).
    @SuppressWarnings({"unchecked", "rawtypes"})
    List<RankResult> smuggled = (List) new ArrayList<>(List.of(new Unlisted(2)));
    assertThatThrownBy(() -> serializer.toBinary(new MemberScheduler.TickDone(1, List.of(), 0, 0L, smuggled)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("not registered");
  }

  @Test
  void shouldRefuseDeserializingWhenBytesNameUnregisteredClass() {
    Kryo permissive = new Kryo();
    permissive.setRegistrationRequired(false);
    Output output = new Output(256);
    permissive.writeClassAndObject(output, new Unlisted(3));
    byte[] bytes = output.toBytes();
    int constructedBefore = Unlisted.CONSTRUCTED.get();

    assertThatThrownBy(() -> deserialize(bytes))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("refused");
    assertThat(Unlisted.CONSTRUCTED.get()).as("never instantiated").isEqualTo(constructedBefore);
  }

  @Test
  void shouldRefuseDeserializingWhenClassIdIsUnknown() {
    Output output = new Output(16);
    output.writeVarInt(5_000 + 2, true);  // Kryo writes registered id + 2
    byte[] bytes = output.toBytes();

    assertThatThrownBy(() -> deserialize(bytes))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("unregistered class ID");
  }

  @Test
  void shouldAssignSameIdsWhenModulesAreDeclaredInAnyOrder() {
    Config base = ConfigFactory.parseString("fabemu.wire.registrations = {}");
    Config oneOrder = ConfigFactory.parseString("""
        fabemu.wire.registrations {
          switch-actors = ["io.fabemu.core.protocol.Message", "long[]"]
          engine = ["io.fabemu.core.sim.Event", "java.util.ArrayList"]
        }""").withFallback(base);
    Config otherOrder = ConfigFactory.parseString("""
        fabemu.wire.registrations.engine = ["io.fabemu.core.sim.Event", "java.util.ArrayList"]
        fabemu.wire.registrations.switch-actors = ["io.fabemu.core.protocol.Message", "long[]"]
        """).withFallback(base);
    ClassLoader loader = getClass().getClassLoader();

    List<Class<?>> ids = new KryoWireSerializer(oneOrder, loader).registrations();

    assertThat(ids).containsExactly(Event.class, ArrayList.class, Message.class, long[].class);
    assertThat(new KryoWireSerializer(otherOrder, loader).registrations()).isEqualTo(ids);
  }

  @Test
  void shouldFailAtStartWhenRegistrationNamesUnknownClass() {
    Config config = ConfigFactory.parseString(
        "fabemu.wire.registrations.node-actors = [\"io.fabemu.node.NoSuchActor.Command\"]");

    assertThatThrownBy(() -> new KryoWireSerializer(config, getClass().getClassLoader()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("fabemu.wire.registrations.node-actors")
        .hasMessageContaining("io.fabemu.node.NoSuchActor.Command")
        .hasMessageContaining("Outer$Inner");
  }

  @Test
  void shouldNotShareStateWhenUsedFromManyThreads() throws Exception {
    Serializer serializer = wireSerializer();
    List<Object> messages = engineMessages(testKit);
    List<Thread> threads = new ArrayList<>();
    List<Throwable> failures = Collections.synchronizedList(new ArrayList<>());
    for (int t = 0; t < 4; t++) {
      Thread thread = new Thread(() -> {
        try {
          for (int i = 0; i < 500; i++) {
            Object message = messages.get(i % messages.size());
            Object copy = deserialize(serializer.toBinary(message));
            assertSameContent(copy, message);
          }
        } catch (Throwable e) {
          failures.add(e);
        }
      });
      threads.add(thread);
      thread.start();
    }
    for (Thread thread : threads) {
      thread.join(30_000);
    }

    assertThat(failures).isEmpty();
  }

  @Test
  void shouldCoverEveryDeviceProtocolTypeWhenRegistered() {
    KryoWireSerializer serializer = wireSerializer();

    assertThat(serializer.registrations()).contains(DeviceProtocol.class.getDeclaredClasses());
  }
}
