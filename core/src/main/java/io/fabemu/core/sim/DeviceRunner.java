package io.fabemu.core.sim;

import io.fabemu.core.protocol.Payload;
import java.util.List;
import java.util.PriorityQueue;

/**
 * Drives one {@link DeviceCore} through time windows. Given the events due in [windowStart, windowEnd), sorted,
 * it handles them and every self-event the device schedules inside the window, in the total event order, and
 * returns everything else it created. It checks the lookahead contract: an event for another device must be due
 * at or after the window's end, or the run would depend on how windows are scheduled.
 *
 * <p>Every engine (the plain loop, tests, the Pekko device actor) drives devices through this class, so they all
 * handle events identically.
 */
public final class DeviceRunner implements Outbox {
  private final DeviceCore core;
  private final int deviceId;
  /** Self-events due inside the current window; the window's batch is merged with them in order. */
  private final PriorityQueue<Event> selfEventsInWindow = new PriorityQueue<>();
  private long nextSequence;
  private long windowEndPs;
  private long nowPs;
  private List<Event> outgoing;
  private long eventsHandled;
  /** Time of the last event handled; 0 before the first. */
  private long lastEventTimePs;

  public DeviceRunner(DeviceCore core) {
    this.core = core;
    this.deviceId = core.deviceId();
  }

  public DeviceCore core() {
    return core;
  }

  /** Total events this device has handled. */
  public long eventsHandled() {
    return eventsHandled;
  }

  /**
   * Time of the last event this device handled (0 when it handled none): events are handled in time order, so
   * this is the latest. It depends only on the events, never on how the run was cut into windows.
   */
  public long lastEventTimePs() {
    return lastEventTimePs;
  }

  /**
   * Handles one window.
   *
   * @param events      events due in the window for this device, sorted in the (time, source, sequence) order
   * @param windowEndPs end of the window (exclusive)
   * @param outgoing    receives events for other devices and this device's own events due at or after the end
   * @return how many events were handled
   */
  public int runWindow(List<Event> events, long windowEndPs, List<Event> outgoing) {
    this.windowEndPs = windowEndPs;
    this.outgoing = outgoing;
    int handled = 0;
    int next = 0;
    int size = events.size();
    Event previous = null;
    while (true) {
      // Merge the sorted batch with the self-events scheduled while handling it.
      Event self = selfEventsInWindow.peek();
      Event event;
      if (next < size && (self == null || events.get(next).compareTo(self) < 0)) {
        event = events.get(next++);
        if (previous != null && previous.compareTo(event) > 0) {
          throw new IllegalStateException("device " + deviceId + " was handed unsorted events: " + previous
              + " before " + event);
        }
        previous = event;
      } else if (self != null) {
        event = selfEventsInWindow.poll();
      } else {
        break;
      }
      if (event.timePs() >= windowEndPs) {
        throw new IllegalStateException("device " + deviceId + " was handed an event at " + event.timePs()
            + " ps, after its window's end " + windowEndPs + " ps");
      }
      nowPs = event.timePs();
      core.onEvent(event, this);
      handled++;
    }
    this.outgoing = null;
    if (handled > 0) {
      lastEventTimePs = nowPs;
    }
    eventsHandled += handled;
    return handled;
  }

  @Override
  public long nowPs() {
    return nowPs;
  }

  @Override
  public void send(int targetDevice, long timePs, Payload payload) {
    if (timePs < nowPs) {
      throw new IllegalStateException("device " + deviceId + " scheduled an event in the past: " + timePs
          + " ps < now " + nowPs + " ps" + (timePs < 0 ? " (virtual time overflowed: are some delays or sizes absurd?)"
          : ""));
    }
    Event event = new Event(timePs, deviceId, nextSequence++, targetDevice, payload);
    if (targetDevice == deviceId && timePs < windowEndPs) {
      selfEventsInWindow.add(event);
      return;
    }
    if (targetDevice != deviceId && timePs < windowEndPs) {
      throw new IllegalStateException("lookahead violated: device " + deviceId + " sent "
          + payload.getClass().getSimpleName() + " to device " + targetDevice + " due at " + timePs
          + " ps, before the window's end " + windowEndPs + " ps (is some latency below the lookahead?)");
    }
    outgoing.add(event);
  }
}
