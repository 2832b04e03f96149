package io.fabemu.core.protocol;

import io.fabemu.core.protocol.DeviceProtocol.CableFrame;
import io.fabemu.core.protocol.DeviceProtocol.EthernetControl;
import io.fabemu.core.protocol.DeviceProtocol.EthernetTimer;

/**
 * The ethernet payload family. The I/O nodes' Ethernet: frames on the cable between an I/O node's Ethernet NIC and
 * the external Ethernet, a traffic source's timer, and the management node's enabling of Ethernet NICs. NICs and
 * the external Ethernet receive them.
 *
 * <p>A device that accepts this family implements its {@link Handler} and returns it from {@link
 * PayloadHandlers#ethernet}; every other device refuses the whole family there, as it does by default. A new record
 * of the family adds a method to {@link Handler}: only the devices of the family have to decide what to do with it.
 */
public sealed interface EthernetPayload extends Payload permits CableFrame, EthernetTimer, EthernetControl {

  /**
   * A device's handling of every record of the family, one method per record. A device that accepts the family but
   * cannot take one of its records (or not in its set-up) throws {@link PayloadHandlers#cannotHandle} there.
   *
   * @param <C> what the device needs besides the payload while it handles one event (its outbox, usually)
   */
  interface Handler<C> {

    void onCableFrame(CableFrame frame, C context);

    void onEthernetTimer(EthernetTimer timer, C context);

    void onEthernetControl(EthernetControl control, C context);
  }
}
