package io.fabemu.core.protocol;

/**
 * What an event carries: one of the records of {@link DeviceProtocol}. A record belongs here when it rides in an
 * event, between devices or from a device to itself; every one is registered with the wire serializer (core's
 * {@code reference.conf}).
 *
 * <p>The set is closed and cut into families by which devices receive them, one sealed interface each (this
 * package, one file per family): {@link WorkloadPayload}, {@link HostPayload}, {@link LinkPayload},
 * {@link RetransmitPayload}, {@link RouterPayload}, {@link FaultPayload}, {@link ManagementPayload},
 * {@link EthernetPayload}, {@link CircuitPayload}. A device takes payloads through its {@link PayloadHandlers},
 * which hands each family to that family's handler or refuses the whole family.
 */
public sealed interface Payload
    permits WorkloadPayload, HostPayload, LinkPayload, RetransmitPayload, RouterPayload, FaultPayload,
        ManagementPayload, EthernetPayload, CircuitPayload {

  /**
   * Bytes of element data this payload carries (values and MAXLOC/MINLOC locations), 0 when it carries none. The
   * engine sizes cross-member batches by it; everything else in a payload is a few dozen bytes.
   */
  default long dataBytes() {
    return 0L;
  }

  /**
   * Bytes of element data the receiving device copies or reduces when it handles this payload: a delivered
   * message's, which the rank applies to its buffers, and an INC task fragment's, which a switch aggregates or a
   * NIC merges; 0 for payloads whose data is only passed on by reference (an ordinary packet's slice is a view,
   * reassembled without a copy unless it crossed members). The engine runs windows with much of this work on
   * several threads; it is an estimate of work, never part of a result.
   */
  default long dataWorkBytes() {
    return 0L;
  }

  /**
   * Calls the method for this payload's record on {@code handlers}' handler of its family; the device refuses it
   * there when it does not accept the family.
   */
  <C> void handleWith(PayloadHandlers<C> handlers, C context);
}
