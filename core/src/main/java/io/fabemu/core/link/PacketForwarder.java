package io.fabemu.core.link;

import io.fabemu.core.protocol.DeviceProtocol.Packet;
import io.fabemu.core.routing.RoutingTable;
import io.fabemu.core.sim.DeviceReport.LinkCounters;
import io.fabemu.core.sim.Outbox;
import io.fabemu.core.topology.Topology;
import java.util.ArrayList;
import java.util.List;

/**
 * Forwarding shared by switches and by NICs that relay transit traffic in direct topologies: look up the egress
 * port (shortest path, per-flow ECMP), wait out the pipeline, and serialize on the port's FIFO.
 *
 * <p>Store-and-forward starts the egress when the whole packet is in ({@code tail + pipeline}); cut-through
 * starts it {@code pipeline} after the head arrives, and cannot finish before the tail has arrived.
 *
 * <p>The ports also carry the injected loss of their links ({@link PacketDropSpec}): a packet a port loses is
 * transmitted (it occupies the link) but never delivered.
 */
public final class PacketForwarder {
  private final int vertex;
  private final RoutingTable routing;
  private final EgressPort[] ports;
  private final long pipelineLatencyPs;
  /** Ports by the vertex they lead to (the first port when parallel links join the two). */
  private java.util.Map<Integer, EgressPort> portByNeighbour;
  private final boolean cutThrough;

  public PacketForwarder(int vertex, Topology topology, RoutingTable routing, long pipelineLatencyPs,
                         ForwardingMode mode) {
    this(vertex, topology, routing, pipelineLatencyPs, mode, List.of(), 0L);
  }

  /**
   * @param packetDrops  the scenario's injected loss; the entries whose link starts at {@code vertex} apply here
   * @param scenarioSeed seeds the ports' loss decisions
   */
  public PacketForwarder(int vertex, Topology topology, RoutingTable routing, long pipelineLatencyPs,
                         ForwardingMode mode, List<PacketDropSpec> packetDrops, long scenarioSeed) {
    this.vertex = vertex;
    this.routing = routing;
    List<Topology.Link> links = topology.ports(vertex);
    this.ports = new EgressPort[links.size()];
    for (int p = 0; p < ports.length; p++) {
      Topology.Link link = links.get(p);
      double dropProbability = 0.0;
      for (PacketDropSpec drop : packetDrops) {
        if (drop.fromVertex() == link.from() && drop.toVertex() == link.to()) dropProbability = drop.probability();
      }
      ports[p] = new EgressPort(link.from(), link.to(), link.spec(), dropProbability, scenarioSeed);
    }
    this.pipelineLatencyPs = pipelineLatencyPs;
    this.cutThrough = mode == ForwardingMode.CUT_THROUGH;
  }

  /** The port toward {@code destinationHost} for this flow. */
  public EgressPort egressToward(int sourceHost, int destinationHost) {
    return ports[routing.egressPort(vertex, destinationHost, RoutingTable.flowHash(sourceHost, destinationHost))];
  }

  /** The (first) port whose link leads to the neighbour {@code neighbourVertex}, or null when none does. */
  public EgressPort portTo(int neighbourVertex) {
    if (portByNeighbour == null) {
      // Built on first use (only INC units address neighbours): a SPINE sends to thousands of TORs per result.
      portByNeighbour = new java.util.HashMap<>();
      for (EgressPort port : ports) portByNeighbour.putIfAbsent(port.toDevice(), port);
    }
    return portByNeighbour.get(neighbourVertex);
  }

  public long pipelineLatencyPs() {
    return pipelineLatencyPs;
  }

  /** Forwards {@code packet}, whose head arrived now, toward its destination. */
  public void forward(Packet packet, Outbox outbox) {
    forward(packet, egressToward(packet.sourceHost(), packet.destinationHost()), outbox);
  }

  /** Forwards {@code packet}, whose head arrived now, on {@code port}. */
  public void forward(Packet packet, EgressPort port, Outbox outbox) {
    long now = outbox.nowPs();
    if (cutThrough) {
      port.transmit(now + pipelineLatencyPs, packet.wireBytes(), packet.tailTimePs() + pipelineLatencyPs);
    } else {
      port.transmit(packet.tailTimePs() + pipelineLatencyPs, packet.wireBytes(), 0L);
    }
    deliverUnlessLost(port, packet, outbox);
  }

  /**
   * Serializes a packet the device created (or rebuilt) on {@code port}, starting no earlier than {@code readyPs},
   * and sends it to the far end unless the link loses it.
   */
  public static void transmit(EgressPort port, long readyPs, Packet packet, Outbox outbox) {
    port.transmit(readyPs, packet.wireBytes(), 0L);
    deliverUnlessLost(port, packet, outbox);
  }

  private static void deliverUnlessLost(EgressPort port, Packet packet, Outbox outbox) {
    if (!port.lostInTransit(packet)) {
      outbox.send(port.toDevice(), port.lastHeadArrivalPs(), packet.withTailTimePs(port.lastTailArrivalPs()));
    }
  }

  public List<LinkCounters> counters() {
    List<LinkCounters> out = new ArrayList<>(ports.length);
    for (EgressPort port : ports) out.add(port.counters());
    return out;
  }
}
