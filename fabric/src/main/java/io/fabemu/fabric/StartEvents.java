package io.fabemu.fabric;

import io.fabemu.core.protocol.Payload;
import io.fabemu.core.sim.Event;
import java.util.ArrayList;
import java.util.List;

/**
 * The events that start a run, as the {@link DeviceInstaller}s add them: each comes from outside the fabric
 * ({@link Event#EXTERNAL_SOURCE}) with the next sequence number (0, 1, …), so same-time start events keep the order
 * they were added in.
 */
final class StartEvents {

  private final List<Event> events = new ArrayList<>();

  /** Adds {@code payload} for device {@code device} at {@code timePs}. */
  void add(long timePs, int device, Payload payload) {
    events.add(new Event(timePs, Event.EXTERNAL_SOURCE, events.size(), device, payload));
  }

  /** The events added so far, in order; a list the caller owns. */
  List<Event> toList() {
    return new ArrayList<>(events);
  }
}
