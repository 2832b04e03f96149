package io.fabemu.core.sim;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.PriorityQueue;

/**
 * The pending events of a set of devices, ordered by (time, source, sequence). A window is drained per target
 * device, each device's events in order; devices come out in ascending id order.
 *
 * <p>Draining polls the queue in the global order and appends each event to its device's batch, so every batch
 * is already sorted and no sort is needed; batches are handed over (the consumer owns the list).
 */
public final class EventCalendar {

  /** Receives one device's events of a window. */
  @FunctionalInterface
  public interface BatchConsumer {
    void accept(int deviceId, List<Event> events);
  }

  private final PriorityQueue<Event> pending = new PriorityQueue<>();
  /** Batch being filled per device id, during a drain only. */
  private ArrayList<Event>[] batches = newBatches(64);
  /** Device ids with a batch in the current drain. */
  private int[] touched = new int[64];

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
  public int drainWindow(long windowEndPs, BatchConsumer perDevice) {
    int devices = 0;
    int count = 0;
    Event head;
    while ((head = pending.peek()) != null && head.timePs() < windowEndPs) {
      pending.poll();
      int target = head.targetDevice();
      if (target < 0) {
        throw new IllegalStateException("event for negative device id: " + head);
      }
      if (target >= batches.length) {
        batches = Arrays.copyOf(batches, Math.max(target + 1, batches.length * 2));
      }
      ArrayList<Event> batch = batches[target];
      if (batch == null) {
        batch = new ArrayList<>(4);
        batches[target] = batch;
        if (devices == touched.length) {
          touched = Arrays.copyOf(touched, devices * 2);
        }
        touched[devices++] = target;
      }
      batch.add(head);
      count++;
    }
    Arrays.sort(touched, 0, devices);
    for (int i = 0; i < devices; i++) {
      int device = touched[i];
      ArrayList<Event> batch = batches[device];
      batches[device] = null;
      perDevice.accept(device, batch);
    }
    return count;
  }

  @SuppressWarnings("unchecked")
  private static ArrayList<Event>[] newBatches(int size) {
    return (ArrayList<Event>[]) new ArrayList[size];
  }
}
