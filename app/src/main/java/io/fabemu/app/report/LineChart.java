package io.fabemu.app.report;

import java.util.ArrayList;
import java.util.List;

/**
 * An inline SVG line chart: a title, two {@link Axis axes} with grid lines and labelled ticks, one line with point
 * markers per series, and a legend below the plot. Every point carries a tooltip ({@code <title>}) with its series
 * and both values, so the figures can be read off without a table.
 *
 * <p>Contract: the output is a pure function of the arguments (fixed width {@value #WIDTH}, height {@value #HEIGHT}
 * plus room for long category labels and the legend, scaled by CSS); a point the axis cannot place (not finite, or 0 or
 * less on a log axis) is left out of its line, and a series without a drawable point stays in the legend. A series of
 * an algorithm is drawn in its {@link Palette} colour ({@link Style#ofAlgorithm}); one without a style takes
 * {@link #COLOURS} by its place in the chart.
 */
public final class LineChart {

  static final int WIDTH = 580;
  static final int HEIGHT = 360;
  /** Series colours, cycled: ten hues that stay apart on white. */
  static final List<String> COLOURS = List.of("#2166ac", "#d6604d", "#1b9e77", "#7570b3", "#e6ab02", "#66a61e",
      "#a6761d", "#e7298a", "#666666", "#17becf");

  private static final int LEFT = 72;
  private static final int TOP = 36;
  private static final int CHAR_PX = 7;
  /** Width of a legend entry's swatch. */
  private static final int SWATCH_PX = 22;
  private static final int LEGEND_ROW = 18;

  /** The mark drawn at each point of a line. */
  public enum Marker { CIRCLE, SQUARE, TRIANGLE, DIAMOND, CROSS }

  /**
   * How a line is drawn: its colour ({@code #rrggbb}; null: by its place in the chart, {@link #colour}), its dash
   * pattern (an SVG {@code stroke-dasharray}; null: solid), the mark at each point, and whether its points are joined
   * (false: marks only, e.g. the sizes where an in-network algorithm fell back).
   */
  public record Style(String colour, String dash, Marker marker, boolean joined) {
    public Style {
      if (marker == null) throw new IllegalArgumentException("a line needs a marker");
    }

    /** A solid line in {@code colour} with circles. */
    public static Style of(String colour) {
      return new Style(colour, null, Marker.CIRCLE, true);
    }

    /** The line of the algorithm named {@code algorithm}: its {@link Palette} colour, solid, circles. */
    public static Style ofAlgorithm(String algorithm) {
      return of(Palette.colour(algorithm));
    }
  }

  /**
   * One line: its legend label, its points, {@code pointLabels} (may be null) naming points in tooltips, and its
   * {@code style} (null: a solid line with circles in the colour of its place in the chart). A series of an algorithm
   * takes {@link Style#ofAlgorithm}, so it has the same colour in every chart.
   */
  public record Series(String label, List<Double> x, List<Double> y, List<String> pointLabels, Style style) {
    public Series {
      if (x.size() != y.size()) throw new IllegalArgumentException("x and y differ in length");
      if (pointLabels != null && pointLabels.size() != x.size()) {
        throw new IllegalArgumentException("point labels and points differ in length");
      }
      x = List.copyOf(x);
      y = List.copyOf(y);
      pointLabels = pointLabels == null ? null : List.copyOf(pointLabels);
    }

    public Series(String label, List<Double> x, List<Double> y, List<String> pointLabels) {
      this(label, x, y, pointLabels, null);
    }

    public Series(String label, List<Double> x, List<Double> y) {
      this(label, x, y, null);
    }

    /** The style to draw this series with when it is the {@code position}-th of its chart. */
    Style styleAt(int position) {
      return style != null ? style : Style.of(colour(position));
    }
  }

  /**
   * One entry of a legend: its label and a swatch, a short line drawn in {@code style} (its colour, dash and marker)
   * or, when {@code block}, a plain block of the style's colour (a key that stands for a colour only, as a sweep's
   * algorithms, whose lines take each point's style).
   */
  public record LegendEntry(String label, Style style, boolean block) {
    /** An entry whose swatch is a line in {@code style}. */
    public LegendEntry(String label, Style style) {
      this(label, style, false);
    }

