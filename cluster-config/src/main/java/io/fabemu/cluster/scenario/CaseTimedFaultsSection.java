package io.fabemu.cluster.scenario;

import io.fabemu.cluster.scenario.FaultPlanSection.Placed;
import io.fabemu.core.fault.FaultEvent;
import io.fabemu.core.fault.FaultPlan;
import io.fabemu.core.fault.FaultSettings;
import io.fabemu.fabric.Fabric;
import io.fabemu.fabric.ScenarioSpec;
import io.fabemu.fabric.result.CaseResult;
import io.fabemu.fabric.result.RunResult;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;

/**
 * Resolves the fault events placed in cases ({@code at = { case = N, iteration = K, offset = D }},
 * {@link CaseAnchor}) to times from the start, once every other section has read its part, then replays the plan
 * ({@link FaultPlanSection#replay}) and sets it.
 *
 * <p>Contract: an event placed in a case happens exactly {@code offset} after that case (or that measured iteration)
 * starts in the run, its first rank's start. That start (a <i>point</i>: a case, or a case and iteration) is found
 * by running the scenario on the plain engine ({@link Fabric#runOnPlainEngine}) with every event that can happen
 * before it: the events at times from the start and those placed at earlier points, already resolved. The emulation
 * is causal, so nothing at or after that start changes it, and the run with the whole plan reaches the point at the
 * same time. One resolving run per point that has events placed at it, in order (a case's start before its
 * iterations, iterations in order, then the next case): same scenario and seed, same times. A resolving run with
 * no event yet still runs the plan's machinery (an active plan without events, as a baseline does), since a run
 * with a fault plan differs from one without before its first fault (the transport acknowledges every message).
 * The resolving runs are whole runs on this JVM's plain engine, made before the run's own estimate is checked
 * (docs/faults.md says so: a scenario near the heap's limit should place its faults by time). A case that a
 * resolving run does not finish (an earlier fault stalled it) is refused, naming the event; so is an event that
 * falls past 1 s. The cost: a run of the scenario per point, at load time ({@code validate} and {@code run} alike).
 */
final class CaseTimedFaultsSection implements ScenarioSection {

  /** A fault plan read with events placed in cases, for this section to resolve. */
  record Pending(FaultSettings settings, List<Placed> placed) {}

  @Override
  public void read(ScenarioReader in, ScenarioDraft draft) {
    Pending pending = draft.caseFaults();
    if (pending == null) return;
    List<Placed> placed = new ArrayList<>(pending.placed());
    // Points as caseIndex * (iterations + 1) + iteration + 1: a case's start, then its iterations in order.
    ScenarioSpec spec = draft.toLoadedScenario(in.source()).spec();
    long perCase = spec.workload().iterations() + 1L;
    TreeSet<Long> points = new TreeSet<>();
    for (Placed p : placed) {
      if (p.anchor() != null) points.add(p.anchor().caseIndex() * perCase + p.anchor().iteration() + 1);
    }
    List<CaseSchedule.ResolvedEvent> resolvedEvents = new ArrayList<>();
    RunResult last = null;
    for (long point : points) {
      int caseIndex = (int) (point / perCase);
      int iteration = (int) (point % perCase) - 1;
      List<FaultEvent> known = new ArrayList<>();
      for (Placed p : placed) {
        if (p.anchor() == null) known.add(p.event());
      }
      FaultPlan before = new FaultPlan(pending.settings(), known, true);
      last = resolvingRun(in, spec.withFaults(before), placed, caseIndex);
      CaseResult ran = caseOf(last, caseIndex);
      for (int i = 0; i < placed.size(); i++) {
        Placed p = placed.get(i);
        if (p.anchor() == null || p.anchor().caseIndex() != caseIndex || p.anchor().iteration() != iteration) continue;
        CaseAnchor anchor = p.anchor();
        if (ran == null || !ran.caseTimed()) {
          throw in.error(anchor.path() + ".case", anchor.value(), "case " + caseIndex + " does not finish in a run "
              + "with the events before it, so nothing can be placed in it ("
              + (last.incompleteReason() == null ? "its start was not reported" : last.incompleteReason()) + ")");
        }
        long fromPs = ran.startPs();
        if (anchor.iteration() >= 0) {
          if (anchor.iteration() >= ran.iterationStartsPs().length) {
            throw in.error(anchor.path() + ".iteration", anchor.value(), "iteration " + anchor.iteration() + " of case "
                + caseIndex + " did not report its start in a run with the events before it");
          }
          fromPs = ran.iterationStartsPs()[anchor.iteration()];
        }
        long atPs = fromPs + p.event().atPs();
        if (atPs > ScenarioLoader.MAX_DURATION_PS) {
          throw in.error(anchor.path(), anchor.value(), "the event falls at " + Quantities.formatDuration(atPs)
              + " (" + anchor.describe() + "), past the limit of 1 s (every time is at most 1 s)");
        }
        Placed resolved = p.resolvedAt(atPs);
        placed.set(i, resolved);
        resolvedEvents.add(new CaseSchedule.ResolvedEvent(p.path(), anchor.describe(), resolved.event().describe()));
      }
    }
    FaultPlanSection.replay(in, placed);
    draft.faults(new FaultPlan(pending.settings(), placed.stream().map(Placed::event).toList()));
    List<CaseSchedule.CaseStart> starts = new ArrayList<>();
    for (CaseResult c : last.cases()) {
      if (c.caseTimed()) starts.add(new CaseSchedule.CaseStart(c.caseIndex(), c.startPs()));
    }
    draft.caseSchedule(new CaseSchedule(starts, resolvedEvents, (int) (points.last() / perCase)));
  }

  /** The run that finds case {@code caseIndex}'s start; a failure of it is refused at the case's first event. */
  private static RunResult resolvingRun(ScenarioReader in, ScenarioSpec spec, List<Placed> placed, int caseIndex) {
    try {
      return Fabric.build(spec).runOnPlainEngine();
    } catch (RuntimeException e) {
      CaseAnchor anchor = placed.stream().filter(p -> p.anchor() != null && p.anchor().caseIndex() == caseIndex)
          .findFirst().orElseThrow().anchor();
      throw in.error(anchor.path() + ".case", anchor.value(), "the run that finds when case " + caseIndex + " starts "
          + "(with the events before it) failed: " + e.getMessage());
    }
  }

  private static CaseResult caseOf(RunResult result, int caseIndex) {
    for (CaseResult c : result.cases()) {
      if (c.caseIndex() == caseIndex) return c;
    }
    return null;
  }
}
