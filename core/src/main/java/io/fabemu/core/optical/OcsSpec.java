package io.fabemu.core.optical;

/**
 * The optical circuit switch's controller (docs/optical.md, "The OCS controller"): how long it takes to set up a
 * circuit. The controller starts every circuit of the connection policy at time 0, all in parallel (the seed says
 * nothing of a per-circuit order; a MEMS switch turns all its mirrors at once), and each is up
 * {@code reconfigurationDelayPs} later; until then the traffic for it waits at the NPU's optical port.
 *
 * @param reconfigurationDelayPs 0: the circuits are up from the start (no controller device, today's results); else
 *                               the setup time, in picoseconds (milliseconds for MEMS switches)
 */
public record OcsSpec(long reconfigurationDelayPs) {

  /** Circuits up from the start: the policy was applied before the run (the default). */
  public static final OcsSpec NONE = new OcsSpec(0L);

  public OcsSpec {
    if (reconfigurationDelayPs < 0) {
      throw new IllegalArgumentException("reconfiguration delay must be >= 0, got " + reconfigurationDelayPs + " ps");
    }
  }

  /** Whether the run has a controller that sets the circuits up during the run (a positive delay). */
  public boolean setsUpDuringRun() {
    return reconfigurationDelayPs > 0;
  }
}
