package io.fabemu.cluster.scenario;

import io.fabemu.cluster.scenario.TopologyKindSection.IncRules;
import io.fabemu.core.topology.Topology.Vertex;
import io.fabemu.core.topology.Topology;
import io.fabemu.core.topology.TopologySpec;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A scenario's topology as the {@link TopologySection} checked it, for the sections after it: the spec, the INC rules
 * of its kind, whether it is a router network, and the names and cables of its vertices.
 *
 * <p>Names and cables are those of the {@link Topology} the spec builds, so no section re-derives a kind's numbering.
 * It is built once, on the first question about a vertex: most scenarios ask none, and a fabric of a million hosts
 * is not free to build. The topology section has checked everything the kind's builder checks.
 */
final class CheckedTopology {
  private final TopologySpec spec;
  private final Optional<IncRules> incRules;
  private final String noIncReason;
  private final boolean routerNetwork;
  private final int routerVcClasses;
  private Topology topology;
  private Map<String, Integer> vertexByName;

  /** @param noIncReason why the kind has no INC beyond its lacking TOR and SPINE switches; empty for nothing more */
  CheckedTopology(TopologySpec spec, Optional<IncRules> incRules, String noIncReason, boolean routerNetwork,
                  int routerVcClasses) {
    this.spec = spec;
    this.incRules = incRules;
    this.noIncReason = noIncReason;
    this.routerNetwork = routerNetwork;
    this.routerVcClasses = routerVcClasses;
  }

  TopologySpec spec() {
    return spec;
  }

  /** The INC rules of the kind; empty when it has no TOR and SPINE switches to hold INC units. */
  Optional<IncRules> incRules() {
    return incRules;
  }

  /**
   * For the line that refuses INC on a kind without {@link #incRules()}: {@code needs a leaf-spine topology (TOR and
   * SPINE switches), not <kind>}, and the kind's own reason after a colon when it has one.
   */
  String incRefusal() {
    return "needs a leaf-spine topology (TOR and SPINE switches), not " + spec.configName()
        + (noIncReason.isEmpty() ? "" : ": " + noIncReason);
  }

  /** Whether the kind is a router network (see {@link TopologyKindSection#routerNetwork()}). */
  boolean routerNetwork() {
    return routerNetwork;
  }

  /** The virtual-channel classes of a router network's routing, without building it; 0 for other kinds. */
  int routerVcClasses() {
    return routerVcClasses;
  }

  /** The id of the vertex named {@code name} (e.g. {@code tor0}, {@code host3}), or -1 when there is none. */
  int vertex(String name) {
    if (vertexByName == null) {
      vertexByName = new HashMap<>();
      for (Vertex v : topology().vertices()) vertexByName.put(v.name(), v.id());
    }
    return vertexByName.getOrDefault(name, -1);
  }

  boolean isHost(int vertex) {
    return topology().isHost(vertex);
  }

  /** True when a cable joins vertices {@code a} and {@code b}. */
  boolean linked(int a, int b) {
    return topology().ports(a).stream().anyMatch(link -> link.to() == b);
  }

  /** For messages: the switches by tier, e.g. {@code tor0..tor3, spine0..spine1}, or {@code it has no switches}. */
  String switchNames() {
    List<Vertex> switches = topology().vertices().subList(topology().hostCount(), topology().vertexCount());
    return switches.isEmpty() ? "it has no switches" : nameRanges(switches);
  }

  /** For messages: {@code host0..hostN}. */
  String hostNames() {
    return nameRanges(topology().vertices().subList(0, topology().hostCount()));
  }

  /** The first and last name of each run of vertices in one tier, e.g. {@code tor0..tor3, spine0..spine1}. */
  private static String nameRanges(List<Vertex> vertices) {
    StringBuilder sb = new StringBuilder();
    int first = 0;
    for (int i = 1; i <= vertices.size(); i++) {
      if (i == vertices.size() || vertices.get(i).tier() != vertices.get(first).tier()) {
        if (sb.length() > 0) sb.append(", ");
        sb.append(vertices.get(first).name()).append("..").append(vertices.get(i - 1).name());
        first = i;
      }
    }
    return sb.toString();
  }

  /** The built topology: its vertices, cables and ports (fault events resolve their links in it). */
  Topology topology() {
    if (topology == null) topology = spec.build();
    return topology;
  }
}
