package io.fabemu.app.report;

import java.util.List;
import java.util.Locale;
import java.util.function.DoubleFunction;

/**
 * An inline SVG heat map of a square or rectangular matrix, e.g. per-link figures of a fabric laid out from
 * (rows) x to (columns): a cell per value coloured from pale yellow (0) through orange to dark red (the largest
 * value), an outlined grey cell for a value of exactly 0, nothing where there is no value (NaN), a tooltip per cell,
 * and a colour bar with the range.
 *
 * <p>Contract: a pure function of its arguments; {@code values} has one row per row label and one column per column
 * label; {@code tooltips} (same shape, may be null) gives each cell's tooltip. The colour scale is linear from 0 to
 * the largest value (all cells pale when every value is 0).
 */
public final class HeatMap {

  /** The colour ramp's stops, from 0 to the largest value. */
  private static final int[][] RAMP = {{0xff, 0xf7, 0xbc}, {0xfe, 0xc4, 0x4f}, {0xf0, 0x3b, 0x20}, {0x80, 0x00, 0x26}};
  private static final int CHAR_PX = 7;

  private HeatMap() {}

  /**
   * Writes the heat map into {@code out}; {@code legendFormat} writes the colour bar's end values (e.g. as a
   * percentage or in bytes).
   */
  public static void render(Markup out, String title, List<String> rowLabels, List<String> columnLabels,
                            double[][] values, String[][] tooltips, DoubleFunction<String> legendFormat) {
    if (values.length != rowLabels.size()) throw new IllegalArgumentException("one row of values per row label");
    int columns = columnLabels.size();
    for (double[] row : values) {
      if (row.length != columns) throw new IllegalArgumentException("one value per column label in every row");
    }
    int cell = Math.max(8, Math.min(26, 620 / Math.max(1, Math.max(columns, rowLabels.size()))));
    int rowLabelWidth = 12 + CHAR_PX * rowLabels.stream().mapToInt(String::length).max().orElse(0);
    int columnLabelHeight = 12 + CHAR_PX * columnLabels.stream().mapToInt(String::length).max().orElse(0);
    int left = rowLabelWidth;
    int top = 30 + columnLabelHeight;
    int width = Math.max(360, left + columns * cell + 150);
    int height = top + rowLabels.size() * cell + 20;
    double maxValue = 0;
    for (double[] row : values) {
      for (double v : row) {
        if (!Double.isNaN(v)) maxValue = Math.max(maxValue, v);
      }
    }
    int fontPx = Math.min(12, Math.max(8, cell - 4));

    out.start("svg", "xmlns", "http://www.w3.org/2000/svg", "class", "chart heatmap", "viewBox",
        "0 0 " + width + " " + height, "width", Integer.toString(width), "height", Integer.toString(height),
        "role", "img");
    out.element("title", title);
    out.element("text", title, "x", "4", "y", "18", "class", "chart-title");
    out.start("g", "class", "labels", "font-size", Integer.toString(fontPx));
    for (int r = 0; r < rowLabels.size(); r++) {
      out.element("text", rowLabels.get(r), "x", Integer.toString(left - 4), "y",
          Markup.num(top + r * cell + cell / 2.0 + fontPx / 2.5), "text-anchor", "end");
    }
    for (int c = 0; c < columns; c++) {
      double x = left + c * cell + cell / 2.0 + fontPx / 2.5;
      double y = top - 4;
      out.element("text", columnLabels.get(c), "x", Markup.num(x), "y", Markup.num(y), "transform",
          "rotate(-90 " + Markup.num(x) + " " + Markup.num(y) + ")");
    }
    out.end("g");
    out.start("g", "class", "cells");
    for (int r = 0; r < rowLabels.size(); r++) {
      for (int c = 0; c < columns; c++) {
        double v = values[r][c];
        if (Double.isNaN(v)) continue;
        boolean zero = v == 0;
        out.start("rect", "x", Integer.toString(left + c * cell), "y", Integer.toString(top + r * cell), "width",
            Integer.toString(cell - 1), "height", Integer.toString(cell - 1), "fill",
            zero ? "#eeeeee" : colour(maxValue > 0 ? v / maxValue : 0), "stroke", zero ? "#bbbbbb" : null);
        String tip = tooltips == null ? null : tooltips[r][c];
        out.element("title", tip != null ? tip : rowLabels.get(r) + " → " + columnLabels.get(c) + ": "
            + Formats.significant(v, 4));
        out.end("rect");
      }
    }
    out.end("g");
    colourBar(out, left + columns * cell + 30, top, Math.max(60, Math.min(200, rowLabels.size() * cell)), maxValue,
        legendFormat);
    out.end("svg");
  }

  /** The colour of a value at {@code share} (0 to 1) of the largest, as {@code #rrggbb}. */
  static String colour(double share) {
    double s = Math.max(0, Math.min(1, share)) * (RAMP.length - 1);
    int i = Math.min(RAMP.length - 2, (int) Math.floor(s));
    double t = s - i;
    int[] rgb = new int[3];
    for (int k = 0; k < 3; k++) {
      rgb[k] = (int) Math.round(RAMP[i][k] + t * (RAMP[i + 1][k] - RAMP[i][k]));
    }
    return String.format(Locale.ROOT, "#%02x%02x%02x", rgb[0], rgb[1], rgb[2]);
  }

  private static void colourBar(Markup out, int x, int y, int height, double maxValue,
                                DoubleFunction<String> format) {
    int steps = 20;
    out.start("g", "class", "colour-bar");
    for (int i = 0; i < steps; i++) {
      double share = 1 - i / (double) (steps - 1);
      out.empty("rect", "x", Integer.toString(x), "y", Markup.num(y + i * height / (double) steps), "width", "14",
          "height", Markup.num(height / (double) steps + 0.5), "fill", colour(share));
    }
    out.element("text", format.apply(maxValue), "x", Integer.toString(x + 20), "y", Integer.toString(y + 10));
    out.element("text", format.apply(0), "x", Integer.toString(x + 20), "y", Integer.toString(y + height));
    out.end("g");
  }
}