    /** An entry whose swatch is a block of {@code colour}. */
    public static LegendEntry colour(String label, String colour) {
      return new LegendEntry(label, Style.of(colour), true);
    }
  }

  private LineChart() {}

  /** The colour of the {@code index}-th series. */
  public static String colour(int index) {
    return COLOURS.get(Math.floorMod(index, COLOURS.size()));
  }

  /** Writes the chart into {@code out} as one {@code <svg>} element, a legend entry per series. */
  public static void render(Markup out, String title, Axis x, Axis y, List<Series> series) {
    render(out, title, null, x, y, series, legendOf(series));
  }

  /**
   * Writes the chart into {@code out} as one {@code <svg>} element with {@code legend} below the plot (e.g. a
   * sweep's: a colour per algorithm and a line style per point, rather than an entry per line); {@code description}
   * (may be null) becomes the element's {@code <desc>}, after its {@code <title>}.
   */
  public static void render(Markup out, String title, String description, Axis x, Axis y, List<Series> series,
                            List<LegendEntry> legend) {
    int xLabelDepth = x.kind() == Axis.Kind.CATEGORY ? categoryLabelDepth(x) : 18;
    int plotWidth = WIDTH - LEFT - 20;
    int plotHeight = HEIGHT - TOP - 60;
    double legendTop = TOP + plotHeight + xLabelDepth + 44;
    int height = (int) Math.ceil(legendTop + legendHeight(legend, plotWidth));

    out.start("svg", "xmlns", "http://www.w3.org/2000/svg", "class", "chart", "viewBox",
        "0 0 " + WIDTH + " " + height, "width", Integer.toString(WIDTH), "height", Integer.toString(height),
        "role", "img");
    out.element("title", title);
    if (description != null) out.element("desc", description);
    out.element("text", title, "x", Markup.num(WIDTH / 2.0), "y", "20", "class", "chart-title",
        "text-anchor", "middle");
    Frame frame = new Frame(LEFT, TOP, plotWidth, plotHeight, x, y);
    frame.axes(out, xLabelDepth);
    for (int i = 0; i < series.size(); i++) {
      line(out, frame, series.get(i), series.get(i).styleAt(i));
    }
    legend(out, legend, LEFT, legendTop, plotWidth);
    out.end("svg");
  }

  /**
   * The chart as a standalone SVG file (an XML declaration, then the {@code <svg>} element of
   * {@link #render(Markup, String, String, Axis, Axis, List, List)}: its {@code <title>} and {@code <desc>} first,
   * then the report's chart styles inline): every
   * letter is a {@code <text>} element, so the file is small, searchable and readable by screen readers.
   */
  public static String standalone(String title, String description, Axis x, Axis y, List<Series> series,
                                  List<LegendEntry> legend) {
    Markup m = new Markup();
    render(m, title, description, x, y, series, legend);
    String svg = m.toString();
    // After the title and description, which stay the first children (a screen reader's name for the image).
    int end = svg.indexOf(description != null ? "</desc>" : "</title>");
    end = svg.indexOf('>', end) + 1;
    String style = "\n<style>\n" + HtmlReport.CHART_CSS + "</style>\n";
    return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n" + svg.substring(0, end) + style + svg.substring(end)
        + "\n";
  }

  /** A legend entry per series, in order, each in the style it is drawn with. */
  public static List<LegendEntry> legendOf(List<Series> series) {
    List<LegendEntry> entries = new ArrayList<>();
    for (int i = 0; i < series.size(); i++) {
      entries.add(new LegendEntry(series.get(i).label(), series.get(i).styleAt(i)));
    }
    return entries;
  }

  /** The plot area and its axes, shared with {@link BoxPlot}. */
  record Frame(double left, double top, double width, double height, Axis x, Axis y) {

    double px(double value) {
      return left + x.fraction(value) * width;
    }

    double py(double value) {
      return top + height - y.fraction(value) * height;
    }

