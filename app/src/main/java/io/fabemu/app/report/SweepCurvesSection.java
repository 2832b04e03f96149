package io.fabemu.app.report;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.ToDoubleFunction;

/**
 * A sweep's latency and bus bandwidth against message size: a line per point and series (algorithm or mode, and
 * buffer placement), coloured by the algorithm ({@link Palette}, as in every other chart) and drawn with the point's
 * own line style (dash pattern and marker, {@link #pointStyle}). The legend, below the plot, has an entry per
 * algorithm (its colour) and one per point (its line style, labelled with its number and varied values), rather than
 * an entry per line, so it stays short and readable however many points the sweep has; each line's tooltips name
 * both. Then the figures as a table.
 */
final class SweepCurvesSection implements ReportSection {

  /** Dash patterns of the points' lines, in turn (null: solid). */
  static final List<String> DASHES = List.of("", "6 3", "2 3", "9 3 2 3", "1 4");
  /** Markers of the points' lines, in turn; with the dashes, 20 points have a style each before styles repeat. */
  static final List<LineChart.Marker> MARKERS = List.of(LineChart.Marker.CIRCLE, LineChart.Marker.SQUARE,
      LineChart.Marker.TRIANGLE, LineChart.Marker.DIAMOND);
  /** Colour of a point's legend entry (its line style only; the colours are the algorithms'). */
  static final String POINT_KEY_COLOUR = "#555555";

  private final List<SweepPoint> points;

  SweepCurvesSection(List<SweepPoint> points) {
    this.points = List.copyOf(points);
  }

  @Override
  public String id() {
    return "curves";
  }

  @Override
  public String title() {
    return "Latency and bus bandwidth per point";
  }

  @Override
  public void render(Markup out) {
    List<SweepPoint> withCases = points.stream().filter(p -> !p.cases().isEmpty()).toList();
    if (withCases.isEmpty()) {
      Tables.note(out, "No case finished, so there is nothing to draw.");
      return;
    }
    Tables.note(out, "Colour: the algorithm; line style: the point (the legend lists both). Hover a point for its "
        + "series, point and figures.");
    out.start("div", "class", "charts").newline();
    chart(out, withCases, "Average latency", "latency (us)", CaseFigures::avgUs);
    out.newline();
    chart(out, withCases, "Bus bandwidth", "bus bandwidth (GB/s)", CaseFigures::busBwGBps);
    out.newline().end("div").newline();
    out.start("details").element("summary", "The figures (as in sweep.csv)").newline();
    List<List<String>> rows = new ArrayList<>();
    for (SweepPoint p : withCases) {
      for (CaseSeries s : CaseSeries.of(p.cases())) {
        for (CaseFigures c : s.cases()) {
          rows.add(List.of(Integer.toString(p.number()), s.label(), Long.toString(c.sizeBytes()),
              Formats.us(c.avgUs()), Formats.us(c.minUs()), Formats.us(c.maxUs()),
              Formats.significant(c.algBwGBps(), 4), Formats.significant(c.busBwGBps(), 4),
              c.checked() ? Long.toString(c.wrong()) : "n/a"));
        }
      }
    }
    Tables.table(out, List.of("point", "series", "size (B)", "avg latency", "min latency", "max latency",
        "algbw (GB/s)", "busbw (GB/s)", "wrong"), rows, Set.of(0, 2, 3, 4, 5, 6, 7, 8));
    out.end("details").newline();
  }

  /** The line style of the {@code index}-th point (from 0) drawn in {@code colour}. */
  static LineChart.Style pointStyle(int index, String colour) {
    String dash = DASHES.get(index % DASHES.size());
    return new LineChart.Style(colour, dash.isEmpty() ? null : dash, MARKERS.get(index % MARKERS.size()), true);
  }

  /** The longest assignments a point's legend label shows with their keys. */
  static final int MAX_KEYED_LABEL_CHARS = 40;

  /**
   * A point's legend label: its number and its assignments ({@code point 1: topology.hosts=8}), or only its values
   * when the assignments are longer than {@value #MAX_KEYED_LABEL_CHARS} characters
   * ({@code point 2: 8, [recursive-doubling, rabenseifner]}; the sweep's facts name the keys).
   */
  static String pointLabel(SweepPoint p) {
    String shown = p.label().length() <= MAX_KEYED_LABEL_CHARS ? p.label() : String.join(", ", p.values());
    return "point " + p.number() + ": " + shown;
  }

  private static void chart(Markup out, List<SweepPoint> withCases, String what, String yTitle,
                            ToDoubleFunction<CaseFigures> value) {
    List<LineChart.Series> lines = new ArrayList<>();
    List<Double> allSizes = new ArrayList<>();
    List<Double> allValues = new ArrayList<>();
    Map<String, LineChart.Style> algorithms = new LinkedHashMap<>();
    List<LineChart.LegendEntry> pointKeys = new ArrayList<>();
    for (int i = 0; i < withCases.size(); i++) {
      SweepPoint p = withCases.get(i);
      pointKeys.add(new LineChart.LegendEntry(pointLabel(p), pointStyle(i, POINT_KEY_COLOUR)));
      for (CaseSeries s : CaseSeries.of(p.cases())) {
        algorithms.putIfAbsent(s.stableName(), s.style());
        lines.add(CurvesSection.line(s, s.label() + " · point " + p.number() + " (" + p.label() + ")",
            pointStyle(i, s.style().colour()), value, allSizes, allValues));
      }
    }
    List<LineChart.LegendEntry> legend = new ArrayList<>();
    algorithms.forEach((name, style) -> legend.add(LineChart.LegendEntry.colour(name, style.colour())));
    legend.addAll(pointKeys);
    LineChart.render(out, what + " against message size", null, CurvesSection.sizeAxis(allSizes),
        Axis.auto(yTitle, allValues), lines, legend);
  }
}
