package io.fabemu.core.inc;

import java.nio.ByteBuffer;

/**
 * The payload of a control packet (the INC paper's table 2 and the non-core fields it lists), big-endian on the wire.
 * Switches update it as it passes: on the way up they AND their supported operations and data types into
 * {@code supAllreduceOp} and {@code supDataType}, lower {@code supMaxDataSize} to theirs, count themselves in
 * {@code queryNotifyHop} and write their address into {@code tor1Ip}, {@code spineIp} or {@code tor2Ip}; a SPINE
 * writes its free groups into {@code avaGrpNum}.
 *
 * <p>Two fields beyond the paper's carry the tree's shape on the notify, so that each switch knows how many
 * children to wait for: {@code srcLocalGroupSize} (leaders under the sender's TOR) and {@code torCount} (TORs
 * under the chosen SPINE). {@code localGroupSize} is the number of leaders under the receiver's TOR.
 *
 * @param masterNum         1 B: 0 Node mode, 1 Socket mode
 * @param queryNotifyHop    1 B: bit 7 set on a notify (response), bits 0-6 the INC switches passed
 * @param supCommType       1 B: supported collective types (bit 0: Allreduce)
 * @param supAllreduceOp    2 B: bitmask of supported operations, by {@code IncCodes} op code
 * @param supDataType       2 B: bitmask of supported data types, by {@code IncCodes} type code
 * @param supMaxDataSize    2 B: the largest message (bytes of data) every switch on the path accepts
 * @param globalGroupSize   2 B: leaders in the group
 * @param localGroupSize    2 B: leaders under the receiver's TOR
 * @param trueCommId        4 B: the group's random id
 * @param avaGrpNum         4 B: groups the SPINE on the path can still take
 * @param supMpiType        1 B: supported MPI version
 * @param failCause         1 B: 0 when the group may use INC, else the reason, see {@code IncCodes}
 * @param dstRank           4 B: rank the packet is for
 * @param tor1Ip            4 B: address of the first TOR passed (0 when none)
 * @param spineIp           4 B: address of the SPINE passed, or on a notify the chosen SPINE (0 when none)
 * @param tor2Ip            4 B: address of the second TOR passed (0 when none)
 * @param jobId             4 B: the scheduler's job number
 * @param cId               2 B: sub-communicator id
 * @param worldRank         4 B: the sender's rank in the whole job
 * @param srcLocalGroupSize 2 B: leaders under the sender's TOR
 * @param torCount          2 B: TORs in the group's tree
 */
