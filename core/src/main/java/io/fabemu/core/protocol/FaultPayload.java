package io.fabemu.core.protocol;

import io.fabemu.core.protocol.DeviceProtocol.FaultCommand;
import io.fabemu.core.protocol.DeviceProtocol.FaultDetected;
import io.fabemu.core.protocol.DeviceProtocol.RouteUpdate;

/**
 * The fault payload family. Faults at a device and the routes around them: the fault plan's command, a device's own
 * notice that a neighbour's heartbeats are missing (or back), and the management node's new routes. Switches,
 * routers, NICs and (for stragglers) compute nodes receive them.
 *
 * <p>A device accepts the family by implementing its {@link Handler}, whose {@link PayloadHandlers#fault} returns
 * the device itself; every other device refuses the whole family there, by {@link PayloadHandlers}' default. A new
 * record of the family adds a method to {@link Handler}: only the devices of the family have to decide what to do
 * with it.
 */
public sealed interface FaultPayload extends Payload permits FaultCommand, FaultDetected, RouteUpdate {

  /**
   * A device that accepts the family: one method per record of it. A device that cannot take one of its records
   * (or not in its set-up) throws {@link PayloadHandlers#cannotHandle} there.
   *
   * @param <C> what the device needs besides the payload while it handles one event (its outbox, usually)
   */
  interface Handler<C> extends PayloadHandlers<C> {

    /** This device, which accepts the family. */
    @Override
    default Handler<C> fault(FaultPayload payload) {
      return this;
    }

    void onFaultCommand(FaultCommand command, C context);

    void onFaultDetected(FaultDetected detected, C context);

    void onRouteUpdate(RouteUpdate update, C context);
  }
}
