package io.fabemu.nic;

import io.fabemu.core.protocol.DeviceProtocol.NicSend;
import io.fabemu.core.protocol.DeviceProtocol.Packet;
import io.fabemu.core.protocol.DeviceProtocol.RoutedPacket;
import io.fabemu.core.protocol.DeviceProtocol.TransportTimer;
import io.fabemu.core.protocol.PayloadHandlers;
import io.fabemu.core.sim.Outbox;

/**
 * The chassis's own message transport, when no extension claims it: each message sent once under a new message id,
 * every packet arrives, nothing is acknowledged. An acknowledgement, a transport timer or a packet lost to a fault is
 * an error of the set-up (a run without faults has none).
 */
final class PlainTransport implements NicClaims.Transport {
  private final NicServices services;
  private final PayloadHandlers<Outbox> device;

  PlainTransport(NicServices services, PayloadHandlers<Outbox> device) {
    this.services = services;
    this.device = device;
  }

  @Override
  public void send(NicSend send, Outbox outbox) {
    services.transmitMessage(send.destinationHost(), send.message(), services.nextMessageId(), 0, outbox);
  }

  @Override
  public void onTimer(TransportTimer timer, Outbox outbox) {
    throw device.cannotHandle(timer);
  }

  @Override
  public boolean arrives(int ingressDevice, long nowPs) {
    return true;
  }

  @Override
  public boolean discardsCopy(Packet packet, Outbox outbox) {
    return false;
  }

  @Override
  public void delivered(Packet last, long writtenPs, Outbox outbox) {
    // nothing to acknowledge
  }

  @Override
  public void acknowledged(Packet ack, long tailTimePs) {
    throw new IllegalStateException("NIC " + services.host() + " got an acknowledgement from host " + ack.sourceHost()
        + " in a run without the reliable transport");
  }

  @Override
  public void packetLeft(RoutedPacket packet, Outbox outbox) {
    // no timer to start
  }

  @Override
  public void packetLost(RoutedPacket packet, int eventId) {
    throw new IllegalStateException("packet " + packet.packetId() + " of host " + packet.sourceHost()
        + " lost to fault event " + eventId + " in a run without a fault plan");
  }
}
