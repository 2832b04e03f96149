package io.fabemu.core.link;

import io.fabemu.core.protocol.DirectedLink;
import io.fabemu.core.routing.RouteView;
import java.util.List;

/**
 * The views of a fabric's routes a run with faults comes to know, one per set of dead links, computed once per
 * member and shared by its devices. Implementations are thread-safe and deterministic.
 */
public interface RouteViews {
  /** The routes with everything up. */
  RouteView built();

  /** The routes around {@code deadLinks} (sorted, as the management node sends them). */
  RouteView viewFor(List<DirectedLink> deadLinks);
}
