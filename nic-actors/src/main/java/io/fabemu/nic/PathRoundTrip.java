package io.fabemu.nic;

import io.fabemu.core.routing.RoutingTable;
import io.fabemu.core.time.Units;
import io.fabemu.core.topology.Topology;
import java.util.HashMap;
import java.util.Map;

/**
 * What one message and its acknowledgement take on an idle fabric, from the message's last packet leaving this NIC
 * to the acknowledgement's arrival: the path's latency both ways (links, plus each switch's or router's own delay;
 * a host relaying on a direct topology adds none),
 * the PCIe latency both ways, and the message's bytes once more at the path's slowest link (the acknowledgement may
 * wait behind a message of the same size going the other way, as in a pairwise exchange). The reliable transport
 * takes three times it (RFC 6298's timeout after a first sample R: R + 4 x R/2) as the least timeout of a message
 * before the round trips measured say more.
 *
 * <p>The path is the routing's first next hop at each vertex; it is walked once per destination and kept.
 */
public final class PathRoundTrip {
  private final int host;
  private final Topology topology;
  private final RoutingTable routing;
  private final long perSwitchPs;
  private final long pcieLatencyPs;
  /** Per destination host: {one-way latency in ps, slowest rate in bits per second}. */
  private final Map<Integer, long[]> paths = new HashMap<>();

  /**
   * @param perSwitchPs   the time a packet's head spends in each switch or router on the way (pipeline latency, or
   *                      a router's cycles)
   * @param pcieLatencyPs one way between host memory and the NIC
   */
  public PathRoundTrip(int host, Topology topology, RoutingTable routing, long perSwitchPs, long pcieLatencyPs) {
    if (perSwitchPs < 0 || pcieLatencyPs < 0) {
      throw new IllegalArgumentException("host " + host + ": switch delay and PCIe latency cannot be negative");
    }
    this.host = host;
    this.topology = topology;
    this.routing = routing;
    this.perSwitchPs = perSwitchPs;
    this.pcieLatencyPs = pcieLatencyPs;
  }

  /** The idle round trip of a message of {@code messageBytes} to {@code destinationHost}, as the class says. */
  public long roundTripPs(int destinationHost, long messageBytes) {
    long[] path = paths.computeIfAbsent(destinationHost, this::walk);
    return 2 * (path[0] + pcieLatencyPs) + Units.transferPs(messageBytes, path[1]);
  }

  private long[] walk(int destinationHost) {
    long latencyPs = 0;
    long slowestBitsPerSecond = Long.MAX_VALUE;
    for (int v = host; v != destinationHost; ) {
      Topology.Link link = topology.ports(v).get(routing.nextHopPorts(v, destinationHost)[0]);
      latencyPs += link.spec().latencyPs();
      if (link.spec().bandwidthBitsPerSecond() > 0) {
        slowestBitsPerSecond = Math.min(slowestBitsPerSecond, link.spec().bandwidthBitsPerSecond());
      }
      v = link.to();
      // A transit switch or router adds its delay; a transit host (a direct topology's relay) adds none here: its
      // NIC's forwarding latency is left out, so the floor errs low, where the measured round trips take over.
      if (v != destinationHost && !topology.isHost(v)) latencyPs += perSwitchPs;
    }
    return new long[] {latencyPs, slowestBitsPerSecond == Long.MAX_VALUE ? 0 : slowestBitsPerSecond};
  }
}
