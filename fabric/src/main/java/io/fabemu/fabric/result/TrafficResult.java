package io.fabemu.fabric.result;

import io.fabemu.core.sim.DeviceReport;
import io.fabemu.core.sim.DeviceReport.LinkCounters;
import io.fabemu.core.sim.DeviceReport.VcCounters;
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
 * @param routerLinkUtilisation  per router-to-router channel, in (from, to) order: the fraction of the measurement
 *                               window's cycles in which it carried a flit
 * @param virtualChannels        every router input virtual channel, sorted by (from, to, vc): the cycles it held a
 *                               packet
 * @param cyclePs                the routers' clock cycle
 * @param virtualEndPs           virtual time the run reached
 * @param windows                time windows the engine opened
 * @param events                 device events handled
 * @param wallSeconds            wall-clock duration of the emulation (reported, never part of a result)
 */
public record TrafficResult(ScenarioSpec scenario, LoadPoint point, List<LinkCounters> links,
                            double[] routerLinkUtilisation, List<VcCounters> virtualChannels, long cyclePs,
                            long virtualEndPs, long windows, long events, double wallSeconds) {

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
    List<VcCounters> virtualChannels = new ArrayList<>();
    for (DeviceReport report : reports) {
      TrafficStats part = report.part(TrafficStats.class);
      if (part != null) merged.merge(part);
      links.addAll(report.links());
      virtualChannels.addAll(report.virtualChannels());
    }
    links.sort(Comparator.comparingInt(LinkCounters::fromDevice).thenComparingInt(LinkCounters::toDevice));
    virtualChannels.sort(Comparator.comparingInt(VcCounters::fromDevice).thenComparingInt(VcCounters::toDevice)
        .thenComparingInt(VcCounters::vc));
    // A router-to-router channel's use in the measurement window: the flits its receiving router's virtual channels
    // took in that window (one per cycle at most), per cycle of the window.
    long measureCycles = spec.traffic().measureCycles();
    List<Double> utilisation = new ArrayList<>();
    for (int i = 0; i < virtualChannels.size(); ) {
      VcCounters first = virtualChannels.get(i);
      long flits = 0;
      int j = i;
      for (; j < virtualChannels.size() && virtualChannels.get(j).fromDevice() == first.fromDevice()
          && virtualChannels.get(j).toDevice() == first.toDevice(); j++) {
        flits += virtualChannels.get(j).windowFlitsArrived();
      }
      if (isRouter(first.fromDevice(), hosts)) utilisation.add((double) flits / measureCycles);
      i = j;
    }
    LoadPoint point = merged.result(spec.traffic().offeredLoad(0), sendingNodes);
    return new TrafficResult(spec, point, List.copyOf(links),
        utilisation.stream().mapToDouble(Double::doubleValue).toArray(), List.copyOf(virtualChannels),
        spec.devices().router().cyclePs(), virtualEndPs, windows, events, wallSeconds);
  }

  private static boolean isRouter(int device, int hosts) {
    return device >= hosts && device < 2 * hosts;
  }

  /**
   * The fraction of the measurement window's cycles in which router input virtual channel {@code vc} held a packet.
   */
  public double vcUtilisation(VcCounters vc) {
    return (double) vc.windowBusyCycles() / scenario.traffic().measureCycles();
  }

  /** The busiest router input virtual channel's utilisation (0 without any). */
  public double maxVcUtilisation() {
    double max = 0;
    for (VcCounters vc : virtualChannels) max = Math.max(max, vcUtilisation(vc));
    return max;
  }

  /** The mean utilisation of the router input virtual channels between routers (0 without any). */
  public double meanRouterVcUtilisation(int hosts) {
    double sum = 0;
    int count = 0;
    for (VcCounters vc : virtualChannels) {
      if (isRouter(vc.fromDevice(), hosts)) {
        sum += vcUtilisation(vc);
        count++;
      }
    }
    return count == 0 ? 0 : sum / count;
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
