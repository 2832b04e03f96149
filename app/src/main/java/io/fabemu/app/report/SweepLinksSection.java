package io.fabemu.app.report;

import io.fabemu.core.sim.DeviceReport.LinkCounters;
import io.fabemu.core.topology.Topology;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * Link utilisation per point of a sweep, side by side: a heat map of each point's mean busy share per tier pair
 * (host → tor, tor → spine, ...) and a table of each point's busiest links. A point is a run of its own (over
 * its whole run; a point's own report cuts its links by case, {@link CaseLinksSection}).
 *
 * <p>Busy shares are over each point's own virtual end; devices are named from each point's topology, built again
 * from its scenario by {@code topologies} (null: named by device id).
 */
final class SweepLinksSection implements ReportSection {

  /** Busiest links listed per point. */
  static final int BUSIEST_PER_POINT = 3;

  private final List<SweepPoint> points;
  private final Function<SweepPoint, Topology> topologies;

  SweepLinksSection(List<SweepPoint> points, Function<SweepPoint, Topology> topologies) {
    this.points = List.copyOf(points);
    this.topologies = topologies;
  }

  @Override
  public String id() {
    return "links";
  }

  @Override
  public String title() {
    return "Link utilisation per point";
  }

  @Override
  public void render(Markup out) {
    Map<SweepPoint, LinkSection> withLinks = new LinkedHashMap<>();
    for (SweepPoint p : points) {
      if (p.result() == null || p.result().links().isEmpty()) continue;
      withLinks.put(p, new LinkSection(p.result().links(), topologies.apply(p), p.result().virtualEndPs(),
          p.result().complete()));
    }
    if (withLinks.isEmpty()) {
      Tables.note(out, "No point has link counters (none finished, or no link carried anything).");
      return;
    }
    Tables.note(out, "Busy share: the time a link was sending, as a share of the point's virtual end. For link "
        + "utilisation per case, vary workload.sizes and workload.algorithms so that each point runs one case.");
    List<String> tierPairs = new ArrayList<>();
    for (LinkSection links : withLinks.values()) {
      for (LinkSection.TierPair t : links.tierPairs().values()) {
        String name = t.from + " → " + t.to;
        if (!tierPairs.contains(name)) tierPairs.add(name);
      }
    }
    List<String> rowLabels = new ArrayList<>();
    double[][] values = new double[withLinks.size()][tierPairs.size()];
    String[][] tips = new String[withLinks.size()][tierPairs.size()];
    List<List<String>> rows = new ArrayList<>();
    int r = 0;
    for (Map.Entry<SweepPoint, LinkSection> e : withLinks.entrySet()) {
      SweepPoint p = e.getKey();
      LinkSection links = e.getValue();
      rowLabels.add(SweepCurvesSection.pointLabel(p));
      java.util.Arrays.fill(values[r], Double.NaN);
      for (LinkSection.TierPair t : links.tierPairs().values()) {
        int c = tierPairs.indexOf(t.from + " → " + t.to);
        values[r][c] = t.meanShare();
        tips[r][c] = "point " + p.number() + ", " + t.from + " → " + t.to + ": " + t.links + " links, mean busy "
            + Formats.percent(t.meanShare()) + ", busiest " + t.busiest + " " + Formats.percent(t.maxShare);
      }
      int rank = 1;
      for (LinkCounters l : links.busiest(BUSIEST_PER_POINT)) {
        rows.add(List.of(Integer.toString(p.number()), String.join(", ", p.values()), Integer.toString(rank++),
            links.name(l.fromDevice()) + " → " + links.name(l.toDevice()), Formats.bytes(l.bytes()),
            Formats.percent(links.share(l))));
      }
      r++;
    }
    out.start("div", "class", "charts").newline();
    HeatMap.render(out, "Mean busy share per tier pair, per point", rowLabels, tierPairs, values, tips,
        Formats::percent);
    out.newline().end("div").newline();
    out.element("h3", "Busiest links per point").newline();
    Tables.table(out, List.of("point", "values", "rank", "link", "bytes", "busy share"), rows, Set.of(0, 2, 4, 5));
  }
}
