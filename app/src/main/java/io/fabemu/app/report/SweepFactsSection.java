package io.fabemu.app.report;

import io.fabemu.core.time.Units;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The facts of a sweep: the scenario, the values laid under every point ({@code --set}), each varied key with its
 * values, the number of points and the worst exit code, the wall time (the report's only line that changes from one
 * sweep to the next), and a table with a row per point: its values, exit code, cases, wrong elements, virtual end,
 * digest and a link to its own report.
 */
final class SweepFactsSection implements ReportSection {

  private final SweepReport sweep;

  SweepFactsSection(SweepReport sweep) {
    this.sweep = sweep;
  }

  @Override
  public String id() {
    return "sweep";
  }

  @Override
  public String title() {
    return "Sweep";
  }

  @Override
  public void render(Markup out) {
    List<SweepPoint> points = sweep.points();
    Tables.startFacts(out);
    Tables.fact(out, "Scenario", sweep.source());
    Tables.fact(out, "Set on every point", sweep.sets().isEmpty() ? "nothing" : String.join("; ", sweep.sets()));
    for (int k = 0; k < sweep.keys().size(); k++) {
      Set<String> values = new LinkedHashSet<>();
      for (SweepPoint p : points) values.add(p.values().get(k));
      Tables.fact(out, "Varied: " + sweep.keys().get(k), String.join("; ", values));
    }
    int worst = points.stream().mapToInt(SweepPoint::exitCode).max().orElse(0);
    long failed = points.stream().filter(p -> p.exitCode() != 0).count();
    Tables.fact(out, "Points", points.size() + " (" + failed + " failed; worst exit code " + worst + ")");
    Tables.fact(out, "Wall time", String.format(Locale.ROOT, "%.3f s for the whole sweep (the only figure here "
        + "that is not virtual time)", sweep.wallSeconds()));
    out.end("table").newline();

    out.start("table").newline();
    out.start("thead").start("tr").element("th", "point");
    for (String key : sweep.keys()) out.element("th", key);
    for (String h : List.of("exit code", "cases", "wrong", "virtual end", "digest", "files")) out.element("th", h);
    out.end("tr").end("thead").newline();
    out.start("tbody").newline();
    for (SweepPoint p : points) {
      out.start("tr").element("td", Integer.toString(p.number()), "class", "num");
      for (String v : p.values()) out.element("td", v);
      out.element("td", Integer.toString(p.exitCode()), "class", p.exitCode() == 0 ? "num" : "num bad");
      if (p.result() == null) {
        out.element("td", p.error() == null ? "no result" : p.error(), "colspan", "4", "class", "bad");
      } else {
        out.element("td", p.cases().size() + " of " + p.result().scenario().workload().caseCount(), "class", "num");
        out.element("td", p.result().checked() ? Long.toString(p.result().wrongElements()) : "n/a", "class", "num");
        out.element("td", Units.format(p.result().virtualEndPs()), "class", "num");
        out.element("td", p.result().digest(), "class", "digest");
      }
      out.start("td");
      if (p.result() != null) {
        out.element("a", "report", "href", p.folder() + "/report.html");
      } else {
        out.text(p.folder());
      }
      out.end("td").end("tr").newline();
    }
    out.end("tbody").end("table").newline();
    List<String> problems = new ArrayList<>();
    for (SweepPoint p : points) {
      if (p.result() != null && !p.result().complete()) {
        problems.add("Point " + p.number() + " is incomplete: " + p.result().incompleteReason());
      }
    }
    for (String problem : problems) out.element("p", problem, "class", "bad").newline();
  }
}
