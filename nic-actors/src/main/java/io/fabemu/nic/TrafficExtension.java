package io.fabemu.nic;

import io.fabemu.core.protocol.DeviceProtocol.RoutedPacket;
import io.fabemu.core.protocol.DeviceProtocol.StartWorkload;
import io.fabemu.core.protocol.WorkloadPayload;
import io.fabemu.core.router.FlitTerminal;
import io.fabemu.core.router.RouterTiming;
import io.fabemu.core.sim.Outbox;
import io.fabemu.core.traffic.DestinationPicker;
import io.fabemu.core.traffic.TrafficSource;
import io.fabemu.core.traffic.TrafficSpec;
import io.fabemu.core.traffic.TrafficStats;

/**
 * A router-network NIC that injects synthetic traffic (one offered load) from its {@link StartWorkload} on: its
 * {@link TrafficSource} makes packets as time goes, which are queued in the port's terminal just before they exist,
 * and the {@link TrafficStats} count what is created and what arrives here. The sources stop with the drain. It takes
 * the workload payload family and the router port's cycles and segment-less packets.
 */
public final class TrafficExtension implements NicExtension, WorkloadPayload.Handler<Outbox>, RouterNicPort.Traffic {
  private final int host;
  private final RouterNicPort port;
  private final TrafficSpec traffic;
  private final DestinationPicker destinations;
  private final long scenarioSeed;
  private final TrafficStats stats;
  private final long cyclePs;
  /** The traffic source, from the workload's start on; null before. */
  private TrafficSource source;
  /** The creation cycle of the last traffic packet queued in the terminal; -1 before the first. */
  private long lastQueuedCycle = -1;

  /**
   * @param traffic      the traffic of one offered load ({@link TrafficSpec#atLoad})
   * @param destinations the traffic pattern on the network (shared by every NIC)
   * @param scenarioSeed seeds the source
   * @throws IllegalArgumentException when the NIC is not on a router network, the traffic has several loads or no
   *                                  destinations are given
   */
  public TrafficExtension(NicServices services, TrafficSpec traffic, DestinationPicker destinations,
                          long scenarioSeed) {
    this.host = services.host();
    this.port = services.routerPort("synthetic traffic");
    if (traffic.loadCount() != 1) {
      throw new IllegalArgumentException("NIC " + host + ": synthetic traffic needs one offered load, got "
          + traffic.loadCount());
    }
    if (destinations == null) {
      throw new IllegalArgumentException("NIC " + host + ": synthetic traffic needs the pattern's destinations");
    }
    this.traffic = traffic;
    this.destinations = destinations;
    this.scenarioSeed = scenarioSeed;
    this.stats = new TrafficStats(traffic);
    this.cyclePs = port.spec().cyclePs();
  }

  @Override
  public void claim(NicClaims claims) {
    claims.workload(this);
    claims.routerTraffic(this);
  }

  @Override
  public String deviceName() {
    return "NIC " + host;
  }

  /** What the traffic measured so far. */
  public TrafficStats stats() {
    return stats;
  }

  /** The start of a synthetic-traffic run: the source starts creating packets at cycle 0. */
  @Override
  public void onStartWorkload(StartWorkload start, Outbox outbox) {
    if (source != null) throw cannotHandle(start);
    source = TrafficSource.forLoad(traffic, 0, destinations, host, scenarioSeed);
    queue(RouterTiming.cycleOfEdge(outbox.nowPs(), cyclePs));
    port.terminal().scheduleEvaluation(outbox);
  }

  @Override
  public void beforeCycle(Outbox outbox) {
    if (source == null) return;
    long now = RouterTiming.cycleOfEvaluation(outbox.nowPs(), cyclePs);
    if (now < traffic.drainEndCycle()) {
      queue(now);
    } else {
      // The sources stop with the drain: what has not left by then is never measured (a measured packet still queued
      // makes the drain incomplete, which is the saturation verdict), so its backlog is not emulated.
      port.terminal().dropQueued();
    }
  }

  /**
   * Queues in the terminal every traffic packet created up to cycle {@code cycle}, and the first one after it, so
   * that the terminal's next evaluation is due when that packet exists: packets are made as time goes, never all at
   * once.
   */
  private void queue(long cycle) {
    FlitTerminal terminal = port.terminal();
    while (source.hasNext() && lastQueuedCycle <= cycle) {
      long created = source.nextPacketCycle();
      int flits = traffic.packetFlits();
      stats.recordCreated(created, flits);
      terminal.enqueue(new RoutedPacket(source.nextPacketNumber(), host, source.nextDestination(), flits,
          created * cyclePs, traffic.isMeasured(created), null));
      lastQueuedCycle = created;
      source.advance();
    }
  }

  @Override
  public void arrived(RoutedPacket packet, long tailArrivalPs, int hops) {
    stats.recordArrived(packet.createdPs() / cyclePs, RouterTiming.cycleOfEdge(tailArrivalPs, cyclePs), hops);
  }

  @Override
  public void flitEjected(long arrivalPs) {
    stats.recordFlitsEjected(RouterTiming.cycleOfEdge(arrivalPs, cyclePs), 1);
  }

  /**
   * Packets created while the terminal could not inject were never queued (the sources make packets as the terminal
   * evaluates): they count as created, so that a measured one that never left makes the drain incomplete and the
   * generated load is the sources'.
   */
  @Override
  public void report(NicReportParts parts) {
    if (source != null) {
      while (source.hasNext()) {
        stats.recordCreated(source.nextPacketCycle(), traffic.packetFlits());
        source.advance();
      }
    }
    parts.traffic(stats);
  }
}
