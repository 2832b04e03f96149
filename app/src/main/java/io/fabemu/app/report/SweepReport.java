package io.fabemu.app.report;

import com.typesafe.config.Config;
import io.fabemu.core.topology.Topology;
import java.util.List;

/**
 * The HTML report of a whole sweep ({@code DIR/report.html}): the sweep's facts with a row and a link per point,
 * the average bus bandwidth and the latency at the largest size of each series against the varied values, latency
 * and bus bandwidth against size for every point and series, each point's link utilisation side by side, and the
 * first point's scenario as loaded. Each point's own report (link heat maps, per-rank spread, in-network speed-up)
 * is in its folder.
 *
 * <p>Contract: as {@link RunReport}: a pure function of its input except the one line with the wall time.
 *
 * @param title         the report's title
 * @param source        the scenario file
 * @param keys          the varied key paths, in the order given
 * @param sets          the {@code --set} assignments as typed, laid under every point
 * @param points        the points in sweep order
 * @param firstScenario the first point's scenario as loaded (null when not available)
 * @param wallSeconds   the wall time of the whole sweep
 */
public record SweepReport(String title, String source, List<String> keys, List<String> sets,
                          List<SweepPoint> points, Config firstScenario, double wallSeconds) {

  public SweepReport {
    keys = List.copyOf(keys);
    sets = List.copyOf(sets);
    points = List.copyOf(points);
  }

  /** The sections, in order. */
  public List<ReportSection> sections() {
    return List.of(new SweepFactsSection(this),
        new SweepMetricSection(keys, points),
        new SweepCurvesSection(points),
        new SweepLinksSection(points, SweepReport::topologyOf),
        new ScenarioEchoSection(firstScenario, "The first point's scenario (" + (points.isEmpty() ? "none"
            : points.get(0).label()) + "), read from " + source + " with every default filled in and the "
            + "command-line values applied; the other points differ only in the varied keys."));
  }

  /** The fabric {@code point} ran on, built again from its scenario (null: it has no result or cannot be built). */
  static Topology topologyOf(SweepPoint point) {
    if (point.result() == null) return null;
    try {
      return point.result().scenario().topology().build();
    } catch (IllegalArgumentException e) {
      // The point ran, so its topology was built once already; a device is then named by its id.
      return null;
    }
  }

  /** The document. */
  public String html() {
    return HtmlReport.render(title, points.size() + " points varying " + String.join(", ", keys) + " · " + source,
        sections());
  }
}
