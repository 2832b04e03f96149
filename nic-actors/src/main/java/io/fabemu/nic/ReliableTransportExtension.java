package io.fabemu.nic;

import io.fabemu.core.fault.FaultPlan;
import io.fabemu.core.link.PacketForwarder;
import io.fabemu.core.link.RoutingViews;
import io.fabemu.core.protocol.DeviceProtocol.FaultCommand;
import io.fabemu.core.protocol.DeviceProtocol.FaultDetected;
import io.fabemu.core.protocol.DeviceProtocol.NicSend;
import io.fabemu.core.protocol.DeviceProtocol.Packet;
import io.fabemu.core.protocol.DeviceProtocol.RouteUpdate;
import io.fabemu.core.protocol.DeviceProtocol.RoutedPacket;
import io.fabemu.core.protocol.DeviceProtocol.TransportTimer;
import io.fabemu.core.protocol.FaultPayload;
import io.fabemu.core.protocol.Message;
import io.fabemu.core.sim.Outbox;

/**
 * A NIC in a run with faults: its port takes the plan's events and the management node's routes
 * ({@link PacketForwarder#enableFaults}; on a router network the detours its port was built with, see
 * {@link NicBuilder#routerNetwork(io.fabemu.core.router.RouterSpec, int, io.fabemu.core.link.DetourViews)}), and its
 * messages go through the {@link ReliableTransport}: numbered per destination, acknowledged, resent on a timeout,
 * never delivered twice. It takes over the chassis's message transport and the fault payload family, and reports the
 * links' fault tally and the messages given up on.
 */
