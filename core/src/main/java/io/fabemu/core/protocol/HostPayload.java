package io.fabemu.core.protocol;

import io.fabemu.core.protocol.DeviceProtocol.LocalDelivery;
import io.fabemu.core.protocol.DeviceProtocol.NicDeliver;
import io.fabemu.core.protocol.DeviceProtocol.NicSend;

/**
 * The host payload family. Rank messages between a host's processes and its NIC: a process hands its NIC a message
 * to send, the NIC delivers an arrived one, a process copies one to another process of its node. Compute nodes and
 * NICs receive them.
 *
 * <p>A device that accepts this family implements its {@link Handler} and returns it from {@link
 * PayloadHandlers#host}; every other device refuses the whole family there, as it does by default. A new record of
 * the family adds a method to {@link Handler}: only the devices of the family have to decide what to do with it.
 */
public sealed interface HostPayload extends Payload permits NicSend, NicDeliver, LocalDelivery {

  /**
   * A device's handling of every record of the family, one method per record. A device that accepts the family but
   * cannot take one of its records (or not in its set-up) throws {@link PayloadHandlers#cannotHandle} there.
   *
   * @param <C> what the device needs besides the payload while it handles one event (its outbox, usually)
   */
  interface Handler<C> {

    void onNicSend(NicSend send, C context);

    void onNicDeliver(NicDeliver deliver, C context);

    void onLocalDelivery(LocalDelivery delivery, C context);
  }
}
