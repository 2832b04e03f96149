package io.fabemu.switching.router;

import io.fabemu.core.sim.ModelVerdict;
import java.util.List;

/**
 * A router network is stuck: a router's stall watchdog found it holding flits none of which moved for the stall limit
 * (deadlocked, or so congested that the limit was too short), or a run ended with flits still held in its routers
 * ({@link RouterDeadlocks#requireDrained}). The message is one line naming the cycle of channels or what each of the
 * router's occupied input virtual channels waits for; {@link #waits()} gives the latter as data. A finding about the
 * model ({@link ModelVerdict}): engines log it without a stack trace.
 */
public final class RouterDeadlockException extends IllegalStateException implements ModelVerdict {
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

  /** The vertex of the router it was found at (whose watchdog fired, or the first holding flits). */
  public int router() {
    return router;
  }

  /** What each occupied input virtual channel of that router waits for. */
  public List<ChannelWait> waits() {
    return waits;
  }
}
