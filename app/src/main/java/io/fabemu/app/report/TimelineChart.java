package io.fabemu.app.report;

import java.util.ArrayList;
import java.util.List;

/**
 * An inline SVG timeline: a title, a time axis ({@link Axis}, with grid lines and labelled ticks), one horizontal
 * lane per subject (e.g. a fault target, labelled on the left), bars over intervals of a lane (e.g. while a link was
 * down) and markers at instants of a lane, each kind of marker with its own shape and colour, and a legend below.
 * Every bar and marker carries a tooltip ({@code <title>}) with its figures.
 *
 * <p>Contract: a pure function of its arguments (fixed width {@value #WIDTH}, a height that grows with the lanes and
 * the legend, scaled by CSS), drawn through {@link Markup} like {@link LineChart}, whose plot frame it shares. The
 * first lane is at the top. Each lane is one {@code <g class="lane">} holding its bars ({@code <rect
 * class="interval">}) and then its markers ({@code <path class="marker" data-kind="LABEL">}); a bar or marker outside
 * the axis is clamped to its ends. The legend lists the bar (when there is one) and each kind of marker that is
 * drawn, in the order of {@code kinds}.
 */
public final class TimelineChart {

  static final int WIDTH = 860;
  /** Height of one lane. */
  static final int LANE_PX = 28;
  /** The colour of the bars. */
  static final String BAR_COLOUR = "#f4a582";

  private static final int TOP = 36;
  private static final int CHAR_PX = 7;
  private static final int MAX_LANE_CHARS = 24;
  private static final int LEGEND_ROW = 18;
  private static final double MARKER_RADIUS = 5;

  /** How a marker is drawn. */
  public enum Shape { CIRCLE, SQUARE, DIAMOND, TRIANGLE_UP, TRIANGLE_DOWN, CROSS, PLUS }

  /** A kind of marker: its legend label, shape and colour. */
  public record MarkerKind(String label, Shape shape, String colour) {}

  /** A bar on lane {@code lane} from {@code from} to {@code to} (axis values), with its tooltip. */
  public record Bar(int lane, double from, double to, String tooltip) {}

  /** A marker of {@code kind} on lane {@code lane} at {@code at} (an axis value), with its tooltip. */
  public record Marker(int lane, double at, MarkerKind kind, String tooltip) {}

  private TimelineChart() {}

  /**
   * Writes the chart into {@code out} as one {@code <svg>} element.
   *
   * @param lanes    the lanes' labels, top to bottom (a long label is shortened; its bars and markers say it whole)
   * @param barLabel the bars' legend label
   * @param kinds    the kinds of marker, in legend order (those without a marker are left out of the legend)
   */
  public static void render(Markup out, String title, Axis time, List<String> lanes, List<Bar> bars,
                            String barLabel, List<Marker> markers, List<MarkerKind> kinds) {
    int longest = lanes.stream().mapToInt(l -> Math.min(MAX_LANE_CHARS, l.length())).max().orElse(0);
    double left = Math.max(72, 34 + longest * CHAR_PX);
    double plotWidth = WIDTH - left - 20;
    double plotHeight = Math.max(1, lanes.size()) * LANE_PX;
    // The category axis puts its first label at the bottom: reversed, the first lane is on top.
    List<String> shown = new ArrayList<>();
    for (int i = lanes.size() - 1; i >= 0; i--) shown.add(LineChart.shorten(lanes.get(i), MAX_LANE_CHARS));
    Axis laneAxis = Axis.categories("", shown);
    List<Entry> legend = legend(bars, barLabel, markers, kinds);
    double legendTop = TOP + plotHeight + 18 + 36;
    int height = (int) Math.ceil(legendTop + legendHeight(legend, plotWidth));

    out.start("svg", "xmlns", "http://www.w3.org/2000/svg", "class", "chart timeline", "viewBox",
        "0 0 " + WIDTH + " " + height, "width", Integer.toString(WIDTH), "height", Integer.toString(height),
        "role", "img");
    out.element("title", title);
    out.element("text", title, "x", Markup.num(WIDTH / 2.0), "y", "20", "class", "chart-title",
        "text-anchor", "middle");
    LineChart.Frame frame = new LineChart.Frame(left, TOP, plotWidth, plotHeight, time, laneAxis);
    frame.axes(out, 18);
    for (int lane = 0; lane < lanes.size(); lane++) {
      double y = frame.py(lanes.size() - 1 - lane);
      out.start("g", "class", "lane", "data-lane", lanes.get(lane));
      for (Bar b : bars) {
        if (b.lane() != lane) continue;
        double x1 = x(frame, b.from());
        double x2 = x(frame, b.to());
        out.start("rect", "class", "interval", "x", Markup.num(Math.min(x1, x2)), "y", Markup.num(y - 8), "width",
            Markup.num(Math.max(1, Math.abs(x2 - x1))), "height", "16", "fill", BAR_COLOUR, "fill-opacity", "0.8");
        out.element("title", b.tooltip()).end("rect");
      }
      for (Marker m : markers) {
        if (m.lane() != lane) continue;
        marker(out, m.kind(), x(frame, m.at()), y, "marker", m.tooltip());
      }
      out.end("g");
    }
    drawLegend(out, legend, left, legendTop, plotWidth);
    out.end("svg");
  }

