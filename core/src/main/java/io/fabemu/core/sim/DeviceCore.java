package io.fabemu.core.sim;

import java.util.List;

/**
 * The plain logic of one emulated device (compute node, NIC, switch). It is driven one event at a time, in the
 * engine's total order, and never reads the wall clock or an unseeded random source: the same events give the
 * same outputs, whichever engine (plain loop, test, or Pekko actors on one or many members) drives it.
 */
public interface DeviceCore {

  /** The device's id in the fabric. */
  int deviceId();

  /** Handles one event; new events go to {@code outbox}. */
  void onEvent(Event event, Outbox outbox);

  /** How many units of workload progress (completed collective operations) this device has made so far. */
  default long progress() {
    return 0L;
  }

  /**
   * The per-rank case results this device finished since the last call (each result is returned once), so that
   * an engine can stream them while the run goes on and still report what was finished if the run is cut short.
   * The end-of-run {@link #report()} stays the full answer. Called after every window that ran the device: it
   * must be cheap, and allocate nothing when there is nothing new (return {@code List.of()}).
   */
  default List<DeviceReport.RankResult> takeFinishedResults() {
    return List.of();
  }

  /** The device's counters and results at the end of a run. */
  DeviceReport report();
}
