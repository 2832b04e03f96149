package io.fabemu.core.inc;

import io.fabemu.core.protocol.DeviceProtocol.Packet;

/**
 * The INC part of a packet on a link: the INC flag (present = flagged), the packet type, the IP addresses as the
 * switches see them, the MPI header, and the type's own header. A packet without a frame is an ordinary packet.
 *
 * @param type          the INC packet type
 * @param ipSource      IP source address, see {@link IncAddresses}
 * @param ipDestination IP destination address (swapped with the cache field of Header0/Header2 where the INC patent
 *                      says)
 * @param mpi           the INC paper's MPI header
 * @param header0       on tree-generation packets; null otherwise
 * @param header2       on task fragments; null otherwise
 * @param control       on tree-generation and release packets; null otherwise
 * @param stream        on the fragments of a chunk of a streamed task; null otherwise (a task that fits one chunk)
 */
public record IncFrame(IncPacketType type, long ipSource, long ipDestination, MpiHeader mpi, IncHeader0 header0,
                       IncHeader2 header2, ControlPayload control, IncStreamHeader stream)
    implements Packet.Extension {

  /** {@code packet}'s INC frame; null for an ordinary packet. A cast, no allocation: it is on the data path. */
  public static IncFrame of(Packet packet) {
    return (IncFrame) packet.extension();
  }

  /** A frame without a stream header: every control packet, and the fragments of a task that fits one chunk. */
  public IncFrame(IncPacketType type, long ipSource, long ipDestination, MpiHeader mpi, IncHeader0 header0,
                  IncHeader2 header2, ControlPayload control) {
    this(type, ipSource, ipDestination, mpi, header0, header2, control, null);
  }

  /** A task fragment's frame (Header2 present: TASK_UP or TASK_DOWN), whose data loss may hit. */
  @Override
  public boolean carriesTaskData() {
    return header2 != null;
  }

  /** The same frame with Header2's retransmission flag set (a task fragment's frame; the stream header kept). */
  @Override
  public IncFrame asRetransmission() {
    return new IncFrame(type, ipSource, ipDestination, mpi, header0, header2.asRetransmission(), control, stream);
  }
}
