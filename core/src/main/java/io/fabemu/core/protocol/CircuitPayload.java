package io.fabemu.core.protocol;

import io.fabemu.core.protocol.DeviceProtocol.CircuitDown;
import io.fabemu.core.protocol.DeviceProtocol.CircuitUp;

/**
 * The circuit payload family. The OCS controller's circuits (docs/optical.md): a circuit from an NPU comes up or is
 * torn down. Only NICs receive them.
 *
 * <p>A device accepts the family by implementing its {@link Handler}, whose {@link PayloadHandlers#circuit} returns
 * the device itself; every other device refuses the whole family there, by {@link PayloadHandlers}' default. A new
 * record of the family adds a method to {@link Handler}: only the devices of the family have to decide what to do
 * with it.
 */
public sealed interface CircuitPayload extends Payload permits CircuitUp, CircuitDown {

  /**
   * A device that accepts the family: one method per record of it. A device that cannot take one of its records
   * (or not in its set-up) throws {@link PayloadHandlers#cannotHandle} there.
   *
   * @param <C> what the device needs besides the payload while it handles one event (its outbox, usually)
   */
  interface Handler<C> extends PayloadHandlers<C> {

    /** This device, which accepts the family. */
    @Override
    default Handler<C> circuit(CircuitPayload payload) {
      return this;
    }

    void onCircuitUp(CircuitUp up, C context);

    void onCircuitDown(CircuitDown down, C context);
  }
}
