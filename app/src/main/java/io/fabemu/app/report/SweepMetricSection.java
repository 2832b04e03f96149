package io.fabemu.app.report;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiFunction;

/**
 * Two figures of each series against the varied values: nccl-tests' average bus bandwidth (the mean busbw over the
 * series' sizes) and the average latency at the series' largest size. With one varied key whose values are all
 * numbers the x axis is that key's value (log10 when every value is above 0 and they span more than 10x); otherwise
 * one slot per point, labelled with its values (the axis title names the keys).
 */
final class SweepMetricSection implements ReportSection {

  private final List<String> keys;
  private final List<SweepPoint> points;

  SweepMetricSection(List<String> keys, List<SweepPoint> points) {
    this.keys = List.copyOf(keys);
    this.points = List.copyOf(points);
  }

  @Override
  public String id() {
    return "metric";
  }

  @Override
  public String title() {
    return "Against the varied values";
  }

  @Override
  public void render(Markup out) {
    List<SweepPoint> withCases = points.stream().filter(p -> !p.cases().isEmpty()).toList();
    if (withCases.isEmpty()) {
      Tables.note(out, "No point finished a case, so there is nothing to draw.");
      return;
    }
    Map<String, LineChart.Style> labels = new LinkedHashMap<>();
    for (SweepPoint p : withCases) {
      for (CaseSeries s : CaseSeries.of(p.cases())) labels.putIfAbsent(s.stableName(), s.style());
    }
    boolean numeric = keys.size() == 1 && withCases.stream().allMatch(p -> number(p.values().get(0)) != null);
    Axis x;
    if (numeric) {
      List<Double> xs = withCases.stream().map(p -> number(p.values().get(0))).toList();
      x = Axis.auto(keys.get(0), xs, false);
    } else {
      // Each slot is labelled with the point's values, in the order of the keys the axis title lists.
      x = Axis.categories(String.join(", ", keys), withCases.stream().map(p -> String.join(", ", p.values()))
          .toList());
    }
    out.start("div", "class", "charts").newline();
    chart(out, "Average bus bandwidth against the varied values", "average bus bandwidth (GB/s)", x, numeric,
        withCases, labels, (p, s) -> s.cases().stream().mapToDouble(CaseFigures::busBwGBps).average().orElse(
            Double.NaN));
    out.newline();
    chart(out, "Latency at the largest size against the varied values", "latency at the largest size (us)", x,
        numeric, withCases, labels, (p, s) -> s.cases().get(s.cases().size() - 1).avgUs());
    out.newline().end("div").newline();
  }

  private void chart(Markup out, String title, String yTitle, Axis x, boolean numeric, List<SweepPoint> withCases,
                     Map<String, LineChart.Style> labels, BiFunction<SweepPoint, CaseSeries, Double> metric) {
    List<LineChart.Series> lines = new ArrayList<>();
    List<Double> all = new ArrayList<>();
    for (Map.Entry<String, LineChart.Style> line : labels.entrySet()) {
      String label = line.getKey();
      List<Double> xs = new ArrayList<>();
      List<Double> ys = new ArrayList<>();
      List<String> names = new ArrayList<>();
      for (int i = 0; i < withCases.size(); i++) {
        SweepPoint p = withCases.get(i);
        for (CaseSeries s : CaseSeries.of(p.cases())) {
          if (!s.stableName().equals(label) || s.cases().isEmpty()) continue;
          double y = metric.apply(p, s);
          xs.add(numeric ? number(p.values().get(0)) : i);
          ys.add(y);
          names.add(p.label() + " (largest size " + Formats.bytes(s.cases().get(s.cases().size() - 1).sizeBytes())
              + ")");
          all.add(y);
        }
      }
      lines.add(new LineChart.Series(label, xs, ys, names, line.getValue()));
    }
    LineChart.render(out, title, x, Axis.auto(yTitle, all), lines);
  }

  /** {@code text} as a number, or null when it is not one (e.g. {@code 1 MiB}, {@code [ring]}). */
  static Double number(String text) {
    try {
      double v = Double.parseDouble(text.strip());
      return Double.isFinite(v) ? v : null;
    } catch (NumberFormatException e) {
      return null;
    }
  }
}
