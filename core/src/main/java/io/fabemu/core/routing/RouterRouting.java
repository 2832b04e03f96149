package io.fabemu.core.routing;

/**
 * Routes of a direct network with a router in every node (mesh, torus, group-ring): deterministic, one output port
 * per (router, destination), and the virtual-channel class a packet must take on the channel it leaves by, which
 * is how a routing keeps its channel dependency graph acyclic (the dateline classes of a torus).
 *
 * <p>Numbering (that of the router-network builders in {@code Topologies}): hosts {@code 0..n-1} first, then
 * routers, router {@code n + h} being host {@code h}'s; a router's port {@link #LOCAL_PORT} goes to its host's
 * NIC (injection and ejection), its other ports to neighbouring routers in the order the builder cabled them. A
 * NIC's only port (0) goes to its router.
 *
 * <p>Virtual channels: a router has {@code v} virtual channels per input port, split into {@link #vcClasses()}
 * classes of {@code v / vcClasses()} consecutive channels each (class {@code c} owns channels
 * {@code c*k .. c*k+k-1}, {@code k = v / vcClasses()}). A packet injected by a NIC starts in class 0.
 *
 * <p>Implementations are immutable, constant time per call, and safe to share between threads.
 */
public interface RouterRouting {

  /** A router's port to its own host's NIC. */
  int LOCAL_PORT = 0;

  /** Number of hosts, which is also the number of routers. */
  int hostCount();

  /** The router of host {@code host}: vertex {@code hostCount() + host}. */
  default int routerOf(int host) {
    return hostCount() + host;
  }

  /**
   * The port by which a packet for {@code destinationHost} leaves router vertex {@code router}: {@link #LOCAL_PORT}
   * when the destination is this router's host.
   */
  int outputPort(int router, int destinationHost);

  /** How many virtual-channel classes the routing needs (1 when any channel will do). */
  int vcClasses();

  /**
   * The class of the virtual channel a packet must take on the channel leaving {@code router} by
   * {@code outputPort}, having arrived on {@code inputPort} in class {@code inputVcClass} ({@link #LOCAL_PORT} and
   * class 0 when it was injected here). 0 on the way out to the local NIC.
   */
  int outputVcClass(int router, int inputPort, int inputVcClass, int outputPort, int destinationHost);
}
