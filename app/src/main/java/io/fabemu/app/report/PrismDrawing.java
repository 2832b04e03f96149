package io.fabemu.app.report;

import io.fabemu.core.topology.PrismSpec;
import io.fabemu.core.topology.Topology;
import java.util.List;
import java.util.Map;
import java.util.function.DoubleFunction;

/**
 * An SVG drawing of a prism with each directed link coloured by a figure of its own (busy share, rings on it): the
 * layers stacked (layer 0 at the bottom), each layer's nodes around an ellipse, the inter-layer links vertical. Every
 * link is drawn once per direction, on the right of its direction of travel, parallel links side by side, so the
 * links {@code u -> v} lie on one side of the pair and {@code v -> u} on the other. A link with a positive figure
 * is coloured on a ramp from light orange (just above 0) to dark red (the largest figure), with a colour bar; a link
 * with figure 0 or none is grey and dashed (unused). Each link and node has a tooltip.
 *
 * <p>Contract: a pure function of its arguments. Links are keyed by {@link #key}(sending host, its port).
 */
public final class PrismDrawing {

  /** The most hosts drawn: beyond it the links are too dense to read, and the heat maps stand in. */
  public static final int MAX_HOSTS = 256;

  /** A link's figure and tooltip. */
  public record LinkValue(double value, String tooltip) {}

  private static final double LINK_GAP_PX = 3.2;
  private static final double NODE_RADIUS_PX = 10;
  private static final double RADIUS_X_PX = 150;
  private static final double RADIUS_Y_PX = 36;
  private static final double LAYER_GAP_PX = 2 * RADIUS_Y_PX + 46;
  private static final int LEFT_PX = 80;
  private static final int TOP_PX = 60;
  private static final int LEGEND_WIDTH_PX = 150;
  private static final String UNUSED_COLOUR = "#b8b8b8";

  private PrismDrawing() {}

  /** The key of the link leaving host {@code from} by port {@code port}. */
  public static long key(int from, int port) {
    return ((long) from << 32) | port;
  }

  /** Whether a prism of {@code prism}'s shape is drawn ({@link #MAX_HOSTS}). */
  public static boolean drawable(PrismSpec prism) {
    return prism.hosts() <= MAX_HOSTS;
  }

  /**
   * Writes the drawing into {@code out}.
   *
   * @param values       per link ({@link #key}) its figure; a link missing or at 0 is drawn unused
   * @param legend       what the figures are (the colour bar's title, e.g. "busy share")
   * @param legendFormat writes the colour bar's end values
   */
  public static void render(Markup out, String title, PrismSpec prism, Topology topology, Map<Long, LinkValue> values,
                            String legend, DoubleFunction<String> legendFormat) {
    int n = prism.nodesPerLayer();
    int layers = prism.layers();
    double width = LEFT_PX + 2 * RADIUS_X_PX + 60 + LEGEND_WIDTH_PX;
    double height = TOP_PX + (layers - 1) * LAYER_GAP_PX + 2 * RADIUS_Y_PX + 40;
    double max = 0;
    for (LinkValue v : values.values()) max = Math.max(max, v.value());
    out.start("svg", "xmlns", "http://www.w3.org/2000/svg", "class", "chart prism", "viewBox",
        "0 0 " + Markup.num(width) + " " + Markup.num(height), "width", Markup.num(width), "height",
        Markup.num(height), "role", "img", "font-family", "sans-serif", "font-size", "11");
    out.element("title", title);
    out.element("text", title, "x", "4", "y", "18", "class", "chart-title", "font-size", "13");
    out.element("text", "each link once per direction, on the right of its travel; parallel links side by side",
        "x", "4", "y", "34", "fill", "#555555");
    out.newline();
    for (int layer = 0; layer < layers; layer++) {
      out.element("text", "layer " + layer, "x", "4", "y", Markup.num(layerY(prism, layer) + 4), "fill", "#555555");
    }
    out.start("g", "class", "links", "stroke-width", "2.2", "stroke-linecap", "butt");
    for (int from = 0; from < prism.hosts(); from++) {
      List<Topology.Link> ports = topology.ports(from);
      for (int port = 0; port < ports.size(); port++) {
        int to = ports.get(port).to();
        List<Integer> parallel = LinkTable.portsToward(topology, from, to);
        line(out, prism, from, to, parallel.indexOf(port), parallel.size(), values.get(key(from, port)), max,
            topology.vertexName(from) + " → " + topology.vertexName(to) + ", link " + (parallel.indexOf(port) + 1)
            + " of " + parallel.size());
      }
    }
    out.end("g").newline();
    out.start("g", "class", "nodes");
    for (int host = 0; host < prism.hosts(); host++) {
      double[] p = point(prism, host / n, host % n);
      out.start("g");
      out.element("title", topology.vertexName(host) + ": layer " + host / n + ", position " + host % n);
      out.empty("circle", "cx", Markup.num(p[0]), "cy", Markup.num(p[1]), "r", Markup.num(NODE_RADIUS_PX), "fill",
          "#ffffff", "stroke", "#333333", "stroke-width", "1.2");
      out.element("text", Integer.toString(host), "x", Markup.num(p[0]), "y", Markup.num(p[1] + 3.5),
          "text-anchor", "middle", "font-size", "9");
      out.end("g");
    }
    out.end("g").newline();
    legend(out, width - LEGEND_WIDTH_PX + 20, TOP_PX, max, legend, legendFormat);
    out.end("svg");
  }

