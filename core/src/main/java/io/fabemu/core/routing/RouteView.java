package io.fabemu.core.routing;

/**
 * The routes of a fabric in one view of what is down, as a management node compares them: which hosts reach which,
 * and whether a device's routes differ from another view's (then it needs an update). A {@link RoutingTable} on
 * switched and direct fabrics, a {@link DetourTable} on router networks.
 */
public interface RouteView {
  /** Whether a packet from {@code vertex} (a host, or a switch) reaches host {@code destinationHost}. */
  boolean reachable(int vertex, int destinationHost);

  /** Whether device {@code vertex} routes as in {@code other} (a view of the same fabric, of the same kind). */
  boolean sameRoutesAt(int vertex, RouteView other);
}
