package io.fabemu.nic;

import io.fabemu.core.ethernet.EthernetFormatException;
import io.fabemu.core.ethernet.EthernetFrame;
import io.fabemu.core.ethernet.EthernetReport;
import io.fabemu.core.ethernet.EthernetReport.ExternalHostCounters;
import io.fabemu.core.ethernet.EthernetSpec;
import io.fabemu.core.ethernet.FramePayloads;
import io.fabemu.core.ethernet.MacAddress;
import io.fabemu.core.protocol.DeviceProtocol.CableFrame;
import io.fabemu.core.protocol.DeviceProtocol.EthernetControl;
import io.fabemu.core.protocol.DeviceProtocol.EthernetTimer;
import io.fabemu.core.protocol.EthernetPayload;
import io.fabemu.core.sim.DeviceCore;
import io.fabemu.core.sim.DeviceReport;
import io.fabemu.core.sim.Event;
import io.fabemu.core.sim.Outbox;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;

/**
 * The external Ethernet of a scenario with I/O nodes: its hosts and the learning switch that joins them to the I/O
 * nodes' cables, one device (after the management node, on member 0 like it).
 *
 * <p>Inbound: every {@code interval} from {@code start} (its {@link EthernetTimer}s) each external host sends a
 * frame, round-robin over the nodes' MACs, every {@code unknown-mac-every}-th of a host's frames to a MAC no device
 * owns. The switch sends it on the cable of the I/O node it learned the destination MAC on (from outbound frames'
 * source MACs) when that NIC is still enabled, else on the lowest-numbered enabled one; each cable serializes its
 * frames one after another at the cable's rate, preamble and gap included, plus its latency. A seeded draw per frame
 * (a stream of its own, from the scenario seed) flips one bit of it with probability {@code corrupt}: its FCS then
 * fails at the I/O NIC. Outbound: a frame from an I/O NIC has its FCS checked, its source MAC learned, and is
 * delivered to the external host its destination MAC names, which checks its payload.
 */
public final class ExternalEthernetCore implements DeviceCore, EthernetPayload.Handler<Outbox> {
  /** Mixed into the scenario seed for the corruption draws, so they are a stream of their own. */
  private static final long CORRUPTION_STREAM = 0x45746865726E6574L;
  private final int deviceId;
  private final EthernetSpec spec;
  private final int nodeCount;
  private final long seed;
  private final SplittableRandom corruption;
  /** Per I/O node, when its cable has sent every frame toward it. */
  private final Map<Integer, Long> cableFreeAtPs = new TreeMap<>();
  /** The switch's table: MAC to the I/O node it was learned on. */
  private final Map<Long, Integer> learned = new TreeMap<>();
  private List<Integer> enabled;
  private final long[] sent;
  private final long[] received;
  private final long[] wrong;
  /** Inbound frames to nodes so far, for the round-robin over their MACs. */
  private long nodeFramesSent;
  private long corruptedSent;
  private long noCableDrops;

  /**
   * @param deviceId  this device's id
   * @param nodeCount the router network's nodes (hosts)
   * @param seed      the scenario seed (payloads and corruption draws)
   */
  public ExternalEthernetCore(int deviceId, EthernetSpec spec, int nodeCount, long seed) {
    this.deviceId = deviceId;
    this.spec = spec;
    this.nodeCount = nodeCount;
    this.seed = seed;
    this.corruption = new SplittableRandom(seed ^ CORRUPTION_STREAM);
    this.enabled = spec.initiallyEnabled();
    this.sent = new long[spec.externalHosts()];
    this.received = new long[spec.externalHosts()];
    this.wrong = new long[spec.externalHosts()];
  }

  @Override
  public int deviceId() {
    return deviceId;
  }

  @Override
  public void onEvent(Event event, Outbox outbox) {
    event.payload().handleWith(this, outbox);
  }

  @Override
  public String deviceName() {
    return "external Ethernet " + deviceId;
  }

  /** Round {@code round}: each external host sends its frame {@code round}. */
  @Override
  public void onEthernetTimer(EthernetTimer timer, Outbox outbox) {
    int round = timer.round();
    for (int e = 0; e < spec.externalHosts(); e++) {
      long source = MacAddress.ofExternalHost(e);
      boolean unknown = spec.unknownMacEvery() > 0 && (round + 1) % spec.unknownMacEvery() == 0;
      long destination = unknown ? MacAddress.unknown((long) round * spec.externalHosts() + e)
          : MacAddress.ofNode((int) (nodeFramesSent++ % nodeCount));
      byte[] frame = new EthernetFrame(destination, source, EthernetFrame.ETHER_TYPE,
          FramePayloads.of(source, round, spec.frameBytes(), seed)).encode();
      sent[e]++;
      if (corruption.nextDouble() < spec.corruptProbability()) {
        // One flipped bit: CRC-32 catches every such error, so the I/O NIC's FCS check fails.
        frame[corruption.nextInt(frame.length)] ^= (byte) (1 << corruption.nextInt(8));
        corruptedSent++;
      }
      int io = cableFor(destination);
      if (io < 0) {
        noCableDrops++;
        continue;
      }
      long start = Math.max(outbox.nowPs(), cableFreeAtPs.getOrDefault(io, 0L));
      long tail = start + spec.serializationPs(frame.length);
      cableFreeAtPs.put(io, tail);
      outbox.send(io, tail + spec.latencyPs(), new CableFrame(io, frame));
    }
    if (round + 1 < spec.inboundFrames()) {
      outbox.send(deviceId, outbox.nowPs() + spec.intervalPs(), new EthernetTimer(round + 1));
    }
  }

  /** The I/O node the switch sends a frame for {@code destination} to; -1 when no Ethernet NIC is enabled. */
  private int cableFor(long destination) {
    Integer learnedOn = learned.get(destination);
    if (learnedOn != null && enabled.contains(learnedOn)) return learnedOn;
    return enabled.isEmpty() ? -1 : enabled.get(0);
  }

  /** A frame from an I/O node's Ethernet NIC: checked, its source learned, delivered to its external host. */
  @Override
  public void onCableFrame(CableFrame cableFrame, Outbox outbox) {
    EthernetFrame frame;
    try {
      frame = EthernetFrame.decode(cableFrame.frame());
    } catch (EthernetFormatException e) {
      throw new IllegalStateException("external Ethernet: the Ethernet NIC of host " + cableFrame.ioHost()
          + " sent no valid frame: " + e.getMessage(), e);
    }
    learned.put(frame.source(), cableFrame.ioHost());
    int e = MacAddress.externalHostOf(frame.destination());
    if (e < 0 || e >= spec.externalHosts()) {
      throw new IllegalStateException("external Ethernet: a frame for " + MacAddress.format(frame.destination())
          + ", which is no external host");
    }
    received[e]++;
    if (!FramePayloads.verify(frame.source(), frame.payload(), seed)) wrong[e]++;
  }

  @Override
  public void onEthernetControl(EthernetControl control, Outbox outbox) {
    enabled = control.enabledIoHosts();
  }

  @Override
  public DeviceReport report() {
    List<ExternalHostCounters> hosts = new ArrayList<>();
    for (int e = 0; e < sent.length; e++) hosts.add(new ExternalHostCounters(e, sent[e], received[e], wrong[e]));
    EthernetReport ethernet = new EthernetReport(List.of(), hosts, 0, 0, 0, 0, 0, corruptedSent, noCableDrops,
        List.of());
    return DeviceReport.builder(deviceId).part(ethernet).build();
  }
}
