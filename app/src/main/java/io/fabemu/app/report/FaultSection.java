package io.fabemu.app.report;

import io.fabemu.core.fault.FaultAction;
import io.fabemu.core.fault.FaultEvent;
import io.fabemu.core.fault.FaultPlan;
import io.fabemu.core.fault.FaultReport;
import io.fabemu.core.fault.FaultSettings;
import io.fabemu.core.fault.FaultTally;
import io.fabemu.core.time.Units;
import io.fabemu.core.topology.Topology;
import io.fabemu.fabric.result.FaultImpact;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What a run's faults did (only in the report of a scenario with a fault plan): a timeline with a lane per fault
 * target, a bar over each time a target was down (from its down to its next up, or to the end of the run) and
 * markers for each event's injection (its own shape per action), detection and reroute; then a row per event (the
 * fault table {@code fabemu run} prints, with the reporter, the devices updated and what a degrade, lossy or
 * straggler event set; with a baseline run, the collectives each event touched and their extra latency), the
 * cases each event touched and each case with and without the faults ({@link FaultCases}, whose case boundaries
 * are the timeline's {@code cases} lane), the totals, the partition the management node saw last and the messages
 * given up on.
 */
final class FaultSection implements ReportSection {

  /** The most messages given up on that the section lists one by one. */
  static final int MAX_GAVE_UP_LINES = 20;

  static final TimelineChart.MarkerKind DOWN =
      new TimelineChart.MarkerKind("down", TimelineChart.Shape.TRIANGLE_DOWN, "#b2182b");
  static final TimelineChart.MarkerKind UP =
      new TimelineChart.MarkerKind("up", TimelineChart.Shape.TRIANGLE_UP, "#1b9e77");
  static final TimelineChart.MarkerKind DEGRADE =
      new TimelineChart.MarkerKind("degrade", TimelineChart.Shape.SQUARE, "#7570b3");
  static final TimelineChart.MarkerKind LOSSY =
      new TimelineChart.MarkerKind("lossy", TimelineChart.Shape.CROSS, "#d6604d");
  static final TimelineChart.MarkerKind STRAGGLER =
      new TimelineChart.MarkerKind("straggler", TimelineChart.Shape.PLUS, "#666666");
  static final TimelineChart.MarkerKind DETECTED =
      new TimelineChart.MarkerKind("detected", TimelineChart.Shape.CIRCLE, "#e6ab02");
  static final TimelineChart.MarkerKind REROUTED =
      new TimelineChart.MarkerKind("rerouted", TimelineChart.Shape.DIAMOND, "#2166ac");
  /** The legend's order: the injections by action, then what the management node did. */
  static final List<TimelineChart.MarkerKind> KINDS = List.of(DOWN, UP, DEGRADE, LOSSY, STRAGGLER, DETECTED,
      REROUTED);

  private final FaultPlan plan;
  private final FaultReport report;
  private final Topology topology;
  private final long virtualEndPs;
  private final List<FaultImpact> impacts;
  private final FaultCases cases;

  /**
   * The section of a run's faults.
   *
   * @param plan         the scenario's fault plan (not empty)
   * @param report       what the faults did; null when the run reported nothing
   * @param topology     the fabric, for the reporters' names; may be null (devices then named by id)
   * @param virtualEndPs the run's virtual end, where the bar of a target still down ends
   * @param impacts      per event, the collectives it touched and their extra latency; null when no baseline ran
   * @param cases        the run's cases against its events
   */
  FaultSection(FaultPlan plan, FaultReport report, Topology topology, long virtualEndPs, List<FaultImpact> impacts,
               FaultCases cases) {
    this.cases = cases;
    this.plan = plan;
    this.report = report;
    this.topology = topology;
    this.virtualEndPs = virtualEndPs;
    this.impacts = impacts;
  }

  @Override
  public String id() {
    return "faults";
  }

  @Override
  public String title() {
    return "Faults";
  }

  @Override
  public void render(Markup out) {
    List<FaultFigures> figures = FaultFigures.of(plan, report);
    FaultSettings s = plan.settings();
    Tables.note(out, plan.eventCount() + (plan.eventCount() == 1 ? " event" : " events") + ". A neighbour notices a "
        + "failure after " + s.heartbeatMisses() + " missed heartbeats (one every "
        + Units.format(s.heartbeatPeriodPs()) + "), a repair at the next heartbeat; the management node is "
        + Units.format(s.managementLatencyPs()) + " away and takes " + Units.format(s.managementUpdatePs())
        + " per routing update; a message not acknowledged in time (retransmit timeout: "
        + s.retransmitTimeout().describe() + ") is sent again, at most " + s.maxRetransmissions() + " times.");
    timeline(out, figures);
    Tables.note(out, "One lane per target, and a lane of the cases' starts and ends (warm-up included). A bar "
        + "spans the time the target was down (from its down to its next up, "
        + "or to the end of the run); markers show each event's injection, when a neighbour noticed it and when the "
        + "network was routed around it. Hover a bar or marker for its figures.");
    out.element("h3", "Events").newline();
    List<List<String>> rows = new ArrayList<>();
    for (FaultFigures f : figures) {
      FaultEvent e = f.event();
      FaultImpact impact = impactOf(e.id());
      rows.add(List.of(Integer.toString(e.id()), FaultFigures.us(e.atPs()), e.target(), e.action().configName(),
          FaultFigures.us(f.detectionDelayPs()), FaultFigures.us(f.rerouteTimePs()),
          f.record() == null || f.record().reporterDevice() < 0 ? FaultFigures.NOT_APPLICABLE
              : name(f.record().reporterDevice()),
          f.record() == null ? FaultFigures.NOT_APPLICABLE : Integer.toString(f.record().devicesUpdated()),
          FaultFigures.count(f.lostPackets()), FaultFigures.count(f.corruptedPackets()),
          FaultFigures.count(f.lossDrivenResends()), FaultFigures.count(f.spuriousResends()),
          impact == null ? FaultFigures.NOT_APPLICABLE : Integer.toString(impact.collectivesTouched()),
          impact == null ? FaultFigures.NOT_APPLICABLE : FaultFigures.signedUs(impact.extraLatencyTotalPs()),
          impact == null ? FaultFigures.NOT_APPLICABLE : FaultFigures.signedUs(impact.extraLatencyMaxPs()),
          f.detail()));
    }
    Tables.table(out, List.of("id", "at (us)", "target", "action", "detected after (us)", "rerouted after (us)",
        "reporter", "devices updated", "lost packets", "corrupted packets", "resent after a loss", "spurious resends",
        "collectives touched", "extra latency (us)", "max extra latency (us)", "sets"), rows,
        Set.of(0, 1, 4, 5, 7, 8, 9, 10, 11, 12, 13, 14));
    Tables.note(out, "Detected after, rerouted after: from the injection until a neighbour noticed it and until the "
        + "network was routed around it; - where that did not happen (or, for the counts, was not reported).");
    Tables.note(out, "Collectives touched: the measured iterations running while the event acted (from its injection "
        + "until the latest of its reroute, its target's repair and its last retransmission); extra latency: their "
        + "durations minus the same iterations' in the run without faults, summed and the largest; - when that run "
        + "was skipped (faults.baseline = false).");
    cases.renderTouched(out);
    cases.renderTable(out);
    detours(out, figures);
    out.element("h3", "Totals").newline();
    totals(out);
  }

  /** A router network's detours: per event that changed them, the pairs through via nodes and the packets sent. */
  private void detours(Markup out, List<FaultFigures> figures) {
    List<List<String>> rows = new ArrayList<>();
    for (FaultFigures f : figures) {
      int id = f.event().id();
      List<String> detours = f.record() == null ? List.of() : f.record().detours();
      long detoured = report == null || id >= report.tally().eventCount() ? 0 : report.tally().detouredPackets(id);
      if (detours.isEmpty() && detoured == 0) continue;
      rows.add(List.of(Integer.toString(id), f.event().target() + " " + f.event().action().configName(),
          Integer.toString(detours.size()), Long.toString(detoured), String.join(", ", detours)));
    }
    if (rows.isEmpty()) return;
    out.element("h3", "Detours").newline();
    Tables.note(out, "The management node's detours (the router patent's): each pair of nodes whose route crossed "
        + "what is down goes by dimension order to a via node, then on to its destination, each leg in a "
        + "virtual-channel class set of its own. Pairs: those on a detour once the event was routed around; packets: "
        + "those the NICs sent on that event's detours.");
    Tables.table(out, List.of("id", "event", "pairs on a detour", "packets detoured", "detours (source->destination "
        + "via node)"), rows, Set.of(0, 2, 3));
  }

  private void timeline(Markup out, List<FaultFigures> figures) {
    List<String> lanes = new ArrayList<>();
    Map<String, Integer> laneOf = new HashMap<>();
    for (FaultEvent e : plan.events()) {
      if (!laneOf.containsKey(e.target())) {
        laneOf.put(e.target(), lanes.size());
        lanes.add(e.target());
      }
    }
    int caseLane = lanes.size();
    lanes.add(FaultCases.LANE);
    long endPs = Math.max(virtualEndPs, cases.lastEndPs());
    for (FaultFigures f : figures) {
      endPs = Math.max(endPs, Math.max(f.event().atPs(), Math.max(f.detectedPs(), f.rerouteCompletePs())));
    }
    List<TimelineChart.Bar> bars = new ArrayList<>();
    List<TimelineChart.Marker> markers = new ArrayList<>();
    Map<String, FaultEvent> downSince = new HashMap<>();
    for (FaultFigures f : figures) {
      FaultEvent e = f.event();
      int lane = laneOf.get(e.target());
      if (e.action() == FaultAction.DOWN) {
        downSince.putIfAbsent(e.target(), e);
      } else if (e.action() == FaultAction.UP && downSince.containsKey(e.target())) {
        FaultEvent down = downSince.remove(e.target());
        bars.add(new TimelineChart.Bar(lane, us(down.atPs()), us(e.atPs()), e.target() + " down from "
            + FaultFigures.us(down.atPs()) + " us to " + FaultFigures.us(e.atPs()) + " us ("
            + FaultFigures.us(e.atPs() - down.atPs()) + " us; events " + down.id() + " and " + e.id() + ")"));
      }
      markers.add(new TimelineChart.Marker(lane, us(e.atPs()), kind(e.action()), injectionTip(f)));
      if (f.detected()) {
        markers.add(new TimelineChart.Marker(lane, us(f.detectedPs()), DETECTED, e.target() + " "
            + e.action().configName() + " (event " + e.id() + ") noticed at " + FaultFigures.us(f.detectedPs())
            + " us, " + FaultFigures.us(f.detectionDelayPs()) + " us after it happened"
            + (f.record().reporterDevice() >= 0 ? ", first reported by " + name(f.record().reporterDevice()) : "")));
      }
      if (f.rerouted()) {
        markers.add(new TimelineChart.Marker(lane, us(f.rerouteCompletePs()), REROUTED, e.target() + " "
            + e.action().configName() + " (event " + e.id() + ") routed around at "
            + FaultFigures.us(f.rerouteCompletePs()) + " us, " + FaultFigures.us(f.rerouteTimePs())
            + " us after it happened; " + f.record().devicesUpdated() + " devices updated"));
      }
    }
    // Still down at the end: the bar runs to the end of the run.
    for (FaultEvent down : plan.events()) {
      if (downSince.get(down.target()) != down) continue;
      bars.add(new TimelineChart.Bar(laneOf.get(down.target()), us(down.atPs()), us(endPs), down.target()
          + " down from " + FaultFigures.us(down.atPs()) + " us to the end of the run (event " + down.id() + ")"));
    }
    markers.addAll(cases.markers(caseLane));
    List<TimelineChart.MarkerKind> kinds = new ArrayList<>(KINDS);
    kinds.add(FaultCases.CASE_START);
    kinds.add(FaultCases.CASE_END);
    out.start("div", "class", "charts").newline();
    TimelineChart.render(out, "Fault timeline", Axis.linear("virtual time (us)", 0, us(endPs), true), lanes, bars,
        "time down", markers, kinds);
    out.newline().end("div").newline();
  }

  /** Event {@code eventId}'s impact on the collectives; null when no baseline ran. */
  private FaultImpact impactOf(int eventId) {
    if (impacts == null) return null;
    for (FaultImpact i : impacts) {
      if (i.eventId() == eventId) return i;
    }
    return null;
  }

  private String injectionTip(FaultFigures f) {
    FaultEvent e = f.event();
    String detail = f.detail();
    StringBuilder tip = new StringBuilder("event " + e.id() + ": " + e.describe());
    if (!detail.isEmpty()) tip.append(" (").append(detail).append(')');
    if (f.counted()) {
      tip.append("; ").append(f.lostPackets()).append(" packets lost, ").append(f.corruptedPackets())
          .append(" corrupted, ").append(f.lossDrivenResends()).append(" messages resent after a loss, ")
          .append(f.spuriousResends()).append(" spuriously");
    }
    FaultImpact impact = impactOf(e.id());
    if (impact != null) {
      tip.append("; ").append(impact.collectivesTouched()).append(" collectives touched, ")
          .append(FaultFigures.signedUs(impact.extraLatencyTotalPs())).append(" us extra latency");
    }
    return tip.toString();
  }

  private void totals(Markup out) {
    if (report == null) {
      Tables.note(out, "The run reported no fault counts.");
      return;
    }
    FaultTally t = report.tally();
    Tables.startFacts(out);
    Tables.fact(out, "Lost packets", Long.toString(t.totalLostPackets()));
    Tables.fact(out, "Corrupted packets", Long.toString(t.totalCorruptedPackets()));
    Tables.fact(out, "Resent after a loss", Long.toString(t.totalLossDrivenResends()));
    Tables.fact(out, "Resent spuriously", t.totalSpuriousResends() + (t.totalSpuriousResends() == 0 ? ""
        : " (the copy before had arrived: " + FaultFigures.spuriousAdvice(plan.settings().retransmitTimeout())
        + ")"));
    Tables.fact(out, "Duplicates discarded", Long.toString(t.duplicatesDiscarded()));
    Tables.fact(out, "Not caused by an event", t.lostPackets(-1) + " lost, " + t.corruptedPackets(-1)
        + " corrupted, " + t.lossDrivenResends(-1) + " resent after a loss, " + t.spuriousResends(-1)
        + " spuriously (included above)");
    out.start("tr").element("th", "Partition");
    String partition = report.partition();
    out.element("td", partition == null ? "none: every live rank could reach every other at the end" : partition,
        "class", partition == null ? null : "bad").end("tr").newline();
    List<String> gaveUp = report.gaveUp();
    out.start("tr").element("th", "Given up");
    out.element("td", gaveUp.isEmpty() ? "none" : gaveUp.size() + (gaveUp.size() == 1 ? " message" : " messages"),
        "class", gaveUp.isEmpty() ? null : "bad").end("tr").newline();
    if (!report.incFallbacks().isEmpty()) {
      out.start("tr").element("th", "INC fallbacks");
      out.start("td").start("ul", "class", "inc-fallbacks").newline();
      for (String line : report.incFallbacks()) out.element("li", line).newline();
      out.end("ul").end("td").end("tr").newline();
    }
    out.end("table").newline();
    if (!gaveUp.isEmpty()) {
      out.start("ul", "class", "gave-up").newline();
      for (int i = 0; i < Math.min(MAX_GAVE_UP_LINES, gaveUp.size()); i++) {
        out.element("li", gaveUp.get(i)).newline();
      }
      out.end("ul").newline();
      if (gaveUp.size() > MAX_GAVE_UP_LINES) {
        Tables.note(out, "... and " + (gaveUp.size() - MAX_GAVE_UP_LINES) + " more (results.json lists them all).");
      }
    }
  }

  private static TimelineChart.MarkerKind kind(FaultAction action) {
    return switch (action) {
      case DOWN -> DOWN;
      case UP -> UP;
      case DEGRADE -> DEGRADE;
      case LOSSY -> LOSSY;
      case STRAGGLER -> STRAGGLER;
    };
  }

  private static double us(long ps) {
    return ps / (double) Units.PS_PER_US;
  }

  private String name(int device) {
    if (topology != null && device >= 0 && device < topology.vertexCount()) return topology.vertex(device).name();
    return "device" + device;
  }
}
