package io.fabemu.core.protocol;

/**
 * A device's handlers of the payload families, one accessor per family: {@link Payload#handleWith} asks for the
 * handler of the payload's family and calls its method for the payload's record. This is the one shared base that
 * refuses: every family is refused here by default, with one message naming the device and the payload
 * ({@link #cannotHandle}). A device accepts a family by implementing the family's {@code Handler} (for instance
 * {@link LinkPayload.Handler}), which extends this interface and overrides the family's accessor to return the device
 * itself; it writes nothing for the families it does not accept. (A device may also override an accessor to hand the
 * family to another object.)
 *
 * <p>Java 17 has no pattern-matching switch (a preview there), so the compiler checks each case this way: a new record
 * of a family adds a method to the family's {@code Handler}, and no device of that family compiles until it decides
 * what to do with it; the devices of other families are untouched. A new family adds its accessor here, refusing.
 * Dispatch costs the payload's {@code handleWith}, the accessor (which returns {@code this}) and the handler's method:
 * no {@code instanceof} chain, no allocation.
 *
 * @param <C> what the device needs besides the payload while it handles one event (its outbox, usually)
 */
public interface PayloadHandlers<C> {

  /** The device as a refusal names it, e.g. {@code "router 2"}. */
  String deviceName();

  /**
   * The error a device throws for a payload it cannot handle: {@code "<device> cannot handle <payload>"}. Thrown
   * here for a whole family the device does not accept, and by a device for a record of an accepted family that it
   * cannot take (or not in its set-up).
   */
  default IllegalArgumentException cannotHandle(Payload payload) {
    return new IllegalArgumentException(deviceName() + " cannot handle " + payload);
  }

  /** The handler of {@link WorkloadPayload}s, about to take {@code payload}; refuses it by default. */
  default WorkloadPayload.Handler<C> workload(WorkloadPayload payload) {
    throw cannotHandle(payload);
  }

  /** The handler of {@link HostPayload}s, about to take {@code payload}; refuses it by default. */
  default HostPayload.Handler<C> host(HostPayload payload) {
    throw cannotHandle(payload);
  }

  /** The handler of {@link LinkPayload}s, about to take {@code payload}; refuses it by default. */
  default LinkPayload.Handler<C> link(LinkPayload payload) {
    throw cannotHandle(payload);
  }

  /** The handler of {@link RetransmitPayload}s, about to take {@code payload}; refuses it by default. */
  default RetransmitPayload.Handler<C> retransmit(RetransmitPayload payload) {
    throw cannotHandle(payload);
  }

  /** The handler of {@link RouterPayload}s, about to take {@code payload}; refuses it by default. */
  default RouterPayload.Handler<C> router(RouterPayload payload) {
    throw cannotHandle(payload);
  }

  /** The handler of {@link FaultPayload}s, about to take {@code payload}; refuses it by default. */
  default FaultPayload.Handler<C> fault(FaultPayload payload) {
    throw cannotHandle(payload);
  }

  /** The handler of {@link ManagementPayload}s, about to take {@code payload}; refuses it by default. */
  default ManagementPayload.Handler<C> management(ManagementPayload payload) {
    throw cannotHandle(payload);
  }

  /** The handler of {@link EthernetPayload}s, about to take {@code payload}; refuses it by default. */
  default EthernetPayload.Handler<C> ethernet(EthernetPayload payload) {
    throw cannotHandle(payload);
  }

  /** The handler of {@link CircuitPayload}s, about to take {@code payload}; refuses it by default. */
  default CircuitPayload.Handler<C> circuit(CircuitPayload payload) {
    throw cannotHandle(payload);
  }
}
