package io.fabemu.app.output;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabemu.app.report.FaultFigures;
import io.fabemu.core.fault.FaultPlan;
import io.fabemu.core.fault.FaultReport;
import io.fabemu.core.fault.FaultSettings;
import io.fabemu.core.fault.FaultTally;
import io.fabemu.core.fault.RetransmitTimeout;
import io.fabemu.core.topology.Topology;
import io.fabemu.fabric.result.FaultImpact;
import io.fabemu.fabric.result.RunResult;

/** {@code results.json}'s {@code faults} object, for {@link ResultsWriter}. */
final class FaultsJson {
  private FaultsJson() {}

  /**
   * The {@code faults} object: the plan's settings, per event its injection, what the management node saw (times in
   * ps, null where it saw nothing) and what it cost, the totals (with what no event explains), the partition the
   * management node saw last (null when none), the messages given up on and, when a fault broke an INC group, one
   * line per group saying what broke it and what the group did instead ({@code incFallbacks}); on a router network,
   * per event also the packets sent through via nodes by its detours and every detour in place once it was routed
   * around. With a baseline run, each event also has the end of its window and the collectives it touched with their
   * extra latency ({@link FaultImpact}), and {@code baselineRun} says whether that run finished and what its
   * transport resent. Without a fault report (the run reported none) the counts, totals and partition are null.
   */
  static ObjectNode of(RunResult result, Topology topology, ObjectNode faults) {
    FaultPlan plan = result.scenario().faults();
    FaultReport report = result.faults();
    boolean routerNetwork = result.scenario().topology().networkShape().isPresent();
    FaultSettings s = plan.settings();
    ObjectNode settings = faults.putObject("settings");
    settings.put("heartbeatPeriodPs", s.heartbeatPeriodPs());
    settings.put("heartbeatMisses", s.heartbeatMisses());
    settings.put("managementLatencyPs", s.managementLatencyPs());
    settings.put("managementUpdatePs", s.managementUpdatePs());
    ObjectNode timeout = settings.putObject("retransmitTimeout");
    if (s.retransmitTimeout() instanceof RetransmitTimeout.Adaptive a) {
      timeout.put("kind", "adaptive");
      timeout.put("minPs", a.minPs());
      timeout.put("maxPs", a.maxPs());
    } else if (s.retransmitTimeout() instanceof RetransmitTimeout.Fixed f) {
      timeout.put("kind", "fixed");
      timeout.put("timeoutPs", f.timeoutPs());
    }
    settings.put("maxRetransmissions", s.maxRetransmissions());
    settings.put("baseline", s.baseline());
    ArrayNode events = faults.putArray("events");
    for (FaultFigures f : FaultFigures.of(plan, report)) {
      ObjectNode n = events.addObject();
      n.put("id", f.event().id());
      n.put("atPs", f.event().atPs());
      n.put("action", f.event().action().configName());
      n.put("target", f.event().target());
      ResultsWriter.putOrNull(n, "detectedPs", f.detectedPs());
      ResultsWriter.putOrNull(n, "detectionDelayPs", f.detectionDelayPs());
      int reporter = f.record() == null ? -1 : f.record().reporterDevice();
      ResultsWriter.putOrNull(n, "reporterDevice", reporter);
      if (topology != null && reporter >= 0) n.put("reporter", ResultsWriter.deviceName(topology, reporter));
      ResultsWriter.putOrNull(n, "rerouteCompletePs", f.rerouteCompletePs());
      ResultsWriter.putOrNull(n, "rerouteTimePs", f.rerouteTimePs());
      ResultsWriter.putOrNull(n, "devicesUpdated", f.record() == null ? -1 : f.record().devicesUpdated());
      ResultsWriter.putOrNull(n, "lostPackets", f.lostPackets());
      ResultsWriter.putOrNull(n, "corruptedPackets", f.corruptedPackets());
      ResultsWriter.putOrNull(n, "resentMessages", f.resentMessages());
      ResultsWriter.putOrNull(n, "lossDrivenResends", f.lossDrivenResends());
      ResultsWriter.putOrNull(n, "spuriousResends", f.spuriousResends());
      if (report != null && routerNetwork) {
        // Router networks: the packets sent through via nodes by this event's detours, and every detour in place.
        n.put("detouredPackets", f.event().id() < report.tally().eventCount()
            ? report.tally().detouredPackets(f.event().id()) : 0);
        ArrayNode detours = n.putArray("detours");
        if (f.record() != null) f.record().detours().forEach(detours::add);
      }
      FaultImpact impact = result.impactOf(f.event().id());
      if (impact != null) {
        // Only when the run without faults ran (faults.baseline): its figures are absent, not null, otherwise.
        n.put("impactWindowEndPs", impact.windowEndPs());
        n.put("collectivesTouched", impact.collectivesTouched());
        n.put("extraLatencyTotalPs", impact.extraLatencyTotalPs());
        n.put("extraLatencyMaxPs", impact.extraLatencyMaxPs());
      }
    }
    if (report == null) {
      faults.putNull("totals");
    } else {
      FaultTally t = report.tally();
      ObjectNode totals = faults.putObject("totals");
      totals.put("lostPackets", t.totalLostPackets());
      totals.put("corruptedPackets", t.totalCorruptedPackets());
      totals.put("resentMessages", t.totalResentMessages());
      totals.put("lossDrivenResends", t.totalLossDrivenResends());
      totals.put("spuriousResends", t.totalSpuriousResends());
      totals.put("duplicatesDiscarded", t.duplicatesDiscarded());
      // Slot -1: what no event explains, e.g. a retransmission before the first fault; included in the totals.
      ObjectNode noEvent = totals.putObject("noEvent");
      noEvent.put("lostPackets", t.lostPackets(-1));
      noEvent.put("corruptedPackets", t.corruptedPackets(-1));
      noEvent.put("resentMessages", t.resentMessages(-1));
      noEvent.put("lossDrivenResends", t.lossDrivenResends(-1));
      noEvent.put("spuriousResends", t.spuriousResends(-1));
    }
    faults.put("partition", report == null ? null : report.partition());
    ArrayNode gaveUp = faults.putArray("gaveUp");
    if (report != null) report.gaveUp().forEach(gaveUp::add);
    if (report != null && !report.incFallbacks().isEmpty()) {
      // Only runs whose INC groups a fault broke have it: every other results.json stays as it was.
      ArrayNode incFallbacks = faults.putArray("incFallbacks");
      report.incFallbacks().forEach(incFallbacks::add);
    }
    RunResult baseline = result.baseline();
    if (baseline != null) {
      // The run without the events runs the same transport: whether it finished, and what it resent.
      ObjectNode run = faults.putObject("baselineRun");
      run.put("complete", baseline.complete());
      FaultTally t = baseline.faults() == null ? new FaultTally(0) : baseline.faults().tally();
      run.put("lossDrivenResends", t.totalLossDrivenResends());
      run.put("spuriousResends", t.totalSpuriousResends());
      run.put("gaveUp", baseline.faults() == null ? 0 : baseline.faults().gaveUp().size());
    }
    return faults;
  }
}
