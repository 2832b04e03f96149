package io.fabemu.app.report;

import io.fabemu.core.fault.FaultAction;
import io.fabemu.core.fault.FaultEvent;
import io.fabemu.core.fault.FaultPlan;
import io.fabemu.core.fault.FaultRecord;
import io.fabemu.core.fault.FaultReport;
import io.fabemu.core.fault.FaultTally;
import io.fabemu.core.fault.RetransmitTimeout;
import io.fabemu.core.time.Units;
import io.fabemu.fabric.result.RunResult;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.List;

/**
 * The figures of one fault event as the run's outputs show them (the fault table {@code fabemu run} prints,
 * {@code results.json}'s {@code faults.events}, the report's fault section): the event as the plan holds it, what
 * the management node saw of it, and what the devices counted because of it.
 *
 * @param event            the event (its id, time, action and target)
 * @param record           the management node's record of it; null when it has none (only the down and up events
 *                         it was told of have one)
 * @param lostPackets      packets lost because of it; -1 when the run reported no fault counts
 * @param corruptedPackets packets corrupted because of it; -1 when the run reported no fault counts
 * @param resentMessages   messages sent again because of it; -1 when the run reported no fault counts
 * @param spuriousResends  of those, the resends whose copy before had arrived (the timeout was too short); -1 when
 *                         the run reported no fault counts
 */