public final class ReliableTransportExtension implements NicExtension, NicClaims.Transport,
    FaultPayload.Handler<Outbox> {
  private final NicServices services;
  private final PacketForwarder forwarder;
  private final FaultPlan plan;
  private final ReliableTransport transport;

  private ReliableTransportExtension(NicServices services, FaultPlan plan, PathRoundTrip paths) {
    this.services = services;
    this.forwarder = services.forwarder();
    this.plan = plan;
    this.transport = new ReliableTransport(services.host(), plan.settings(), forwarder.faultTally(), paths);
  }

  /**
   * A NIC on links: its port follows the management node's routing views.
   *
   * @param paths the idle round trips of this NIC's messages, for the adaptive retransmit timeout
   * @throws IllegalArgumentException on a router network (whose NICs take the detours instead)
   */
  public static ReliableTransportExtension onLinks(NicServices services, FaultPlan plan, RoutingViews routingViews,
                                                   int managementDevice, long scenarioSeed, PathRoundTrip paths) {
    services.linkPort("the reliable transport with routing views"); // a router network's NIC takes detours
    services.forwarder().enableFaults(plan, routingViews, managementDevice, scenarioSeed);
    return new ReliableTransportExtension(services, plan, paths);
  }

  /**
   * A router-network NIC: its routers route by the detour routing, its packets carry the via node the management
   * node's detours give (its port was built with them), its link to the router takes the plan's events.
   *
   * @throws IllegalArgumentException on links, or when the port was built without detours
   */
  public static ReliableTransportExtension onRouters(NicServices services, FaultPlan plan, int managementDevice,
                                                     long scenarioSeed, PathRoundTrip paths) {
    RouterNicPort port = services.routerPort("the reliable transport with detours");
    if (!port.hasDetours()) {
      throw new IllegalArgumentException("NIC " + services.host() + ": the reliable transport with detours needs a "
          + "router port built with the detour views");
    }
    services.forwarder().enableFaultsOnRouters(plan, managementDevice, scenarioSeed);
    return new ReliableTransportExtension(services, plan, paths);
  }

  @Override
  public void claim(NicClaims claims) {
    claims.transport(this);
    claims.faults(this);
  }

  @Override
  public String deviceName() {
    return "NIC " + services.host();
  }

  @Override
  public void send(NicSend send, Outbox outbox) {
    long sequence = transport.nextSequence(send.destinationHost());
    // Registered before it goes: on a router network the terminal arms the timer when the last packet has left.
    TransportTimer timer = transport.sent(send.destinationHost(), sequence, send.message());
    long leftPs = services.transmitMessage(send.destinationHost(), send.message(), sequence, 0, outbox);
    if (leftPs >= 0) armTimer(timer, leftPs, outbox);
  }

  /** Schedules a message's retransmission timer, due the transport's wait after its last packet left. */
  private void armTimer(TransportTimer timer, long leftPs, Outbox outbox) {
    long fromPs = Math.max(outbox.nowPs(), leftPs);
    outbox.send(services.host(), fromPs + transport.armedAt(timer.destinationHost(), timer.sequence(), fromPs),
        timer);
  }

  /** A message was not acknowledged in time: send it again (a new work request and DMA read), or give up. */
  @Override
  public void onTimer(TransportTimer timer, Outbox outbox) {
    Message message = transport.onTimer(timer, outbox.nowPs(), plan.latestImpairingEventAtOrBefore(outbox.nowPs()));
    if (message == null) return;
    TransportTimer next = transport.sent(timer.destinationHost(), timer.sequence(), message);
    long leftPs = services.transmitMessage(timer.destinationHost(), message, timer.sequence(),
        transport.transmission(timer.destinationHost(), timer.sequence()), outbox);
    if (leftPs >= 0) armTimer(next, leftPs, outbox);
  }

  @Override
  public boolean arrives(int ingressDevice, long nowPs) {
    return forwarder.arrives(ingressDevice, nowPs);
  }

  /**
   * A copy of a message delivered already: its acknowledgement was lost (or is late), so acknowledge it again, on the
   * copy's first and last packets (whichever of them arrive; one may be lost too).
   */
  @Override
  public boolean discardsCopy(Packet packet, Outbox outbox) {
    if (!transport.isDelivered(packet.sourceHost(), packet.messageId())) return false;
    forwarder.faultTally().duplicateDiscarded();
    if (packet.segmentIndex() == 0 || packet.segmentIndex() == packet.segmentCount() - 1) {
      acknowledge(packet.sourceHost(), packet.messageId(), packet.transmission(), outbox.nowPs(), outbox);
    }
    return true;
  }

  /** A whole message is in: remember and acknowledge it. */
  @Override
  public void delivered(Packet last, long writtenPs, Outbox outbox) {
    transport.markDelivered(last.sourceHost(), last.messageId());
    acknowledge(last.sourceHost(), last.messageId(), last.transmission(), writtenPs, outbox);
  }

  /**
   * Acknowledges message {@code sequence} of {@code sourceHost}, once its last packet is in host memory, answering
   * copy {@code answeredTransmission} of it (the one whose packet made it whole, or a later duplicate).
   */
  private void acknowledge(int sourceHost, long sequence, int answeredTransmission, long readyPs, Outbox outbox) {
    Packet ack = Packet.builder().sourceHost(services.host()).destinationHost(sourceHost).messageId(sequence)
        .segmentCount(1).wireBytes(services.nic().headerBytes()).ack(true).transmission(answeredTransmission).build();
    services.port().sendAck(sourceHost, ack, readyPs, outbox);
  }

  @Override
  public void acknowledged(Packet ack, long tailTimePs) {
    transport.acknowledged(ack.sourceHost(), ack.messageId(), ack.transmission(), tailTimePs);
  }

  /**
   * On a router network: the last packet of this NIC's message left (its tail was injected, or it was lost at the
   * NIC), so its retransmission timer starts now. A packet waits in the terminal's queue for as long as the network
   * makes it, which must not count against the message's timeout.
   */
  @Override
  public void packetLeft(RoutedPacket packet, Outbox outbox) {
    Packet segment = packet.carried();
    if (segment == null || segment.ack() || packet.sourceHost() != services.host()
        || segment.segmentIndex() != segment.segmentCount() - 1) {
      return;
    }
    TransportTimer timer = transport.rearm(packet.destinationHost(), segment.messageId());
    if (timer != null) armTimer(timer, outbox.nowPs(), outbox);
  }

  @Override
  public void packetLost(RoutedPacket packet, int eventId) {
    forwarder.faultTally().packetLost(eventId);
  }

  @Override
  public void onFaultCommand(FaultCommand command, Outbox outbox) {
    forwarder.onFaultCommand(command, outbox);
    services.port().onLinkFaults(outbox);
  }

  @Override
  public void onFaultDetected(FaultDetected detected, Outbox outbox) {
    forwarder.onFaultDetected(detected, outbox);
  }

  @Override
  public void onRouteUpdate(RouteUpdate update, Outbox outbox) {
    services.port().onRouteUpdate(update);
    services.routesChanged(update, outbox);
  }

  @Override
  public void report(NicReportParts parts) {
    parts.faults(forwarder.faultTally().copy(), transport.gaveUp());
  }
}
