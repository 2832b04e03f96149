package io.fabemu.core.protocol;

import io.fabemu.core.protocol.DeviceProtocol.IncRetransmitTimer;
import io.fabemu.core.protocol.DeviceProtocol.TransportTimer;

/**
 * The retransmit payload family. A NIC's retransmission timers, which it sends itself: an INC task's (the INC
 * patent's fragments kept until their result is in) and the reliable transport's, for a message not yet
 * acknowledged. Only NICs receive them.
 *
 * <p>A device accepts the family by implementing its {@link Handler}, whose {@link PayloadHandlers#retransmit} returns
 * the device itself; every other device refuses the whole family there, by {@link PayloadHandlers}' default. A new
 * record of the family adds a method to {@link Handler}: only the devices of the family have to decide what to do
 * with it.
 */
public sealed interface RetransmitPayload extends Payload permits IncRetransmitTimer, TransportTimer {

  /**
   * A device that accepts the family: one method per record of it. A device that cannot take one of its records
   * (or not in its set-up) throws {@link PayloadHandlers#cannotHandle} there.
   *
   * @param <C> what the device needs besides the payload while it handles one event (its outbox, usually)
   */
  interface Handler<C> extends PayloadHandlers<C> {

    /** This device, which accepts the family. */
    @Override
    default Handler<C> retransmit(RetransmitPayload payload) {
      return this;
    }

    void onIncRetransmitTimer(IncRetransmitTimer timer, C context);

    void onTransportTimer(TransportTimer timer, C context);
  }
}
