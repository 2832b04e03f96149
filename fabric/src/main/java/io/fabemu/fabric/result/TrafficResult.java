package io.fabemu.fabric.result;

import io.fabemu.core.sim.DeviceReport;
import io.fabemu.core.sim.DeviceReport.LinkCounters;
import io.fabemu.core.traffic.LoadPoint;
import io.fabemu.core.traffic.TrafficStats;
import io.fabemu.fabric.ScenarioSpec;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * What one synthetic-traffic emulation (one offered load on a router network) produced: the load point (latency,
 * throughput, hops; {@link TrafficStats}'s definitions) from the NICs' statistics merged, and the channels' use.
 *
 * @param scenario               the scenario as run, its traffic narrowed to this load
 * @param point                  the load point
 * @param links                  per-channel counters, sorted by (from, to)
 * @param routerLinkUtilisation  per router-to-router channel (in {@link #links} order, those between routers only):
 *                               the fraction of the run's cycles it carried a flit
 * @param virtualEndPs           virtual time the run reached
 * @param windows                time windows the engine opened
 * @param events                 device events handled
 * @param wallSeconds            wall-clock duration of the emulation (reported, never part of a result)
 */
public record TrafficResult(ScenarioSpec scenario, LoadPoint point, List<LinkCounters> links,
                            double[] routerLinkUtilisation, long virtualEndPs, long windows, long events,
                            double wallSeconds) {

  /**
   * The result of a traffic run from its devices' reports.
   *
   * @param sendingNodes the nodes the pattern lets send (throughput is per sending node)
   * @param hosts        the network's nodes: devices {@code hosts..2*hosts-1} are its routers
   */
  public static TrafficResult aggregate(ScenarioSpec spec, int sendingNodes, int hosts, List<DeviceReport> reports,
                                        long virtualEndPs, long windows, long events, double wallSeconds) {
    TrafficStats merged = new TrafficStats(spec.traffic());
    List<LinkCounters> links = new ArrayList<>();
    for (DeviceReport report : reports) {
      if (report.traffic() != null) merged.merge(report.traffic());
      links.addAll(report.links());
    }
    links.sort(Comparator.comparingInt(LinkCounters::fromDevice).thenComparingInt(LinkCounters::toDevice));
    List<Double> utilisation = new ArrayList<>();
    for (LinkCounters link : links) {
      if (isRouter(link.fromDevice(), hosts) && isRouter(link.toDevice(), hosts)) {
        utilisation.add(virtualEndPs == 0 ? 0.0 : (double) link.busyPs() / virtualEndPs);
      }
    }
    LoadPoint point = merged.result(spec.traffic().offeredLoad(0), sendingNodes);
    return new TrafficResult(spec, point, List.copyOf(links),
        utilisation.stream().mapToDouble(Double::doubleValue).toArray(), virtualEndPs, windows, events, wallSeconds);
  }

  private static boolean isRouter(int device, int hosts) {
    return device >= hosts && device < 2 * hosts;
  }

  /** The busiest router-to-router channel's utilisation (0 without such channels). */
  public double maxRouterLinkUtilisation() {
    double max = 0;
    for (double u : routerLinkUtilisation) max = Math.max(max, u);
    return max;
  }

  /** The router-to-router channels' mean utilisation (0 without such channels). */
  public double meanRouterLinkUtilisation() {
    double sum = 0;
    for (double u : routerLinkUtilisation) sum += u;
    return routerLinkUtilisation.length == 0 ? 0 : sum / routerLinkUtilisation.length;
  }
}
