package io.fabemu.core.device;

import io.fabemu.core.data.DataBuffer;
import io.fabemu.core.data.DataType;

/**
 * The payloads of events between devices (and of a device's events to itself). Every class here crosses members
 * in a distributed run, so each is registered with the wire serializer.
 */
public final class DeviceProtocol {
  /** Bytes of the MAXLOC/MINLOC location every element carries when it has one. */
  private static final int LOCATION_BYTES = 4;

  private DeviceProtocol() {}

  /** Engine to compute node at time 0: start the workload. */
  public enum StartWorkload { INSTANCE }

  /** Compute node to its NIC: send {@code message} to the NIC of {@code destinationHost}. */
  public record NicSend(int destinationHost, Message message) {}

  /** NIC to its compute node: {@code message} has fully arrived in host memory. */
  public record NicDeliver(Message message) {}

  /** Compute node to itself: an intra-node copy from one process to another has completed. */
  public record LocalDelivery(Message message) {}

  /**
   * Facts about a message that every one of its packets carries, so the receiving NIC can reassemble it. A message
   * without data (zero bytes, or synthetic) has no data type and no elements, only its size.
   *
   * @param totalElements elements in the whole message (0 when it carries no data)
   * @param dataType      element type (null when the message carries no data)
   * @param withLocations elements carry MAXLOC/MINLOC locations
   * @param totalBytes    payload bytes of the whole message, data or not
   */
  public record MessageInfo(int sourceRank, int destinationRank, long tag, int totalElements, DataType dataType,
                            boolean withLocations, long totalBytes) {

    /**
     * @throws IllegalArgumentException when a message without data has elements or a negative size, or the size
     *                                  of one with data is not its elements' size
     */
    public MessageInfo {
      boolean consistent = dataType == null
          ? totalElements == 0 && !withLocations && totalBytes >= 0
          : totalBytes == (long) totalElements * (dataType.sizeBytes() + (withLocations ? LOCATION_BYTES : 0));
      if (!consistent) {
        throw new IllegalArgumentException("inconsistent message info: " + totalElements + " elements of "
            + dataType + (withLocations ? " with locations" : "") + " in " + totalBytes + " B");
      }
    }
  }

  /**
   * One packet on a link. The event that carries it is due when the packet's first bit arrives at the receiver;
   * {@code tailTimePs} is when its last bit does (equal to the event time plus the serialization time).
   *
   * @param sourceHost      host whose NIC created the packet
   * @param destinationHost host whose NIC consumes it
   * @param messageId       per-source-NIC message counter
   * @param segmentIndex    0..segmentCount-1
   * @param segmentCount    packets in the message
   * @param wireBytes       bytes on the wire: payload plus header
   * @param tailTimePs      arrival time of the last bit at the receiving device
   * @param info            message facts, shared by all its packets
   * @param elementOffset   index of the first element of {@code slice} in the message (0 without data)
   * @param slice           this packet's part of the data (null when the message carries none: zero bytes, or
   *                        synthetic; the packet's payload is then {@code wireBytes} minus the NIC's header)
   */
  public record Packet(int sourceHost, int destinationHost, long messageId, int segmentIndex, int segmentCount,
                       int wireBytes, long tailTimePs, MessageInfo info, int elementOffset, DataBuffer slice) {

    /** Same packet, arriving at the next device at a new tail time. */
    public Packet withTailTimePs(long newTailTimePs) {
      return new Packet(sourceHost, destinationHost, messageId, segmentIndex, segmentCount, wireBytes,
          newTailTimePs, info, elementOffset, slice);
    }
  }
}
