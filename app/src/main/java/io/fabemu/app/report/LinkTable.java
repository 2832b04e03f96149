package io.fabemu.app.report;

import io.fabemu.core.sim.DeviceReport.LinkCounters;
import io.fabemu.core.topology.Topology;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The run's per-directed-link counters with which parallel link each one is: the sending device's port and the
 * link's place among the links from the same device to the same device. {@code results.json}'s {@code links}, the
 * prism drawing ({@link PrismDrawing}) and the ring usage ({@link RingUsage}) read links through it.
 *
 * <p>Contract: the counters come sorted by (from, to) with a device's parallel links in its port order (a stable
 * sort of each device's ports, as {@code ResultAggregator} does), so the j-th counter from {@code u} to {@code v}
 * is the j-th port of {@code u} that leads to {@code v}. Where a device's counters do not match the topology's
 * ports to that neighbour (a NIC of a router network counts its channel to the router), the port is -1.
 */
public final class LinkTable {

  /**
   * One directed link.
   *
   * @param counters      what it carried over the whole run
   * @param port          the sending device's port number, or -1 when the topology does not say
   * @param parallelIndex the link's place (0-based, port order) among the links from the same device to the same one
   * @param parallelLinks how many links join the two devices this way
   * @param busyShare     busy time as a share of the run's virtual end (0 when the run reached no time)
   */
  public record Row(LinkCounters counters, int port, int parallelIndex, int parallelLinks, double busyShare) {}

  private LinkTable() {}

  /** The rows of {@code links}, in their order; {@code topology} may be null (ports are then -1). */
  public static List<Row> of(List<LinkCounters> links, Topology topology, long virtualEndPs) {
    Map<Long, Integer> totals = new HashMap<>();
    for (LinkCounters l : links) totals.merge(key(l.fromDevice(), l.toDevice()), 1, Integer::sum);
    Map<Long, Integer> seen = new HashMap<>();
    List<Row> rows = new ArrayList<>(links.size());
    for (LinkCounters l : links) {
      long key = key(l.fromDevice(), l.toDevice());
      int index = seen.merge(key, 1, Integer::sum) - 1;
      int total = totals.get(key);
      int port = portOf(topology, l.fromDevice(), l.toDevice(), index, total);
      double share = virtualEndPs > 0 ? l.busyPs() / (double) virtualEndPs : 0.0;
      rows.add(new Row(l, port, index, total, share));
    }
    return rows;
  }

  /**
   * The ports of {@code vertex} toward {@code neighbour}, in port order (the parallel links, first to last); empty
   * when none leads there.
   */
  public static List<Integer> portsToward(Topology topology, int vertex, int neighbour) {
    List<Integer> ports = new ArrayList<>();
    List<Topology.Link> links = topology.ports(vertex);
    for (int p = 0; p < links.size(); p++) {
      if (links.get(p).to() == neighbour) ports.add(p);
    }
    return ports;
  }

  private static int portOf(Topology topology, int from, int to, int index, int total) {
    if (topology == null || from < 0 || from >= topology.vertexCount()) return -1;
    List<Integer> ports = portsToward(topology, from, to);
    return ports.size() == total ? ports.get(index) : -1;
  }

  private static long key(int from, int to) {
    return ((long) from << 32) | (to & 0xffffffffL);
  }
}
