package io.fabemu.app.report;

import io.fabemu.core.time.Units;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Link utilisation per case of one run ({@link CaseLinkLoad}): a heat map of each case's mean busy share per pair of
 * tiers (rows cases, columns tier pairs; a cell's tooltip names the pair's busiest link), and a table of each case's
 * interval and busiest link. The whole-run section beside it ({@link LinkSection}) averages over every case; this
 * one shows which case loads which tier, e.g. a ring's host links against an in-network reduction's spine links.
 *
 * <p>Shown for runs with at least two cases that have an interval; a note says when some figures are estimates (a
 * port that merged busy periods across a case's edge).
 */
final class CaseLinksSection implements ReportSection {

  private final List<CaseLinkLoad> loads;

  CaseLinksSection(List<CaseLinkLoad> loads) {
    this.loads = List.copyOf(loads);
  }

  /** Whether the run has a per-case view to show: two or more cases with intervals and timed link counters. */
  static boolean applies(List<CaseLinkLoad> loads) {
    return loads.size() >= 2;
  }

  @Override
  public String id() {
    return "case-links";
  }

  @Override
  public String title() {
    return "Link utilisation per case";
  }

  @Override
  public void render(Markup out) {
    Tables.note(out, "Busy share within each case: the time a link was sending between the case's start on its "
        + "first rank and its end on its last (warm-up iterations and barriers included), as a share of that "
        + "interval. Rows are cases, columns pairs of tiers (from → to); hover a cell for the pair's busiest link.");
    int estimated = loads.stream().mapToInt(CaseLinkLoad::estimatedLinks).sum();
    if (estimated > 0) {
      Tables.note(out, estimated + " of the " + loads.size() * loads.get(0).tiers().stream()
          .mapToInt(CaseLinkLoad.TierLoad::links).sum() + " link-case figures are estimates: a port keeps a bounded "
          + "number of busy periods (its share of the fabric's and its device's) and merges the closest ones, and "
          + "where a merged period straddles a case's edge its busy time is shared in proportion to the overlap, "
          + "which can be far off for a short case beside a long one. A sweep whose points run one case each gives "
          + "exact figures for any fabric.");
    }
    List<String> columns = new ArrayList<>();
    for (CaseLinkLoad.TierLoad t : loads.get(0).tiers()) columns.add(t.from() + " → " + t.to());
    List<String> rows = new ArrayList<>();
    double[][] values = new double[loads.size()][columns.size()];
    String[][] tips = new String[loads.size()][columns.size()];
    for (int r = 0; r < loads.size(); r++) {
      CaseLinkLoad load = loads.get(r);
      rows.add(load.label());
      for (int c = 0; c < columns.size(); c++) {
        CaseLinkLoad.TierLoad t = load.tiers().get(c);
        values[r][c] = t.meanShare();
        tips[r][c] = "case " + load.label() + ", " + columns.get(c) + ": " + t.links() + " links, mean busy "
            + Formats.percent(t.meanShare()) + ", busiest " + t.busiest().from() + " → " + t.busiest().to() + " "
            + Formats.percent(t.busiest().share()) + (load.estimatedLinks() > 0 ? " (" + load.estimatedLinks()
            + " of the case's links estimated)" : "");
      }
    }
    out.start("div", "class", "charts").newline();
    HeatMap.render(out, "Mean busy share per case and tier pair", rows, columns, values, tips, Formats::percent);
    out.newline().end("div").newline();
    List<List<String>> table = new ArrayList<>();
    for (CaseLinkLoad load : loads) {
      CaseLinkLoad.LinkLoad b = load.busiest();
      table.add(List.of(load.label(), Units.format(load.intervalPs()), b.from() + " → " + b.to(),
          Units.format(b.busyPs()), Formats.percent(b.share()), Integer.toString(load.estimatedLinks())));
    }
    Tables.table(out, List.of("case", "interval", "busiest link", "busy", "busy share", "links estimated"), table,
        Set.of(1, 3, 4, 5));
  }
}
