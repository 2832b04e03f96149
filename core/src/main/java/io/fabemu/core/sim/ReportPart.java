package io.fabemu.core.sim;

/**
 * A feature's part of a {@link DeviceReport}: what one feature (synthetic traffic, faults, the external Ethernet, the
 * OCS controller, ...) measured on one device, beside the kernel's own figures (links, ranks, virtual channels). The
 * kernel carries parts without knowing them; the result aggregation of the feature reads its part back by its class
 * ({@link DeviceReport#part}).
 *
 * <p>Not sealed, on purpose: a sealed interface names its permitted classes, which live in the feature packages that
 * the kernel ({@code core.sim}, {@code core.protocol}, {@code core.time}, {@code core.data}) must not depend on (an
 * ArchUnit rule says so), and without a named module Java only permits subclasses of the sealed type's own package.
 * What a sealed type would give, a closed list of what can cross members, the Kryo registration gives instead:
 * every part class must be registered in a {@code reference.conf}, or the report fails to cross members.
 */
public interface ReportPart {

  /**
   * A cheap upper estimate of the bytes this part adds to its report once serialized, beyond the report's fixed
   * allowance: what grows with the run or its scenario (lists, per-event counters), counted generously. The engine
   * cuts a member's reports into messages by it; it is never part of a result.
   */
  long wireBytesEstimate();
}
