package io.fabemu.core.inc;

import java.nio.ByteBuffer;

/**
 * The MPI header that the INC paper adds to RoCEv2 packets (its table 1), 15 bytes on the wire, big-endian.
 *
 * @param tag          4 B: marks the packet as an INC packet (data and control)
 * @param srcRank      4 B: the sending process's rank
 * @param commId       2 B, unsigned: {@link #CONTROL_COMM_ID} on control packets, the INC group id on data packets
 * @param opCode       1 B, unsigned: the reduce operation (data packets), see {@code IncCodes}
 * @param operandType  1 B, unsigned: the element type (data packets), see {@code IncCodes}
 * @param reqId        1 B, unsigned: the operation's sequence number modulo 256; packets of the same group with the
 *                     same req_id are aggregated together
 * @param pktParaNum   2 B, unsigned: the number of elements in the payload
 */
public record MpiHeader(int tag, int srcRank, int commId, int opCode, int operandType, int reqId, int pktParaNum) {
  /** Bytes on the wire. */
  public static final int WIRE_BYTES = 15;
  /** The name bad input is reported under. */
  static final String NAME = "MPI header";
  /** The comm_id that marks a control packet. */
  public static final int CONTROL_COMM_ID = 0xFFFF;

  public MpiHeader {
    WireChecks.unsigned("comm_id", commId, 16);
    WireChecks.unsigned("op_code", opCode, 8);
    WireChecks.unsigned("oper_and_type", operandType, 8);
    WireChecks.unsigned("req_id", reqId, 8);
    WireChecks.unsigned("pkt_para_num", pktParaNum, 16);
  }

  /** Writes the {@link #WIRE_BYTES} bytes of this header at {@code out}'s position, big-endian, and moves past them. */
  public void encode(ByteBuffer out) {
    WireBytes.writer(out, NAME, WIRE_BYTES)
        .u32(tag).u32(srcRank).u16(commId).u8(opCode).u8(operandType).u8(reqId).u16(pktParaNum)
        .finish();
  }

  /**
   * Reads a header from {@code in}'s position and moves past it.
   *
   * @throws WireFormatException when fewer than {@link #WIRE_BYTES} bytes remain; the buffer is then left as it was
   */
  public static MpiHeader decode(ByteBuffer in) {
    WireBytes.Reader r = WireBytes.reader(in, NAME, WIRE_BYTES);
    return r.finish(() -> new MpiHeader(r.s32(), r.s32(), r.u16(), r.u8(), r.u8(), r.u8(), r.u16()));
  }
}
