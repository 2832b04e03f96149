package io.fabemu.core.protocol;

import io.fabemu.core.protocol.DeviceProtocol.CableFrame;
import io.fabemu.core.protocol.DeviceProtocol.EthernetControl;
import io.fabemu.core.protocol.DeviceProtocol.EthernetTimer;

/**
 * The ethernet payload family. The I/O nodes' Ethernet: frames on the cable between an I/O node's Ethernet NIC and
 * the external Ethernet, a traffic source's timer, and the management node's enabling of Ethernet NICs. NICs and
 * the external Ethernet receive them.
 *
 * <p>A device accepts the family by implementing its {@link Handler}, whose {@link PayloadHandlers#ethernet} returns
 * the device itself; every other device refuses the whole family there, by {@link PayloadHandlers}' default. A new
 * record of the family adds a method to {@link Handler}: only the devices of the family have to decide what to do
 * with it.
 */
public sealed interface EthernetPayload extends Payload permits CableFrame, EthernetTimer, EthernetControl {

  /**
   * A device that accepts the family: one method per record of it. A device that cannot take one of its records
   * (or not in its set-up) throws {@link PayloadHandlers#cannotHandle} there.
   *
   * @param <C> what the device needs besides the payload while it handles one event (its outbox, usually)
   */
  interface Handler<C> extends PayloadHandlers<C> {

    /** This device, which accepts the family. */
    @Override
    default Handler<C> ethernet(EthernetPayload payload) {
      return this;
    }

    void onCableFrame(CableFrame frame, C context);

    void onEthernetTimer(EthernetTimer timer, C context);

    void onEthernetControl(EthernetControl control, C context);
  }
}
