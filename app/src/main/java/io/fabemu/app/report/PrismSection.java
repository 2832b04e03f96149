package io.fabemu.app.report;

import io.fabemu.core.time.Units;
import io.fabemu.core.topology.PrismSpec;
import io.fabemu.core.topology.Topology;
import io.fabemu.fabric.result.RunResult;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The prism's links drawn ({@link PrismDrawing}): coloured by their busy share over the whole run, and, when the
 * workload runs embedded-ring algorithms, once per algorithm coloured by how many of its rings take each link, the
 * links it leaves idle grey and dashed (claim 7), with a table of the links each algorithm uses and leaves idle.
 * Only for a prism of at most {@value PrismDrawing#MAX_HOSTS} hosts ({@link #applies}); the heat maps of
 * {@link LinkSection} cover every topology.
 *
 * <p>The link counters cover the whole run (every algorithm and size): the devices do not split them by case, so
 * the measured drawing is one, and each algorithm's drawing shows where its rings run, not what they measured.
 */
public final class PrismSection implements ReportSection {

  private final RunResult result;
  private final Topology topology;
  private final PrismSpec prism;
  private final List<RingUsage> usages;

  PrismSection(RunResult result, Topology topology) {
    this.result = result;
    this.topology = topology;
    this.prism = result.scenario().topology().prism().orElseThrow();
    this.usages = RingUsage.of(result.scenario(), topology);
  }

  /** Whether the run's topology is a prism this section draws. */
  public static boolean applies(RunResult result, Topology topology) {
    PrismSpec prism = result.scenario().topology().prism().orElse(null);
    return topology != null && prism != null && PrismDrawing.drawable(prism) && topology.hostCount() == prism.hosts();
  }

  /**
   * The standalone drawing of the links' busy share ({@code links-prism.svg}), or null when the topology is not a
   * prism that is drawn or the run has no link counters.
   */
  public static String standaloneSvg(RunResult result, Topology topology) {
    if (!applies(result, topology) || result.links().isEmpty()) return null;
    return PrismDrawing.standalone(measuredTitle(result), result.scenario().topology().prism().orElseThrow(), topology,
        measured(result, topology), "busy share", Formats::percent);
  }

  @Override
  public String id() {
    return "links-prism";
  }

  @Override
  public String title() {
    return "Links of the prism";
  }

  @Override
  public void render(Markup out) {
    out.start("div", "class", "charts").newline();
    if (result.links().isEmpty()) {
      Tables.note(out, "No link counters: the run was cut short.");
    } else {
      Tables.note(out, "Each directed link coloured by its busy share, the time it was sending over the virtual end ("
          + Units.format(result.virtualEndPs()) + "), over the whole run (every algorithm and size; \"Link utilisation per "
          + "case\" below cuts the links by case). Hover a link for its figures.");
      PrismDrawing.render(out, measuredTitle(result), prism, topology, measured(result, topology), "busy share",
          Formats::percent);
      out.newline();
    }
    for (RingUsage usage : usages) {
      Map<Long, PrismDrawing.LinkValue> values = new LinkedHashMap<>();
      for (RingUsage.Arc arc : usage.used()) {
        values.put(PrismDrawing.key(arc.from(), arc.port()), new PrismDrawing.LinkValue(arc.rings().size(),
            String.join(", ", arc.rings())));
      }
      PrismDrawing.render(out, usage.algorithm().configName() + ": links its rings take (" + usage.used().size()
          + " used, " + usage.idle().size() + " idle)", prism, topology, values, "rings on link",
          v -> Formats.significant(v, 3));
      out.newline();
    }
    out.end("div").newline();
    if (!usages.isEmpty()) {
      out.element("h3", "Links per algorithm").newline();
      List<List<String>> rows = new ArrayList<>();
      for (RingUsage usage : usages) {
        rows.add(List.of(usage.algorithm().configName(), Integer.toString(usage.rings().size()),
            Integer.toString(usage.used().size()), Integer.toString(usage.idle().size()), idleList(usage)));
      }
      Tables.table(out, List.of("algorithm", "rings", "links used", "links idle", "idle links (from → to, link)"),
          rows, Set.of(1, 2, 3));
    }
  }

  private String idleList(RingUsage usage) {
    List<String> idle = new ArrayList<>();
    for (RingUsage.Arc arc : usage.idle()) {
      idle.add(topology.vertexName(arc.from()) + " → " + topology.vertexName(arc.to())
          + (arc.parallelLinks() > 1 ? " #" + (arc.parallelIndex() + 1) : ""));
    }
    return idle.isEmpty() ? "none" : String.join(", ", idle);
  }

  private static String measuredTitle(RunResult result) {
    return result.scenario().name() + ": busy share per directed link, whole run";
  }

  /** Each host-to-host link's busy share and tooltip, by {@link PrismDrawing#key}. */
  static Map<Long, PrismDrawing.LinkValue> measured(RunResult result, Topology topology) {
    Map<Long, PrismDrawing.LinkValue> values = new LinkedHashMap<>();
    for (LinkTable.Row row : LinkTable.of(result.links(), topology, result.virtualEndPs())) {
      if (row.port() < 0 || !topology.isHost(row.counters().fromDevice())) continue;
      values.put(PrismDrawing.key(row.counters().fromDevice(), row.port()), new PrismDrawing.LinkValue(
          row.busyShare(), String.format(Locale.ROOT, "%s in %d packets, busy %s (%s)",
          Formats.bytes(row.counters().bytes()), row.counters().packets(), Units.format(row.counters().busyPs()),
          Formats.percent(row.busyShare()))));
    }
    return values;
  }
}
