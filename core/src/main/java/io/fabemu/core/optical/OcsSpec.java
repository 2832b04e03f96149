package io.fabemu.core.optical;

import java.util.List;

/**
 * The optical circuit switch's controller (docs/optical.md, "The OCS controller"): how long it takes to set up a
 * circuit, and the connection-policy changes it makes during the run. The controller starts every circuit of the
 * connection policy at time 0, all in parallel (the seed says nothing of a per-circuit order; a MEMS switch turns all
 * its mirrors at once), and each is up {@code reconfigurationDelayPs} later; until then the traffic for it waits at
 * the NPU's optical port. Each {@link PolicyChange} then tears down the circuits the new policy lacks and sets up
 * those it adds, at its time.
 *
 * @param reconfigurationDelayPs 0: the circuits are up from the start (no controller device, today's results); else
 *                               the setup time, in picoseconds (milliseconds for MEMS switches)
 * @param changes                the policy changes during the run, in time order: each at least one reconfiguration
 *                               delay after the one before (the first at least one after time 0, when the initial
 *                               circuits were started); empty for none. Only with a positive delay
 */
public record OcsSpec(long reconfigurationDelayPs, List<PolicyChange> changes) {

  /** Circuits up from the start: the policy was applied before the run (the default). */
  public static final OcsSpec NONE = new OcsSpec(0L);

  /**
   * One connection-policy change during the run ({@code topology.ocs.reconfigure}).
   *
   * @param atPs    when the controller turns to the new policy: routes switch then, the old policy's circuits that
   *                the new one lacks are torn down, and the new ones come up a reconfiguration delay later
   * @param formula the new policy's formula, for the cluster's M and N
   */
  public record PolicyChange(long atPs, ConnectionFormula formula) {
    public PolicyChange {
      if (formula == null) throw new IllegalArgumentException("a policy change needs a formula");
      if (atPs <= 0) throw new IllegalArgumentException("a policy change must be after time 0, got " + atPs + " ps");
    }
  }

  /**
   * Checks the delay and the changes' times.
   *
   * @throws IllegalArgumentException when the delay is negative, changes come with a delay of 0, or a change comes
   *     less than one reconfiguration delay after the one before (or after time 0, for the first)
   */
  public OcsSpec {
    if (reconfigurationDelayPs < 0) {
      throw new IllegalArgumentException("reconfiguration delay must be >= 0, got " + reconfigurationDelayPs + " ps");
    }
    changes = List.copyOf(changes);
    if (!changes.isEmpty() && reconfigurationDelayPs == 0) {
      throw new IllegalArgumentException("policy changes need a positive reconfiguration delay");
    }
    long previousPs = 0;
    for (PolicyChange change : changes) {
      if (change.atPs() - previousPs < reconfigurationDelayPs) {
        throw new IllegalArgumentException("the policy change at " + change.atPs() + " ps comes less than the "
            + "reconfiguration delay of " + reconfigurationDelayPs + " ps after " + previousPs + " ps");
      }
      previousPs = change.atPs();
    }
  }

  /** A controller without policy changes. */
  public OcsSpec(long reconfigurationDelayPs) {
    this(reconfigurationDelayPs, List.of());
  }

  /** Whether the run has a controller that sets the circuits up during the run (a positive delay). */
  public boolean setsUpDuringRun() {
    return reconfigurationDelayPs > 0;
  }

  /** Whether the controller changes the connection policy during the run. */
  public boolean changesPolicy() {
    return !changes.isEmpty();
  }
}
