package io.fabemu.app.report;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The cases of a run grouped into the lines a chart draws: one series per (algorithm asked, buffer placement), in
 * workload order, its cases in size order.
 *
 * @param label the legend label: the algorithm asked, then in parentheses the algorithms that ran when they differ
 *              from it ({@code auto (recursive-doubling, ring)}), then {@code , in-place} for in-place buffers
 * @param cases the series' cases, smallest size first
 */
public record CaseSeries(String label, List<CaseFigures> cases) {

  public CaseSeries {
    cases = List.copyOf(cases);
  }

  /** True when the series' algorithm is in-network. */
  public boolean inNetwork() {
    return !cases.isEmpty() && cases.get(0).inNetwork();
  }

  /**
   * The series' name without the algorithms {@code auto} resolved to: the algorithm asked, then {@code , in-place}
   * for in-place buffers. It stays the same across the points of a sweep, where what {@code auto} picks may change.
   */
  public String stableName() {
    if (cases.isEmpty()) return label;
    String asked = cases.get(0).algorithmAsked();
    return CaseFigures.IN_PLACE.equals(buffers()) ? asked + ", in-place" : asked;
  }

  /** The algorithm the series' cases asked for (a config name, e.g. {@code auto}, {@code ring}). */
  public String algorithmAsked() {
    return cases.isEmpty() ? label : cases.get(0).algorithmAsked();
  }

  /**
   * How the series is drawn: in its algorithm's {@link Palette} colour in every chart, dashed for in-place buffers
   * (the same algorithm out of place is solid).
   */
  public LineChart.Style style() {
    LineChart.Style solid = LineChart.Style.ofAlgorithm(algorithmAsked());
    return CaseFigures.IN_PLACE.equals(buffers())
        ? new LineChart.Style(solid.colour(), IN_PLACE_DASH, solid.marker(), true) : solid;
  }

  /** The dash pattern of an in-place series. */
  static final String IN_PLACE_DASH = "6 3";

  /** The buffer placement of the series' cases. */
  public String buffers() {
    return cases.isEmpty() ? CaseFigures.OUT_OF_PLACE : cases.get(0).buffers();
  }

  /** The series of {@code cases}, in order of first appearance. */
  public static List<CaseSeries> of(List<CaseFigures> cases) {
    Map<String, List<CaseFigures>> groups = new LinkedHashMap<>();
    for (CaseFigures c : cases) {
      groups.computeIfAbsent(c.algorithmAsked() + "\u0000" + c.buffers(), k -> new ArrayList<>()).add(c);
    }
    List<CaseSeries> series = new ArrayList<>();
    for (List<CaseFigures> group : groups.values()) {
      List<CaseFigures> sorted = group.stream().sorted(Comparator.comparingLong(CaseFigures::sizeBytes)
          .thenComparingInt(CaseFigures::caseIndex)).toList();
      series.add(new CaseSeries(label(sorted), sorted));
    }
    return series;
  }

  private static String label(List<CaseFigures> cases) {
    CaseFigures first = cases.get(0);
    List<String> ran = cases.stream().map(CaseFigures::algorithm).distinct().toList();
    String label = first.algorithmAsked();
    if (!ran.equals(List.of(first.algorithmAsked()))) {
      label += ran.stream().collect(Collectors.joining(", ", " (", ")"));
    }
    return CaseFigures.IN_PLACE.equals(first.buffers()) ? label + ", in-place" : label;
  }
}
