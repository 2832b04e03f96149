package io.fabemu.app.report;

import com.typesafe.config.Config;
import io.fabemu.core.topology.Topology;
import io.fabemu.fabric.result.RunResult;
import java.util.ArrayList;
import java.util.List;

/**
 * The HTML report of one run ({@code DIR/report.html}): its facts and digest, in a run with faults what they did
 * ({@link FaultSection}: a timeline, a row per event, the totals), latency and bus bandwidth against size per
 * algorithm or mode (then what the command adds, such as a published curve), the in-network speed-up over the host
 * algorithms, per-link utilisation with heat maps of the fabric (over the whole run, and per case), the spread of the
 * ranks' latencies, and the scenario as loaded.
 *
 * <p>Contract: a pure function of its input except the one line that gives the wall time (and the event rate,
 * which depends on it); self-contained as {@link HtmlReport} says. A run cut short (a lost member) is reported
 * with what it finished, marked incomplete.
 *
 * @param title    the report's title (the command's plot title)
 * @param result   what the run produced
 * @param topology the fabric it ran on, for device names and tiers; may be null (links then named by device id)
 * @param scenario the scenario as loaded (defaults filled in, overrides applied), echoed; may be null
 * @param cases    the result's cases as {@code results.csv} has them, in workload order
 * @param commandSections what the command that ran adds after the curves (the nccl-tests programs: the published
 *                 curve of {@code --reference}); empty for {@code run}
 */
public record RunReport(String title, RunResult result, Topology topology, Config scenario,
                        List<CaseFigures> cases, List<ReportSection> commandSections) {

  public RunReport {
    cases = List.copyOf(cases);
    commandSections = List.copyOf(commandSections);
  }

  /** The report of a run whose command adds no section of its own. */
  public RunReport(String title, RunResult result, Topology topology, Config scenario, List<CaseFigures> cases) {
    this(title, result, topology, scenario, cases, List.of());
  }

  /**
   * The sections, in order; the fault section only when the scenario has a fault plan, the Ethernet section only
   * when it has I/O nodes, the comparison of embedded-ring algorithms only when it runs two or more, the prism's
   * drawing only on a prism.
   */
  public List<ReportSection> sections() {
    List<CaseSeries> series = CaseSeries.of(cases);
    List<ReportSection> sections = new ArrayList<>();
    sections.add(new RunFactsSection(result, topology, cases.size()));
    if (result.scenario().hasFaults()) {
      sections.add(new FaultSection(result.scenario().faults(), result.faults(), topology, result.virtualEndPs(),
          result.faultImpacts(), FaultCases.of(result)));
    }
    if (result.ethernet() != null) sections.add(new EthernetSection(result.ethernet(), topology));
    sections.add(new CurvesSection("curves", "Latency and bus bandwidth", series));
    sections.addAll(commandSections);
    sections.add(new IncSpeedupSection(series));
    RingComparison rings = RingComparison.of(result.scenario().workload(), cases);
    if (rings != null) sections.add(new RingComparisonSection(rings));
    PipelineTable pipeline = PipelineTable.of(result);
    if (pipeline != null) sections.add(new PipelineSection(pipeline));
    if (PrismSection.applies(result, topology)) sections.add(new PrismSection(result, topology));
    sections.add(new LinkSection(result.links(), topology, result.virtualEndPs(), result.complete()));
    List<CaseLinkLoad> caseLinks = CaseLinkLoad.of(result, topology);
    if (CaseLinksSection.applies(caseLinks)) sections.add(new CaseLinksSection(caseLinks));
    sections.add(new RankSpreadSection(series, result.cases()));
    sections.add(ScenarioEchoSection.ofRun(scenario, result.scenario().source()));
    return List.copyOf(sections);
  }

  /** The document. */
  public String html() {
    String subtitle = result.scenario().name() + " · " + (topology == null
        ? result.scenario().topology().configName() : topology.description()) + " · digest "
        + result.digest();
    return HtmlReport.render(title, subtitle, sections());
  }
}