  /** The drawing as a standalone SVG file. */
  public static String standalone(String title, PrismSpec prism, Topology topology, Map<Long, LinkValue> values,
                                  String legend, DoubleFunction<String> legendFormat) {
    Markup out = new Markup();
    out.raw("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    render(out, title, prism, topology, values, legend, legendFormat);
    return out.newline().toString();
  }

  /** The colour of a positive figure at {@code share} (0 to 1) of the largest. */
  static String colour(double share) {
    // The ramp's palest quarter is left out: it would not show against the white page.
    return HeatMap.colour(0.25 + 0.75 * Math.max(0, Math.min(1, share)));
  }

  private static void line(Markup out, PrismSpec prism, int from, int to, int index, int count, LinkValue value,
                           double max, String name) {
    int n = prism.nodesPerLayer();
    double[] a = point(prism, from / n, from % n);
    double[] b = point(prism, to / n, to % n);
    double dx = b[0] - a[0];
    double dy = b[1] - a[1];
    double length = Math.hypot(dx, dy);
    if (length == 0) return;
    double ux = dx / length;
    double uy = dy / length;
    // Right of the direction of travel on screen (y grows downwards): (-uy, ux).
    double offset = (index + 0.5) * LINK_GAP_PX;
    double ox = -uy * offset;
    double oy = ux * offset;
    double trim = NODE_RADIUS_PX + 1;
    boolean used = value != null && value.value() > 0;
    out.start("line", "x1", Markup.num(a[0] + ux * trim + ox), "y1", Markup.num(a[1] + uy * trim + oy), "x2",
        Markup.num(b[0] - ux * trim + ox), "y2", Markup.num(b[1] - uy * trim + oy), "stroke",
        used ? colour(max > 0 ? value.value() / max : 0) : UNUSED_COLOUR, "stroke-dasharray", used ? null : "4 3",
        "class", used ? "used" : "unused");
    out.element("title", name + ": " + (value == null ? "unused" : value.tooltip()));
    out.end("line");
  }

  /** The centre of the node at {@code position} of {@code layer}. */
  static double[] point(PrismSpec prism, int layer, int position) {
    double cx = LEFT_PX + RADIUS_X_PX + 20;
    double cy = layerY(prism, layer);
    double t = angle(position, prism.nodesPerLayer());
    return new double[] {cx + RADIUS_X_PX * Math.cos(t), cy + RADIUS_Y_PX * Math.sin(t)};
  }

  /** The centre of {@code layer}'s ellipse: layer 0 at the bottom. */
  private static double layerY(PrismSpec prism, int layer) {
    return TOP_PX + RADIUS_Y_PX + (prism.layers() - 1 - layer) * LAYER_GAP_PX;
  }

  /**
   * Position 0 near the front (bottom of the ellipse), the others counter-clockwise. Turned by pi/n for odd n and
   * pi/(2n) for even n, so that no two positions share an x: then the vertical inter-layer links of one edge never
   * run through another edge's nodes (two angles share a cosine when they sum to a multiple of 2 pi, which these
   * offsets make impossible).
   */
  static double angle(int position, int n) {
    double turn = n % 2 == 1 ? Math.PI / n : Math.PI / (2 * n);
    return Math.PI / 2 + 2 * Math.PI * position / n + turn;
  }

  private static void legend(Markup out, double x, double y, double max, String title,
                             DoubleFunction<String> format) {
    int steps = 20;
    double height = 160;
    out.start("g", "class", "colour-bar");
    out.element("text", title, "x", Markup.num(x), "y", Markup.num(y - 8));
    for (int i = 0; i < steps; i++) {
      double share = 1 - i / (double) (steps - 1);
      out.empty("rect", "x", Markup.num(x), "y", Markup.num(y + i * height / steps), "width", "14", "height",
          Markup.num(height / steps + 0.5), "fill", colour(share));
    }
    out.element("text", format.apply(max), "x", Markup.num(x + 20), "y", Markup.num(y + 10));
    out.element("text", "> 0", "x", Markup.num(x + 20), "y", Markup.num(y + height));
    double unusedY = y + height + 24;
    out.empty("line", "x1", Markup.num(x), "y1", Markup.num(unusedY), "x2", Markup.num(x + 24), "y2",
        Markup.num(unusedY), "stroke", UNUSED_COLOUR, "stroke-width", "2.2", "stroke-dasharray", "4 3");
    out.element("text", "unused", "x", Markup.num(x + 30), "y", Markup.num(unusedY + 4));
    out.end("g");
  }
}
