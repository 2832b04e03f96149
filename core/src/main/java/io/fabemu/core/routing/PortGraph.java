package io.fabemu.core.routing;

/**
 * What routing needs to know of a fabric: vertices with numbered ports, each port leading to one neighbour, and
 * hosts numbered first ({@code 0..hostCount-1}). {@code io.fabemu.core.topology.Topology} implements it; routing
 * sees the graph only through this interface so that the topology kinds can choose their routing
 * ({@code TopologySpec.routing}) without a package cycle between topology and routing.
 *
 * <p>Contract: every link is one of a cable's two directions, so if port {@code p} of {@code v} leads to {@code u}
 * then some port of {@code u} leads back to {@code v}. Implementations are immutable.
 */
public interface PortGraph {

  /** Number of hosts: vertices {@code 0..hostCount-1}. */
  int hostCount();

  /** Number of vertices, hosts and switches together. */
  int vertexCount();

  /** Number of ports (outgoing links) of {@code vertex}. */
  int portCount(int vertex);

  /** The vertex at the far end of port {@code port} of {@code vertex}. */
  int neighbour(int vertex, int port);

  /** The vertex's name for messages, e.g. {@code tor3}. */
  String vertexName(int vertex);

  /** One line naming the graph, for messages. */
  String description();
}
