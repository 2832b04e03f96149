package io.fabemu.core.fault;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * A scenario's faults: its events in time order (ties keep the order they were given in), numbered 0.., and the
 * settings of detection, repair and retransmission. An empty plan ({@link #NONE}) changes nothing: no management
 * node, no acknowledgements, the run of a scenario without faults.
 *
 * @param active whether the run has the machinery of faults (the management node, the NICs' reliable transport, a
 *               router network's detour routing): a plan with events always; a plan without is active only as a
 *               faulted run's baseline ({@link #withoutEvents}), which must suffer everything the faulted run does
 *               but its events
 */
public record FaultPlan(FaultSettings settings, List<FaultEvent> events, boolean active) {

  public static final FaultPlan NONE = new FaultPlan(FaultSettings.DEFAULTS, List.of());

  /** A plan whose machinery is on when it has events. */
  public FaultPlan(FaultSettings settings, List<FaultEvent> events) {
    this(settings, events, !events.isEmpty());
  }

  public FaultPlan {
    if (!active && !events.isEmpty()) throw new IllegalArgumentException("a fault plan with events is active");
    List<FaultEvent> sorted = new ArrayList<>(events);
    sorted.sort(Comparator.comparingLong(FaultEvent::atPs)); // stable: ties keep their order
    List<FaultEvent> numbered = new ArrayList<>(sorted.size());
    for (int i = 0; i < sorted.size(); i++) numbered.add(sorted.get(i).withId(i));
    events = List.copyOf(numbered);
  }

  /** True when the scenario injects no fault. */
  public boolean isEmpty() {
    return events.isEmpty();
  }

  /** Whether the run has the machinery of faults: see {@link #active}. */
  public boolean isActive() {
    return active;
  }

  /**
   * The same settings without events, still active: the fault-free baseline of a faulted run, whose transport
   * acknowledges and resends as the faulted run's does, so that an event's extra latency is its own.
   */
  public FaultPlan withoutEvents() {
    return new FaultPlan(settings, List.of(), true);
  }

  public int eventCount() {
    return events.size();
  }

  public FaultEvent event(int id) {
    return events.get(id);
  }

  /**
   * The last event at or before {@code timePs} that impairs its target (not one that restores it, see
   * {@link FaultEvent#restoresTarget}): the one a retransmission then is put down to, as a repair loses nothing;
   * -1 when none has happened yet.
   */
  public int latestImpairingEventAtOrBefore(long timePs) {
    int id = latestEventAtOrBefore(timePs);
    while (id >= 0 && events.get(id).restoresTarget()) id--;
    return id;
  }

  /** The last event at or before {@code timePs}, or -1 when none has happened yet. */
  public int latestEventAtOrBefore(long timePs) {
    int low = 0;
    int high = events.size() - 1;
    int found = -1;
    while (low <= high) {
      int mid = (low + high) >>> 1;
      if (events.get(mid).atPs() <= timePs) {
        found = mid;
        low = mid + 1;
      } else {
        high = mid - 1;
      }
    }
    return found;
  }

  /**
   * A flapping target: {@code down} at its time and every {@code periodPs} after, {@code count} times, each followed
   * {@code downForPs} later by the same target's up.
   *
   * @param up the target's up event (its time is ignored)
   */
  public static List<FaultEvent> flap(FaultEvent down, FaultEvent up, long periodPs, long downForPs, int count) {
    if (down.action() != FaultAction.DOWN || up.action() != FaultAction.UP) {
      throw new IllegalArgumentException("a flap is a down and an up of one target");
    }
    if (count < 1 || downForPs <= 0 || periodPs <= downForPs) {
      throw new IllegalArgumentException("flap of " + down.target() + ": count must be at least 1 and the period "
          + "longer than the time down (period " + periodPs + " ps, down " + downForPs + " ps)");
    }
    List<FaultEvent> events = new ArrayList<>(2 * count);
    for (int i = 0; i < count; i++) {
      long start = down.atPs() + i * periodPs;
      events.add(down.at(start));
      events.add(up.at(start + downForPs));
    }
    return events;
  }
}
