package io.fabemu.nic;

import io.fabemu.core.protocol.DeviceProtocol.Packet;
import io.fabemu.core.protocol.DeviceProtocol.RouteUpdate;
import io.fabemu.core.protocol.RouterPayload;
import io.fabemu.core.sim.DeviceReport.LinkCounters;
import io.fabemu.core.sim.Outbox;
import java.util.List;

/**
 * How a NIC's segments leave and arrive: the port strategy of the chassis ({@link NicCore}). A {@link LinkNicPort}
 * puts packets on links ({@code PacketForwarder}: direct topologies, leaf-spine, optical clusters); a
 * {@link RouterNicPort} injects them as flits into the NIC's router ({@code FlitTerminal}: mesh, torus, group-ring),
 * and so takes the router payload family, which a link port refuses.
 *
 * <p>A message goes out as {@link #beginMessage}, one {@link #sendSegment} per segment, then {@link #endMessage}; the
 * chassis is single-threaded, so the port keeps the message's state in fields (no allocation per segment).
 */
public sealed interface NicPort extends RouterPayload.Handler<Outbox> permits LinkNicPort, RouterNicPort {

  /** An event from device {@code ingressDevice} is about to be handled, with {@code outbox}. */
  void eventStarts(int ingressDevice, Outbox outbox);

  /** A message to {@code destinationHost} on lane {@code lane} starts, its work request done at {@code startPs}. */
  void beginMessage(int destinationHost, int lane, long startPs);

  /** Sends one segment of the current message, its bytes in the NIC at {@code readyPs}. */
  void sendSegment(int destinationHost, Packet packet, int wireBytes, long readyPs, Outbox outbox);

  /**
   * The current message's segments are all handed over, the last read at {@code readyPs}.
   *
   * @return when its last packet left the NIC; -1 when one was queued and the port reports when it leaves
   */
  long endMessage(long readyPs, Outbox outbox);

  /** Sends an acknowledgement (one header-only packet) to {@code destinationHost}, ready at {@code readyPs}. */
  void sendAck(int destinationHost, Packet ack, long readyPs, Outbox outbox);

  /** The management node's new routes (a run with faults). */
  void onRouteUpdate(RouteUpdate update);

  /** The port's link took a fault event, already applied to the forwarder's link faults. */
  void onLinkFaults(Outbox outbox);

  /** The counters of the port's links, for the device report. */
  List<LinkCounters> counters();

  /**
   * What a port asks of its chassis ({@link NicCore}), apart from what the extensions ask ({@link NicServices}): a
   * router port hands it the segments its terminal ejects and tells it when the link to the router goes down or up.
   */
  interface Host {

    /** A segment for this host, in from the port at its tail time: DMA write and reassembly. */
    void receive(Packet packet, Outbox outbox);

    /** The link to the router went down or up: every extension hears of it ({@link NicExtension#onRouterLink}). */
    void routerLinkChanged(boolean up);
  }
}
