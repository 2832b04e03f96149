package io.fabemu.core.link;

import io.fabemu.core.fault.FaultTally;
import io.fabemu.core.protocol.DeviceProtocol;
import io.fabemu.core.sim.DeviceReport.LinkCounters;
import io.fabemu.core.time.Units;
import io.fabemu.core.topology.LinkSpec;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * The sending end of one directed link: a FIFO that serializes packets one after another at the link's rate and counts
 * bytes, packets and busy time (serialization only: a cut-through packet that cannot finish before its tail arrives
 * holds the port longer than it keeps the wire busy), with when it was busy ({@link BusyTimeline}). Because packets
 * leave in the order the device hands them over, the queue is fully described by the time the port becomes free; no
 * packet list is kept.
 *
 * <p>Injected loss: a port may lose INC task packets (fragments, partials and results; see
 * {@link #lostInTransit}) with a set probability, decided by a random stream of its own seeded from the scenario's
 * seed and the link's two ends. The port draws once per task packet, in the order it transmits them, so a run loses
 * the same packets every time. Only task packets are lost: their NICs retransmit on a timeout and the switches never
 * count a contribution twice, so a loss costs time and never a result. Ordinary packets and INC control packets
 * (query, notify, release) have no retransmission in this model, so they are never lost.
 *
 * <p>Faults (a scenario's fault plan, {@link #enableFaults}): the port may be down (whatever it is handed is lost,
 * without taking the wire), degraded (another rate, a longer latency) or lossy: then every packet but an INC control
 * packet draws once from a second stream of the port's own, and is lost or arrives corrupted with the set
 * probabilities. What faults lose is counted in the device's {@link FaultTally}, by the event that caused it; the
 * reliable transport of a faulted run resends it.
 *
 * <p>An optical circuit not yet set up ({@link #awaitCircuit}, docs/optical.md "The OCS controller"): the port holds
 * what it is handed, in order, without a start time, until the controller says the circuit is up
 * ({@link #circuitUp}); the forwarder then transmits the held packets (and counts how long they waited). A circuit
 * torn down by a policy change puts the port back to holding ({@link #awaitCircuit}); what it had taken before still
 * leaves, by {@link #freeAtPs}.
 */
public final class EgressPort {
  /** What became of a packet handed to the port. */
  public enum Fate { DELIVERED, LOST, CORRUPTED }

  private final int fromDevice;
  private final int toDevice;
  private final long builtBitsPerSecond;
  private final long builtLatencyPs;
  private long bitsPerSecond;
  private long latencyPs;
  private long freeAtPs;
  private long bytes;
  private long packets;
  /** When the port was busy (its total is the busy time the counters give). */
  private final BusyTimeline busy;
  private long lastStartPs;
  private long lastEndPs;
  /** Probability that an INC task packet is lost on this link; 0: none is. */
  private final double dropProbability;
  /** The loss decisions; null when the link loses nothing. */
  private final SplittableRandom lossRandom;
  private long droppedPackets;
  /** The device's fault counters; null when the run has no fault plan. */
  private FaultTally faultTally;
  /** The fault event that took the port down; -1 while it is up. */
  private int downEventId = -1;
  /** A lossy fault's probabilities and event; the stream is null until a fault makes the port lossy. */
  private double faultDropProbability;
  private double faultCorruptProbability;
  private int lossEventId = -1;
  private SplittableRandom faultRandom;
  private long faultSeed;
  /** The packets held for a circuit not yet up, in the order handed over; null when the port is not held. */
  private List<HeldPacket> held;

  /**
   * A packet a port held for its circuit, with the times it was handed over with.
   *
   * @param readyPs  earliest time its first bit may leave
   * @param minEndPs earliest time its last bit may leave, or 0
   */
  public record HeldPacket(DeviceProtocol.Packet packet, long readyPs, long minEndPs) {}

  public EgressPort(int fromDevice, int toDevice, LinkSpec spec) {
    this(fromDevice, toDevice, spec, 0.0, 0L, BusyTimeline.MAX_PERIODS);
  }

  /**
   * A port that loses INC task packets with {@code dropProbability}.
   *
   * @param scenarioSeed the scenario's seed; with the link's ends it seeds the port's loss decisions
   * @param busyPeriods  the most busy periods its timeline keeps ({@link BusyTimeline#maxPeriodsFor})
   */
  public EgressPort(int fromDevice, int toDevice, LinkSpec spec, double dropProbability, long scenarioSeed,
                    int busyPeriods) {
    if (!(dropProbability >= 0 && dropProbability < 1)) {
      throw new IllegalArgumentException("drop probability of link " + fromDevice + "->" + toDevice
          + " must be in [0, 1), got " + dropProbability);
    }
    this.fromDevice = fromDevice;
    this.toDevice = toDevice;
    this.builtBitsPerSecond = spec.bandwidthBitsPerSecond();
    this.builtLatencyPs = spec.latencyPs();
    this.bitsPerSecond = builtBitsPerSecond;
    this.latencyPs = builtLatencyPs;
    this.dropProbability = dropProbability;
    this.lossRandom = dropProbability > 0 ? new SplittableRandom(lossSeed(scenarioSeed, fromDevice, toDevice)) : null;
    this.busy = new BusyTimeline(busyPeriods);
  }

  /** One seed per directed link: the scenario seed mixed with both ends (golden-ratio steps, as SplitMix does). */
  static long lossSeed(long scenarioSeed, int fromDevice, int toDevice) {
    long s = scenarioSeed;
    s = s * 0x9E3779B97F4A7C15L + fromDevice;
    s = s * 0x9E3779B97F4A7C15L + toDevice;
    return s;
  }

  /** The port's circuit is not set up yet: from now on it holds what it is handed until {@link #circuitUp}. */
  public void awaitCircuit() {
    if (held == null) held = new ArrayList<>();
  }

  /** Whether the port holds packets for a circuit not yet up. */
  public boolean awaitsCircuit() {
    return held != null;
  }

  /**
   * Holds {@code packet} until the circuit is up.
   *
   * @throws IllegalStateException when the port's circuit is up
   */
  public void hold(DeviceProtocol.Packet packet, long readyPs, long minEndPs) {
    if (held == null) throw new IllegalStateException("link " + fromDevice + "->" + toDevice + " is not held");
    held.add(new HeldPacket(packet, readyPs, minEndPs));
  }

  /**
   * The circuit is up: the port stops holding and returns what it held, in order, for the forwarder to transmit now
   * (and to count how long each waited).
   */
  public List<HeldPacket> circuitUp() {
    if (held == null) return List.of();
    List<HeldPacket> out = held;
    held = null;
    return out;
  }

  /**
   * The circuit is torn down before it came up: returns what the port held, in order (for the forwarder to send
   * another way), and goes on holding.
   *
   * @throws IllegalStateException when the port's circuit is up
   */
  public List<HeldPacket> takeHeld() {
    if (held == null) throw new IllegalStateException("link " + fromDevice + "->" + toDevice + " is not held");
    List<HeldPacket> out = held;
    held = new ArrayList<>();
    return out;
  }

  /**
   * When the port is free again: the last bit of what it was handed has left then (a circuit torn down drains until
   * this time).
   */
  public long freeAtPs() {
    return freeAtPs;
  }

  /** Device at the other end. */
  public int toDevice() {
    return toDevice;
  }

  public long latencyPs() {
    return latencyPs;
  }

  /**
   * Puts a packet on the wire.
   *
   * @param readyPs   earliest time its first bit may leave
   * @param wireBytes bytes on the wire
   * @param minEndPs  earliest time its last bit may leave (cut-through: the tail has not arrived yet), or 0
   */
  public void transmit(long readyPs, int wireBytes, long minEndPs) {
    long start = Math.max(readyPs, freeAtPs);
    long serializationPs = Units.transferPs(wireBytes, bitsPerSecond);
    long end = Math.max(start + serializationPs, minEndPs);
    // The port is held until the last bit has left, but a cut-through packet waiting for its tail from a slower
    // ingress leaves the wire idle in between: only serialization counts as busy.
    freeAtPs = end;
    bytes += wireBytes;
    packets++;
    busy.add(start, serializationPs);
    lastStartPs = start;
    lastEndPs = end;
  }

  /** When the last transmitted packet's first bit reaches the other end. */
  public long lastHeadArrivalPs() {
    return lastStartPs + latencyPs;
  }

  /** When the last transmitted packet's last bit reaches the other end. */
  public long lastTailArrivalPs() {
    return lastEndPs + latencyPs;
  }

  /**
   * Whether {@code packet}, just transmitted, is lost on the link (it still occupied the port and the wire: it is
   * lost at the far end). Only INC task packets can be lost; each one draws from the port's random stream.
   */
  public boolean lostInTransit(DeviceProtocol.Packet packet) {
    if (lossRandom == null || !packet.carriesTaskData()) {
      return false;
    }
    if (lossRandom.nextDouble() < dropProbability) {
      droppedPackets++;
      return true;
    }
    return false;
  }

  /**
   * Lets faults reach this port: what they lose is counted in {@code tally}; a lossy fault's decisions come from a
   * stream seeded by {@code scenarioSeed} and the link (another stream than the INC drops').
   */
  public void enableFaults(FaultTally tally, long scenarioSeed) {
    this.faultTally = tally;
    this.faultSeed = lossSeed(~scenarioSeed, fromDevice, toDevice);
  }

  /**
   * The port is down, by fault event {@code eventId} (the latest failure holding it): what it is handed from now on
   * is lost, and so is what was queued behind the packet on the wire (the receiver drops whatever left after the
   * failure), so the queue is empty when the port works again.
   */
  public void setDown(int eventId, long nowPs) {
    downEventId = eventId;
    freeAtPs = Math.min(freeAtPs, nowPs);
  }

  /** The port works again. */
  public void setUp() {
    downEventId = -1;
  }

  public boolean isDown() {
    return downEventId >= 0;
  }

  /** A degrade: rate {@code newBitsPerSecond} (0: the built one) and {@code extraLatencyPs} over the built latency. */
  public void degrade(long newBitsPerSecond, long extraLatencyPs) {
    bitsPerSecond = newBitsPerSecond > 0 ? newBitsPerSecond : builtBitsPerSecond;
    latencyPs = builtLatencyPs + extraLatencyPs;
  }

  /** A lossy fault (event {@code eventId}): packets are lost or corrupted with these probabilities (0, 0: none). */
  public void setLoss(double dropProbability, double corruptProbability, int eventId) {
    if (faultTally == null) throw new IllegalStateException("link " + fromDevice + "->" + toDevice + ": no faults");
    faultDropProbability = dropProbability;
    faultCorruptProbability = corruptProbability;
    lossEventId = eventId;
    if (faultRandom == null && dropProbability + corruptProbability > 0) faultRandom = new SplittableRandom(faultSeed);
  }

  /**
   * Counts a packet the port could not take because it is down (it never reaches the wire).
   *
   * @throws IllegalStateException when the port is up
   */
  public void countLostWhileDown() {
    if (downEventId < 0) throw new IllegalStateException("link " + fromDevice + "->" + toDevice + " is up");
    droppedPackets++;
    faultTally.packetLost(downEventId);
  }

  /**
   * What becomes of {@code packet}, just transmitted: lost by the INC drops ({@link #lostInTransit}) or a lossy
   * fault, corrupted by a lossy fault (counted here, where it happens: whoever checks its checksum drops it), or
   * delivered. INC control packets are never lost nor corrupted (nothing retransmits them), and a packet already
   * corrupted stays so without another draw.
   */
  public Fate fate(DeviceProtocol.Packet packet) {
    if (lostInTransit(packet)) return Fate.LOST;
    if (faultRandom == null || packet.corrupted() || (packet.extension() != null && !packet.carriesTaskData())) {
      return Fate.DELIVERED;
    }
    double draw = faultRandom.nextDouble();
    if (draw < faultDropProbability) {
      droppedPackets++;
      faultTally.packetLost(lossEventId);
      return Fate.LOST;
    }
    if (draw < faultDropProbability + faultCorruptProbability) {
      faultTally.packetCorrupted(lossEventId);
      return Fate.CORRUPTED;
    }
    return Fate.DELIVERED;
  }

  public LinkCounters counters() {
    return new LinkCounters(fromDevice, toDevice, bytes, packets, busy.profile(), droppedPackets);
  }
}
