package io.fabemu.core.protocol;

import io.fabemu.core.protocol.DeviceProtocol.LocalDelivery;
import io.fabemu.core.protocol.DeviceProtocol.NicDeliver;
import io.fabemu.core.protocol.DeviceProtocol.NicSend;

/**
 * The host payload family. Rank messages between a host's processes and its NIC: a process hands its NIC a message
 * to send, the NIC delivers an arrived one, a process copies one to another process of its node. Compute nodes and
 * NICs receive them.
 *
 * <p>A device accepts the family by implementing its {@link Handler}, whose {@link PayloadHandlers#host} returns
 * the device itself; every other device refuses the whole family there, by {@link PayloadHandlers}' default. A new
 * record of the family adds a method to {@link Handler}: only the devices of the family have to decide what to do
 * with it.
 */
public sealed interface HostPayload extends Payload permits NicSend, NicDeliver, LocalDelivery {

  /**
   * A device that accepts the family: one method per record of it. A device that cannot take one of its records
   * (or not in its set-up) throws {@link PayloadHandlers#cannotHandle} there.
   *
   * @param <C> what the device needs besides the payload while it handles one event (its outbox, usually)
   */
  interface Handler<C> extends PayloadHandlers<C> {

    /** This device, which accepts the family. */
    @Override
    default Handler<C> host(HostPayload payload) {
      return this;
    }

    void onNicSend(NicSend send, C context);

    void onNicDeliver(NicDeliver deliver, C context);

    void onLocalDelivery(LocalDelivery delivery, C context);
  }
}