public record ControlPayload(int masterNum, int queryNotifyHop, int supCommType, int supAllreduceOp,
                             int supDataType, int supMaxDataSize, int globalGroupSize, int localGroupSize,
                             long trueCommId, long avaGrpNum, int supMpiType, int failCause, long dstRank,
                             long tor1Ip, long spineIp, long tor2Ip, long jobId, int cId, long worldRank,
                             int srcLocalGroupSize, int torCount) {
  /** Bytes on the wire. */
  public static final int WIRE_BYTES = 1 + 1 + 1 + 2 + 2 + 2 + 2 + 2 + 4 + 4 + 1 + 1 + 4 + 4 + 4 + 4 + 4 + 2 + 4
      + 2 + 2;
  static final String NAME = "control payload";

  public ControlPayload {
    WireChecks.unsigned("master_num", masterNum, 8);
    WireChecks.unsigned("query_notify_hop", queryNotifyHop, 8);
    WireChecks.unsigned("sup_comm_type", supCommType, 8);
    WireChecks.unsigned("sup_allreduce_op", supAllreduceOp, 16);
    WireChecks.unsigned("sup_data_type", supDataType, 16);
    WireChecks.unsigned("sup_max_data_size", supMaxDataSize, 16);
    WireChecks.unsigned("global_group_size", globalGroupSize, 16);
    WireChecks.unsigned("local_group_size", localGroupSize, 16);
    WireChecks.unsigned("true_comm_id", trueCommId, 32);
    WireChecks.unsigned("ava_grp_num", avaGrpNum, 32);
    WireChecks.unsigned("sup_mpi_type", supMpiType, 8);
    WireChecks.unsigned("fail_cause", failCause, 8);
    WireChecks.unsigned("dst_rank", dstRank, 32);
    WireChecks.unsigned("tor1_ip", tor1Ip, 32);
    WireChecks.unsigned("spine_ip", spineIp, 32);
    WireChecks.unsigned("tor2_ip", tor2Ip, 32);
    WireChecks.unsigned("job_id", jobId, 32);
    WireChecks.unsigned("c_id", cId, 16);
    WireChecks.unsigned("world_rank", worldRank, 32);
    WireChecks.unsigned("src_local_group_size", srcLocalGroupSize, 16);
    WireChecks.unsigned("tor_count", torCount, 16);
  }

  /** Writes the {@link #WIRE_BYTES} bytes of this payload at {@code out}'s position, big-endian, and moves on. */
  public void encode(ByteBuffer out) {
    WireBytes.writer(out, NAME, WIRE_BYTES)
        .u8(masterNum).u8(queryNotifyHop).u8(supCommType).u16(supAllreduceOp).u16(supDataType).u16(supMaxDataSize)
        .u16(globalGroupSize).u16(localGroupSize).u32(trueCommId).u32(avaGrpNum).u8(supMpiType).u8(failCause)
        .u32(dstRank).u32(tor1Ip).u32(spineIp).u32(tor2Ip).u32(jobId).u16(cId).u32(worldRank)
        .u16(srcLocalGroupSize).u16(torCount)
        .finish();
  }

  /**
   * Reads a payload from {@code in}'s position and moves past it.
   *
   * @throws WireFormatException when fewer than {@link #WIRE_BYTES} bytes remain; the buffer is then left as it was
   */
  public static ControlPayload decode(ByteBuffer in) {
    WireBytes.Reader r = WireBytes.reader(in, NAME, WIRE_BYTES);
    return r.finish(() -> new ControlPayload(r.u8(), r.u8(), r.u8(), r.u16(), r.u16(), r.u16(), r.u16(), r.u16(),
        r.u32(), r.u32(), r.u8(), r.u8(), r.u32(), r.u32(), r.u32(), r.u32(), r.u32(), r.u16(), r.u32(), r.u16(),
        r.u16()));
  }

  /** A builder with every field 0; set the fields the payload needs, then {@link Builder#build()}. */
  public static Builder builder() {
    return new Builder();
  }

  /** A builder holding every field of this payload, to build a copy with some of them changed. */
  public Builder toBuilder() {
    return new Builder().masterNum(masterNum).queryNotifyHop(queryNotifyHop).supCommType(supCommType)
        .supAllreduceOp(supAllreduceOp).supDataType(supDataType).supMaxDataSize(supMaxDataSize)
        .globalGroupSize(globalGroupSize).localGroupSize(localGroupSize).trueCommId(trueCommId).avaGrpNum(avaGrpNum)
        .supMpiType(supMpiType).failCause(failCause).dstRank(dstRank).tor1Ip(tor1Ip).spineIp(spineIp).tor2Ip(tor2Ip)
        .jobId(jobId).cId(cId).worldRank(worldRank).srcLocalGroupSize(srcLocalGroupSize).torCount(torCount);
  }

  /** True on a notify (response), false on a query. */
  public boolean isNotify() {
    return (queryNotifyHop & 0x80) != 0;
  }

  /** INC switches the packet has passed. */
  public int hops() {
    return queryNotifyHop & 0x7F;
  }

  /**
   * Names the fields of a {@link ControlPayload}, one setter each (named as the record component, see the record
   * for widths and meaning); a field never set is 0. {@link #build()} goes through the canonical constructor, so
   * a value too wide for its field is refused there. Not thread-safe; {@link #build()} may be called more than once.
   */
  public static final class Builder {
    private int masterNum;
    private int queryNotifyHop;
    private int supCommType;
    private int supAllreduceOp;
    private int supDataType;
    private int supMaxDataSize;
    private int globalGroupSize;
    private int localGroupSize;
    private long trueCommId;
    private long avaGrpNum;
    private int supMpiType;
    private int failCause;
    private long dstRank;
    private long tor1Ip;
    private long spineIp;
    private long tor2Ip;
    private long jobId;
    private int cId;
    private long worldRank;
    private int srcLocalGroupSize;
    private int torCount;

    private Builder() {}

    /** Sets {@link ControlPayload#masterNum()}. */
    public Builder masterNum(int masterNum) {
      this.masterNum = masterNum;
      return this;
    }

    /** Sets {@link ControlPayload#queryNotifyHop()}. */
    public Builder queryNotifyHop(int queryNotifyHop) {
      this.queryNotifyHop = queryNotifyHop;
      return this;
    }

    /** Sets {@link ControlPayload#supCommType()}. */
    public Builder supCommType(int supCommType) {
      this.supCommType = supCommType;
      return this;
    }

    /** Sets {@link ControlPayload#supAllreduceOp()}. */
    public Builder supAllreduceOp(int supAllreduceOp) {
      this.supAllreduceOp = supAllreduceOp;
      return this;
    }

    /** Sets {@link ControlPayload#supDataType()}. */
    public Builder supDataType(int supDataType) {
      this.supDataType = supDataType;
      return this;
    }

    /** Sets {@link ControlPayload#supMaxDataSize()}. */
    public Builder supMaxDataSize(int supMaxDataSize) {
      this.supMaxDataSize = supMaxDataSize;
      return this;
    }

    /** Sets {@link ControlPayload#globalGroupSize()}. */
    public Builder globalGroupSize(int globalGroupSize) {
      this.globalGroupSize = globalGroupSize;
      return this;
    }

    /** Sets {@link ControlPayload#localGroupSize()}. */
    public Builder localGroupSize(int localGroupSize) {
      this.localGroupSize = localGroupSize;
      return this;
    }

    /** Sets {@link ControlPayload#trueCommId()}. */
    public Builder trueCommId(long trueCommId) {
      this.trueCommId = trueCommId;
      return this;
    }

    /** Sets {@link ControlPayload#avaGrpNum()}. */
    public Builder avaGrpNum(long avaGrpNum) {
      this.avaGrpNum = avaGrpNum;
      return this;
    }

    /** Sets {@link ControlPayload#supMpiType()}. */
    public Builder supMpiType(int supMpiType) {
      this.supMpiType = supMpiType;
      return this;
    }

    /** Sets {@link ControlPayload#failCause()}. */
    public Builder failCause(int failCause) {
      this.failCause = failCause;
      return this;
    }

    /** Sets {@link ControlPayload#dstRank()}. */
    public Builder dstRank(long dstRank) {
      this.dstRank = dstRank;
      return this;
    }

    /** Sets {@link ControlPayload#tor1Ip()}. */
    public Builder tor1Ip(long tor1Ip) {
      this.tor1Ip = tor1Ip;
      return this;
    }

    /** Sets {@link ControlPayload#spineIp()}. */
    public Builder spineIp(long spineIp) {
      this.spineIp = spineIp;
      return this;
    }

    /** Sets {@link ControlPayload#tor2Ip()}. */
    public Builder tor2Ip(long tor2Ip) {
      this.tor2Ip = tor2Ip;
      return this;
    }

    /** Sets {@link ControlPayload#jobId()}. */
    public Builder jobId(long jobId) {
      this.jobId = jobId;
      return this;
    }

    /** Sets {@link ControlPayload#cId()}. */
    public Builder cId(int cId) {
      this.cId = cId;
      return this;
    }

    /** Sets {@link ControlPayload#worldRank()}. */
    public Builder worldRank(long worldRank) {
      this.worldRank = worldRank;
      return this;
    }

    /** Sets {@link ControlPayload#srcLocalGroupSize()}. */
    public Builder srcLocalGroupSize(int srcLocalGroupSize) {
      this.srcLocalGroupSize = srcLocalGroupSize;
      return this;
    }

    /** Sets {@link ControlPayload#torCount()}. */
    public Builder torCount(int torCount) {
      this.torCount = torCount;
      return this;
    }

    /**
     * A payload of the fields set so far.
     *
     * @throws IllegalArgumentException when a field does not fit its width on the wire (the canonical constructor's
     *                                  checks)
     */
    public ControlPayload build() {
      return new ControlPayload(masterNum, queryNotifyHop, supCommType, supAllreduceOp, supDataType, supMaxDataSize,
          globalGroupSize, localGroupSize, trueCommId, avaGrpNum, supMpiType, failCause, dstRank, tor1Ip, spineIp,
          tor2Ip, jobId, cId, worldRank, srcLocalGroupSize, torCount);
    }
  }
}
