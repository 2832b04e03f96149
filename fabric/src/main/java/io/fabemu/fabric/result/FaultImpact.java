package io.fabemu.fabric.result;

import io.fabemu.core.fault.FaultAction;
import io.fabemu.core.fault.FaultEvent;
import io.fabemu.core.fault.FaultPlan;
import io.fabemu.core.fault.FaultRecord;
import io.fabemu.core.fault.FaultReport;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What one fault event cost the collectives it touched, found by comparing the faulted run with its baseline (the
 * same scenario without its fault plan, {@link io.fabemu.fabric.ScenarioSpec#baseline()}).
 *
 * <p>A <b>collective</b> is one measured iteration of one case (warm-up iterations are not measured, so they are
 * not compared). Its interval is {@code [first rank's start, last rank's completion]} ({@link CaseResult}); its
 * duration is the iteration's latency as the results report it: the mean over the measuring ranks of their own
 * start to completion ({@link CaseResult#iterationLatenciesPs()}, OSU's per-iteration figure). The interval's
 * length would not do as the duration: it also holds how unevenly the ranks left the barrier before the iteration,
 * which a fault in the previous iteration skews, so an iteration that ran exactly as fast would be charged for it.
 *
 * <p>An event's <b>window</b> is {@code [atPs, windowEndPs]}; {@code windowEndPs} is the latest of its injection,
 * its reroute-complete time (when the management node routed around it), the time its target was restored, and the
 * last retransmission put down to it. A {@code down} is restored by the next {@code up} of the same target; a
 * {@code degrade}, {@code lossy} or {@code straggler} event by the next event of the same action and target; one
 * never restored lasts to the end of the run. An {@code up}, and a degrade, lossy or straggler event that gives the
 * target its own figures back, restore by themselves and have no such time.
 *
 * <p>A collective is <b>touched</b> by an event when its interval overlaps the window: it started at or before
 * {@code windowEndPs} and completed after {@code atPs}. Its <b>extra latency</b> is its duration in the faulted run
 * minus the same collective's (same case, same iteration) in the baseline, rounded to the picosecond; it can be
 * negative, and a collective touched by several events counts for each. Collectives of a case that the faulted run
 * or the baseline did not finish on every rank are not compared.
 *
 * @param eventId             the event
 * @param windowEndPs         the end of its window (its start is the event's time)
 * @param collectivesTouched  collectives whose interval overlaps the window
 * @param extraLatencyTotalPs their extra latencies summed (0 when none was touched)
 * @param extraLatencyMaxPs   the largest of their extra latencies (0 when none was touched)
 */
public record FaultImpact(int eventId, long windowEndPs, int collectivesTouched, long extraLatencyTotalPs,
                          long extraLatencyMaxPs) {

  /**
   * {@code faulted} with each of its fault events' impact against {@code baseline}, the same scenario run without
   * faults ({@link RunResult#faultImpacts()}), the baseline beside it ({@link RunResult#baseline()}: its cases and
   * counts, outputs only) and its digest extended by the impacts ({@link #digest}); {@code faulted} itself when its
   * scenario has no fault plan.
   */
  public static RunResult compare(RunResult faulted, RunResult baseline) {
    if (!faulted.scenario().hasFaults()) return faulted;
    List<FaultImpact> impacts = of(faulted, baseline);
    return faulted.toBuilder().digest(digest(faulted.digest(), impacts)).faultImpacts(impacts).baseline(baseline)
        .build();
  }

  /** The impact of each of {@code faulted}'s fault events (in event order) against {@code baseline}. */
  public static List<FaultImpact> of(RunResult faulted, RunResult baseline) {
    FaultPlan plan = faulted.scenario().faults();
    Map<Integer, CaseResult> baselineCases = new HashMap<>();
    for (CaseResult c : baseline.cases()) baselineCases.put(c.caseIndex(), c);
    List<FaultImpact> impacts = new ArrayList<>(plan.eventCount());
    for (FaultEvent e : plan.events()) {
      long windowEndPs = windowEndPs(plan, faulted.faults(), e.id(), faulted.virtualEndPs());
      int touched = 0;
      long totalPs = 0;
      long maxPs = Long.MIN_VALUE;
      for (CaseResult c : faulted.cases()) {
        CaseResult base = baselineCases.get(c.caseIndex());
        if (base == null || !c.timed() || base.iterationLatenciesPs().length != c.iterationStartsPs().length
            || c.iterationLatenciesPs().length != c.iterationStartsPs().length) {
          continue;
        }
        for (int i = 0; i < c.iterationStartsPs().length; i++) {
          if (c.iterationStartsPs()[i] > windowEndPs || c.iterationEndsPs()[i] <= e.atPs()) continue;
          long extraPs = Math.round(c.iterationLatenciesPs()[i] - base.iterationLatenciesPs()[i]);
          touched++;
          totalPs += extraPs;
          maxPs = Math.max(maxPs, extraPs);
        }
      }
      impacts.add(new FaultImpact(e.id(), windowEndPs, touched, totalPs, touched == 0 ? 0 : maxPs));
    }
    return List.copyOf(impacts);
  }

  /**
   * The end of event {@code eventId}'s window (see the class comment): the latest of its time, its reroute-complete
   * time ({@code report}'s record; none without a report), when its target was restored (or {@code virtualEndPs}
   * when it never was) and its last retransmission.
   */
  public static long windowEndPs(FaultPlan plan, FaultReport report, int eventId, long virtualEndPs) {
    FaultEvent event = plan.event(eventId);
    long endPs = event.atPs();
    FaultRecord record = report == null ? null : report.recordOf(eventId);
    if (record != null && record.rerouteCompletePs() >= 0) endPs = Math.max(endPs, record.rerouteCompletePs());
    if (!event.restoresTarget()) endPs = Math.max(endPs, restoredPs(plan, event, virtualEndPs));
    if (report != null && eventId < report.tally().eventCount()) {
      endPs = Math.max(endPs, report.tally().lastResendPs(eventId));
    }
    return endPs;
  }

  /**
   * When {@code event}'s effect on its target ended: the time of the next event that sets the same target again (an
   * up after a down, the same action after a degrade, lossy or straggler event), or {@code virtualEndPs} when none
   * does. Targets are the same when they name the same device and the same links.
   */
  private static long restoredPs(FaultPlan plan, FaultEvent event, long virtualEndPs) {
    FaultAction next = event.action() == FaultAction.DOWN ? FaultAction.UP : event.action();
    Set<?> links = Set.copyOf(event.links());
    for (int id = event.id() + 1; id < plan.eventCount(); id++) {
      FaultEvent later = plan.event(id);
      if (later.action() == next && later.vertex() == event.vertex() && Set.copyOf(later.links()).equals(links)) {
        return later.atPs();
      }
    }
    return Math.max(virtualEndPs, event.atPs());
  }

  /**
   * The digest of a faulted run compared with its baseline: SHA-256 over {@code runDigest} (the run's own digest,
   * {@link ResultAggregator}) and one line per event's impact, so the same scenario and seed give the same digest
   * with its impacts, and a run without a baseline keeps its own.
   */
  public static String digest(String runDigest, List<FaultImpact> impacts) {
    MessageDigest sha;
    try {
      sha = MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is missing from this JVM", e);
    }
    StringBuilder text = new StringBuilder("fabemu-digest-v3 run ").append(runDigest).append('\n');
    for (FaultImpact i : impacts) {
      text.append("impact ").append(i.eventId()).append(" window ").append(i.windowEndPs()).append(" touched ")
          .append(i.collectivesTouched()).append(" extra ").append(i.extraLatencyTotalPs()).append(" max ")
          .append(i.extraLatencyMaxPs()).append('\n');
    }
    return HexFormat.of().formatHex(sha.digest(text.toString().getBytes(StandardCharsets.US_ASCII)));
  }
}
