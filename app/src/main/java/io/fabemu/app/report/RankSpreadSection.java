package io.fabemu.app.report;

import io.fabemu.core.time.Units;
import io.fabemu.fabric.result.CaseResult;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The spread of the ranks' latencies per case: each measuring rank's mean latency over the measured iterations
 * ({@link CaseResult#rankLatenciesPs()}), drawn as a box per case (whiskers at the fastest and slowest rank, the box
 * from the first to the third quartile, the median) grouped by size, a colour per series; and a table with the
 * spread (slowest minus fastest, as a share of the median). Cases without per-rank figures are left out, with a line
 * saying so when none has them.
 */
final class RankSpreadSection implements ReportSection {

  private final List<CaseSeries> series;
  private final Map<Integer, double[]> rankLatenciesPsByCase = new HashMap<>();

  RankSpreadSection(List<CaseSeries> series, List<CaseResult> results) {
    this.series = List.copyOf(series);
    for (CaseResult r : results) {
      if (r.rankLatenciesPs().length > 0) rankLatenciesPsByCase.put(r.caseIndex(), r.rankLatenciesPs());
    }
  }

  @Override
  public String id() {
    return "ranks";
  }

  @Override
  public String title() {
    return "Per-rank spread";
  }

  @Override
  public void render(Markup out) {
    if (rankLatenciesPsByCase.isEmpty()) {
      Tables.note(out, "No per-rank figures: the run reported none for its finished cases.");
      return;
    }
    TreeSet<Long> sizes = new TreeSet<>();
    for (CaseSeries s : series) {
      for (CaseFigures c : s.cases()) {
        if (rankLatenciesPsByCase.containsKey(c.caseIndex())) sizes.add(c.sizeBytes());
      }
    }
    List<Long> sizeList = new ArrayList<>(sizes);
    List<BoxPlot.Series> boxes = new ArrayList<>();
    List<Double> allUs = new ArrayList<>();
    List<List<String>> rows = new ArrayList<>();
    for (CaseSeries s : series) {
      List<BoxPlot.Box> perSize = new ArrayList<>();
      for (int i = 0; i < sizeList.size(); i++) perSize.add(null);
      boolean any = false;
      for (CaseFigures c : s.cases()) {
        double[] ps = rankLatenciesPsByCase.get(c.caseIndex());
        if (ps == null) continue;
        double[] us = new double[ps.length];
        for (int i = 0; i < ps.length; i++) us[i] = ps[i] / Units.PS_PER_US;
        BoxPlot.Box b = BoxPlot.Box.of(us);
        perSize.set(sizeList.indexOf(c.sizeBytes()), b);
        allUs.add(b.min());
        allUs.add(b.max());
        any = true;
        double spread = b.median() > 0 ? (b.max() - b.min()) / b.median() : 0;
        rows.add(List.of(s.label(), Long.toString(c.sizeBytes()), Integer.toString(b.count()), Formats.us(b.min()),
            Formats.us(b.q1()), Formats.us(b.median()), Formats.us(b.q3()), Formats.us(b.max()),
            String.format(Locale.ROOT, "%.1f %%", spread * 100)));
      }
      if (any) boxes.add(new BoxPlot.Series(s.label(), perSize, s.style().colour()));
    }
    Axis x = Axis.categories("message size (bytes)", sizeList.stream().map(Formats::sizeLabel).toList());
    BoxPlot.render(out, "Ranks' mean latency per case", x, Axis.auto("latency (us)", allUs), boxes, "us");
    out.newline();
    out.start("details").element("summary", "The spread per case").newline();
    Tables.table(out, List.of("series", "size (B)", "ranks", "fastest", "q1", "median", "q3", "slowest",
        "spread (slowest - fastest) / median"), rows, Set.of(1, 2, 3, 4, 5, 6, 7, 8));
    out.end("details").newline();
  }
}
