package io.fabemu.core.link;

import io.fabemu.core.protocol.DirectedLink;
import io.fabemu.core.routing.DetourTable;
import io.fabemu.core.routing.PortGraph;
import io.fabemu.core.routing.RouterRouting;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The detours of a router network around each set of dead links a run comes to know ({@link DetourTable}): the
 * management node sends the NICs only the dead links, and each asks this for its via nodes. One instance per fabric
 * (per member), shared by its devices, so each view is computed once per member; the computation is deterministic,
 * so every member gets the same detours. Thread-safe.
 */
public final class DetourViews implements RouteViews {
  private final PortGraph graph;
  private final RouterRouting routing;
  private final DetourTable built;
  private final ConcurrentHashMap<List<DirectedLink>, DetourTable> views = new ConcurrentHashMap<>();

  /** @param routing the network's own routing (dimension order), which both legs of a detour follow */
  public DetourViews(PortGraph graph, RouterRouting routing) {
    this.graph = graph;
    this.routing = routing;
    this.built = DetourTable.direct(routing.hostCount());
  }

  /** Every pair on the direct route. */
  @Override
  public DetourTable built() {
    return built;
  }

  /** The detours around {@code deadLinks} (sorted, as the management node sends them). */
  @Override
  public DetourTable viewFor(List<DirectedLink> deadLinks) {
    if (deadLinks.isEmpty()) return built;
    return views.computeIfAbsent(List.copyOf(deadLinks),
        dead -> DetourTable.compute(graph, routing, RoutingViews.deadPorts(graph, dead)));
  }
}
