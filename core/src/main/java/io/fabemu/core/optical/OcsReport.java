package io.fabemu.core.optical;

import io.fabemu.core.sim.ReportPart;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What the OCS controller and the NPUs' optical ports did (a device's part, and, merged, the run's): the controller
 * counts the circuits it set up at the start and when the last came up; a port counts the packets it held for a
 * circuit not yet up and how long they waited (from when each could have left to when its circuit came up). The
 * first five figures are the initial set-up's; each policy change during the run has its own ({@link #changes}).
 *
 * @param circuitsSetUp   circuits the controller set up at the start
 * @param lastCircuitUpPs when the last of them came up (0 when none)
 * @param heldPackets     packets that waited at an optical port for one of them
 * @param totalWaitPs     their waits, summed
 * @param worstWaitPs     the longest wait of one packet
 * @param changes         what each policy change cost, in time order; empty without changes
 */
public record OcsReport(int circuitsSetUp, long lastCircuitUpPs, long heldPackets, long totalWaitPs,
                        long worstWaitPs, List<ChangeCost> changes) implements ReportPart {

  /** Its list of change costs, generously. */
  @Override
  public long wireBytesEstimate() {
    return 128L * changes.size();
  }

  /** A report of nothing. */
  public static final OcsReport EMPTY = new OcsReport(0, 0L, 0L, 0L, 0L);

  /**
   * What one connection-policy change cost (docs/optical.md, "The OCS controller"): the controller counts the
   * circuits it tore down and set up; the NPUs' optical ports say when the new circuits really came up (a
   * reconfiguration delay after the change, or later where a port still drained a torn-down circuit) and what waited
   * for them.
   *
   * @param atPs             when the change happened (the routes switched and the old circuits were torn down)
   * @param circuitsTornDown circuits of the old policy that the new one lacks
   * @param circuitsSetUp    circuits of the new policy that the old one lacked
   * @param lastCircuitUpPs  when the last new circuit came up at both ends
   * @param heldPackets      packets that waited at an optical port for a new circuit
   * @param totalWaitPs      their waits, summed
   * @param worstWaitPs      the longest wait of one packet
   */
  public record ChangeCost(long atPs, int circuitsTornDown, int circuitsSetUp, long lastCircuitUpPs,
                           long heldPackets, long totalWaitPs, long worstWaitPs) {}

  public OcsReport {
    changes = List.copyOf(changes);
  }

  /** A report of the initial set-up only (no policy change). */
  public OcsReport(int circuitsSetUp, long lastCircuitUpPs, long heldPackets, long totalWaitPs, long worstWaitPs) {
    this(circuitsSetUp, lastCircuitUpPs, heldPackets, totalWaitPs, worstWaitPs, List.of());
  }

  /**
   * The run's report: counts and waits summed, the latest up time and the worst wait kept, for the initial set-up
   * and for each change (the parts' changes matched by their time).
   */
  public static OcsReport merge(List<OcsReport> parts) {
    int circuits = 0;
    long lastUp = 0;
    long held = 0;
    long total = 0;
    long worst = 0;
    Map<Long, ChangeCost> changes = new TreeMap<>();
    for (OcsReport p : parts) {
      circuits += p.circuitsSetUp;
      lastUp = Math.max(lastUp, p.lastCircuitUpPs);
      held += p.heldPackets;
      total += p.totalWaitPs;
      worst = Math.max(worst, p.worstWaitPs);
      for (ChangeCost c : p.changes) changes.merge(c.atPs(), c, OcsReport::add);
    }
    return new OcsReport(circuits, lastUp, held, total, worst, new ArrayList<>(changes.values()));
  }

  private static ChangeCost add(ChangeCost a, ChangeCost b) {
    return new ChangeCost(a.atPs(), a.circuitsTornDown() + b.circuitsTornDown(), a.circuitsSetUp() + b.circuitsSetUp(),
        Math.max(a.lastCircuitUpPs(), b.lastCircuitUpPs()), a.heldPackets() + b.heldPackets(),
        a.totalWaitPs() + b.totalWaitPs(), Math.max(a.worstWaitPs(), b.worstWaitPs()));
  }
}
