package io.fabemu.core.sim;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The pending events of a set of devices. A window drains, per target device, that device's events due before the
 * window's end, in the (time, source, sequence) order; the devices come out in no particular order (within a window
 * they are independent, see {@link DeviceRunner}).
 *
 * <p>Events are kept in buckets of {@code bucketWidthPs} of virtual time (a calendar queue), not in one priority
 * queue: adding is an append to the event's bucket, and a window's drain takes whole buckets (and the part of one
 * more that falls in the window) and sorts each device's batch, which is small and mostly in order already. With
 * the bucket width set to the engine's window length a window touches at most two buckets. Far-off events (timers)
 * simply sit in buckets of their own.
 */
public final class EventCalendar {

  /** Receives one device's events of a window. */
  @FunctionalInterface
  public interface BatchConsumer {
    void accept(int deviceId, List<Event> events);
  }

  /** The events of one bucket, in arrival order, and the earliest of their times. */
  private static final class Bucket {
    ArrayList<Event> events = new ArrayList<>();
    long minTimePs = Long.MAX_VALUE;

    void add(Event event) {
      events.add(event);
      minTimePs = Math.min(minTimePs, event.timePs());
    }
  }

  private final long bucketWidthPs;
  /** Non-empty buckets by index (time / width). */
  private final TreeMap<Long, Bucket> buckets = new TreeMap<>();
  /** The bucket of the last add: events of one device's window mostly fall in one or two buckets. */
  private long lastIndex = Long.MIN_VALUE;
  private Bucket lastBucket;
  private int size;
  /** Batch being filled per device id, during a drain only. */
  private ArrayList<Event>[] batches = newBatches(64);
  /** Device ids with a batch in the current drain. */
  private int[] touched = new int[64];

  /**
   * @param bucketWidthPs the span of virtual time one bucket holds: best the length of the engine's windows
   *                      (positive)
   */
  public EventCalendar(long bucketWidthPs) {
    if (bucketWidthPs <= 0) {
      throw new IllegalArgumentException("bucket width must be positive, got " + bucketWidthPs + " ps");
    }
    this.bucketWidthPs = bucketWidthPs;
  }

  public void add(Event event) {
    long index = Math.floorDiv(event.timePs(), bucketWidthPs);
    Bucket bucket = lastBucket;
    if (index != lastIndex || bucket == null) {
      bucket = buckets.computeIfAbsent(index, i -> new Bucket());
      lastIndex = index;
      lastBucket = bucket;
    }
    bucket.add(event);
    size++;
  }

  public void addAll(List<Event> events) {
    for (int i = 0, n = events.size(); i < n; i++) {
      add(events.get(i));
    }
  }

  public boolean isEmpty() {
    return size == 0;
  }

  public int size() {
    return size;
  }

  /** Time of the earliest pending event, or {@link Long#MAX_VALUE} when none is pending. */
  public long nextTimePs() {
    Map.Entry<Long, Bucket> first = buckets.firstEntry();
    return first == null ? Long.MAX_VALUE : first.getValue().minTimePs;
  }

  /**
   * Removes every event due before {@code windowEndPs} and hands each target device its events, in order.
   *
   * @return how many events were drained
   */
  public int drainWindow(long windowEndPs, BatchConsumer perDevice) {
    int devices = 0;
    int count = 0;
    // Bucket k holds [k * width, (k + 1) * width): it lies wholly in the window when k < this (no overflow).
    long firstBucketPastEnd = Math.floorDiv(windowEndPs, bucketWidthPs);
    Map.Entry<Long, Bucket> entry;
    while ((entry = buckets.firstEntry()) != null && entry.getValue().minTimePs < windowEndPs) {
      Bucket bucket = entry.getValue();
      ArrayList<Event> events = bucket.events;
      boolean whole = entry.getKey() < firstBucketPastEnd;
      ArrayList<Event> kept = null;
      long keptMinPs = Long.MAX_VALUE;
      for (int i = 0, n = events.size(); i < n; i++) {
        Event event = events.get(i);
        if (!whole && event.timePs() >= windowEndPs) {
          if (kept == null) {
            kept = new ArrayList<>();
          }
          kept.add(event);
          keptMinPs = Math.min(keptMinPs, event.timePs());
          continue;
        }
        int target = event.targetDevice();
        if (target < 0) {
          throw new IllegalStateException("event for negative device id: " + event);
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
        batch.add(event);
        count++;
      }
      if (kept == null) {
        buckets.pollFirstEntry();
        if (bucket == lastBucket) {
          lastBucket = null;
        }
      } else {
        // The bucket reaches past the window: what is left of it stays, with its own earliest time.
        bucket.events = kept;
        bucket.minTimePs = keptMinPs;
        break;
      }
    }
    size -= count;
    for (int i = 0; i < devices; i++) {
      int device = touched[i];
      ArrayList<Event> batch = batches[device];
      batches[device] = null;
      if (batch.size() > 1) {
        batch.sort(null);  // (time, source, sequence); nearly sorted already, which the list sort exploits
      }
      perDevice.accept(device, batch);
    }
    return count;
  }

  @SuppressWarnings("unchecked")
  private static ArrayList<Event>[] newBatches(int size) {
    return (ArrayList<Event>[]) new ArrayList[size];
  }
}