    /** Grid lines, axis lines, tick labels and axis titles. */
    void axes(Markup out, int xLabelDepth) {
      out.start("g", "class", "grid");
      for (Axis.Tick t : y.ticks()) {
        double yy = py(t.value());
        out.empty("line", "x1", Markup.num(left), "y1", Markup.num(yy), "x2", Markup.num(left + width), "y2",
            Markup.num(yy));
      }
      if (x.kind() != Axis.Kind.CATEGORY) {
        for (Axis.Tick t : x.ticks()) {
          double xx = px(t.value());
          out.empty("line", "x1", Markup.num(xx), "y1", Markup.num(top), "x2", Markup.num(xx), "y2",
              Markup.num(top + height));
        }
      }
      out.end("g");
      out.empty("rect", "class", "frame", "x", Markup.num(left), "y", Markup.num(top), "width", Markup.num(width),
          "height", Markup.num(height));
      out.start("g", "class", "ticks");
      for (Axis.Tick t : y.ticks()) {
        out.element("text", t.label(), "x", Markup.num(left - 6), "y", Markup.num(py(t.value()) + 4),
            "text-anchor", "end");
      }
      for (Axis.Tick t : x.ticks()) {
        double xx = px(t.value());
        double yy = top + height + 16;
        if (x.kind() == Axis.Kind.CATEGORY) {
          String label = shorten(t.label(), 28);
          out.start("text", "x", Markup.num(xx), "y", Markup.num(yy), "text-anchor", "end", "transform",
              "rotate(-30 " + Markup.num(xx) + " " + Markup.num(yy) + ")");
          if (!label.equals(t.label())) out.element("title", t.label());
          out.text(label).end("text");
        } else {
          out.element("text", t.label(), "x", Markup.num(xx), "y", Markup.num(yy), "text-anchor", "middle");
        }
      }
      out.end("g");
      out.element("text", x.title(), "x", Markup.num(left + width / 2), "y",
          Markup.num(top + height + xLabelDepth + 22), "class", "axis-title", "text-anchor", "middle");
      double midY = top + height / 2;
      out.element("text", y.title(), "x", "16", "y", Markup.num(midY), "class", "axis-title", "text-anchor",
          "middle", "transform", "rotate(-90 16 " + Markup.num(midY) + ")");
    }
  }

  private static void line(Markup out, Frame frame, Series s, Style style) {
    List<double[]> points = new ArrayList<>();
    List<String> tips = new ArrayList<>();
    for (int i = 0; i < s.x().size(); i++) {
      double xv = s.x().get(i);
      double yv = s.y().get(i);
      if (!frame.x().accepts(xv) || !frame.y().accepts(yv)) continue;
      points.add(new double[] {frame.px(xv), frame.py(yv)});
      String where = s.pointLabels() != null ? s.pointLabels().get(i) : Formats.significant(xv, 4);
      tips.add(s.label() + ": " + where + " → " + Formats.significant(yv, 4));
    }
    out.start("g", "class", "series", "stroke", style.colour(), "fill", style.colour());
    if (style.joined() && points.size() > 1) {
      StringBuilder d = new StringBuilder();
      for (int i = 0; i < points.size(); i++) {
        d.append(i == 0 ? "M" : " L").append(Markup.num(points.get(i)[0])).append(' ')
            .append(Markup.num(points.get(i)[1]));
      }
      out.empty("path", "d", d.toString(), "fill", "none", "stroke-width", "2", "stroke-dasharray", style.dash());
    }
    for (int i = 0; i < points.size(); i++) {
      mark(out, style.marker(), points.get(i)[0], points.get(i)[1], tips.get(i));
    }
    out.end("g");
  }

