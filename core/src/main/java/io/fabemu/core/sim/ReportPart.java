package io.fabemu.core.sim;

import java.util.List;

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

  /**
   * {@code parts} as an immutable list (empty for null), checked to hold at most one part of each class.
   *
   * @param holder what holds them, as the error names it (e.g. {@code "device 3 reports"})
   * @throws IllegalArgumentException when two parts have the same class
   */
  static List<ReportPart> distinct(List<ReportPart> parts, String holder) {
    List<ReportPart> copy = parts == null ? List.of() : List.copyOf(parts);
    for (int i = 0; i < copy.size(); i++) {
      for (int j = 0; j < i; j++) {
        if (copy.get(i).getClass() == copy.get(j).getClass()) {
          throw new IllegalArgumentException(holder + " two parts of class " + copy.get(i).getClass().getName());
        }
      }
    }
    return copy;
  }

  /** The part of class {@code type} among {@code parts}, or null when there is none. */
  static <T extends ReportPart> T find(List<ReportPart> parts, Class<T> type) {
    for (ReportPart p : parts) {
      if (p.getClass() == type) return type.cast(p);
    }
    return null;
  }
}