public record FaultFigures(FaultEvent event, FaultRecord record, long lostPackets, long corruptedPackets,
                           long resentMessages, long spuriousResends) {

  /** Written for a figure that does not apply (not detected, not rerouted, not reported). */
  public static final String NOT_APPLICABLE = "-";

  /**
   * The figures of every event of {@code plan}, in event order; {@code report} (may be null: the run reported
   * nothing) gives the records and counts.
   */
  public static List<FaultFigures> of(FaultPlan plan, FaultReport report) {
    List<FaultFigures> figures = new ArrayList<>(plan.eventCount());
    for (FaultEvent e : plan.events()) {
      if (report == null || e.id() >= report.tally().eventCount()) {
        figures.add(new FaultFigures(e, report == null ? null : report.recordOf(e.id()), -1, -1, -1, -1));
      } else {
        FaultTally t = report.tally();
        figures.add(new FaultFigures(e, report.recordOf(e.id()), t.lostPackets(e.id()), t.corruptedPackets(e.id()),
            t.resentMessages(e.id()), t.spuriousResends(e.id())));
      }
    }
    return figures;
  }

  /** True when a neighbour noticed the event (a record with a detection time). */
  public boolean detected() {
    return record != null && record.detectedPs() >= 0;
  }

  /** True when the network was routed around the event (or back over it). */
  public boolean rerouted() {
    return record != null && record.rerouteCompletePs() >= 0;
  }

  /** When it was noticed; -1 when it was not. */
  public long detectedPs() {
    return detected() ? record.detectedPs() : -1;
  }

  /** When the last routing update it caused was in place; -1 when none was. */
  public long rerouteCompletePs() {
    return rerouted() ? record.rerouteCompletePs() : -1;
  }

  /** From the injection until a neighbour noticed it; -1 when none did. */
  public long detectionDelayPs() {
    return detected() ? record.detectedPs() - event.atPs() : -1;
  }

  /** From the injection until the network routed around it; -1 when it was not rerouted. */
  public long rerouteTimePs() {
    return rerouted() ? record.rerouteCompletePs() - event.atPs() : -1;
  }

  /** The resends something lost made necessary (all but the spurious ones); -1 when not reported. */
  public long lossDrivenResends() {
    return resentMessages < 0 ? -1 : resentMessages - spuriousResends;
  }

  /**
   * What to change when resends were spurious: the retransmit timeout {@code timeout} was shorter than the round
   * trips under this load.
   */
  public static String spuriousAdvice(RetransmitTimeout timeout) {
    if (timeout instanceof RetransmitTimeout.Adaptive a) {
      return "raise faults.transport.min-retransmit-timeout (now " + Units.format(a.minPs()) + "; if the waits reach "
          + "max-retransmit-timeout, now " + Units.format(a.maxPs()) + ", that too)";
    }
    return "remove faults.transport.retransmit-timeout (the adaptive default) or make it longer than "
        + timeout.describe();
  }

  /**
   * The one warning line of a run some of whose resends were spurious, in the run with the faults or in its baseline
   * (their extra latency is the timeout's, not the faults'); null when none were, or the runs reported no counts.
   */
  public static String spuriousWarning(RunResult result) {
    FaultReport report = result.faults();
    FaultReport baseline = result.baseline() == null ? null : result.baseline().faults();
    long faulted = report == null ? 0 : report.tally().totalSpuriousResends();
    long clean = baseline == null ? 0 : baseline.tally().totalSpuriousResends();
    if (faulted == 0 && clean == 0) return null;
    String where = faulted == 0 ? "" : faulted + " of " + report.tally().totalResentMessages() + " resends were "
        + "spurious (the copy before had arrived)";
    if (clean > 0) {
      where += (where.isEmpty() ? "" : ", and ") + "the run without the faults resent " + clean + " messages "
          + "spuriously";
    }
    return "fabemu: warning: " + where + ", so part of the latency charged to the faults is the retransmit "
        + "timeout's: " + spuriousAdvice(result.scenario().faults().settings().retransmitTimeout());
  }

  /**
   * A warning line when the run without the faults did not finish or gave up on messages (the extra latencies then
   * compare only what it finished); null when it finished cleanly or did not run.
   */
  public static String baselineWarning(RunResult result) {
    RunResult baseline = result.baseline();
    if (baseline == null) return null;
    int gaveUp = baseline.faults() == null ? 0 : baseline.faults().gaveUp().size();
    if (baseline.complete() && gaveUp == 0) return null;
    String reason = baseline.incompleteReason() == null ? "no reason given"
        : baseline.incompleteReason().strip().replaceAll("\\s*[\\r\\n]+\\s*", " ");
    String what = !baseline.complete() ? "did not finish (" + reason + ")"
        : "gave up on " + gaveUp + (gaveUp == 1 ? " message" : " messages");
    return "fabemu: warning: the run without the faults " + what + ": the extra latencies compare only the cases it "
        + "finished";
  }

  /** True when the run reported the counts of its faults. */
  public boolean counted() {
    return lostPackets >= 0;
  }

  /**
   * What a degrade, lossy or straggler event sets, in words ({@code rate 50 Gb/s, +200 ns latency},
   * {@code own rate and latency again}, {@code drop 1 %, corrupt 0.1 %}, {@code slowdown 2x}); empty for a down or
   * up.
   */
  public String detail() {
    if (event.action() == FaultAction.DEGRADE) {
      if (event.bandwidthBitsPerSecond() == 0 && event.extraLatencyPs() == 0) return "own rate and latency again";
      String rate = event.bandwidthBitsPerSecond() == 0 ? "own rate"
          : "rate " + Formats.significant(event.bandwidthBitsPerSecond() / 1e9, 4) + " Gb/s";
      String latency = event.extraLatencyPs() == 0 ? "own latency"
          : "+" + Units.format(event.extraLatencyPs()) + " latency";
      return rate + ", " + latency;
    }
    if (event.action() == FaultAction.LOSSY) {
      return "drop " + Formats.significant(event.dropProbability() * 100, 4) + " %, corrupt "
          + Formats.significant(event.corruptProbability() * 100, 4) + " %";
    }
    if (event.action() == FaultAction.STRAGGLER) {
      return "slowdown " + Formats.significant(event.slowdown(), 4) + "x";
    }
    return "";
  }

  /**
   * {@code ps} in microseconds with 3 decimals (whole nanoseconds, rounded half up from the exact value), or
   * {@value #NOT_APPLICABLE} when it is negative (the records' "none").
   */
  public static String us(long ps) {
    return ps < 0 ? NOT_APPLICABLE : BigDecimal.valueOf(ps, 6).setScale(3, RoundingMode.HALF_UP).toPlainString();
  }

  /** {@code ps} in microseconds with 3 decimals, rounded half up; negative too (an extra latency can be). */
  public static String signedUs(long ps) {
    return BigDecimal.valueOf(ps, 6).setScale(3, RoundingMode.HALF_UP).toPlainString();
  }

  /** {@code count}, or {@value #NOT_APPLICABLE} when it is negative (not reported). */
  public static String count(long count) {
    return count < 0 ? NOT_APPLICABLE : Long.toString(count);
  }
}
