package io.fabemu.core.sim;

import io.fabemu.core.protocol.Payload;

/** Where a device puts the events it creates while handling one event. */
public interface Outbox {

  /** Virtual time of the event being handled. */
  long nowPs();

  /**
   * Schedules {@code payload} for {@code targetDevice} at {@code timePs} (never before now). For another device
   * the time must be at least now + the engine's lookahead (every link's latency is at least the lookahead);
   * for the device itself any time from now on is allowed.
   */
  void send(int targetDevice, long timePs, Payload payload);
}