  /** Where {@code value} falls on the time axis, clamped to the plot. */
  private static double x(LineChart.Frame frame, double value) {
    double clamped = Math.max(frame.x().min(), Math.min(frame.x().max(), value));
    return frame.px(clamped);
  }

  private static void marker(Markup out, MarkerKind kind, double x, double y, String cssClass, String tooltip) {
    boolean cross = kind.shape() == Shape.CROSS || kind.shape() == Shape.PLUS;
    out.start("path", "class", cssClass, "data-kind", kind.label(), "d", path(kind.shape(), x, y),
        "fill", cross ? "none" : kind.colour(), "stroke", cross ? kind.colour() : "#ffffff",
        "stroke-width", cross ? "2" : "0.8");
    if (tooltip != null) out.element("title", tooltip);
    out.end("path");
  }

  /** The outline of {@code shape} centred on ({@code x}, {@code y}). */
  static String path(Shape shape, double x, double y) {
    double r = MARKER_RADIUS;
    return switch (shape) {
      case CIRCLE -> "M" + Markup.num(x - r) + " " + Markup.num(y) + " a" + Markup.num(r) + " " + Markup.num(r)
          + " 0 1 0 " + Markup.num(2 * r) + " 0 a" + Markup.num(r) + " " + Markup.num(r) + " 0 1 0 "
          + Markup.num(-2 * r) + " 0 Z";
      case SQUARE -> "M" + Markup.num(x - r * 0.85) + " " + Markup.num(y - r * 0.85) + " h" + Markup.num(1.7 * r)
          + " v" + Markup.num(1.7 * r) + " h" + Markup.num(-1.7 * r) + " Z";
      case DIAMOND -> "M" + Markup.num(x) + " " + Markup.num(y - r) + " L" + Markup.num(x + r) + " " + Markup.num(y)
          + " L" + Markup.num(x) + " " + Markup.num(y + r) + " L" + Markup.num(x - r) + " " + Markup.num(y) + " Z";
      case TRIANGLE_UP -> "M" + Markup.num(x) + " " + Markup.num(y - r) + " L" + Markup.num(x + r) + " "
          + Markup.num(y + r) + " L" + Markup.num(x - r) + " " + Markup.num(y + r) + " Z";
      case TRIANGLE_DOWN -> "M" + Markup.num(x) + " " + Markup.num(y + r) + " L" + Markup.num(x + r) + " "
          + Markup.num(y - r) + " L" + Markup.num(x - r) + " " + Markup.num(y - r) + " Z";
      case CROSS -> "M" + Markup.num(x - r) + " " + Markup.num(y - r) + " L" + Markup.num(x + r) + " "
          + Markup.num(y + r) + " M" + Markup.num(x + r) + " " + Markup.num(y - r) + " L" + Markup.num(x - r) + " "
          + Markup.num(y + r);
      case PLUS -> "M" + Markup.num(x - r) + " " + Markup.num(y) + " L" + Markup.num(x + r) + " " + Markup.num(y)
          + " M" + Markup.num(x) + " " + Markup.num(y - r) + " L" + Markup.num(x) + " " + Markup.num(y + r);
    };
  }

  /** One legend entry: the bar (kind null) or a kind of marker. */
  private record Entry(String label, MarkerKind kind) {}

  private static List<Entry> legend(List<Bar> bars, String barLabel, List<Marker> markers, List<MarkerKind> kinds) {
    List<Entry> entries = new ArrayList<>();
    if (!bars.isEmpty()) entries.add(new Entry(barLabel, null));
    for (MarkerKind k : kinds) {
      if (markers.stream().anyMatch(m -> m.kind().equals(k))) entries.add(new Entry(k.label(), k));
    }
    return entries;
  }

  private static void drawLegend(Markup out, List<Entry> entries, double left, double top, double width) {
    out.start("g", "class", "legend");
    double x = 0;
    double y = top;
    for (Entry e : entries) {
      double entry = entryWidth(e);
      if (x > 0 && x + entry > width) {
        x = 0;
        y += LEGEND_ROW;
      }
      if (e.kind() == null) {
        out.empty("rect", "x", Markup.num(left + x), "y", Markup.num(y - 9), "width", "14", "height", "10", "fill",
            BAR_COLOUR);
      } else {
        marker(out, e.kind(), left + x + 7, y - 4, "legend-marker", null);
      }
      out.element("text", e.label(), "x", Markup.num(left + x + 20), "y", Markup.num(y));
      x += entry;
    }
    out.end("g");
  }

  private static double legendHeight(List<Entry> entries, double width) {
    if (entries.isEmpty()) return 0;
    int rows = 1;
    double x = 0;
    for (Entry e : entries) {
      double entry = entryWidth(e);
      if (x > 0 && x + entry > width) {
        rows++;
        x = 0;
      }
      x += entry;
    }
    return rows * LEGEND_ROW;
  }

  private static double entryWidth(Entry e) {
    return 36 + e.label().length() * CHAR_PX;
  }
}
