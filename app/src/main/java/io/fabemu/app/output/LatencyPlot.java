package io.fabemu.app.output;

import io.fabemu.app.report.Axis;
import io.fabemu.app.report.LineChart;
import io.fabemu.app.report.Palette;
import io.fabemu.collectives.WorkloadSpec;
import io.fabemu.core.inc.IncCodes.FailCause;
import io.fabemu.core.time.Units;
import io.fabemu.fabric.result.CaseResult;
import io.fabemu.fabric.result.RunResult;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.IntFunction;
import java.util.stream.Collectors;
import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.markers.SeriesMarkers;

/**
 * The latency-vs-size plot of a run ({@value ResultsWriter#PLOT_SVG_FILE}, {@value ResultsWriter#PLOT_PNG_FILE}):
 * average latency in microseconds (the osu table's {@code Avg Latency(us)}) against the message size in bytes, one
 * series per algorithm of the workload in its {@link Palette} colour. The SVG is drawn by the report's own
 * {@link LineChart} (text as text: XChart's SVG export draws every letter as a path, which made the quickstart's
 * {@code latency.svg} 521 kB instead of 8 kB), the PNG by XChart; the axes below are the PNG's.
 *
 * <p>Axes: the size axis is log2 (a tick per power of two that fits, labelled {@code 4}, {@code 1K}, {@code 1M},
 * ...) when every size is above 0, else linear (a barrier's only size is 0 B); the latency axis is logarithmic when
 * the latencies span more than 10x and are all above 0, else linear.
 *
 * <p>A size where an in-network algorithm fell back to the host algorithm is marked: a cross over its point, in a
 * legend entry of its own per reason ({@code "inc-node: no INC, host algorithm (message-too-large)"}), and the reason
 * after the point in the SVG's {@code <desc>}.
 *
 * <p>Contract: drawing is headless ({@code java.awt.headless} is set to {@code true} unless the JVM was started
 * with a value) and a pure function of the series, title and fonts installed; nothing here touches a file (the
 * caller writes the bytes atomically). A series without points is left out; a plot without any point is still
 * drawn (empty axes).
 */
public final class LatencyPlot {
  static final int WIDTH = 900;
  static final int HEIGHT = 600;
  /** The colour of the crosses over sizes that fell back to the host algorithm. */
  static final String FALLBACK_COLOUR = "#d62728";

  static {
    if (System.getProperty("java.awt.headless") == null) {
      System.setProperty("java.awt.headless", "true");
    }
  }

  /**
   * One line of the plot: its legend label, its points in size order, with, per point, why its in-network case
   * fell back to the host algorithm (the outcome's name in {@code results.json}, e.g. {@code message-too-large}), or
   * {@code ""} when it did not, and the algorithm it was asked to run, whose {@link Palette} colour it is drawn in.
   */
  public record Series(String label, List<Long> sizesBytes, List<Double> latenciesUs, List<String> fallbacks,
                String algorithm) {
    public Series {
      if (sizesBytes.size() != latenciesUs.size() || fallbacks.size() != sizesBytes.size()) {
        throw new IllegalArgumentException("sizes, latencies and fallbacks differ in length");
      }
      sizesBytes = List.copyOf(sizesBytes);
      latenciesUs = List.copyOf(latenciesUs);
      fallbacks = List.copyOf(fallbacks);
    }

    /** A line of the algorithm named by its label. */
    public Series(String label, List<Long> sizesBytes, List<Double> latenciesUs, List<String> fallbacks) {
      this(label, sizesBytes, latenciesUs, fallbacks, label);
    }

    /** A line none of whose points fell back, of the algorithm named by its label. */
    public Series(String label, List<Long> sizesBytes, List<Double> latenciesUs) {
      this(label, sizesBytes, latenciesUs, java.util.Collections.nCopies(sizesBytes.size(), ""));
    }
  }

  /** The drawn plot. */
  public record Images(byte[] svg, byte[] png) {}

  private LatencyPlot() {}

  /** The series of a run, one per workload algorithm, labelled with the algorithm's config name ({@link #label}). */
  public static List<Series> series(RunResult result) {
    WorkloadSpec w = result.scenario().workload();
    return series(result, a -> w.algorithms().get(a).configName());
  }

  /**
   * The series of a run, one per workload algorithm in workload order; {@code askedName} names the
   * {@code a}-th algorithm as the user asked for it (e.g. a command's mode), completed by {@link #label}.
   */
  public static List<Series> series(RunResult result, IntFunction<String> askedName) {
    WorkloadSpec w = result.scenario().workload();
    List<Series> series = new ArrayList<>();
    for (int a = 0; a < w.algorithms().size(); a++) {
      List<CaseResult> cases = ReportFormatter.casesOfAlgorithm(result, a);
      series.add(new Series(label(askedName.apply(a), w.algorithms().get(a).configName(), w.hierarchical(), cases),
          cases.stream().map(CaseResult::sizeBytes).toList(),
          cases.stream().map(c -> c.avgLatencyPs() / Units.PS_PER_US).toList(),
          cases.stream().map(LatencyPlot::fallback).toList(), askedName.apply(a)));
    }
    return series;
  }

