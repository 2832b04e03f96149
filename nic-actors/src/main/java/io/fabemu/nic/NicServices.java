package io.fabemu.nic;

import io.fabemu.core.link.PacketForwarder;
import io.fabemu.core.protocol.DeviceProtocol.RouteUpdate;
import io.fabemu.core.protocol.Message;
import io.fabemu.core.routing.RoutingTable;
import io.fabemu.core.sim.Outbox;
import io.fabemu.core.topology.Topology;

/**
 * What a {@link NicExtension} may ask of the NIC chassis ({@link NicCore}): its identity and settings, its port,
 * the work-request queue and the two DMA channels, transmitting a message through the port, reassembling a received
 * segment, and delivering a message to the compute node. Virtual time comes with the {@link Outbox} of the event
 * being handled. Every method here is used by at least one extension; what only the port asks of the chassis is in
 * {@link NicPort.Host}.
 */
public interface NicServices {

  /** The host's vertex id, also the NIC's device id. */
  int host();

  Topology topology();

  RoutingTable routing();

  NicSpec nic();

  /** The NIC's links: counters, faults, OCS circuits and route changes. */
  PacketForwarder forwarder();

  /** The port strategy segments leave by. */
  NicPort port();

  /**
   * The port of a router-network NIC.
   *
   * @throws IllegalArgumentException naming {@code feature} when the NIC's port is a link port
   */
  RouterNicPort routerPort(String feature);

  /**
   * The port of a NIC on links.
   *
   * @throws IllegalArgumentException naming {@code feature} when the NIC's port is a router port
   */
  LinkNicPort linkPort(String feature);

  /** A new message id of this NIC (ids of messages outside the reliable transport). */
  long nextMessageId();

  /** Queues a work request posted at {@code nowPs}; returns when the NIC has processed it. */
  long workRequestDonePs(long nowPs);

  /**
   * When the DMA can start reading a message to {@code peerHost} ({@link HostBus#NETWORK} for INC's packets) whose
   * work request is done at {@code startPs}: on the NIC's {@link HostBus}.
   */
  long dmaReadStartPs(int peerHost, long startPs);

  /** When {@code bytes} read from {@code readStartPs} on are in the NIC (the pipelined read's end, from its start). */
  long dmaReadReadyPs(int peerHost, long readStartPs, long bytes);

  /** The DMA read channel that served {@code peerHost} is busy until {@code readyPs}. */
  void dmaReadDone(int peerHost, long readyPs);

  /** DMA-writes {@code bytes} from {@code peerHost} that are ready at {@code readyPs}; returns when they are in memory. */
  long dmaWrittenPs(int peerHost, long readyPs, long bytes);

  /** Delivers {@code message} to the compute node, a PCIe latency after {@code writtenPs}. */
  void deliver(Message message, long writtenPs, Outbox outbox);

  /**
   * Sends {@code message} as message {@code messageId} to {@code destinationHost}: its work request, the DMA read of
   * its segments and their packets through the port, which carry {@code transmission}.
   *
   * @return when its last packet left the NIC; -1 when the port queued it and reports when it leaves
   */
  long transmitMessage(int destinationHost, Message message, long messageId, int transmission, Outbox outbox);

  /** The routes changed (a run with faults): every extension hears of it ({@link NicExtension#routesChanged}). */
  void routesChanged(RouteUpdate update, Outbox outbox);
}
