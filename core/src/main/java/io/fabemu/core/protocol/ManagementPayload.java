package io.fabemu.core.protocol;

import io.fabemu.core.protocol.DeviceProtocol.FailureNotice;

/**
 * The management payload family. What devices report to the management node: a fault they noticed. Only the
 * management node receives it (what it sends, route updates and Ethernet control, belongs to the families of its
 * receivers).
 *
 * <p>A device that accepts this family implements its {@link Handler} and returns it from {@link
 * PayloadHandlers#management}; every other device refuses the whole family there, as it does by default. A new
 * record of the family adds a method to {@link Handler}: only the devices of the family have to decide what to do
 * with it.
 */
public sealed interface ManagementPayload extends Payload permits FailureNotice {

  /**
   * A device's handling of every record of the family, one method per record. A device that accepts the family but
   * cannot take one of its records (or not in its set-up) throws {@link PayloadHandlers#cannotHandle} there.
   *
   * @param <C> what the device needs besides the payload while it handles one event (its outbox, usually)
   */
  interface Handler<C> {

    void onFailureNotice(FailureNotice notice, C context);
  }
}
