package io.fabemu.core.protocol;

import io.fabemu.core.protocol.DeviceProtocol.Credit;
import io.fabemu.core.protocol.DeviceProtocol.Flit;
import io.fabemu.core.protocol.DeviceProtocol.RouterCycle;

/**
 * The router payload family. The flow of a router network (mesh, torus, group-ring): flits on channels, the credits
 * that return their buffer slots, and a device's evaluation of a clock cycle. Routers and, on a router network,
 * NICs receive them; the flit and credit paths are hot.
 *
 * <p>A device accepts the family by implementing its {@link Handler}, whose {@link PayloadHandlers#router} returns
 * the device itself; every other device refuses the whole family there, by {@link PayloadHandlers}' default. A new
 * record of the family adds a method to {@link Handler}: only the devices of the family have to decide what to do
 * with it.
 */
public sealed interface RouterPayload extends Payload permits Flit, Credit, RouterCycle {

  /**
   * A device that accepts the family: one method per record of it. A device that cannot take one of its records
   * (or not in its set-up) throws {@link PayloadHandlers#cannotHandle} there.
   *
   * @param <C> what the device needs besides the payload while it handles one event (its outbox, usually)
   */
  interface Handler<C> extends PayloadHandlers<C> {

    /** This device, which accepts the family. */
    @Override
    default Handler<C> router(RouterPayload payload) {
      return this;
    }

    void onFlit(Flit flit, C context);

    void onCredit(Credit credit, C context);

    void onRouterCycle(RouterCycle cycle, C context);
  }
}
