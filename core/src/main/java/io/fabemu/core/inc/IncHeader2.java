package io.fabemu.core.inc;

import java.nio.ByteBuffer;

/**
 * The INC patent's Header2, on every task fragment (16 bytes, big-endian).
 *
 * @param taskId         4 B: the task the fragment belongs to
 * @param fragmentIndex  2 B, unsigned: 0 .. fragmentCount-1
 * @param fragmentCount  2 B, unsigned: fragments in the task (M)
 * @param fragmentBytes  2 B, unsigned: data bytes in this fragment
 * @param flags          2 B, unsigned: bit 0 set on a retransmission
 * @param dstIpCache     4 B: the real destination, swapped with the IP destination
 */
public record IncHeader2(long taskId, int fragmentIndex, int fragmentCount, int fragmentBytes, int flags,
                         long dstIpCache) {
  /** Flags bit 0: the fragment is a retransmission. */
  public static final int RETRANSMISSION_FLAG = 1;

  public static final int WIRE_BYTES = 16;
  static final String NAME = "Header2";

  public IncHeader2 {
    WireChecks.unsigned("task_id", taskId, 32);
    WireChecks.unsigned("fragment_index", fragmentIndex, 16);
    WireChecks.unsigned("fragment_count", fragmentCount, 16);
    WireChecks.unsigned("fragment_bytes", fragmentBytes, 16);
    WireChecks.unsigned("flags", flags, 16);
    WireChecks.unsigned("dst_ip_cache", dstIpCache, 32);
    if (fragmentCount < 1 || fragmentIndex >= fragmentCount) {
      throw new IllegalArgumentException("fragment index " + fragmentIndex + " out of " + fragmentCount);
    }
  }

  /** Writes the {@link #WIRE_BYTES} bytes of this header at {@code out}'s position, big-endian, and moves past them. */
  public void encode(ByteBuffer out) {
    WireBytes.writer(out, NAME, WIRE_BYTES)
        .u32(taskId).u16(fragmentIndex).u16(fragmentCount).u16(fragmentBytes).u16(flags).u32(dstIpCache)
        .finish();
  }

  /**
   * Reads a header from {@code in}'s position and moves past it.
   *
   * @throws WireFormatException when fewer than {@link #WIRE_BYTES} bytes remain, or the fragment index is not below
   *     a non-zero fragment count; the buffer is then left as it was
   */
  public static IncHeader2 decode(ByteBuffer in) {
    WireBytes.Reader r = WireBytes.reader(in, NAME, WIRE_BYTES);
    return r.finish(() -> new IncHeader2(r.u32(), r.u16(), r.u16(), r.u16(), r.u16(), r.u32()));
  }

  /** The same header with the retransmission flag set. */
  public IncHeader2 asRetransmission() {
    return new IncHeader2(taskId, fragmentIndex, fragmentCount, fragmentBytes, flags | RETRANSMISSION_FLAG,
        dstIpCache);
  }
}
