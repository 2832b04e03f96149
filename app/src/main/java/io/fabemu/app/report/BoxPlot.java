package io.fabemu.app.report;

import java.util.Arrays;
import java.util.List;

/**
 * An inline SVG box plot of distributions grouped by category: for each category (e.g. message size) one box per
 * series (e.g. algorithm) side by side: whiskers from the smallest to the largest value, the box from the first to
 * the third quartile, a line at the median; a tooltip gives the five numbers and the count.
 *
 * <p>Contract: a pure function of its arguments; a missing box (null) leaves its place empty; values the y axis
 * cannot place (0 or less on a log axis) are clamped to the axis minimum so the box stays visible, which the tooltip
 * shows with the true values. A series of an algorithm is drawn in its {@link Palette} colour.
 */
public final class BoxPlot {

  /** Five-number summary of {@code count} values. */
  public record Box(double min, double q1, double median, double q3, double max, int count) {

    /** The summary of {@code values} (at least one); quartiles interpolate linearly between ranks. */
    public static Box of(double[] values) {
      if (values.length == 0) throw new IllegalArgumentException("no values");
      double[] sorted = values.clone();
      Arrays.sort(sorted);
      return new Box(sorted[0], quantile(sorted, 0.25), quantile(sorted, 0.5), quantile(sorted, 0.75),
          sorted[sorted.length - 1], sorted.length);
    }

    /** The {@code p}-quantile of sorted values, interpolating between the two nearest ranks. */
    static double quantile(double[] sorted, double p) {
      double position = p * (sorted.length - 1);
      int below = (int) Math.floor(position);
      int above = Math.min(sorted.length - 1, below + 1);
      return sorted[below] + (position - below) * (sorted[above] - sorted[below]);
    }
  }

  /**
   * One series: its legend label, a box per category (null where it has none) and its colour ({@code #rrggbb}; null:
   * by its place in the plot, {@link LineChart#colour}).
   */
  public record Series(String label, List<Box> boxes, String colour) {
    public Series {
      boxes = java.util.Collections.unmodifiableList(new java.util.ArrayList<>(boxes));
    }

    /** A series coloured by its place in the plot. */
    public Series(String label, List<Box> boxes) {
      this(label, boxes, null);
    }

    String colourAt(int position) {
      return colour != null ? colour : LineChart.colour(position);
    }
  }

  private BoxPlot() {}

  /**
   * Writes the plot into {@code out}; {@code x} is a {@link Axis#categories category axis} with one tick per box
   * position, {@code unit} names the values' unit in tooltips.
   */
  public static void render(Markup out, String title, Axis x, Axis y, List<Series> series, String unit) {
    if (x.kind() != Axis.Kind.CATEGORY) throw new IllegalArgumentException("a box plot needs a category x axis");
    int width = Math.max(LineChart.WIDTH, 72 + 20 + 14 * x.ticks().size() * Math.max(1, series.size()));
    double left = 72;
    double top = 36;
    double plotWidth = width - left - 20;
    double plotHeight = LineChart.HEIGHT - top - 60;
    int labelDepth = 18 + (int) Math.ceil(x.ticks().stream().mapToInt(t -> Math.min(28, t.label().length()))
        .max().orElse(0) * 3.5);
    List<LineChart.LegendEntry> legend = new java.util.ArrayList<>();
    for (int s = 0; s < series.size(); s++) {
      legend.add(LineChart.LegendEntry.colour(series.get(s).label(), series.get(s).colourAt(s)));
    }
    double legendTop = top + plotHeight + labelDepth + 44;
    double height = Math.ceil(legendTop + LineChart.legendHeight(legend, plotWidth));

    out.start("svg", "xmlns", "http://www.w3.org/2000/svg", "class", "chart", "viewBox",
        "0 0 " + width + " " + Markup.num(height), "width", Integer.toString(width), "height", Markup.num(height),
        "role", "img");
    out.element("title", title);
    out.element("text", title, "x", Markup.num(width / 2.0), "y", "20", "class", "chart-title",
        "text-anchor", "middle");
    LineChart.Frame frame = new LineChart.Frame(left, top, plotWidth, plotHeight, x, y);
    frame.axes(out, labelDepth);
    int slots = Math.max(1, x.ticks().size());
    double slotWidth = plotWidth / slots;
    double boxWidth = Math.max(2, Math.min(18, slotWidth * 0.8 / Math.max(1, series.size())));
    for (int s = 0; s < series.size(); s++) {
      String colour = series.get(s).colourAt(s);
      out.start("g", "class", "boxes", "stroke", colour, "fill", colour);
      List<Box> boxes = series.get(s).boxes();
      for (int c = 0; c < boxes.size() && c < slots; c++) {
        Box b = boxes.get(c);
        if (b == null) continue;
        double centre = frame.px(c) + (s - (series.size() - 1) / 2.0) * boxWidth * 1.15;
        box(out, frame, b, centre, boxWidth, series.get(s).label() + ", " + x.ticks().get(c).label(), unit);
      }
      out.end("g");
    }
    LineChart.legend(out, legend, left, legendTop, plotWidth);
    out.end("svg");
  }

  private static void box(Markup out, LineChart.Frame frame, Box b, double centre, double width, String name,
                          String unit) {
    double yMin = place(frame, b.min());
    double yQ1 = place(frame, b.q1());
    double yMedian = place(frame, b.median());
    double yQ3 = place(frame, b.q3());
    double yMax = place(frame, b.max());
    out.start("g", "class", "box");
    out.element("title", name + ": " + b.count() + " values; min " + Formats.significant(b.min(), 5) + ", q1 "
        + Formats.significant(b.q1(), 5) + ", median " + Formats.significant(b.median(), 5) + ", q3 "
        + Formats.significant(b.q3(), 5) + ", max " + Formats.significant(b.max(), 5) + " " + unit);
    out.empty("line", "x1", Markup.num(centre), "y1", Markup.num(yMax), "x2", Markup.num(centre), "y2",
        Markup.num(yMin), "stroke-width", "1");
    out.empty("line", "x1", Markup.num(centre - width / 4), "y1", Markup.num(yMax), "x2",
        Markup.num(centre + width / 4), "y2", Markup.num(yMax), "stroke-width", "1");
    out.empty("line", "x1", Markup.num(centre - width / 4), "y1", Markup.num(yMin), "x2",
        Markup.num(centre + width / 4), "y2", Markup.num(yMin), "stroke-width", "1");
    // A box of zero height (all ranks equal) is still drawn one pixel high, so it shows.
    double boxTop = Math.min(yQ3, yQ1 - 1);
    out.empty("rect", "x", Markup.num(centre - width / 2), "y", Markup.num(boxTop), "width", Markup.num(width),
        "height", Markup.num(Math.max(1, yQ1 - boxTop)), "fill-opacity", "0.35");
    out.empty("line", "x1", Markup.num(centre - width / 2), "y1", Markup.num(yMedian), "x2",
        Markup.num(centre + width / 2), "y2", Markup.num(yMedian), "stroke-width", "2");
    out.end("g");
  }

  private static double place(LineChart.Frame frame, double value) {
    return frame.py(frame.y().accepts(value) ? value : frame.y().min());
  }
}
