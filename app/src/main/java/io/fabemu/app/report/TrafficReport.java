package io.fabemu.app.report;

import com.typesafe.config.Config;
import io.fabemu.core.sim.DeviceReport.VcCounters;
import io.fabemu.core.topology.Topology;
import io.fabemu.core.traffic.LoadPoint;
import io.fabemu.core.traffic.Saturation;
import io.fabemu.core.traffic.TrafficTable;
import io.fabemu.fabric.ScenarioSpec;
import io.fabemu.fabric.result.TrafficResult;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * The files of {@code fabemu traffic}: the load points as CSV, every virtual channel's use as CSV, the
 * latency-vs-load curve as SVG, and the HTML report
 * (facts, the curves of latency and of accepted throughput against offered load, the table with the saturation
 * point, the channels' use, the scenario). Pure functions of the results: the same sweep gives the same files, but
 * for the wall-time figures of the facts.
 */
public final class TrafficReport {

  private TrafficReport() {}

  /** One row per load: the load point's figures and the channels' use. */
  public static String csv(List<TrafficResult> results, Optional<Saturation> saturation) {
    StringBuilder csv = new StringBuilder("offered_flits_per_node_cycle,generated_flits_per_node_cycle,"
        + "accepted_flits_per_node_cycle,avg_latency_cycles,p99_latency_cycles,avg_hops,packets_measured,"
        + "packets_arrived,drain_completed,saturated,max_router_link_utilisation,mean_router_link_utilisation,"
        + "max_vc_utilisation,mean_router_vc_utilisation,virtual_end_ps,events,wall_seconds\n");
    for (int i = 0; i < results.size(); i++) {
      TrafficResult r = results.get(i);
      LoadPoint p = r.point();
      boolean saturated = saturation.isPresent() && i >= saturation.get().saturatedIndex();
      csv.append(String.format(Locale.ROOT, "%s,%s,%s,%s,%s,%s,%d,%d,%b,%b,%.6f,%.6f,%.6f,%.6f,%d,%d,%.3f%n",
          num(p.offeredFlitsPerNodeCycle()), num(p.generatedFlitsPerNodeCycle()), num(p.acceptedFlitsPerNodeCycle()),
          num(p.averageLatencyCycles()), num(p.p99LatencyCycles()), num(p.averageHops()), p.measuredPacketsCreated(),
          p.measuredPacketsArrived(), p.drainCompleted(), saturated, r.maxRouterLinkUtilisation(),
          r.meanRouterLinkUtilisation(), r.maxVcUtilisation(), r.meanRouterVcUtilisation(hosts(r)), r.virtualEndPs(),
          r.events(), r.wallSeconds()));
    }
    return csv.toString();
  }

  /**
   * Every router input virtual channel at every load: one row each (offered load, the channel's two ends by name,
   * the virtual channel, its utilisation).
   */
  public static String virtualChannelCsv(List<TrafficResult> results, Topology topology) {
    StringBuilder csv = new StringBuilder("offered_flits_per_node_cycle,from,to,vc,utilisation\n");
    for (TrafficResult r : results) {
      for (VcCounters vc : r.virtualChannels()) {
        csv.append(String.format(Locale.ROOT, "%s,%s,%s,%d,%.6f%n", num(r.point().offeredFlitsPerNodeCycle()),
            topology.vertexName(vc.fromDevice()), topology.vertexName(vc.toDevice()), vc.vc(), r.vcUtilisation(vc)));
      }
    }
    return csv.toString();
  }

  private static int hosts(TrafficResult r) {
    return r.scenario().topology().hosts();
  }

  private static String num(double v) {
    return Double.isNaN(v) ? "" : String.format(Locale.ROOT, "%.6g", v);
  }

  /** The latency-vs-load curve (average and p99) as a standalone SVG document. */
  public static String latencyChart(ScenarioSpec spec, List<TrafficResult> results, Optional<Saturation> saturation) {
    Markup m = new Markup();
    m.raw("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    renderLatency(m, spec, results, saturation);
    return m.toString();
  }

  private static void renderLatency(Markup out, ScenarioSpec spec, List<TrafficResult> results,
                                    Optional<Saturation> saturation) {
    List<Double> loads = new ArrayList<>();
    List<Double> average = new ArrayList<>();
    List<Double> p99 = new ArrayList<>();
    List<String> labels = new ArrayList<>();
    for (TrafficResult r : results) {
      LoadPoint p = r.point();
      if (Double.isNaN(p.averageLatencyCycles())) continue;
      loads.add(p.offeredFlitsPerNodeCycle());
      average.add(p.averageLatencyCycles());
      p99.add(p.p99LatencyCycles());
      labels.add(String.format(Locale.ROOT, "load %.4g: avg %.1f, p99 %.0f cycles", p.offeredFlitsPerNodeCycle(),
          p.averageLatencyCycles(), p.p99LatencyCycles()));
    }
    List<Double> all = new ArrayList<>(average);
    all.addAll(p99);
    LineChart.render(out, title(spec, saturation), Axis.auto("offered load (flits/node/cycle)", loads, true),
        Axis.auto("packet latency (cycles)", all, true),
        List.of(new LineChart.Series("average latency", loads, average, labels),
            new LineChart.Series("p99 latency", loads, p99, labels)));
  }

  private static String title(ScenarioSpec spec, Optional<Saturation> saturation) {
    String pattern = spec.traffic().pattern().configName();
    String where = saturation.map(s -> String.format(Locale.ROOT, ", saturation at %.4g", s.saturatedLoad()))
        .orElse(", no saturation in the sweep");
    return spec.name() + ": " + pattern + " traffic" + where;
  }

  /** The whole HTML report. */
  public static String html(ScenarioSpec spec, Topology topology, List<TrafficResult> results,
                            Optional<Saturation> saturation, Config scenario) {
    List<LoadPoint> points = results.stream().map(TrafficResult::point).toList();
    List<ReportSection> sections = new ArrayList<>();
    sections.add(new Section("facts", "Run", out -> facts(out, spec, topology, results, saturation)));
    sections.add(new Section("latency", "Latency against offered load", out -> {
      renderLatency(out, spec, results, saturation);
      out.element("p", "Packet latency runs from a packet's creation at its source (queueing included) to its "
          + "tail's ejection at the destination, in router cycles; only packets created in the measurement window "
          + "count.", "class", "note");
    }));
    sections.add(new Section("throughput", "Accepted against offered load", out -> {
      List<Double> offered = points.stream().map(LoadPoint::offeredFlitsPerNodeCycle).toList();
      List<Double> accepted = points.stream().map(LoadPoint::acceptedFlitsPerNodeCycle).toList();
      List<Double> both = new ArrayList<>(offered);
      both.addAll(accepted);
      LineChart.render(out, "accepted throughput", Axis.auto("offered load (flits/node/cycle)", offered, true),
          Axis.auto("flits/node/cycle", both, true), List.of(new LineChart.Series("offered", offered, offered),
              new LineChart.Series("accepted", offered, accepted)));
    }));
    sections.add(new Section("table", "Load points", out -> out.element("pre",
        TrafficTable.format(points, saturation))));
    sections.add(new Section("channels", "Channel use", out -> channels(out, results)));
    sections.add(ScenarioEchoSection.ofRun(scenario, spec.source()));
    return HtmlReport.render("fabemu traffic: " + spec.name(), topology.description(), sections);
  }

  private static void facts(Markup out, ScenarioSpec spec, Topology topology, List<TrafficResult> results,
                            Optional<Saturation> saturation) {
    out.start("table", "class", "facts");
    row(out, "Network", topology.description());
    row(out, "Router", spec.devices().router().switching().configName() + ", " + spec.devices().router().flitBytes()
        + " B flits, " + spec.devices().router().virtualChannels() + " VCs of " + spec.devices().router()
        .bufferDepthFlits() + " flits");
    row(out, "Traffic", spec.traffic().pattern().configName() + ", " + spec.traffic().packetFlits()
        + "-flit packets, warm-up " + spec.traffic().warmupCycles() + ", measure " + spec.traffic().measureCycles()
        + ", drain " + spec.traffic().drainCycles() + " cycles");
    row(out, "Saturation", saturation.map(s -> String.format(Locale.ROOT, "%.4g flits/node/cycle (%s); last "
        + "stable load %s", s.saturatedLoad(), s.reason().label(), s.hasStableLoad()
            ? String.format(Locale.ROOT, "%.4g", s.lastStableLoad()) : "none")).orElse("not reached in the sweep"));
    row(out, "Loads run", results.size() + " of " + spec.traffic().loadCount());
    long events = results.stream().mapToLong(TrafficResult::events).sum();
    double wall = results.stream().mapToDouble(TrafficResult::wallSeconds).sum();
    row(out, "Emulator", String.format(Locale.ROOT, "%d events in %.2f s of wall time (not part of the results)",
        events, wall));
    row(out, "Seed", Long.toString(spec.seed()));
    out.end("table");
  }

  private static void channels(Markup out, List<TrafficResult> results) {
    out.start("table");
    out.start("tr").element("th", "offered load").element("th", "busiest router channel")
        .element("th", "mean router channel").element("th", "busiest virtual channel")
        .element("th", "mean router virtual channel").end("tr");
    for (TrafficResult r : results) {
      out.start("tr");
      out.element("td", String.format(Locale.ROOT, "%.4g", r.point().offeredFlitsPerNodeCycle()), "class", "num");
      out.element("td", percent(r.maxRouterLinkUtilisation()), "class", "num");
      out.element("td", percent(r.meanRouterLinkUtilisation()), "class", "num");
      out.element("td", percent(r.maxVcUtilisation()), "class", "num");
      out.element("td", percent(r.meanRouterVcUtilisation(hosts(r))), "class", "num");
      out.end("tr");
    }
    out.end("table");
    out.element("p", "A channel's use is the fraction of the measurement window's cycles in which it carried a "
        + "flit; a virtual channel's, the fraction in which it held a packet at its router's input (every virtual "
        + "channel at every load: vc-utilisation.csv).", "class", "note");
  }

  private static String percent(double fraction) {
    return String.format(Locale.ROOT, "%.1f %%", 100 * fraction);
  }

  private static void row(Markup out, String name, String value) {
    out.start("tr").element("th", name).element("td", value).end("tr");
  }

  /** A section from a renderer. */
  private record Section(String id, String title, Consumer<Markup> body) implements ReportSection {
    @Override
    public void render(Markup out) {
      body.accept(out);
    }
  }
}
