package io.fabemu.app.report;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.ToDoubleFunction;

/**
 * Latency and bus bandwidth against message size, one line per series (algorithm or mode, and buffer placement):
 * the osu table's average latency and nccl-tests' bus bandwidth, sizes on a log2 axis (linear when a size is 0, as
 * a barrier's), values on a log axis when they span more than 10x; then the figures as a table.
 */
final class CurvesSection implements ReportSection {

  private final String id;
  private final String title;
  private final List<CaseSeries> series;

  /** {@code series} as lines; {@code id} and {@code title} name the section (a sweep has one per point group). */
  CurvesSection(String id, String title, List<CaseSeries> series) {
    this.id = id;
    this.title = title;
    this.series = List.copyOf(series);
  }

  @Override
  public String id() {
    return id;
  }

  @Override
  public String title() {
    return title;
  }

  @Override
  public void render(Markup out) {
    if (series.stream().allMatch(s -> s.cases().isEmpty())) {
      Tables.note(out, "No case finished, so there is nothing to draw.");
      return;
    }
    out.start("div", "class", "charts").newline();
    chart(out, series, "Average latency", "latency (us)", CaseFigures::avgUs);
    out.newline();
    chart(out, series, "Bus bandwidth", "bus bandwidth (GB/s)", CaseFigures::busBwGBps);
    out.newline().end("div").newline();
    out.start("details").element("summary", "The figures (as in results.csv)").newline();
    List<List<String>> rows = new ArrayList<>();
    for (CaseSeries s : series) {
      for (CaseFigures c : s.cases()) {
        rows.add(List.of(s.label(), Long.toString(c.sizeBytes()), Formats.us(c.avgUs()), Formats.us(c.minUs()),
            Formats.us(c.maxUs()), Formats.significant(c.algBwGBps(), 4), Formats.significant(c.busBwGBps(), 4),
            c.checked() ? Long.toString(c.wrong()) : "n/a"));
      }
    }
    Tables.table(out, List.of("series", "size (B)", "avg latency", "min latency", "max latency", "algbw (GB/s)",
        "busbw (GB/s)", "wrong"), rows, Set.of(1, 2, 3, 4, 5, 6, 7));
    out.end("details").newline();
  }

  /**
   * The line of {@code value} against size of series {@code s}, drawn as {@code label} in {@code style}; its sizes
   * and values are added to {@code allSizes} and {@code allValues} (for the axes).
   */
  static LineChart.Series line(CaseSeries s, String label, LineChart.Style style, ToDoubleFunction<CaseFigures> value,
                               List<Double> allSizes, List<Double> allValues) {
    List<Double> x = new ArrayList<>();
    List<Double> y = new ArrayList<>();
    List<String> names = new ArrayList<>();
    for (CaseFigures c : s.cases()) {
      x.add((double) c.sizeBytes());
      y.add(value.applyAsDouble(c));
      names.add(Formats.bytes(c.sizeBytes()));
    }
    allSizes.addAll(x);
    allValues.addAll(y);
    return new LineChart.Series(label, x, y, names, style);
  }

  /** One chart of {@code value} against size, a line per series; {@code what} names it in the title. */
  static void chart(Markup out, List<CaseSeries> series, String what, String yTitle,
                    ToDoubleFunction<CaseFigures> value) {
    List<LineChart.Series> lines = new ArrayList<>();
    List<Double> allSizes = new ArrayList<>();
    List<Double> allValues = new ArrayList<>();
    for (CaseSeries s : series) {
      lines.add(line(s, s.label(), s.style(), value, allSizes, allValues));
    }
    LineChart.render(out, what + " against message size", sizeAxis(allSizes), Axis.auto(yTitle, allValues), lines);
  }

  /** Message sizes on a log2 axis, or linear when a size is 0. */
  static Axis sizeAxis(List<Double> sizes) {
    return Axis.messageSizes(sizes);
  }
}
