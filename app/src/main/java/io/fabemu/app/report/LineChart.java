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
 * less on a log axis) is left out of its line, and a series without a drawable point stays in the legend. Colours come
 * from {@link #COLOURS} in series order.
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
  private static final int MAX_LEGEND_CHARS = 48;
  private static final int LEGEND_ROW = 18;

  /**
   * One line: its legend label and its points; {@code pointLabels} (may be null) name points in tooltips;
   * {@code colourIndex} picks its colour ({@link #colour}), so a series keeps its colour in every chart of a report
   * (-1: by its place in the chart).
   */
  public record Series(String label, List<Double> x, List<Double> y, List<String> pointLabels, int colourIndex) {
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
      this(label, x, y, pointLabels, -1);
    }

    public Series(String label, List<Double> x, List<Double> y) {
      this(label, x, y, null);
    }

    /** The colour index to use for this series when it is the {@code position}-th of its chart. */
    int colourAt(int position) {
      return colourIndex >= 0 ? colourIndex : position;
    }
  }

  private LineChart() {}

  /** The colour of the {@code index}-th series. */
  public static String colour(int index) {
    return COLOURS.get(Math.floorMod(index, COLOURS.size()));
  }

  /** Writes the chart into {@code out} as one {@code <svg>} element. */
  public static void render(Markup out, String title, Axis x, Axis y, List<Series> series) {
    int xLabelDepth = x.kind() == Axis.Kind.CATEGORY ? categoryLabelDepth(x) : 18;
    int plotWidth = WIDTH - LEFT - 20;
    int plotHeight = HEIGHT - TOP - 60;
    List<String> labels = series.stream().map(Series::label).toList();
    List<Integer> colours = new java.util.ArrayList<>();
    for (int i = 0; i < series.size(); i++) colours.add(series.get(i).colourAt(i));
    double legendTop = TOP + plotHeight + xLabelDepth + 36;
    int height = (int) Math.ceil(legendTop + legendHeight(labels, plotWidth));

    out.start("svg", "xmlns", "http://www.w3.org/2000/svg", "class", "chart", "viewBox",
        "0 0 " + WIDTH + " " + height, "width", Integer.toString(WIDTH), "height", Integer.toString(height),
        "role", "img");
    out.element("title", title);
    out.element("text", title, "x", Markup.num(WIDTH / 2.0), "y", "20", "class", "chart-title",
        "text-anchor", "middle");
    Frame frame = new Frame(LEFT, TOP, plotWidth, plotHeight, x, y);
    frame.axes(out, xLabelDepth);
    for (int i = 0; i < series.size(); i++) {
      line(out, frame, series.get(i), colour(colours.get(i)));
    }
    legend(out, labels, colours, LEFT, legendTop, plotWidth);
    out.end("svg");
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

  private static void line(Markup out, Frame frame, Series s, String colour) {
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
    out.start("g", "class", "series", "stroke", colour, "fill", colour);
    if (points.size() > 1) {
      StringBuilder d = new StringBuilder();
      for (int i = 0; i < points.size(); i++) {
        d.append(i == 0 ? "M" : " L").append(Markup.num(points.get(i)[0])).append(' ')
            .append(Markup.num(points.get(i)[1]));
      }
      out.empty("path", "d", d.toString(), "fill", "none", "stroke-width", "2");
    }
    for (int i = 0; i < points.size(); i++) {
      out.start("circle", "cx", Markup.num(points.get(i)[0]), "cy", Markup.num(points.get(i)[1]), "r", "3.5");
      out.element("title", tips.get(i));
      out.end("circle");
    }
    out.end("g");
  }

  /**
   * The legend below the plot: a swatch of the series' colour ({@code colours}, indices for {@link #colour}) and its
   * label, left to right, wrapping at {@code width} (a long label shortened, in full in its tooltip).
   */
  static void legend(Markup out, List<String> labels, List<Integer> colours, double left, double top, double width) {
    out.start("g", "class", "legend");
    double x = 0;
    double y = top;
    for (int i = 0; i < labels.size(); i++) {
      String label = labels.get(i);
      String shown = shorten(label, MAX_LEGEND_CHARS);
      double entry = legendEntryWidth(shown);
      if (x > 0 && x + entry > width) {
        x = 0;
        y += LEGEND_ROW;
      }
      out.empty("rect", "x", Markup.num(left + x), "y", Markup.num(y - 9), "width", "14", "height", "10", "fill",
          colour(colours.get(i)));
      out.start("text", "x", Markup.num(left + x + 20), "y", Markup.num(y));
      if (!shown.equals(label)) out.element("title", label);
      out.text(shown).end("text");
      x += entry;
    }
    out.end("g");
  }

  /** The height the legend of {@code labels} takes when wrapped at {@code width}. */
  static double legendHeight(List<String> labels, double width) {
    if (labels.isEmpty()) return 0;
    int rows = 1;
    double x = 0;
    for (String label : labels) {
      double entry = legendEntryWidth(shorten(label, MAX_LEGEND_CHARS));
      if (x > 0 && x + entry > width) {
        rows++;
        x = 0;
      }
      x += entry;
    }
    return rows * LEGEND_ROW;
  }

  private static double legendEntryWidth(String shown) {
    return 36 + shown.length() * CHAR_PX;
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
