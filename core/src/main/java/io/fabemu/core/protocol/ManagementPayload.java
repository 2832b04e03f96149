package io.fabemu.core.protocol;

import io.fabemu.core.protocol.DeviceProtocol.FailureNotice;

/**
 * The management payload family. What devices report to the management node: a fault they noticed. Only the
 * management node receives it (what it sends, route updates and Ethernet control, belongs to the families of its
 * receivers).
 *
 * <p>A device accepts the family by implementing its {@link Handler}, whose {@link PayloadHandlers#management} returns
 * the device itself; every other device refuses the whole family there, by {@link PayloadHandlers}' default. A new
 * record of the family adds a method to {@link Handler}: only the devices of the family have to decide what to do
 * with it.
 */
public sealed interface ManagementPayload extends Payload permits FailureNotice {

  /**
   * A device that accepts the family: one method per record of it. A device that cannot take one of its records
   * (or not in its set-up) throws {@link PayloadHandlers#cannotHandle} there.
   *
   * @param <C> what the device needs besides the payload while it handles one event (its outbox, usually)
   */
  interface Handler<C> extends PayloadHandlers<C> {

    /** This device, which accepts the family. */
    @Override
    default Handler<C> management(ManagementPayload payload) {
      return this;
    }

    void onFailureNotice(FailureNotice notice, C context);
  }
}
