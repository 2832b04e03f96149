package io.fabemu.traces;

import java.util.List;
import java.util.Objects;

/**
 * What a communication node moves, from its Chakra attributes. Built with {@link #builder()}: a collective has a
 * {@link #commType()} and no peer, a send or receive a {@link #peerRank()} and no collective; tag, process group and
 * involved dimensions are optional.
 *
 * @param commType     the collective ({@code comm_type}), or null for a send or receive
 * @param sizeBytes    the bytes moved by this rank ({@code comm_size})
 * @param peerRank     the other rank of a send ({@code comm_dst}) or receive ({@code comm_src}), or {@link #NO_PEER}
 * @param tag          the message tag ({@code comm_tag}), 0 when absent
 * @param processGroup the process group's name ({@code pg_name}), or null when absent
 * @param involvedDims which network dimensions a collective spans ({@code involved_dim}), empty when absent
 */
public record TraceComm(
    TraceCommType commType, long sizeBytes, int peerRank, long tag, String processGroup, List<Boolean> involvedDims) {

  /** {@link #peerRank()} of a collective. */
  public static final int NO_PEER = -1;

  public TraceComm {
    if (sizeBytes < 0) {
      throw new IllegalArgumentException("sizeBytes must not be negative, got " + sizeBytes);
    }
    if (peerRank < NO_PEER) {
      throw new IllegalArgumentException("peerRank must be a rank or NO_PEER, got " + peerRank);
    }
    if ((commType == null) == (peerRank == NO_PEER)) {
      throw new IllegalArgumentException("a communication has either a collective type or a peer rank, not "
          + (commType == null ? "neither" : "both"));
    }
    involvedDims = List.copyOf(Objects.requireNonNull(involvedDims, "involvedDims"));
  }

  /** Whether a process group was named. */
  public boolean hasProcessGroup() {
    return processGroup != null;
  }

  public static Builder builder() {
    return new Builder();
  }

  /** Builds a {@link TraceComm}; only the size and one of collective type and peer are required. */
  public static final class Builder {
    private TraceCommType commType;
    private long sizeBytes = -1;
    private int peerRank = NO_PEER;
    private long tag;
    private String processGroup;
    private List<Boolean> involvedDims = List.of();

    private Builder() {
    }

    public Builder commType(TraceCommType value) {
      commType = value;
      return this;
    }

    public Builder sizeBytes(long value) {
      sizeBytes = value;
      return this;
    }

    public Builder peerRank(int value) {
      peerRank = value;
      return this;
    }

    public Builder tag(long value) {
      tag = value;
      return this;
    }

    public Builder processGroup(String value) {
      processGroup = value;
      return this;
    }

    public Builder involvedDims(List<Boolean> value) {
      involvedDims = value;
      return this;
    }

    public TraceComm build() {
      return new TraceComm(commType, sizeBytes, peerRank, tag, processGroup, involvedDims);
    }
  }
}
