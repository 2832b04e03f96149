package io.fabemu.engine;

import io.fabemu.core.data.DataBuffer;
import io.fabemu.core.data.DataType;
import io.fabemu.core.protocol.DeviceProtocol.LocalDelivery;
import io.fabemu.core.protocol.DeviceProtocol.MessageInfo;
import io.fabemu.core.protocol.DeviceProtocol.Packet;
import io.fabemu.core.protocol.DeviceProtocol.StartWorkload;
import io.fabemu.core.protocol.Message;
import io.fabemu.core.protocol.Payload;
import io.fabemu.core.sim.DeviceCore;
import io.fabemu.core.sim.DeviceReport.LinkCounters;
import io.fabemu.core.sim.DeviceReport.RankResult;
import io.fabemu.core.sim.DeviceReport;
import io.fabemu.core.sim.Event;
import io.fabemu.core.sim.Outbox;
import io.fabemu.core.sim.WindowedEngine;
import java.util.List;

/**
 * Toy device for engine tests: on start it sends packets to seeded pseudo-random peers; each packet is forwarded
 * with one hop less, after a delay of at least the lookahead (often exactly it), and now and then sets a timer
 * for itself inside the current window (sometimes at the very same time). Packets carry float32 or int32+location
 * data. Everything it sees goes into a digest, so any difference in order, time or data changes its report.
 *
 * <p>With zones ({@link #zonedFabric}), device {@code id} is in zone {@code id % zones}, and a packet to another
 * zone takes {@code crossExtraPs} longer: placing zones on members gives a cross-member lookahead of
 * lookahead + crossExtraPs.
 */
final class GossipCore implements DeviceCore {

  /**
   * A timer the device sets for itself; when it fires it sends a packet with {@code hops} hops left. It rides as a
   * local delivery whose tag is the hop count (events carry protocol payloads only), with a 16 B buffer so that a
   * window of timers has data work to weigh ({@link io.fabemu.core.protocol.Payload#dataWorkBytes()}).
   */
  static LocalDelivery wake(int hops) {
    return new LocalDelivery(new Message(-1, -1, hops, DataBuffer.allocate(DataType.INT32, 4, false)));
  }

  private final int id;
  private final int[] peers;
  private final long lookaheadPs;
  private final int startHops;
  private long rng;
  private long digest = 0xcbf29ce484222325L;
  private long handled;
  private long wakes;
  private long bytesOut;
  private long packetsOut;
  private long nextMessageId;
  private long firstTimePs = -1;
  private long lastTimePs;
  private long progress;
  private int lastTarget = -1;
  private final int zones;
  private final long crossExtraPs;
  /** Elements per packet when set (0: 1 to 4, drawn). */
  private int elementsPerPacket;

  GossipCore(int id, int[] peers, long lookaheadPs, int startHops, long seed) {
    this(id, peers, lookaheadPs, startHops, seed, 1, 0L);
  }

  GossipCore(int id, int[] peers, long lookaheadPs, int startHops, long seed, int zones, long crossExtraPs) {
    this.id = id;
    this.peers = peers;
    this.lookaheadPs = lookaheadPs;
    this.startHops = startHops;
    this.rng = seed * 0x9E3779B97F4A7C15L + id;
    this.zones = zones;
    this.crossExtraPs = crossExtraPs;
  }

  /** Every packet carries {@code elements} elements (large packets, to fill several event batches). */
  static DeviceCore[] withElementsPerPacket(DeviceCore[] devices, int elements) {
    for (DeviceCore device : devices) {
      if (device != null) {
        ((GossipCore) device).elementsPerPacket = elements;
      }
    }
    return devices;
  }

  /** Like {@link #fabric}, with a packet between zones ({@code id % zones}) taking {@code crossExtraPs} longer. */
  static DeviceCore[] zonedFabric(int count, int unusedId, long lookaheadPs, int startHops, long seed, int zones,
                                  long crossExtraPs) {
    DeviceCore[] plain = fabric(count, unusedId, lookaheadPs, startHops, seed);
    DeviceCore[] devices = new DeviceCore[count];
    for (int i = 0; i < count; i++) {
      if (plain[i] != null) {
        devices[i] = new GossipCore(i, ((GossipCore) plain[i]).peers, lookaheadPs, startHops, seed, zones,
            crossExtraPs);
      }
    }
    return devices;
  }

  /** Devices indexed by id, {@code unusedId} left null, each gossiping with all the others (itself included). */
  static DeviceCore[] fabric(int count, int unusedId, long lookaheadPs, int startHops, long seed) {
    int[] peers = new int[count - 1];
    for (int i = 0, p = 0; i < count; i++) {
      if (i != unusedId) {
        peers[p++] = i;
      }
    }
    DeviceCore[] devices = new DeviceCore[count];
    for (int i = 0; i < count; i++) {
      if (i != unusedId) {
        devices[i] = new GossipCore(i, peers, lookaheadPs, startHops, seed);
      }
    }
    return devices;
  }

