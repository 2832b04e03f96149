package io.fabemu.core.link;

import io.fabemu.core.protocol.DirectedLink;
import io.fabemu.core.routing.PortGraph;
import io.fabemu.core.routing.RouteView;
import io.fabemu.core.routing.RoutingTable;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The routes of a fabric around each set of dead links a run comes to know: the management node computes a view
 * and sends devices only the dead links ({@code RouteUpdate}), and every device asks this for the table. One
 * instance per fabric (per member), shared by its devices, so each view is computed once per member whatever the
 * number of devices that use it; the computation is deterministic, so every member gets the same routes.
 * Thread-safe: devices of one member run on many threads.
 */
public final class RoutingViews implements RouteViews {
  private final PortGraph graph;
  private final RoutingTable built;
  private final ConcurrentHashMap<List<DirectedLink>, RoutingTable> views = new ConcurrentHashMap<>();

  /** @param built the fabric's routes with everything up (the topology kind's own routing) */
  public RoutingViews(PortGraph graph, RoutingTable built) {
    this.graph = graph;
    this.built = built;
  }

  /** The fabric's routes with everything up. */
  @Override
  public RoutingTable built() {
    return built;
  }

  /**
   * The routes around {@code deadLinks} (sorted, as the management node sends them): the built routes when none is
   * dead, else shortest paths with ECMP over what is left ({@link RoutingTable#computeAvoiding}).
   */
  public RoutingTable tableFor(List<DirectedLink> deadLinks) {
    if (deadLinks.isEmpty()) return built;
    return views.computeIfAbsent(List.copyOf(deadLinks), this::compute);
  }

  @Override
  public RouteView viewFor(List<DirectedLink> deadLinks) {
    return tableFor(deadLinks);
  }

  private RoutingTable compute(List<DirectedLink> deadLinks) {
    return RoutingTable.computeAvoiding(graph, deadPorts(graph, deadLinks));
  }

  /** Per vertex, per port: whether its link is one of {@code deadLinks} (a null row: none of the vertex's is). */
  static boolean[][] deadPorts(PortGraph graph, List<DirectedLink> deadLinks) {
    boolean[][] dead = new boolean[graph.vertexCount()][];
    for (DirectedLink link : deadLinks) {
      int from = link.from();
      for (int p = 0; p < graph.portCount(from); p++) {
        if (graph.neighbour(from, p) == link.to()) {
          if (dead[from] == null) dead[from] = new boolean[graph.portCount(from)];
          dead[from][p] = true;
        }
      }
    }
    return dead;
  }
}
