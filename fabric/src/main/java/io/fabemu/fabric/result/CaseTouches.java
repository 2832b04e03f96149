package io.fabemu.fabric.result;

import io.fabemu.core.fault.FaultAction;
import io.fabemu.core.fault.FaultEvent;
import io.fabemu.core.fault.FaultPlan;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Which cases each fault event of a run touched, from the cases' intervals in virtual time
 * ({@link CaseResult#startPs()}, {@link CaseResult#endPs()}, warm-up included).
 *
 * <p>Contract: an event <b>touches</b> a case when its time falls in the case's interval {@code [start, end]}; a
 * {@code down} event also touches every case its outage overlaps, the outage running from the down to the next
 * {@code up} of the same target (same device and links), or to {@code virtualEndPs} when none comes. A case without
 * an interval is touched by nothing. Pure arithmetic over the plan and the cases, so the same run gives the same
 * answer; outputs only (not in the digest).
 */
public final class CaseTouches {
  private CaseTouches() {}

  /** Per event of {@code plan}, in event order, the indexes of the cases of {@code cases} it touched, in case order. */
  public static List<List<Integer>> of(FaultPlan plan, List<CaseResult> cases, long virtualEndPs) {
    List<List<Integer>> touches = new ArrayList<>(plan.eventCount());
    for (FaultEvent e : plan.events()) {
      long fromPs = e.atPs();
      long toPs = e.action() == FaultAction.DOWN ? outageEndPs(plan, e, virtualEndPs) : e.atPs();
      List<Integer> touched = new ArrayList<>();
      for (CaseResult c : cases) {
        if (c.caseTimed() && fromPs <= c.endPs() && toPs >= c.startPs()) touched.add(c.caseIndex());
      }
      touches.add(List.copyOf(touched));
    }
    return List.copyOf(touches);
  }

  /**
   * When the outage of {@code down} ends: the time of the next up of the same target, or the later of
   * {@code virtualEndPs} and the down itself when none comes.
   */
  public static long outageEndPs(FaultPlan plan, FaultEvent down, long virtualEndPs) {
    Set<?> links = Set.copyOf(down.links());
    for (int id = down.id() + 1; id < plan.eventCount(); id++) {
      FaultEvent later = plan.event(id);
      if (later.action() == FaultAction.UP && later.vertex() == down.vertex()
          && Set.copyOf(later.links()).equals(links)) {
        return later.atPs();
      }
    }
    return Math.max(virtualEndPs, down.atPs());
  }
}
