package io.fabemu.core.optical;

import java.util.List;

/**
 * What the OCS controller and the NPUs' optical ports did (a device's part, and, merged, the run's): the controller
 * counts the circuits it set up and when the last came up; a port counts the packets it held for a circuit not yet
 * up and how long they waited (from when each could have left to when its circuit came up).
 *
 * @param circuitsSetUp   circuits the controller set up
 * @param lastCircuitUpPs when the last of them came up (0 when none)
 * @param heldPackets     packets that waited at an optical port for their circuit
 * @param totalWaitPs     their waits, summed
 * @param worstWaitPs     the longest wait of one packet
 */
public record OcsReport(int circuitsSetUp, long lastCircuitUpPs, long heldPackets, long totalWaitPs,
                        long worstWaitPs) {

  /** A report of nothing. */
  public static final OcsReport EMPTY = new OcsReport(0, 0L, 0L, 0L, 0L);

  /** The run's report: counts and waits summed, the latest up time and the worst wait kept. */
  public static OcsReport merge(List<OcsReport> parts) {
    int circuits = 0;
    long lastUp = 0;
    long held = 0;
    long total = 0;
    long worst = 0;
    for (OcsReport p : parts) {
      circuits += p.circuitsSetUp;
      lastUp = Math.max(lastUp, p.lastCircuitUpPs);
      held += p.heldPackets;
      total += p.totalWaitPs;
      worst = Math.max(worst, p.worstWaitPs);
    }
    return new OcsReport(circuits, lastUp, held, total, worst);
  }
}
