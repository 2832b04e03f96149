package io.fabemu.core.device;

import io.fabemu.core.device.DeviceProtocol.Packet;
import io.fabemu.core.engine.DeviceReport.LinkCounters;
import io.fabemu.core.engine.Outbox;
import io.fabemu.core.routing.RoutingTable;
import io.fabemu.core.spec.SwitchSpec.ForwardingMode;
import io.fabemu.core.topology.Topology;
import java.util.ArrayList;
import java.util.List;

/**
 * Forwarding shared by switches and by NICs that relay transit traffic in direct topologies: look up the egress
 * port (shortest path, per-flow ECMP), wait out the pipeline, and serialize on the port's FIFO.
 *
 * <p>Store-and-forward starts the egress when the whole packet is in ({@code tail + pipeline}); cut-through
 * starts it {@code pipeline} after the head arrives, and cannot finish before the tail has arrived.
 */
public final class PacketForwarder {
  private final int vertex;
  private final RoutingTable routing;
  private final EgressPort[] ports;
  private final long pipelineLatencyPs;
  private final boolean cutThrough;

  public PacketForwarder(int vertex, Topology topology, RoutingTable routing, long pipelineLatencyPs,
                         ForwardingMode mode) {
    this.vertex = vertex;
    this.routing = routing;
    List<Topology.Link> links = topology.ports(vertex);
    this.ports = new EgressPort[links.size()];
    for (int p = 0; p < ports.length; p++) {
      Topology.Link link = links.get(p);
      ports[p] = new EgressPort(link.from(), link.to(), link.spec());
    }
    this.pipelineLatencyPs = pipelineLatencyPs;
    this.cutThrough = mode == ForwardingMode.CUT_THROUGH;
  }

  /** The port toward {@code destinationHost} for this flow. */
  public EgressPort egressToward(int sourceHost, int destinationHost) {
    return ports[routing.egressPort(vertex, destinationHost, RoutingTable.flowHash(sourceHost, destinationHost))];
  }

  /** Forwards {@code packet}, whose head arrived now, toward its destination. */
  public void forward(Packet packet, Outbox outbox) {
    EgressPort port = egressToward(packet.sourceHost(), packet.destinationHost());
    long now = outbox.nowPs();
    if (cutThrough) {
      port.transmit(now + pipelineLatencyPs, packet.wireBytes(), packet.tailTimePs() + pipelineLatencyPs);
    } else {
      port.transmit(packet.tailTimePs() + pipelineLatencyPs, packet.wireBytes(), 0L);
    }
    outbox.send(port.toDevice(), port.lastHeadArrivalPs(), packet.withTailTimePs(port.lastTailArrivalPs()));
  }

  public List<LinkCounters> counters() {
    List<LinkCounters> out = new ArrayList<>(ports.length);
    for (EgressPort port : ports) out.add(port.counters());
    return out;
  }
}
