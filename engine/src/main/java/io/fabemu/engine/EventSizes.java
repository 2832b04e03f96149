package io.fabemu.engine;

import io.fabemu.core.sim.Event;

/**
 * A cheap upper estimate of an event's serialized size, to cut cross-member batches below Artery's frame size
 * without serializing twice. Only the data arrays matter (each payload says how many bytes it carries); everything
 * else is a small constant.
 */
final class EventSizes {
  /** Event fields, payload headers and Kryo's framing: generous. */
  private static final long FIXED_BYTES = 160L;

  private EventSizes() {}

  static long estimate(Event event) {
    return FIXED_BYTES + event.payload().dataBytes();
  }
}
