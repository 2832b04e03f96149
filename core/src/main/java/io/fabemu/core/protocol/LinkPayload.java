package io.fabemu.core.protocol;

import io.fabemu.core.protocol.DeviceProtocol.Packet;

/**
 * The link payload family. Packets on the links of a switched or direct fabric (ordinary, INC and acknowledgement
 * packets alike). Switches and NICs receive them; on the hot path.
 *
 * <p>A device accepts the family by implementing its {@link Handler}, whose {@link PayloadHandlers#link} returns
 * the device itself; every other device refuses the whole family there, by {@link PayloadHandlers}' default. A new
 * record of the family adds a method to {@link Handler}: only the devices of the family have to decide what to do
 * with it.
 */
public sealed interface LinkPayload extends Payload permits Packet {

  /**
   * A device that accepts the family: one method per record of it. A device that cannot take one of its records
   * (or not in its set-up) throws {@link PayloadHandlers#cannotHandle} there.
   *
   * @param <C> what the device needs besides the payload while it handles one event (its outbox, usually)
   */
  interface Handler<C> extends PayloadHandlers<C> {

    /** This device, which accepts the family. */
    @Override
    default Handler<C> link(LinkPayload payload) {
      return this;
    }

    void onPacket(Packet packet, C context);
  }
}
