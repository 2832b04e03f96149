package io.fabemu.core.protocol;

import io.fabemu.core.data.DataBuffer;

/**
 * A rank-to-rank message, as MPI sees it. A real message carries its data; a synthetic one (the {@code synthetic}
 * payload mode) carries its size only, and the network treats both alike: the same packets, the same times.
 *
 * <p>A message's data is its own (a sender passes a copy of its buffer) and is never written while it travels: the
 * packets that carry it, the fragments a NIC keeps for retransmission and the message a receiver reassembles are
 * views of it ({@link DataBuffer#view}), not copies. A receiver reads it (copies or reduces it into its buffers)
 * and never writes it. Its life ends when the receiving rank has applied it: nothing reads an ordinary (not INC)
 * message after that, so the rank may reuse its buffer for a later send. Anything that would keep or pass on a
 * delivered message's data (a duplicate, a trace) must copy it.
 *
 * @param sourceRank      sending world rank
 * @param destinationRank receiving world rank
 * @param tag             matches the message to the receive the collective posted; its low {@value #LANE_BITS}
 *                        bits are also its {@link #lane}
 * @param data            the payload; null for a zero-byte message (e.g. in a barrier) and for a synthetic one
 * @param sizeBytes       payload bytes: {@code data.sizeBytes()} when there is data, else the synthetic size (0 for
 *                        a zero-byte message)
 * @param extension       a feature's request that rides with the message, which the kernel passes on without
 *                        reading; null for an ordinary message. The INC feature's says what the NIC's INC unit is
 *                        to do with the message (a control message or an aggregation task), or, on a delivered
 *                        message, what it was; the INC feature reads it as its {@code IncRequest}
 *                        ({@code IncRequest.of(message)}). A protocol's {@link LineFraming} marks an ordinary message
 *                        whose payload travels framed in lines (a NIC that frames reads it)
 */
public record Message(int sourceRank, int destinationRank, long tag, DataBuffer data, long sizeBytes,
                      Extension extension) {

  /**
   * A feature's request that a message carries past the kernel, which passes it on without reading it: the INC
   * feature's {@code IncRequest} (core.inc), or a protocol's {@link LineFraming}. A marker, so that the kernel names
   * no feature type.
   */
  public interface Extension {}

  /** Bits of a tag that name its lane. */
  public static final int LANE_BITS = 4;

  /**
   * The lane of a message with {@code tag}: its low {@value #LANE_BITS} bits. Where a hop has several equal-cost
   * ports (parallel links, or ECMP), lane k leaves by the k-th port after the one its flow hashes to
   * ({@code RoutingTable#egressPort}), so messages between the same two hosts on different lanes take different
   * links. Algorithms that use one link per neighbour leave it 0 (the flow's own port); the multi-ring algorithms
   * give rings that share a hop different lanes.
   */
  public static int laneOf(long tag) {
    return (int) tag & ((1 << LANE_BITS) - 1);
  }

  /** An ordinary (not INC) message. */
  public Message(int sourceRank, int destinationRank, long tag, DataBuffer data, long sizeBytes) {
    this(sourceRank, destinationRank, tag, data, sizeBytes, null);
  }

  /**
   * @throws IllegalArgumentException when the size is negative or differs from the data's
   */
  public Message {
    if (data == null ? sizeBytes < 0 : data.sizeBytes() != sizeBytes) {
      throw new IllegalArgumentException("message from rank " + sourceRank + " to rank " + destinationRank + " of "
          + sizeBytes + " B " + (data == null ? "has a negative size" : "carries " + data.sizeBytes() + " B of data"));
    }
  }

  /** A real message: its size is its data's (0 when {@code data} is null). */
  public Message(int sourceRank, int destinationRank, long tag, DataBuffer data) {
    this(sourceRank, destinationRank, tag, data, data == null ? 0L : data.sizeBytes());
  }

  /** A synthetic message: {@code sizeBytes} of payload and no data. */
  public static Message synthetic(int sourceRank, int destinationRank, long tag, long sizeBytes) {
    return new Message(sourceRank, destinationRank, tag, null, sizeBytes);
  }

  /** Bytes of element data the message carries (0 without data); see {@link Payload#dataBytes()}. */
  public long dataBytes() {
    return data == null ? 0L : data.sizeBytes();
  }

  /** The same message carrying {@code request} (the INC feature: marked for the NIC's INC unit). */
  public Message withExtension(Extension request) {
    return new Message(sourceRank, destinationRank, tag, data, sizeBytes, request);
  }
}
