package io.fabemu.cluster.scenario;

import io.fabemu.collectives.WorkloadSpec;
import io.fabemu.core.time.Units;
import io.fabemu.fabric.result.CaseResult;
import io.fabemu.fabric.result.RunResult;
import java.util.ArrayList;
import java.util.List;

/**
 * How the fault events placed in cases ({@code at = { case = ... }}) were resolved to times, for
 * {@code fabemu validate} to print: each case's start as the last resolving run saw it, and each such event with
 * its absolute time.
 *
 * @param cases        per case finished in the last resolving run, in case order, when its first rank began it
 * @param events       each event placed in a case (a flap's downs and ups each), in the order they are placed in
 *                     the workload (a case's start, then its iterations, then the next case; ties as written)
 * @param exactThrough the last case in which an event is placed: the start times up to it are the ones the run will
 *                     have (the last resolving run held every event that can happen before it); the later ones are
 *                     estimates without the events placed in it and after
 */
public record CaseSchedule(List<CaseStart> cases, List<ResolvedEvent> events, int exactThrough) {

  /** The schedule of a plan that places no event in a case. */
  public static final CaseSchedule NONE = new CaseSchedule(List.of(), List.of(), -1);

  public CaseSchedule {
    cases = List.copyOf(cases);
    events = List.copyOf(events);
  }

  /** When case {@code caseIndex} started (its first rank). */
  public record CaseStart(int caseIndex, long startPs) {}

  /**
   * An event placed in a case, resolved.
   *
   * @param path   its key path ({@code faults.events[0]})
   * @param placed where it was placed ({@code case 1 + 10 us})
   * @param event  the resolved event in one line ({@code 335.703 us switch spine0 down})
   */
  public record ResolvedEvent(String path, String placed, String event) {}

  /** True when no event is placed in a case. */
  public boolean isEmpty() {
    return events.isEmpty();
  }

  /**
   * The lines {@code validate} prints: {@code schedule: ...}, one per case with its start ({@code (estimated)} past
   * {@link #exactThrough}), then one per resolved event.
   */
  public List<String> lines(WorkloadSpec workload) {
    List<String> lines = new ArrayList<>();
    lines.add("schedule: " + events.size() + (events.size() == 1 ? " fault event" : " fault events") + " placed in "
        + "cases (numbered from 0); case starts from a run with every event before them");
    for (CaseStart c : cases) {
      lines.add("  case " + name(workload, c.caseIndex()) + " starts at " + Units.format(c.startPs())
          + (c.caseIndex() > exactThrough ? " (estimated)" : ""));
    }
    for (ResolvedEvent e : events) {
      lines.add("  " + e.path() + " at " + e.placed() + ": " + e.event());
    }
    return lines;
  }

  /**
   * The lines {@code validate --schedule} prints of {@code run}, a run of the scenario: {@code schedule: ...}, then
   * per finished case its start and end ({@code   case 1 (allreduce ring, 1048576 B): 610.141 us to 2.423 ms}), and
   * why the run did not finish the others.
   */
  public static List<String> runLines(RunResult run) {
    WorkloadSpec workload = run.scenario().workload();
    List<String> lines = new ArrayList<>();
    lines.add("schedule: " + run.cases().size() + " of " + workload.caseCount() + " cases (numbered from 0) in a run "
        + "of the scenario, each from its first rank's start (warm-up included) to its last rank's end");
    for (CaseResult c : run.cases()) {
      lines.add("  case " + name(workload, c.caseIndex()) + ": " + (c.caseTimed()
          ? Units.format(c.startPs()) + " to " + Units.format(c.endPs()) : "not reported"));
    }
    if (!run.complete()) lines.add("  incomplete: " + run.incompleteReason());
    return lines;
  }

  /** {@code 1 (allreduce ring, 1048576 B)}. */
  private static String name(WorkloadSpec workload, int caseIndex) {
    return caseIndex + " (" + workload.collective().configName() + " " + workload.algorithmOfCase(caseIndex)
        .configName() + (workload.inPlaceOfCase(caseIndex) ? " in-place" : "") + ", " + workload.sizeOfCase(caseIndex)
        + " B)";
  }
}
