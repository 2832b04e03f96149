package io.fabemu.core.router;

import io.fabemu.core.protocol.DeviceProtocol.RouterCycle;
import io.fabemu.core.sim.Outbox;
import java.util.Arrays;

/**
 * Which cycles a router-network device (a router, or a NIC's terminal) evaluates: it asks for an evaluation only
 * when it has work, always for the earliest cycle it may still evaluate, and never schedules one cycle twice.
 *
 * <p>Because every request is for the earliest cycle (the first cycle evaluated at or after now, and after the last
 * cycle evaluated), at most one evaluation is pending at a time and a request made while one is pending asks for
 * that same cycle: it is then a no-op. One exception, in runs with faults: a NIC's terminal may ask for an earlier
 * cycle than the one pending (an acknowledgement that goes before segments still waiting for their DMA read, or a
 * packet queued after a link came back when the one its pending evaluation waited for was lost). That cycle is
 * scheduled too and the later one stays pending (it is evaluated when it comes, with nothing or something to do).
 * A request for a cycle after a pending one is a no-op: the pending evaluation asks again. Not thread-safe (one
 * device's state).
 */
public final class CycleSchedule {
  private final int deviceId;
  private final long cyclePs;
  /** The latest cycle whose evaluation was scheduled; -1 before the first. */
  private long scheduledCycle = -1;
  /** The latest cycle evaluated; -1 before the first. */
  private long lastEvaluatedCycle = -1;
  /** Later cycles still pending after an earlier one was scheduled (see the class comment), ascending; rarely any. */
  private long[] laterPending = new long[0];

  /**
   * @param deviceId the device that evaluates (its {@link RouterCycle} events go to itself)
   * @param cyclePs  the network's clock cycle
   */
  public CycleSchedule(int deviceId, long cyclePs) {
    this.deviceId = deviceId;
    this.cyclePs = cyclePs;
  }

  /**
   * Schedules a {@link RouterCycle} at the middle of the earliest cycle still to evaluate, unless it is already
   * scheduled.
   */
  public void requestEarliest(Outbox outbox) {
    requestFrom(0L, outbox);
  }

  /**
   * Schedules a {@link RouterCycle} at the middle of the earliest cycle still to evaluate that is not before
   * {@code notBeforeCycle}, unless it is already scheduled.
   */
  public void requestFrom(long notBeforeCycle, Outbox outbox) {
    long cycle = Math.max(Math.max(RouterTiming.firstEvaluationAtOrAfter(outbox.nowPs(), cyclePs),
        lastEvaluatedCycle + 1), notBeforeCycle);
    if (cycle == scheduledCycle || isLaterPending(cycle)) return;
    // An earlier evaluation is pending: it asks again for what it cannot do itself.
    if (scheduledCycle > lastEvaluatedCycle && scheduledCycle < cycle) return;
    if (scheduledCycle > cycle && scheduledCycle > lastEvaluatedCycle) {
      // Only after a fault emptied a terminal's queue (see the class comment): keep the later cycle pending.
      int at = 0;
      while (at < laterPending.length && laterPending[at] < scheduledCycle) at++;
      long[] grown = new long[laterPending.length + 1];
      System.arraycopy(laterPending, 0, grown, 0, at);
      grown[at] = scheduledCycle;
      System.arraycopy(laterPending, at, grown, at + 1, laterPending.length - at);
      laterPending = grown;
    }
    scheduledCycle = cycle;
    outbox.send(deviceId, RouterTiming.evaluationPs(cycle, cyclePs), RouterCycle.INSTANCE);
  }

  /** Whether {@code cycle} was scheduled and is not evaluated yet (a {@link RouterCycle} for it is its evaluation). */
  public boolean isDue(long cycle) {
    return cycle > lastEvaluatedCycle && (cycle == scheduledCycle || isLaterPending(cycle));
  }

  private boolean isLaterPending(long cycle) {
    for (long pending : laterPending) {
      if (pending == cycle) return true;
    }
    return false;
  }

  /** Records that {@code cycle} was evaluated. */
  public void markEvaluated(long cycle) {
    lastEvaluatedCycle = cycle;
    if (laterPending.length > 0 && laterPending[0] <= cycle) {
      int evaluated = 0;
      while (evaluated < laterPending.length && laterPending[evaluated] <= cycle) evaluated++;
      laterPending = Arrays.copyOfRange(laterPending, evaluated, laterPending.length);
    }
  }

  /** The latest cycle evaluated; -1 before the first. */
  public long lastEvaluatedCycle() {
    return lastEvaluatedCycle;
  }
}
