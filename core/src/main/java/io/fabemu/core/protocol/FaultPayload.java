package io.fabemu.core.protocol;

import io.fabemu.core.protocol.DeviceProtocol.FaultCommand;
import io.fabemu.core.protocol.DeviceProtocol.FaultDetected;
import io.fabemu.core.protocol.DeviceProtocol.RouteUpdate;

/**
 * The fault payload family. Faults at a device and the routes around them: the fault plan's command, a device's own
 * notice that a neighbour's heartbeats are missing (or back), and the management node's new routes. Switches,
 * routers, NICs and (for stragglers) compute nodes receive them.
 *
 * <p>A device that accepts this family implements its {@link Handler} and returns it from {@link
 * PayloadHandlers#fault}; every other device refuses the whole family there, as it does by default. A new record of
 * the family adds a method to {@link Handler}: only the devices of the family have to decide what to do with it.
 */
public sealed interface FaultPayload extends Payload permits FaultCommand, FaultDetected, RouteUpdate {

  /**
   * A device's handling of every record of the family, one method per record. A device that accepts the family but
   * cannot take one of its records (or not in its set-up) throws {@link PayloadHandlers#cannotHandle} there.
   *
   * @param <C> what the device needs besides the payload while it handles one event (its outbox, usually)
   */
  interface Handler<C> {

    void onFaultCommand(FaultCommand command, C context);

    void onFaultDetected(FaultDetected detected, C context);

    void onRouteUpdate(RouteUpdate update, C context);
  }
}
