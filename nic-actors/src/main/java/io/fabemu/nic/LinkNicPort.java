package io.fabemu.nic;

import io.fabemu.core.link.EgressPort;
import io.fabemu.core.link.PacketForwarder;
import io.fabemu.core.protocol.DeviceProtocol.Credit;
import io.fabemu.core.protocol.DeviceProtocol.Flit;
import io.fabemu.core.protocol.DeviceProtocol.Packet;
import io.fabemu.core.protocol.DeviceProtocol.RouteUpdate;
import io.fabemu.core.protocol.DeviceProtocol.RouterCycle;
import io.fabemu.core.sim.DeviceReport.LinkCounters;
import io.fabemu.core.sim.Outbox;
import java.util.List;

/**
 * The port of a NIC on links (direct topologies, leaf-spine, optical clusters): a message's packets leave through the
 * egress port its {@link PacketForwarder} routes it to, serialized there; a message whose destination no route reaches
 * (a run with faults) is counted unroutable, packet by packet. Refuses router payloads.
 */
public final class LinkNicPort implements NicPort {
  private final int host;
  private final PacketForwarder forwarder;
  /** The current message's egress port; null when no route reaches its destination. */
  private EgressPort messagePort;
  /** When the current message's latest packet so far left. */
  private long messageLeftPs;

  public LinkNicPort(int host, PacketForwarder forwarder) {
    this.host = host;
    this.forwarder = forwarder;
  }

  /** The egress port to neighbour vertex {@code neighbourVertex} (INC addresses the host's TOR); null when none. */
  public EgressPort portTo(int neighbourVertex) {
    return forwarder.portTo(neighbourVertex);
  }

  @Override
  public String deviceName() {
    return "NIC " + host;
  }

  @Override
  public void eventStarts(int ingressDevice, Outbox outbox) {
    // Links need nothing of the event.
  }

  @Override
  public void beginMessage(int destinationHost, int lane, long startPs) {
    // Null only in a run with faults, when the management node's routes cut the destination off.
    messagePort = forwarder.egressToward(host, destinationHost, lane);
    messageLeftPs = startPs;
  }

  @Override
  public void sendSegment(int destinationHost, Packet packet, int wireBytes, long readyPs, Outbox outbox) {
    if (messagePort == null) {
      forwarder.countUnroutable();
      return;
    }
    PacketForwarder.transmit(messagePort, readyPs, packet, outbox);
    messageLeftPs = Math.max(messageLeftPs, messagePort.lastTailArrivalPs() - messagePort.latencyPs());
  }

  @Override
  public long endMessage(long readyPs, Outbox outbox) {
    messagePort = null;
    return Math.max(messageLeftPs, readyPs);
  }

  @Override
  public void sendAck(int destinationHost, Packet ack, long readyPs, Outbox outbox) {
    EgressPort port = forwarder.egressToward(host, destinationHost);
    if (port == null) {
      forwarder.countUnroutable();
    } else {
      PacketForwarder.transmit(port, Math.max(readyPs, outbox.nowPs()), ack, outbox);
    }
  }

  /** The routing views of the management node's new routes. */
  @Override
  public void onRouteUpdate(RouteUpdate update) {
    forwarder.onRouteUpdate(update);
  }

  /** The forwarder's link faults are all there is. */
  @Override
  public void onLinkFaults(Outbox outbox) {
    // nothing besides the forwarder
  }

  @Override
  public List<LinkCounters> counters() {
    return forwarder.counters();
  }

  @Override
  public void onFlit(Flit flit, Outbox outbox) {
    throw cannotHandle(flit);
  }

  @Override
  public void onCredit(Credit credit, Outbox outbox) {
    throw cannotHandle(credit);
  }

  @Override
  public void onRouterCycle(RouterCycle cycle, Outbox outbox) {
    throw cannotHandle(cycle);
  }
}