  /** The plain engine's run of {@code devices} from {@link #starts}: the reference the actor runs must match. */
  static WindowedEngine plainRun(DeviceCore[] devices, long lookaheadPs, long lateStartPs) {
    WindowedEngine engine = new WindowedEngine(devices, lookaheadPs);
    starts(devices, lateStartPs).forEach(engine::inject);
    engine.run();
    return engine;
  }

  /** A start for every device at time 0, and a late one for the first device, after a long idle stretch. */
  static List<Event> starts(DeviceCore[] devices, long lateStartPs) {
    List<Event> events = new java.util.ArrayList<>();
    long sequence = 0;
    int first = -1;
    for (DeviceCore device : devices) {
      if (device != null) {
        events.add(new Event(0L, Event.EXTERNAL_SOURCE, sequence++, device.deviceId(), StartWorkload.INSTANCE));
        first = first < 0 ? device.deviceId() : first;
      }
    }
    events.add(new Event(lateStartPs, Event.EXTERNAL_SOURCE, sequence, first, StartWorkload.INSTANCE));
    return events;
  }

  @Override
  public int deviceId() {
    return id;
  }

  @Override
  public void onEvent(Event event, Outbox outbox) {
    handled++;
    mix(event.timePs());
    mix(event.sourceDevice());
    mix(event.sourceSequence());
    if (firstTimePs < 0) {
      firstTimePs = event.timePs();
    }
    lastTimePs = event.timePs();
    Payload payload = event.payload();
    if (payload == StartWorkload.INSTANCE) {
      for (int k = 0; k < 3; k++) {
        sendPacket(outbox, startHops);
      }
    } else if (payload instanceof Packet packet) {
      mix(packet.messageId());
      mixData(packet.slice());
      int hops = packet.segmentIndex();
      if (hops == 0) {
        progress++;
        return;
      }
      sendPacket(outbox, hops - 1);
      if (next(2) == 0) {
        outbox.send(id, outbox.nowPs() + next(lookaheadPs), wake(hops / 2));
      }
      if (next(8) == 0) {
        outbox.send(id, outbox.nowPs(), wake(0));
      }
    } else if (payload instanceof LocalDelivery wake) {
      wakes++;
      int hops = (int) wake.message().tag();
      mix(hops);
      if (hops > 0) {
        sendPacket(outbox, hops - 1);
      }
    } else {
      throw new IllegalStateException("device " + id + " got an unexpected payload " + payload);
    }
  }

  private void sendPacket(Outbox outbox, int hops) {
    int target = peers[(int) next(peers.length)];
    long delayPs = next(4) == 0 ? lookaheadPs : lookaheadPs + next(3 * lookaheadPs);
    if (target % zones != id % zones) {
      delayPs += crossExtraPs;
    }
    int count = 1 + (int) next(4);
    if (elementsPerPacket > 0) {
      count = elementsPerPacket;
    }
    boolean withLocations = next(4) == 0;
    DataBuffer slice = DataBuffer.allocate(withLocations ? DataType.INT32 : DataType.FLOAT32, count, withLocations);
    for (int i = 0; i < count; i++) {
      slice.set(i, next(1000) - 500);
      if (withLocations) {
        slice.setLocation(i, id);
      }
    }
    int wireBytes = 64 + (int) slice.sizeBytes();
    long timePs = outbox.nowPs() + delayPs;
    MessageInfo info = new MessageInfo(id, target, nextMessageId, count, slice.type(), withLocations,
        slice.sizeBytes());
    outbox.send(target, timePs, Packet.builder().sourceHost(id).destinationHost(target).messageId(nextMessageId++)
        .segmentIndex(hops).segmentCount(startHops + 1).wireBytes(wireBytes).tailTimePs(timePs + wireBytes).info(info)
        .elementOffset(0).slice(slice).build());
    bytesOut += wireBytes;
    packetsOut++;
    lastTarget = target;
  }

  private void mixData(DataBuffer data) {
    for (int i = 0; i < data.count(); i++) {
      mix(Double.doubleToRawLongBits(data.get(i)));
      if (data.hasLocations()) {
        mix(data.locationsArray()[i]);
      }
    }
  }

  private void mix(long value) {
    digest = (digest ^ value) * 0x100000001b3L;
  }

  /** Uniform in [0, bound), from a splitmix64 stream advanced only by this device's own events. */
  private long next(long bound) {
    rng += 0x9E3779B97F4A7C15L;
    long z = rng;
    z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
    z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
    z = z ^ (z >>> 31);
    return Math.floorMod(z, bound);
  }

  @Override
  public long progress() {
    return progress;
  }

  long wakes() {
    return wakes;
  }

  @Override
  public DeviceReport report() {
    return new DeviceReport(id, List.of(new LinkCounters(id, lastTarget, bytesOut, packetsOut, lastTimePs)),
        List.of(RankResult.builder(id, 0, (int) wakes).totalLatencyPs(digest).minLatencyPs(firstTimePs)
            .maxLatencyPs(lastTimePs).wrongElements(handled).build()));
  }
}
