package io.fabemu.core.router;

import io.fabemu.core.protocol.DeviceProtocol.RouterCycle;
import io.fabemu.core.sim.Outbox;

/**
 * Which cycles a router-network device (a router, or a NIC's terminal) evaluates: it asks for an evaluation only
 * when it has work, always for the earliest cycle it may still evaluate, and never schedules one cycle twice.
 *
 * <p>Because every request is for the earliest cycle (the first cycle evaluated at or after now, and after the last
 * cycle evaluated), at most one evaluation is pending at a time and a request made while one is pending asks for
 * that same cycle: it is then a no-op. Not thread-safe (one device's state).
 */
public final class CycleSchedule {
  private final int deviceId;
  private final long cyclePs;
  /** The latest cycle whose evaluation was scheduled; -1 before the first. */
  private long scheduledCycle = -1;
  /** The latest cycle evaluated; -1 before the first. */
  private long lastEvaluatedCycle = -1;

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
    if (cycle == scheduledCycle) return;
    if (scheduledCycle > cycle && scheduledCycle > lastEvaluatedCycle) {
      // The invariant above makes this impossible; were it broken, cycle would be skipped silently.
      throw new IllegalStateException("device " + deviceId + " has cycle " + scheduledCycle
          + " scheduled and asked for the earlier cycle " + cycle);
    }
    scheduledCycle = cycle;
    outbox.send(deviceId, RouterTiming.evaluationPs(cycle, cyclePs), RouterCycle.INSTANCE);
  }

  /** Whether {@code cycle} was scheduled and is not evaluated yet (a {@link RouterCycle} for it is its evaluation). */
  public boolean isDue(long cycle) {
    return cycle == scheduledCycle && cycle > lastEvaluatedCycle;
  }

  /** Records that {@code cycle} was evaluated. */
  public void markEvaluated(long cycle) {
    lastEvaluatedCycle = cycle;
  }

  /** The latest cycle evaluated; -1 before the first. */
  public long lastEvaluatedCycle() {
    return lastEvaluatedCycle;
  }
}
