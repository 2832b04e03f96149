package io.fabemu.core.protocol;

import io.fabemu.core.protocol.DeviceProtocol.StartWorkload;

/**
 * The workload payload family. The run's start of a device's own work, at time 0: a compute node starts its ranks'
 * collectives, a NIC its synthetic traffic (a traffic workload), the OCS controller its schedule of
 * connection-policy changes.
 *
 * <p>A device accepts the family by implementing its {@link Handler}, whose {@link PayloadHandlers#workload} returns
 * the device itself; every other device refuses the whole family there, by {@link PayloadHandlers}' default. A new
 * record of the family adds a method to {@link Handler}: only the devices of the family have to decide what to do
 * with it.
 */
public sealed interface WorkloadPayload extends Payload permits StartWorkload {

  /**
   * A device that accepts the family: one method per record of it. A device that cannot take one of its records
   * (or not in its set-up) throws {@link PayloadHandlers#cannotHandle} there.
   *
   * @param <C> what the device needs besides the payload while it handles one event (its outbox, usually)
   */
  interface Handler<C> extends PayloadHandlers<C> {

    /** This device, which accepts the family. */
    @Override
    default Handler<C> workload(WorkloadPayload payload) {
      return this;
    }

    void onStartWorkload(StartWorkload start, C context);
  }
}
