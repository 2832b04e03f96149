package io.fabemu.fabric.result;

import io.fabemu.core.ethernet.EthernetReport;
import io.fabemu.core.fault.FaultReport;
import io.fabemu.core.optical.OcsReport;
import io.fabemu.core.sim.DeviceReport.LinkCounters;
import io.fabemu.fabric.ScenarioSpec;
import java.util.List;

/**
 * Everything a run produced.
 *
 * @param scenario       the scenario as run (seed included)
 * @param cases          per-case results, in workload order
 * @param links          per-link counters, sorted by (from, to)
 * @param complete       false when the run stopped before every rank finished
 * @param incompleteReason why, when not complete (else null)
 * @param virtualEndPs   virtual time the run reached
 * @param windows        time windows the engine opened
 * @param events         device events handled
 * @param wallSeconds    wall-clock duration of the emulation (not part of the digest)
 * @param digest         SHA-256 (hex) over the payload mode, the virtual-time results and link counters (and, in a
 *                       run with faults, what the faults did)
 * @param faults         what the scenario's faults did: every device's tally summed and the management node's
 *                       record of each event ({@link FaultReport#merge}); null when the scenario has no fault plan
 * @param faultImpacts   per fault event, in event order, the extra latency of the collectives it touched, against
 *                       the run of the scenario without faults ({@link FaultImpact#compare}, which also extends the
 *                       digest); null when no such baseline ran (no fault plan, or {@code faults.baseline = false})
 * @param ethernet       what the I/O nodes and the external Ethernet did ({@link EthernetReport#merge}); null when the
 *                       scenario has no {@code ethernet} section
 * @param ocs            what the OCS controller and the optical ports did ({@link OcsReport#merge}: circuits set up,
 *                       when the last came up, how long traffic waited for them); null when no circuit was set up
 *                       during the run (not an optical cluster, or a reconfiguration delay of 0). Not in the digest:
 *                       its waits already show in the virtual-time results
 * @param baseline       the run without the fault events ({@link FaultImpact#compare}): its cases, in workload order
 *                       with their intervals in virtual time, which the reports set beside the faulted run's
 *                       ({@link #baselineCases}), whether it finished, and its transport's counts (it runs the plan's
 *                       transport: a timeout too short resends there too); null when no such baseline ran. Not in
 *                       the digest: the impacts it gives are ({@link FaultImpact#digest})
 */
public record RunResult(ScenarioSpec scenario, List<CaseResult> cases, List<LinkCounters> links, boolean complete,
                        String incompleteReason, long virtualEndPs, long windows, long events, double wallSeconds,
                        String digest, FaultReport faults, List<FaultImpact> faultImpacts, EthernetReport ethernet,
                        OcsReport ocs, RunResult baseline) {

  /** The cases of the run without the fault events, in workload order; null when it did not run. */
  public List<CaseResult> baselineCases() {
    return baseline == null ? null : baseline.cases();
  }

  /** The result of a run without its baseline's cases. */
  public RunResult(ScenarioSpec scenario, List<CaseResult> cases, List<LinkCounters> links, boolean complete,
                   String incompleteReason, long virtualEndPs, long windows, long events, double wallSeconds,
                   String digest, FaultReport faults, List<FaultImpact> faultImpacts, EthernetReport ethernet,
                   OcsReport ocs) {
    this(scenario, cases, links, complete, incompleteReason, virtualEndPs, windows, events, wallSeconds, digest, faults,
        faultImpacts, ethernet, ocs, null);
  }

  /** The result of a run without an OCS controller. */
  public RunResult(ScenarioSpec scenario, List<CaseResult> cases, List<LinkCounters> links, boolean complete,
                   String incompleteReason, long virtualEndPs, long windows, long events, double wallSeconds,
                   String digest, FaultReport faults, List<FaultImpact> faultImpacts, EthernetReport ethernet) {
    this(scenario, cases, links, complete, incompleteReason, virtualEndPs, windows, events, wallSeconds, digest, faults,
        faultImpacts, ethernet, null);
  }

  /** The result of a run without I/O nodes. */
  public RunResult(ScenarioSpec scenario, List<CaseResult> cases, List<LinkCounters> links, boolean complete,
                   String incompleteReason, long virtualEndPs, long windows, long events, double wallSeconds,
                   String digest, FaultReport faults, List<FaultImpact> faultImpacts) {
    this(scenario, cases, links, complete, incompleteReason, virtualEndPs, windows, events, wallSeconds, digest, faults,
        faultImpacts, null);
  }

  /** The result of a run without a baseline to compare its faults' collectives with. */
  public RunResult(ScenarioSpec scenario, List<CaseResult> cases, List<LinkCounters> links, boolean complete,
                   String incompleteReason, long virtualEndPs, long windows, long events, double wallSeconds,
                   String digest, FaultReport faults) {
    this(scenario, cases, links, complete, incompleteReason, virtualEndPs, windows, events, wallSeconds, digest, faults,
        null);
  }

  /** The result of a run without faults. */
  public RunResult(ScenarioSpec scenario, List<CaseResult> cases, List<LinkCounters> links, boolean complete,
                   String incompleteReason, long virtualEndPs, long windows, long events, double wallSeconds,
                   String digest) {
    this(scenario, cases, links, complete, incompleteReason, virtualEndPs, windows, events, wallSeconds, digest, null);
  }

  /** Event {@code eventId}'s impact on the collectives, or null when no baseline ran. */
  public FaultImpact impactOf(int eventId) {
    if (faultImpacts == null) return null;
    for (FaultImpact i : faultImpacts) {
      if (i.eventId() == eventId) return i;
    }
    return null;
  }

  /** True when the outputs were checked against the exact answer: false for a synthetic payload (sizes only). */
  public boolean checked() {
    return !scenario.workload().syntheticPayload();
  }

  /** Total wrong output elements over all cases (0 when not {@link #checked()}). */
  public long wrongElements() {
    return cases.stream().mapToLong(CaseResult::wrongElements).sum();
  }
}
