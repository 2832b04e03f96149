package io.fabemu.switching.router;

import java.util.List;

/**
 * A router held flits none of which moved for the stall limit: the network is deadlocked (or so congested that the
 * limit was too short). The message is one line naming the router and what each of its occupied input virtual
 * channels waits for; {@link #waits()} gives the same as data, and {@link RouterDeadlocks#findCycle} follows the
 * waits across routers to the cycle of channels.
 */
public final class RouterDeadlockException extends IllegalStateException {
  private static final long serialVersionUID = 1L;

  private final int router;
  private final transient List<ChannelWait> waits;

  /**
   * @param message one line
   * @param router  the router's vertex
   * @param waits   what its occupied input virtual channels wait for
   */
  public RouterDeadlockException(String message, int router, List<ChannelWait> waits) {
    super(message);
    this.router = router;
    this.waits = List.copyOf(waits);
  }

  /** The vertex of the router whose watchdog fired. */
  public int router() {
    return router;
  }

  /** What each occupied input virtual channel of that router waits for. */
  public List<ChannelWait> waits() {
    return waits;
  }
}
