package io.fabemu.core.traffic;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * A traffic sweep's latency-vs-load results as a plain text table in the style of the OSU micro-benchmarks:
 * comment lines start with '#', one row per load point, right-aligned columns. Columns: offered load and accepted
 * throughput (flits/node/cycle, 4 decimals), average latency (cycles, 2 decimals), p99 latency (cycles, whole),
 * average hops (2 decimals) and measured packets that arrived; "-" where a point has no latency sample. The first
 * saturated row is marked at its end, and a last comment line says where the sweep saturated, or that it did not.
 * Locale-independent: the same results always give the same text.
 */
public final class TrafficTable {
  private static final String[] HEADERS = {"Offered", "Accepted", "Avg latency", "P99 latency", "Avg hops", "Packets"};
  private static final String SEPARATOR = "  ";

  private TrafficTable() {}

  /** The table of {@code points} (in sweep order), marking {@code saturation} when there is one. */
  public static String format(List<LoadPoint> points, Optional<Saturation> saturation) {
    if (points == null) throw new IllegalArgumentException("traffic table needs load points, got none");
    if (saturation == null) throw new IllegalArgumentException("traffic table needs a saturation or empty, got null");
    if (saturation.isPresent() && saturation.get().saturatedIndex() >= points.size()) {
      throw new IllegalArgumentException("saturated index must be below the " + points.size()
          + " load points, got " + saturation.get().saturatedIndex());
    }
    List<String[]> rows = new ArrayList<>();
    for (LoadPoint point : points) {
      rows.add(new String[] {
          fixed(point.offeredFlitsPerNodeCycle(), 4), fixed(point.acceptedFlitsPerNodeCycle(), 4),
          fixed(point.averageLatencyCycles(), 2), fixed(point.p99LatencyCycles(), 0), fixed(point.averageHops(), 2),
          Long.toString(point.measuredPacketsArrived())});
    }
    int[] widths = new int[HEADERS.length];
    for (int column = 0; column < HEADERS.length; column++) {
      widths[column] = HEADERS[column].length();
      for (String[] row : rows) widths[column] = Math.max(widths[column], row[column].length());
    }
    StringBuilder text = new StringBuilder();
    text.append("# Synthetic traffic: loads in flits/node/cycle, latencies in cycles from creation to tail ejection\n");
    appendRow(text, "# ", HEADERS, widths);
    text.append('\n');
    for (int i = 0; i < rows.size(); i++) {
      appendRow(text, "  ", rows.get(i), widths);
      if (saturation.isPresent() && saturation.get().saturatedIndex() == i) {
        text.append(SEPARATOR).append("<- saturated (").append(saturation.get().reason().label()).append(')');
      }
      text.append('\n');
    }
    text.append(summary(saturation)).append('\n');
    return text.toString();
  }

  private static String summary(Optional<Saturation> saturation) {
    if (saturation.isEmpty()) return "# no saturation within the sweep";
    Saturation found = saturation.get();
    String where = found.hasStableLoad()
        ? "between " + fixed(found.lastStableLoad(), 4) + " and " + fixed(found.saturatedLoad(), 4)
        : "at or below " + fixed(found.saturatedLoad(), 4);
    return "# saturation " + where + " flits/node/cycle (" + found.reason().label() + ")";
  }

  private static void appendRow(StringBuilder text, String prefix, String[] cells, int[] widths) {
    text.append(prefix);
    for (int column = 0; column < cells.length; column++) {
      if (column > 0) text.append(SEPARATOR);
      text.append(" ".repeat(widths[column] - cells[column].length())).append(cells[column]);
    }
  }

  private static String fixed(double value, int decimals) {
    if (Double.isNaN(value)) return "-";
    return String.format(Locale.ROOT, "%." + decimals + "f", value);
  }
}
