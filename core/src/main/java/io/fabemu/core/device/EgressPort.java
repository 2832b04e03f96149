package io.fabemu.core.device;

import io.fabemu.core.engine.DeviceReport.LinkCounters;
import io.fabemu.core.spec.LinkSpec;
import io.fabemu.core.time.Units;

/**
 * The sending end of one directed link: a FIFO that serializes packets one after another at the link's rate and
 * counts bytes, packets and busy time (serialization only: a cut-through packet that cannot finish before its
 * tail arrives holds the port longer than it keeps the wire busy). Because packets leave in the order the device
 * hands them over, the queue is fully described by the time the port becomes free; no packet list is kept.
 */
public final class EgressPort {
  private final int fromDevice;
  private final int toDevice;
  private final long bitsPerSecond;
  private final long latencyPs;
  private long freeAtPs;
  private long bytes;
  private long packets;
  private long busyPs;
  private long lastStartPs;
  private long lastEndPs;

  public EgressPort(int fromDevice, int toDevice, LinkSpec spec) {
    this.fromDevice = fromDevice;
    this.toDevice = toDevice;
    this.bitsPerSecond = spec.bandwidthBitsPerSecond();
    this.latencyPs = spec.latencyPs();
  }

  /** Device at the other end. */
  public int toDevice() {
    return toDevice;
  }

  public long latencyPs() {
    return latencyPs;
  }

  /**
   * Puts a packet on the wire.
   *
   * @param readyPs   earliest time its first bit may leave
   * @param wireBytes bytes on the wire
   * @param minEndPs  earliest time its last bit may leave (cut-through: the tail has not arrived yet), or 0
   */
  public void transmit(long readyPs, int wireBytes, long minEndPs) {
    long start = Math.max(readyPs, freeAtPs);
    long serializationPs = Units.transferPs(wireBytes, bitsPerSecond);
    long end = Math.max(start + serializationPs, minEndPs);
    // The port is held until the last bit has left, but a cut-through packet waiting for its tail from a slower
    // ingress leaves the wire idle in between: only serialization counts as busy.
    freeAtPs = end;
    bytes += wireBytes;
    packets++;
    busyPs += serializationPs;
    lastStartPs = start;
    lastEndPs = end;
  }

  /** When the last transmitted packet's first bit reaches the other end. */
  public long lastHeadArrivalPs() {
    return lastStartPs + latencyPs;
  }

  /** When the last transmitted packet's last bit reaches the other end. */
  public long lastTailArrivalPs() {
    return lastEndPs + latencyPs;
  }

  public LinkCounters counters() {
    return new LinkCounters(fromDevice, toDevice, bytes, packets, busyPs);
  }
}
