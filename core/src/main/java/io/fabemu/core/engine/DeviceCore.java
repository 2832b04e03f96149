package io.fabemu.core.engine;

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

  /** The device's counters and results at the end of a run. */
  DeviceReport report();
}
