package io.fabemu.app.report;

import io.fabemu.cluster.scenario.RealDataBudget;
import io.fabemu.collectives.Algorithm;
import io.fabemu.collectives.WorkloadSpec;
import io.fabemu.core.optical.OcsReport;
import io.fabemu.core.time.Units;
import io.fabemu.core.topology.Topology;
import io.fabemu.fabric.ScenarioSpec;
import io.fabemu.fabric.result.RunResult;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * The facts of a run: scenario, topology, ranks, workload, seed, outcome (complete and exact, incomplete, wrong, or
 * not checked), virtual end, the OCS controller's circuits (when it set them up during the run) and each policy
 * change's cost, windows, events,
 * the digest, and last the wall time with the event rate: the report's only line that changes from one run of the
 * same scenario to the next.
 */
final class RunFactsSection implements ReportSection {

  private final RunResult result;
  private final Topology topology;
  private final int finishedCases;

  RunFactsSection(RunResult result, Topology topology, int finishedCases) {
    this.result = result;
    this.topology = topology;
    this.finishedCases = finishedCases;
  }

  @Override
  public String id() {
    return "run";
  }

  @Override
  public String title() {
    return "Run";
  }

  @Override
  public void render(Markup out) {
    ScenarioSpec spec = result.scenario();
    WorkloadSpec w = spec.workload();
    int hosts = spec.topology().hosts();
    Tables.startFacts(out);
    Tables.fact(out, "Scenario", spec.name() + " (" + spec.source() + ")");
    Tables.fact(out, "Topology", topology == null ? spec.topology().configName() : topology.description());
    Tables.fact(out, "Ranks", hosts * w.ppn() + " (" + hosts + " nodes x " + w.ppn() + " per node)");
    Tables.fact(out, "Workload", workload(w));
    Tables.fact(out, "Seed", Long.toString(spec.seed()));
    Tables.fact(out, "Payload", w.syntheticPayload() ? "synthetic (sizes only; outputs not checked)"
        : w.mixedPayload() ? RealDataBudget.describe(w) + " (the heap's budget: outputs checked against the exact "
        + "answer up to there, not from there)"
        : "real data, every output checked against the exact answer");
    // NCCL's protocol by size, per algorithm, when the workload sets one (ProtocolNote: none by default).
    for (int a = 0; a < w.algorithms().size(); a++) {
      String note = ProtocolNote.of(spec, a);
      if (!note.isEmpty()) Tables.fact(out, "Protocol", w.algorithms().get(a).configName() + ": " + note);
    }
    Tables.fact(out, "Cases", finishedCases + " of " + w.caseCount() + " finished");
    out.start("tr").element("th", "Outcome");
    String outcome = outcome();
    out.element("td", outcome, "class", outcome.startsWith("complete") ? null : "bad").end("tr").newline();
    Tables.fact(out, "Virtual end", Units.format(result.virtualEndPs()) + " (" + result.virtualEndPs() + " ps)");
    OcsReport ocs = result.ocs();
    if (ocs != null) {
      Tables.fact(out, "OCS circuits", OcsFigures.setUp(ocs));
      // One row per connection-policy change: what it tore down and set up, and what waited for it.
      for (OcsReport.ChangeCost change : ocs.changes()) {
        Tables.fact(out, "OCS change", OcsFigures.change(result, change));
      }
    }
    Tables.fact(out, "Windows", Long.toString(result.windows()));
    Tables.fact(out, "Events", Long.toString(result.events()));
    out.start("tr").element("th", "Digest").element("td", result.digest(), "class", "digest").end("tr").newline();
    String rate = result.wallSeconds() > 0
        ? String.format(Locale.ROOT, "%.0f events/s", result.events() / result.wallSeconds()) : "n/a events/s";
    Tables.fact(out, "Wall time", String.format(Locale.ROOT, "%.3f s (%s; the only figure here that is not "
        + "virtual time)", result.wallSeconds(), rate));
    out.end("table").newline();
  }

  private String outcome() {
    if (!result.complete()) {
      return "INCOMPLETE: " + (result.incompleteReason() == null ? "no reason given" : result.incompleteReason());
    }
    if (!result.checked()) return "complete (outputs not checked: synthetic payload)";
    if (result.wrongElements() > 0) {
      return "WRONG: " + result.wrongElements() + " output elements differ from the exact answer";
    }
    return "complete, every output exact";
  }

  private static String workload(WorkloadSpec w) {
    StringBuilder sb = new StringBuilder(w.collective().configName()).append(' ').append(w.dataType().configName());
    if (w.collective().reduces()) sb.append(' ').append(w.op().configName());
    if (w.collective().rooted()) sb.append(", root ").append(w.root());
    if (w.hierarchical()) sb.append(", hierarchical");
    sb.append("; algorithms ").append(w.algorithms().stream().map(Algorithm::configName)
        .collect(Collectors.joining(", ")));
    sb.append("; ").append(w.sizesBytes().size()).append(" sizes, ")
        .append(Formats.bytes(java.util.Collections.min(w.sizesBytes()))).append(" to ")
        .append(Formats.bytes(java.util.Collections.max(w.sizesBytes())));
    sb.append("; ").append(w.iterations()).append(" iterations + ").append(w.warmup()).append(" warm-up");
    return sb.toString();
  }
}