  /** Why case {@code c}'s in-network algorithm fell back (its outcome as {@code results.json} names it), or "". */
  static String fallback(CaseResult c) {
    if (c.incOutcome() == null || c.incOutcome() == FailCause.NONE) return "";
    return c.incOutcome().name().toLowerCase(Locale.ROOT).replace('_', '-');
  }

  /**
   * A legend label: {@code asked}, followed by the algorithms the cases ran in parentheses when they are not just
   * {@code workloadName} itself ({@code auto} resolves by size: {@code "auto (recursive-doubling, ring)"},
   * {@code "host (recursive-doubling)"}), and {@code ", hierarchical"} for a hierarchical workload.
   */
  static String label(String asked, String workloadName, boolean hierarchical, List<CaseResult> cases) {
    List<String> ran = cases.stream().map(c -> c.algorithm().configName()).distinct().toList();
    String label = asked;
    if (!ran.isEmpty() && !ran.equals(List.of(workloadName))) {
      label += ran.stream().collect(Collectors.joining(", ", " (", ")"));
    } else if (!asked.equals(workloadName)) {
      label += " (" + workloadName + ")";
    }
    return hierarchical ? label + ", hierarchical" : label;
  }

  /**
   * Draws the plot: the SVG with fabemu's own {@link LineChart} (every letter a {@code <text>} element, the report's
   * styles inline, a {@code <title>} and a {@code <desc>} with the data as text: one line per series,
   * {@code label: SIZE B LATENCY us, ...}), the PNG with XChart, both in the algorithms' {@link Palette} colours.
   */
  public static Images draw(String title, List<Series> series) throws IOException {
    byte[] png = BitmapEncoder.getBitmapBytes(chart(title, series), BitmapEncoder.BitmapFormat.PNG);
    return new Images(svg(title, series).getBytes(StandardCharsets.UTF_8), png);
  }

  /**
   * The SVG document: latency against size as the report draws it (sizes on a log2 axis, linear when a size is 0;
   * latencies on a log axis when they span more than 10x), a line per series, a red cross over each size that fell
   * back to the host algorithm with a legend entry per series and reason.
   */
  static String svg(String title, List<Series> series) {
    List<LineChart.Series> lines = new ArrayList<>();
    List<Double> sizes = new ArrayList<>();
    List<Double> latencies = new ArrayList<>();
    for (Series s : series) {
      List<Double> x = s.sizesBytes().stream().map(Long::doubleValue).toList();
      List<String> names = s.sizesBytes().stream().map(b -> b + " B").toList();
      sizes.addAll(x);
      latencies.addAll(s.latenciesUs());
      lines.add(new LineChart.Series(s.label(), x, s.latenciesUs(), names,
          LineChart.Style.ofAlgorithm(s.algorithm())));
    }
    for (Series s : series) {
      for (String reason : s.fallbacks().stream().filter(f -> !f.isEmpty()).distinct().toList()) {
        List<Double> x = new ArrayList<>();
        List<Double> y = new ArrayList<>();
        List<String> names = new ArrayList<>();
        for (int i = 0; i < s.sizesBytes().size(); i++) {
          if (!s.fallbacks().get(i).equals(reason)) continue;
          x.add((double) s.sizesBytes().get(i));
          y.add(s.latenciesUs().get(i));
          names.add(s.sizesBytes().get(i) + " B");
        }
        lines.add(new LineChart.Series(s.label() + ": no INC, host algorithm (" + reason + ")", x, y, names,
            new LineChart.Style(FALLBACK_COLOUR, null, LineChart.Marker.CROSS, false)));
      }
    }
    return LineChart.standalone(title, description(series), Axis.messageSizes(sizes),
        Axis.auto("average latency (us)", latencies), lines, LineChart.legendOf(lines));
  }

  /** The SVG's {@code <desc>}: a caption, then one line per series with its points. */
  static String description(List<Series> series) {
    StringBuilder desc = new StringBuilder("Average latency (us) against message size (bytes).");
    for (Series s : series) {
      desc.append('\n').append(s.label()).append(':');
      for (int i = 0; i < s.sizesBytes().size(); i++) {
        desc.append(i == 0 ? " " : ", ").append(s.sizesBytes().get(i)).append(" B ")
            .append(String.format(Locale.ROOT, "%.2f", s.latenciesUs().get(i))).append(" us");
        if (!s.fallbacks().get(i).isEmpty()) {
          desc.append(" (no INC, host algorithm: ").append(s.fallbacks().get(i)).append(')');
        }
      }
    }
    return desc.toString();
  }

