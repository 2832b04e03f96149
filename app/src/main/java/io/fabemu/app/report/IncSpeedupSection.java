package io.fabemu.app.report;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The in-network speed-up: for each in-network series (inc-node, inc-socket) and each size it ran, the fastest
 * host-algorithm latency of that size and buffer placement divided by the in-network latency (above 1: the network
 * was faster). A chart of the speed-up against size and a table that also says, per case, whether the switches
 * aggregated or why the host algorithm ran instead. A run without both kinds of cases gets one line saying why not.
 */
final class IncSpeedupSection implements ReportSection {

  /** One comparison: an in-network case against the fastest host case of its size. */
  record Comparison(CaseSeries incSeries, CaseFigures inc, CaseSeries hostSeries, CaseFigures host) {
    double speedUp() {
      return inc.avgUs() > 0 ? host.avgUs() / inc.avgUs() : Double.NaN;
    }
  }

  private final List<CaseSeries> series;

  IncSpeedupSection(List<CaseSeries> series) {
    this.series = List.copyOf(series);
  }

  @Override
  public String id() {
    return "inc";
  }

  @Override
  public String title() {
    return "In-network speed-up";
  }

  @Override
  public void render(Markup out) {
    String whyNot = whyNoComparison(series);
    if (whyNot != null) {
      Tables.note(out, whyNot);
      return;
    }
    List<Comparison> comparisons = comparisons(series);
    List<LineChart.Series> lines = new ArrayList<>();
    List<Double> sizes = new ArrayList<>();
    List<Double> values = new ArrayList<>();
    for (int index = 0; index < series.size(); index++) {
      CaseSeries inc = series.get(index);
      if (!inc.inNetwork()) continue;
      List<Double> x = new ArrayList<>();
      List<Double> y = new ArrayList<>();
      List<String> names = new ArrayList<>();
      for (Comparison c : comparisons) {
        if (c.incSeries() != inc || Double.isNaN(c.speedUp())) continue;
        x.add((double) c.inc().sizeBytes());
        y.add(c.speedUp());
        names.add(Formats.bytes(c.inc().sizeBytes()) + " vs " + c.hostSeries().label());
      }
      if (x.isEmpty()) continue;
      sizes.addAll(x);
      values.addAll(y);
      // The colour the series has in the latency charts above.
      lines.add(new LineChart.Series(inc.label(), x, y, names, inc.style()));
    }
    LineChart.render(out, "Speed-up of in-network over the fastest host algorithm", CurvesSection.sizeAxis(sizes),
        Axis.linear("speed-up (host latency / in-network latency)", 0, values.stream()
            .mapToDouble(Double::doubleValue).max().orElse(1), true), lines);
    out.newline();
    List<List<String>> rows = new ArrayList<>();
    for (Comparison c : comparisons) {
      String inc = c.inc().incUsed() == null ? "" : c.inc().incUsed() ? "INC in use"
          : "no INC, host algorithm ran: " + c.inc().incReason();
      rows.add(List.of(c.incSeries().label(), Long.toString(c.inc().sizeBytes()), Formats.us(c.inc().avgUs()),
          c.hostSeries().label(), Formats.us(c.host().avgUs()),
          Double.isNaN(c.speedUp()) ? "n/a" : String.format(Locale.ROOT, "%.2fx", c.speedUp()), inc));
    }
    Tables.table(out, List.of("in-network", "size (B)", "latency", "fastest host algorithm", "its latency",
        "speed-up", "INC"), rows, Set.of(1, 2, 4, 5));
  }

  /** Why the run has no speed-up to show, or null when it has one. */
  static String whyNoComparison(List<CaseSeries> series) {
    boolean anyInc = series.stream().anyMatch(s -> s.inNetwork() && !s.cases().isEmpty());
    boolean anyHost = series.stream().anyMatch(s -> !s.inNetwork() && !s.cases().isEmpty());
    if (!anyInc && !anyHost) return "No speed-up to show: no case finished.";
    if (!anyInc) {
      return "No speed-up to show: this run has no in-network cases (algorithms inc-node or inc-socket).";
    }
    if (!anyHost) {
      return "No speed-up to show: this run has no host-algorithm cases to compare the in-network ones with "
          + "(add e.g. auto to workload.algorithms).";
    }
    if (comparisons(series).isEmpty()) {
      return "No speed-up to show: no message size was run both in the network and on the hosts.";
    }
    return null;
  }

  /** Every in-network case that has host cases of its size and buffers, against the fastest of them. */
  static List<Comparison> comparisons(List<CaseSeries> series) {
    List<Comparison> out = new ArrayList<>();
    for (CaseSeries inc : series) {
      if (!inc.inNetwork()) continue;
      for (CaseFigures incCase : inc.cases()) {
        CaseSeries bestSeries = null;
        CaseFigures best = null;
        for (CaseSeries host : series) {
          if (host.inNetwork()) continue;
          for (CaseFigures h : host.cases()) {
            if (h.sizeBytes() != incCase.sizeBytes() || !h.buffers().equals(incCase.buffers())) continue;
            if (best == null || h.avgUs() < best.avgUs()) {
              best = h;
              bestSeries = host;
            }
          }
        }
        if (best != null) out.add(new Comparison(inc, incCase, bestSeries, best));
      }
    }
    return out;
  }
}
