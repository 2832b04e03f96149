package io.fabemu.core.sim;

import io.fabemu.core.protocol.Payload;

/**
 * Something delivered to a device at a virtual time. Events at one device are handled in the total order
 * (timePs, sourceDevice, sourceSequence), which makes every run deterministic whatever the thread schedule.
 *
 * @param timePs         when the event is due, in picoseconds of virtual time
 * @param sourceDevice   device that created it ({@link #EXTERNAL_SOURCE} for the engine itself)
 * @param sourceSequence per-source counter, strictly increasing
 * @param targetDevice   device that handles it
 * @param payload        what happens: a record of the device protocol (e.g. a packet arrival)
 */
public record Event(long timePs, int sourceDevice, long sourceSequence, int targetDevice, Payload payload)
    implements Comparable<Event> {

  /** Source id of events injected by the engine (workload start). */
  public static final int EXTERNAL_SOURCE = -1;

  @Override
  public int compareTo(Event other) {
    int c = Long.compare(timePs, other.timePs);
    if (c != 0) return c;
    c = Integer.compare(sourceDevice, other.sourceDevice);
    if (c != 0) return c;
    return Long.compare(sourceSequence, other.sourceSequence);
  }
}