  /** The chart, before encoding. */
  static XYChart chart(String title, List<Series> series) {
    List<Series> drawn = series.stream().filter(s -> !s.sizesBytes().isEmpty()).toList();
    boolean log2Sizes = drawn.stream().flatMap(s -> s.sizesBytes().stream()).allMatch(b -> b > 0);
    double minUs = drawn.stream().flatMap(s -> s.latenciesUs().stream()).mapToDouble(Double::doubleValue).min()
        .orElse(0);
    double maxUs = drawn.stream().flatMap(s -> s.latenciesUs().stream()).mapToDouble(Double::doubleValue).max()
        .orElse(0);
    boolean logLatency = minUs > 0 && maxUs > 10 * minUs;

    XYChart chart = new XYChartBuilder().width(WIDTH).height(HEIGHT).title(title)
        .xAxisTitle(log2Sizes ? "Message size (bytes, log2)" : "Message size (bytes)")
        .yAxisTitle(logLatency ? "Average latency (us, log)" : "Average latency (us)").build();
    Styler styler = chart.getStyler();
    styler.setLegendPosition(Styler.LegendPosition.OutsideS);
    styler.setChartBackgroundColor(java.awt.Color.WHITE);
    chart.getStyler().setMarkerSize(6);
    chart.getStyler().setYAxisLogarithmic(logLatency);
    chart.getStyler().setYAxisDecimalPattern("#,##0.##");
    if (log2Sizes) {
      // Sizes are drawn at log2(size) on a linear axis, whose ticks are labelled back as sizes.
      chart.getStyler().setXAxisTickMarkSpacingHint(40);
      chart.setCustomXAxisTickLabelsFormatter(LatencyPlot::powerOfTwoLabel);
    }
    if (drawn.isEmpty()) {
      // XChart needs a series to lay out the axes; an invisible point keeps an empty plot drawable.
      XYSeries none = chart.addSeries(" ", new double[] {log2Sizes ? 2 : 0}, new double[] {1});
      none.setShowInLegend(false);
      none.setMarker(SeriesMarkers.NONE);
      none.setLineColor(new java.awt.Color(0, 0, 0, 0));
      return chart;
    }
    for (Series s : drawn) {
      double[] x = s.sizesBytes().stream()
          .mapToDouble(b -> log2Sizes ? Math.log(b) / Math.log(2) : b).toArray();
      double[] y = s.latenciesUs().stream().mapToDouble(Double::doubleValue).toArray();
      XYSeries line = chart.addSeries(s.label(), x, y);
      line.setMarker(SeriesMarkers.CIRCLE);
      java.awt.Color colour = java.awt.Color.decode(Palette.colour(s.algorithm()));
      line.setLineColor(colour);
      line.setMarkerColor(colour);
    }
    for (Series s : drawn) {
      // The sizes that fell back, a cross over each, one legend entry per reason.
      for (String reason : s.fallbacks().stream().filter(f -> !f.isEmpty()).distinct().toList()) {
        List<Double> x = new ArrayList<>();
        List<Double> y = new ArrayList<>();
        for (int i = 0; i < s.sizesBytes().size(); i++) {
          if (!s.fallbacks().get(i).equals(reason)) continue;
          long b = s.sizesBytes().get(i);
          x.add(log2Sizes ? Math.log(b) / Math.log(2) : b);
          y.add(s.latenciesUs().get(i));
        }
        XYSeries marks = chart.addSeries(s.label() + ": no INC, host algorithm (" + reason + ")", x, y);
        marks.setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Scatter);
        marks.setMarker(SeriesMarkers.CROSS);
        marks.setMarkerColor(java.awt.Color.decode(FALLBACK_COLOUR));
      }
    }
    return chart;
  }

  /**
   * The label of a tick at {@code log2} on the size axis: the power of two in bytes with a binary suffix
   * ({@code 4}, {@code 512}, {@code 1K}, {@code 64K}, {@code 1M}, {@code 1G}); empty between powers of two.
   */
  static String powerOfTwoLabel(double log2) {
    long exponent = Math.round(log2);
    if (Math.abs(log2 - exponent) > 1e-9 || exponent < 0 || exponent > 62) return "";
    long bytes = 1L << exponent;
    String[] suffixes = {"", "K", "M", "G", "T", "P", "E"};
    int unit = (int) (exponent / 10);
    return String.format(Locale.ROOT, "%d%s", bytes >> (10 * unit), suffixes[unit]);
  }
}
