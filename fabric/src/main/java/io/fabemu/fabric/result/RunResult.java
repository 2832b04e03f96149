package io.fabemu.fabric.result;

import io.fabemu.core.ethernet.EthernetReport;
import io.fabemu.core.fault.FaultReport;
import io.fabemu.core.optical.OcsReport;
import io.fabemu.core.sim.DeviceReport.LinkCounters;
import io.fabemu.core.sim.ReportPart;
import io.fabemu.fabric.ScenarioSpec;
import java.util.ArrayList;
import java.util.List;

/**
 * Everything a run produced: the kernel's figures (cases, links, how far it got, its digest) and the parts its
 * features contributed ({@link ReportPart}: what the faults did, the I/O nodes and external Ethernet, the OCS
 * controller), each merged over the devices' reports. Built with {@link #builder} (or {@link #toBuilder} for a copy
 * that changes a few components).
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
 * @param parts          the features' parts, at most one of each class, in the order they were added; read them with
 *                       {@link #faults}, {@link #ethernet}, {@link #ocs} (or {@link #part})
 * @param faultImpacts   per fault event, in event order, the extra latency of the collectives it touched, against
 *                       the run of the scenario without faults ({@link FaultImpact#compare}, which also extends the
 *                       digest); null when no such baseline ran (no fault plan, or {@code faults.baseline = false})
 * @param baseline       the run without the fault events ({@link FaultImpact#compare}): its cases, in workload order
 *                       with their intervals in virtual time, which the reports set beside the faulted run's
 *                       ({@link #baselineCases}), whether it finished, and its transport's counts (it runs the plan's
 *                       transport: a timeout too short resends there too); null when no such baseline ran. Not in
 *                       the digest: the impacts it gives are ({@link FaultImpact#digest})
 */
public record RunResult(ScenarioSpec scenario, List<CaseResult> cases, List<LinkCounters> links, boolean complete,
                        String incompleteReason, long virtualEndPs, long windows, long events, double wallSeconds,
                        String digest, List<ReportPart> parts, List<FaultImpact> faultImpacts, RunResult baseline) {

  /**
   * @throws IllegalArgumentException when two parts have the same class
   */
  public RunResult {
    parts = ReportPart.distinct(parts, "a run result holds");
  }

  /**
   * A builder of the result of a run of {@code scenario}: no cases, no links, no parts, until set; whether the run
   * completed has no default and must be said ({@link Builder#complete}).
   */
  public static Builder builder(ScenarioSpec scenario) {
    return new Builder(scenario);
  }

  /** A builder that starts from every component of this result. */
  public Builder toBuilder() {
    Builder b = new Builder(scenario).cases(cases).links(links).complete(complete).incompleteReason(incompleteReason)
        .virtualEndPs(virtualEndPs).windows(windows).events(events).wallSeconds(wallSeconds).digest(digest)
        .faultImpacts(faultImpacts).baseline(baseline);
    for (ReportPart p : parts) b.part(p);
    return b;
  }

  /** The part of class {@code type} a feature contributed, or null when the run has none. */
  public <T extends ReportPart> T part(Class<T> type) {
    return ReportPart.find(parts, type);
  }

  /**
   * What the scenario's faults did: every device's tally summed and the management node's record of each event
   * ({@link FaultReport#merge}); null when the scenario has no fault plan.
   */
  public FaultReport faults() {
    return part(FaultReport.class);
  }

  /**
   * What the I/O nodes and the external Ethernet did ({@link EthernetReport#merge}); null when the scenario has no
   * {@code ethernet} section.
   */
  public EthernetReport ethernet() {
    return part(EthernetReport.class);
  }

  /**
   * What the OCS controller and the optical ports did ({@link OcsReport#merge}: circuits set up, when the last came
   * up, how long traffic waited for them); null when no circuit was set up during the run (not an optical cluster,
   * or a reconfiguration delay of 0). Not in the digest: its waits already show in the virtual-time results.
   */
  public OcsReport ocs() {
    return part(OcsReport.class);
  }

  /** The cases of the run without the fault events, in workload order; null when it did not run. */
  public List<CaseResult> baselineCases() {
    return baseline == null ? null : baseline.cases();
  }

  /**
   * Builds a {@link RunResult}; parts are added one by one (a null part, a feature absent from the run, is left
   * out).
   */
  public static final class Builder {
    private final ScenarioSpec scenario;
    private List<CaseResult> cases = List.of();
    private List<LinkCounters> links = List.of();
    private boolean complete;
    private boolean completeSaid;
    private String incompleteReason;
    private long virtualEndPs;
    private long windows;
    private long events;
    private double wallSeconds;
    private String digest;
    private final List<ReportPart> parts = new ArrayList<>(3);
    private List<FaultImpact> faultImpacts;
    private RunResult baseline;

    private Builder(ScenarioSpec scenario) {
      this.scenario = scenario;
    }

    public Builder cases(List<CaseResult> cases) {
      this.cases = cases;
      return this;
    }

    public Builder links(List<LinkCounters> links) {
      this.links = links;
      return this;
    }

    /** Whether every case finished; {@link #build()} refuses a result that does not say. */
    public Builder complete(boolean complete) {
      this.complete = complete;
      this.completeSaid = true;
      return this;
    }

    public Builder incompleteReason(String incompleteReason) {
      this.incompleteReason = incompleteReason;
      return this;
    }

    public Builder virtualEndPs(long virtualEndPs) {
      this.virtualEndPs = virtualEndPs;
      return this;
    }

    public Builder windows(long windows) {
      this.windows = windows;
      return this;
    }

    public Builder events(long events) {
      this.events = events;
      return this;
    }

    public Builder wallSeconds(double wallSeconds) {
      this.wallSeconds = wallSeconds;
      return this;
    }

    public Builder digest(String digest) {
      this.digest = digest;
      return this;
    }

    /** Adds a feature's part; a null part is left out. */
    public Builder part(ReportPart part) {
      if (part != null) parts.add(part);
      return this;
    }

    public Builder faultImpacts(List<FaultImpact> faultImpacts) {
      this.faultImpacts = faultImpacts;
      return this;
    }

    public Builder baseline(RunResult baseline) {
      this.baseline = baseline;
      return this;
    }

    /**
     * @throws IllegalStateException when {@link #complete} was not said
     * @throws IllegalArgumentException when two parts have the same class
     */
    public RunResult build() {
      if (!completeSaid) {
        throw new IllegalStateException("a run result must say whether the run completed (complete(true or false))");
      }
      return new RunResult(scenario, cases, links, complete, incompleteReason, virtualEndPs, windows, events,
          wallSeconds, digest, parts, faultImpacts, baseline);
    }
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
