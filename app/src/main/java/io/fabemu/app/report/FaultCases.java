package io.fabemu.app.report;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabemu.collectives.WorkloadSpec;
import io.fabemu.core.fault.FaultPlan;
import io.fabemu.fabric.result.CaseResult;
import io.fabemu.fabric.result.CaseTouches;
import io.fabemu.fabric.result.RunResult;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * A run's fault events set against its cases: which cases (collective, size) each event touched
 * ({@link CaseTouches}), each case's latency with the faults and without them (the baseline run's, when it ran),
 * and the cases' boundaries in virtual time as a lane of the fault timeline. What the text summary, the HTML
 * report's fault section and {@code results.json} show of it comes from here, so they agree.
 *
 * <p>Cases are numbered from 0, as {@code caseIndex} in {@code results.json} and the fault plan's
 * {@code at = { case = N, ... }} number them.
 *
 * @param plan          the run's fault plan
 * @param workload      the run's workload, for the cases' names
 * @param cases         the faulted run's finished cases
 * @param baselineCases the baseline run's cases; null when it did not run
 * @param touches       per event, in event order, the indexes of the cases it touched
 */
public record FaultCases(FaultPlan plan, WorkloadSpec workload, List<CaseResult> cases, List<CaseResult> baselineCases,
                         List<List<Integer>> touches) {

  static final TimelineChart.MarkerKind CASE_START =
      new TimelineChart.MarkerKind("case start", TimelineChart.Shape.TRIANGLE_UP, "#4d4d4d");
  static final TimelineChart.MarkerKind CASE_END =
      new TimelineChart.MarkerKind("case end", TimelineChart.Shape.TRIANGLE_DOWN, "#999999");
  /** The lane of the fault timeline that holds the case boundaries. */
  static final String LANE = "cases";

  /** The cases of {@code result} against its fault plan. */
  public static FaultCases of(RunResult result) {
    FaultPlan plan = result.scenario().faults();
    return new FaultCases(plan, result.scenario().workload(), result.cases(), result.baselineCases(),
        CaseTouches.of(plan, result.cases(), result.virtualEndPs()));
  }

  /** {@code "1 (allreduce ring, 4 KiB)"}: case {@code caseIndex} by its number, collective, algorithm and size. */
  public String label(int caseIndex) {
    return CaseLabels.of(workload, caseIndex);
  }

  /** The cases event {@code eventId} touched, labelled ({@link #label}) and comma-separated; {@code none}. */
  public String touchedText(int eventId) {
    List<Integer> touched = touches.get(eventId);
    if (touched.isEmpty()) return "none";
    List<String> labels = new ArrayList<>(touched.size());
    for (int c : touched) labels.add(label(c));
    return String.join(", ", labels);
  }

  /** One line for the text summary: {@code # Cases touched: event 0: 1 (...), 2 (...); event 1: none}. */
  public String textLine() {
    StringBuilder line = new StringBuilder("# Cases touched:");
    for (int e = 0; e < touches.size(); e++) {
      line.append(e == 0 ? " " : "; ").append("event ").append(e).append(": ");
      List<Integer> touched = touches.get(e);
      if (touched.isEmpty()) line.append("none");
      for (int i = 0; i < touched.size(); i++) {
        int c = touched.get(i);
        line.append(i == 0 ? "" : ", ").append(c).append(" (").append(Formats.bytes(workload.sizeOfCase(c)))
            .append(')');
      }
    }
    return line.append('\n').toString();
  }

  /** The markers of the cases' boundaries on lane {@code lane} of a timeline in microseconds. */
  List<TimelineChart.Marker> markers(int lane) {
    List<TimelineChart.Marker> markers = new ArrayList<>();
    for (CaseResult c : cases) {
      if (!c.caseTimed()) continue;
      String span = "case " + label(c.caseIndex()) + ": " + FaultFigures.us(c.startPs()) + " us to "
          + FaultFigures.us(c.endPs()) + " us (warm-up included)";
      markers.add(new TimelineChart.Marker(lane, c.startPs() / 1e6, CASE_START, "start of " + span));
      markers.add(new TimelineChart.Marker(lane, c.endPs() / 1e6, CASE_END, "end of " + span));
    }
    return markers;
  }

  /** The latest case end, or -1 when no case has an interval. */
  long lastEndPs() {
    return cases.stream().filter(CaseResult::caseTimed).mapToLong(CaseResult::endPs).max().orElse(-1);
  }

  /**
   * The report's "Cases with and without the faults" table: per case its interval, its latency with the faults,
   * without (the baseline run's; - when it did not run) and the difference, and the events that touched it.
   */
  void renderTable(Markup out) {
    out.element("h3", "Cases with and without the faults").newline();
    Map<Integer, CaseResult> base = baselineByIndex();
    List<List<String>> rows = new ArrayList<>();
    for (CaseResult c : cases) {
      CaseResult b = base.get(c.caseIndex());
      List<String> events = new ArrayList<>();
      for (int e = 0; e < touches.size(); e++) {
        if (touches.get(e).contains(c.caseIndex())) events.add(Integer.toString(e));
      }
      rows.add(List.of(label(c.caseIndex()), c.caseTimed() ? FaultFigures.us(c.startPs()) : FaultFigures.NOT_APPLICABLE,
          c.caseTimed() ? FaultFigures.us(c.endPs()) : FaultFigures.NOT_APPLICABLE, micros(c.avgLatencyPs()),
          b == null ? FaultFigures.NOT_APPLICABLE : micros(b.avgLatencyPs()),
          b == null ? FaultFigures.NOT_APPLICABLE : signedMicros(c.avgLatencyPs() - b.avgLatencyPs()),
          events.isEmpty() ? "none" : String.join(", ", events)));
    }
    Tables.table(out, List.of("case", "start (us)", "end (us)", "latency with faults (us)",
        "latency without (us)", "difference (us)", "touched by events"), rows, Set.of(1, 2, 3, 4, 5));
    Tables.note(out, "Cases are numbered from 0 (results.json's caseIndex). Start and end: the case in virtual time, "
        + "from the first rank's start to the last rank's end, warm-up included. Latency: the case's avg over the "
        + "ranks (as the results table); without: the same case in the run without faults (- when that run was "
        + "skipped, faults.baseline = false). An event touches a case when it happens during the case, a down also "
        + "every case its outage (to the target's next up) overlaps.");
  }

  /** Per event, the cases it touched. */
  void renderTouched(Markup out) {
    List<List<String>> rows = new ArrayList<>();
    for (int e = 0; e < touches.size(); e++) {
      rows.add(List.of(Integer.toString(e), plan.event(e).describe(), touchedText(e)));
    }
    out.element("h3", "Cases each event touched").newline();
    Tables.table(out, List.of("event", "what", "cases touched (collective, size)"), rows, Set.of(0));
  }

  /**
   * Into the {@code faults} object of {@code results.json}: per event its {@code casesTouched} (case indexes) and a
   * {@code cases} array, per case its latency with the faults and, when the baseline ran, without and the
   * difference (ps).
   */
  public void json(ObjectNode faults) {
    ArrayNode events = (ArrayNode) faults.get("events");
    for (int e = 0; e < touches.size() && events != null && e < events.size(); e++) {
      ArrayNode touched = ((ObjectNode) events.get(e)).putArray("casesTouched");
      touches.get(e).forEach(touched::add);
    }
    Map<Integer, CaseResult> base = baselineByIndex();
    ArrayNode rows = faults.putArray("cases");
    for (CaseResult c : cases) {
      ObjectNode n = rows.addObject();
      n.put("caseIndex", c.caseIndex());
      n.put("avgLatencyPs", c.avgLatencyPs());
      CaseResult b = base.get(c.caseIndex());
      if (b == null) {
        n.putNull("baselineAvgLatencyPs");
        n.putNull("differencePs");
      } else {
        n.put("baselineAvgLatencyPs", b.avgLatencyPs());
        n.put("differencePs", c.avgLatencyPs() - b.avgLatencyPs());
      }
    }
  }

  private Map<Integer, CaseResult> baselineByIndex() {
    Map<Integer, CaseResult> base = new HashMap<>();
    if (baselineCases != null) baselineCases.forEach(b -> base.put(b.caseIndex(), b));
    return base;
  }

  private static String micros(double ps) {
    return String.format(Locale.ROOT, "%.3f", ps / 1e6);
  }

  private static String signedMicros(double ps) {
    return String.format(Locale.ROOT, "%+.3f", ps / 1e6);
  }
}
