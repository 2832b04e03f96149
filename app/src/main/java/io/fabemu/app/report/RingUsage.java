package io.fabemu.app.report;

import io.fabemu.collectives.Algorithm;
import io.fabemu.collectives.EmbeddedRings;
import io.fabemu.core.routing.RoutingTable;
import io.fabemu.core.topology.Topology;
import io.fabemu.fabric.Fabric;
import io.fabemu.fabric.ScenarioSpec;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Which directed links one embedded-ring algorithm's rings take, and which they leave idle (claim 7 of the patent:
 * links no ring uses carry nothing of it). The rings are the algorithm's subset of the scenario's embedding
 * ({@link EmbeddedRings#forAlgorithm}), each hop on the port its lane picks: the lane-th equal-cost port after the
 * flow's own ({@link RoutingTable#laneEgressPort}, as the NICs forward), so a hop {@code k} rings of the subset share
 * occupies {@code min(k, links)} of its parallel links. The line algorithms use ring 0 without its closing hop, each
 * line hop both ways on lane 0.
 *
 * @param algorithm the algorithm
 * @param rings     labels of its rings ({@code "ring 0"}, {@code "ring 0 reversed"}, {@code "line forward"}, ...)
 * @param used      the directed links its rings take, by (from, port)
 * @param idle      every other directed link between hosts, by (from, port)
 */
public record RingUsage(Algorithm algorithm, List<String> rings, List<Arc> used, List<Arc> idle) {

  public RingUsage {
    rings = List.copyOf(rings);
    used = List.copyOf(used);
    idle = List.copyOf(idle);
  }

  /**
   * One directed link.
   *
   * @param from          sending host
   * @param to            receiving host
   * @param port          the sending host's port
   * @param parallelIndex its place (0-based, port order) among the links from {@code from} to {@code to}
   * @param parallelLinks how many links join the two hosts this way
   * @param rings         labels of the rings that take it (empty for an idle link)
   */
  public record Arc(int from, int to, int port, int parallelIndex, int parallelLinks, List<String> rings) {

    public Arc {
      rings = List.copyOf(rings);
    }
  }

  /**
   * The usage of every embedded-ring algorithm of {@code spec}'s workload, in workload order; empty when the scenario
   * has no ring embedding, runs no such algorithm, or has more ranks than hosts (the rings are over hosts, one rank
   * each).
   */
  public static List<RingUsage> of(ScenarioSpec spec, Topology topology) {
    if (spec.rings() == null || topology == null || spec.workload().ppn() != 1) return List.of();
    List<RingUsage> out = new ArrayList<>();
    EmbeddedRings embedded = null;
    RoutingTable routing = null;
    for (Algorithm a : new LinkedHashSet<>(spec.workload().algorithms())) {
      if (!a.onEmbeddedRings()) continue;
      if (embedded == null) {
        embedded = Fabric.embeddedRings(spec.rings(), topology);
        routing = spec.topology().routing(topology);
      }
      out.add(of(a, embedded, topology, routing));
    }
    return out;
  }

  /** The usage of {@code algorithm} on {@code embedded}, whose ranks are {@code topology}'s hosts. */
  public static RingUsage of(Algorithm algorithm, EmbeddedRings embedded, Topology topology, RoutingTable routing) {
    List<EmbeddedRings.Ring> subset = embedded.forAlgorithm(algorithm);
    int p = embedded.rankCount();
    // Keyed by (from, port), so the links come out in the order of results.json's links.
    Map<Long, List<String>> users = new TreeMap<>();
    List<String> labels = new ArrayList<>();
    boolean line = algorithm == Algorithm.LINE || algorithm == Algorithm.LINE_BOTH_ENDS;
    if (line) {
      int[] order = subset.get(0).order();
      labels.add("line forward");
      labels.add("line backward");
      for (int j = 0; j + 1 < p; j++) {
        take(users, routing, order[j], order[j + 1], 0, "line forward");
        take(users, routing, order[j + 1], order[j], 0, "line backward");
      }
    } else {
      for (int i = 0; i < subset.size(); i++) {
        String label = ringLabel(algorithm, i);
        labels.add(label);
        EmbeddedRings.Ring ring = subset.get(i);
        for (int j = 0; j < p; j++) {
          take(users, routing, ring.order()[j], ring.order()[(j + 1) % p], ring.lanes()[j], label);
        }
      }
    }
    List<Arc> used = new ArrayList<>();
    List<Arc> idle = new ArrayList<>();
    for (int from = 0; from < topology.hostCount(); from++) {
      List<Topology.Link> ports = topology.ports(from);
      for (int port = 0; port < ports.size(); port++) {
        int to = ports.get(port).to();
        if (!topology.isHost(to)) continue;
        List<Integer> parallel = LinkTable.portsToward(topology, from, to);
        List<String> on = users.getOrDefault(PrismDrawing.key(from, port), List.of());
        Arc arc = new Arc(from, to, port, parallel.indexOf(port), parallel.size(), on);
        (on.isEmpty() ? idle : used).add(arc);
      }
    }
    return new RingUsage(algorithm, labels, used, idle);
  }

  /** The label of ring {@code i} of {@code algorithm}'s subset. */
  static String ringLabel(Algorithm algorithm, int i) {
    if (algorithm == Algorithm.BIDIRECTIONAL_RING) return i == 0 ? "ring 0" : "ring 0 reversed";
    return "ring " + i;
  }

  private static void take(Map<Long, List<String>> users, RoutingTable routing, int from, int to, int lane,
                           String label) {
    int port = routing.laneEgressPort(from, from, to, lane);
    users.computeIfAbsent(PrismDrawing.key(from, port), k -> new ArrayList<>()).add(label);
  }
}
