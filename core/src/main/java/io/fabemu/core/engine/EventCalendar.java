package io.fabemu.core.engine;

import java.util.ArrayList;
import java.util.List;
import java.util.PriorityQueue;
import java.util.function.BiConsumer;

/**
 * The pending events of a set of devices, ordered by (time, source, sequence). A window is drained per target
 * device, each device's events in order; devices come out in ascending id order.
 */
public final class EventCalendar {
  private final PriorityQueue<Event> pending = new PriorityQueue<>();
  private final List<Event> drained = new ArrayList<>();

  public void add(Event event) {
    pending.add(event);
  }

  public void addAll(List<Event> events) {
    for (int i = 0, n = events.size(); i < n; i++) {
      pending.add(events.get(i));
    }
  }

  public boolean isEmpty() {
    return pending.isEmpty();
  }

  public int size() {
    return pending.size();
  }

  /** Time of the earliest pending event, or {@link Long#MAX_VALUE} when none is pending. */
  public long nextTimePs() {
    Event head = pending.peek();
    return head == null ? Long.MAX_VALUE : head.timePs();
  }

  /**
   * Removes every event due before {@code windowEndPs} and hands each target device its events, in order.
   *
   * @return how many events were drained
   */
  public int drainWindow(long windowEndPs, BiConsumer<Integer, List<Event>> perDevice) {
    drained.clear();
    while (!pending.isEmpty() && pending.peek().timePs() < windowEndPs) {
      drained.add(pending.poll());
    }
    int count = drained.size();
    if (count == 0) {
      return 0;
    }
    // Stable sort by target keeps each device's events in the global (time, source, sequence) order.
    drained.sort((a, b) -> Integer.compare(a.targetDevice(), b.targetDevice()));
    int start = 0;
    for (int i = 1; i <= count; i++) {
      if (i == count || drained.get(i).targetDevice() != drained.get(start).targetDevice()) {
        perDevice.accept(drained.get(start).targetDevice(), new ArrayList<>(drained.subList(start, i)));
        start = i;
      }
    }
    drained.clear();
    return count;
  }
}
