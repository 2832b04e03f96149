package io.fabemu.core.routing;

/**
 * Checks shared by the router routings' factories: that a graph is numbered as {@link RouterRouting} requires and
 * that a router's ports lead where the kind's port order says, so a routing is never paired with a graph it would
 * route wrongly without a word.
 */
final class RouterNetworkShape {

  /** Most nodes of a router network: its fabric has 3 devices per node (NIC, router, compute node), all ints. */
  static final int MAX_NODES = Integer.MAX_VALUE / 3;

  private RouterNetworkShape() {}

  /** {@code nodes} hosts, then {@code nodes} routers; host {@code h}'s only port and router port 0 join the two. */
  static void requireHostsAndLocalPorts(PortGraph graph, String routing, int nodes) {
    RoutingTable.requireShape(graph, routing, nodes, 2 * nodes);
    for (int h = 0; h < nodes; h++) {
      if (graph.portCount(h) != 1 || graph.neighbour(h, 0) != nodes + h) {
        throw new IllegalArgumentException(routing + " expects " + graph.vertexName(h) + " to have one port, to "
            + graph.vertexName(nodes + h) + ", but " + graph.description() + " gives it " + graph.portCount(h)
            + (graph.portCount(h) == 0 ? "" : ", port 0 to " + graph.vertexName(graph.neighbour(h, 0))));
      }
      requirePort(graph, routing, nodes + h, RouterRouting.LOCAL_PORT, h, "its host");
    }
  }

  static void requirePortCount(PortGraph graph, String routing, int router, int ports) {
    if (graph.portCount(router) != ports) {
      throw new IllegalArgumentException(routing + " expects " + ports + " ports on " + graph.vertexName(router)
          + ", but " + graph.description() + " gives it " + graph.portCount(router));
    }
  }

  /** Port {@code port} of {@code router} must lead to {@code neighbour}, the router's {@code direction}. */
  static void requirePort(PortGraph graph, String routing, int router, int port, int neighbour, String direction) {
    if (port >= graph.portCount(router) || graph.neighbour(router, port) != neighbour) {
      throw new IllegalArgumentException(routing + " expects port " + port + " of " + graph.vertexName(router)
          + " (" + direction + ") to lead to " + graph.vertexName(neighbour) + ", but in " + graph.description()
          + " it " + (port >= graph.portCount(router) ? "does not exist"
              : "leads to " + graph.vertexName(graph.neighbour(router, port))));
    }
  }
}