  /** A point's mark centred on ({@code cx}, {@code cy}), in its group's colour, with {@code tip} (may be null). */
  static void mark(Markup out, Marker marker, double cx, double cy, String tip) {
    String x = Markup.num(cx);
    String y = Markup.num(cy);
    switch (marker) {
      case CIRCLE -> out.start("circle", "cx", x, "cy", y, "r", "3.5");
      case SQUARE -> out.start("rect", "x", Markup.num(cx - 3.5), "y", Markup.num(cy - 3.5), "width", "7",
          "height", "7");
      case TRIANGLE -> out.start("path", "d", "M" + x + " " + Markup.num(cy - 4.5) + " L" + Markup.num(cx + 4.5) + " "
          + Markup.num(cy + 3.5) + " L" + Markup.num(cx - 4.5) + " " + Markup.num(cy + 3.5) + " Z");
      case DIAMOND -> out.start("path", "d", "M" + x + " " + Markup.num(cy - 5) + " L" + Markup.num(cx + 5) + " " + y
          + " L" + x + " " + Markup.num(cy + 5) + " L" + Markup.num(cx - 5) + " " + y + " Z");
      case CROSS -> out.start("path", "d", "M" + Markup.num(cx - 5) + " " + Markup.num(cy - 5) + " L"
          + Markup.num(cx + 5) + " " + Markup.num(cy + 5) + " M" + Markup.num(cx - 5) + " " + Markup.num(cy + 5)
          + " L" + Markup.num(cx + 5) + " " + Markup.num(cy - 5), "fill", "none", "stroke-width", "2");
    }
    if (tip != null) out.element("title", tip);
    out.end(switch (marker) {
      case CIRCLE -> "circle";
      case SQUARE -> "rect";
      default -> "path";
    });
  }

  /**
   * The legend below the plot, outside it: each entry a swatch in its style and its label, laid out in columns as
   * wide as the widest entry (as many as fit in {@code width}), row by row; a label too long for the whole width is
   * shortened, in full in its tooltip.
   */
  static void legend(Markup out, List<LegendEntry> entries, double left, double top, double width) {
    out.start("g", "class", "legend");
    double column = legendColumnWidth(entries, width);
    int columns = Math.max(1, (int) Math.floor(width / column));
    for (int i = 0; i < entries.size(); i++) {
      LegendEntry e = entries.get(i);
      double x = left + (i % columns) * column;
      double y = top + (i / columns) * LEGEND_ROW;
      String colour = e.style().colour();
      out.start("g", "stroke", colour, "fill", colour);
      if (e.block()) {
        out.empty("rect", "x", Markup.num(x + 4), "y", Markup.num(y - 9), "width", "14", "height", "10");
      } else if (e.style().joined()) {
        out.empty("line", "x1", Markup.num(x), "y1", Markup.num(y - 4), "x2", Markup.num(x + SWATCH_PX), "y2",
            Markup.num(y - 4), "stroke-width", "2", "stroke-dasharray", e.style().dash());
      }
      if (!e.block()) mark(out, e.style().marker(), x + SWATCH_PX / 2.0, y - 4, null);
      out.end("g");
      String shown = shorten(e.label(), maxLegendChars(width));
      out.start("text", "x", Markup.num(x + SWATCH_PX + 6), "y", Markup.num(y));
      if (!shown.equals(e.label())) out.element("title", e.label());
      out.text(shown).end("text");
    }
    out.end("g");
  }

  /** The height the legend of {@code entries} takes in {@code width}. */
  static double legendHeight(List<LegendEntry> entries, double width) {
    if (entries.isEmpty()) return 0;
    int columns = Math.max(1, (int) Math.floor(width / legendColumnWidth(entries, width)));
    return Math.ceil(entries.size() / (double) columns) * LEGEND_ROW;
  }

  private static double legendColumnWidth(List<LegendEntry> entries, double width) {
    int longest = entries.stream().mapToInt(e -> Math.min(e.label().length(), maxLegendChars(width))).max()
        .orElse(0);
    return Math.min(width, SWATCH_PX + 6 + longest * CHAR_PX + 16);
  }

  private static int maxLegendChars(double width) {
    return (int) Math.floor((width - SWATCH_PX - 6) / CHAR_PX);
  }

  /** {@code text} cut to {@code max} characters with an ellipsis. */
  static String shorten(String text, int max) {
    return text.length() <= max ? text : text.substring(0, max - 1) + "…";
  }

  private static int categoryLabelDepth(Axis x) {
    int longest = x.ticks().stream().mapToInt(t -> Math.min(28, t.label().length())).max().orElse(0);
    // Labels are rotated by 30 degrees: their vertical extent is about half their length.
    return 18 + (int) Math.ceil(longest * CHAR_PX * 0.5);
  }
}
