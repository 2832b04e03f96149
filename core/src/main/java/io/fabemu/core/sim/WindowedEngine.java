package io.fabemu.core.sim;

import java.util.ArrayList;
import java.util.List;

/**
 * The conservative time-window engine as a plain single-threaded loop, for unit tests and benchmarks of device
 * logic. It opens window [T, T + lookahead) at the earliest pending time T, runs every device with events in it,
 * and repeats until nothing is pending. The Pekko engine follows exactly the same rules, so both give the same
 * results.
 */
public final class WindowedEngine {
  private final DeviceRunner[] runners;
  private final long lookaheadPs;
  private final EventCalendar calendar;
  private long windows;
  private long eventsHandled;
  private long lastWindowStartPs;

  /**
   * @param devices     devices indexed by their id (null entries allowed for unused ids)
   * @param lookaheadPs window length: at most the smallest latency between two devices, and positive
   */
  public WindowedEngine(DeviceCore[] devices, long lookaheadPs) {
    if (lookaheadPs <= 0) {
      throw new IllegalArgumentException("lookahead must be positive, got " + lookaheadPs + " ps");
    }
    this.lookaheadPs = lookaheadPs;
    this.calendar = new EventCalendar(lookaheadPs);
    this.runners = new DeviceRunner[devices.length];
    for (int i = 0; i < devices.length; i++) {
      if (devices[i] != null) {
        if (devices[i].deviceId() != i) {
          throw new IllegalArgumentException("device at index " + i + " has id " + devices[i].deviceId());
        }
        runners[i] = new DeviceRunner(devices[i]);
      }
    }
  }

  public void inject(Event event) {
    calendar.add(event);
  }

  /** Runs until no event is pending. */
  public void run() {
    List<Event> outgoing = new ArrayList<>();
    while (!calendar.isEmpty()) {
      long windowStart = calendar.nextTimePs();
      long windowEnd = windowStart + lookaheadPs;
      lastWindowStartPs = windowStart;
      windows++;
      calendar.drainWindow(windowEnd, (device, events) -> {
        DeviceRunner runner = runners[device];
        if (runner == null) {
          throw new IllegalStateException("event for unknown device " + device);
        }
        eventsHandled += runner.runWindow(events, windowEnd, outgoing);
      });
      calendar.addAll(outgoing);
      outgoing.clear();
    }
  }

  public long windows() {
    return windows;
  }

  public long eventsHandled() {
    return eventsHandled;
  }

  /**
   * Start of the last window run (0 when none ran). It depends on how time was cut into windows; the run's
   * virtual end is {@link #lastEventTimePs()}.
   */
  public long lastWindowStartPs() {
    return lastWindowStartPs;
  }

  /**
   * Time of the last event handled, over all devices (0 when none was): the run's virtual end. Unlike the window
   * starts it does not depend on the window structure, so every engine (one member or several) reports the same.
   */
  public long lastEventTimePs() {
    long last = 0L;
    for (DeviceRunner runner : runners) {
      if (runner != null) {
        last = Math.max(last, runner.lastEventTimePs());
      }
    }
    return last;
  }

  public List<DeviceReport> reports() {
    List<DeviceReport> reports = new ArrayList<>();
    for (DeviceRunner runner : runners) {
      if (runner != null) {
        reports.add(runner.core().report());
      }
    }
    return reports;
  }
}
