package io.fabemu.core.protocol;

import io.fabemu.core.protocol.DeviceProtocol.CircuitDown;
import io.fabemu.core.protocol.DeviceProtocol.CircuitUp;

/**
 * The circuit payload family. The OCS controller's circuits (docs/optical.md): a circuit from an NPU comes up or is
 * torn down. Only NICs receive them.
 *
 * <p>A device that accepts this family implements its {@link Handler} and returns it from {@link
 * PayloadHandlers#circuit}; every other device refuses the whole family there, as it does by default. A new record
 * of the family adds a method to {@link Handler}: only the devices of the family have to decide what to do with it.
 */
public sealed interface CircuitPayload extends Payload permits CircuitUp, CircuitDown {

  /**
   * A device's handling of every record of the family, one method per record. A device that accepts the family but
   * cannot take one of its records (or not in its set-up) throws {@link PayloadHandlers#cannotHandle} there.
   *
   * @param <C> what the device needs besides the payload while it handles one event (its outbox, usually)
   */
  interface Handler<C> {

    void onCircuitUp(CircuitUp up, C context);

    void onCircuitDown(CircuitDown down, C context);
  }
}
