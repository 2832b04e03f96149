package io.fabemu.traces;

import java.util.List;
import java.util.Objects;

/**
 * One node of a rank's Chakra trace. Built with {@link #builder()}.
 *
 * @param id             the node's id, unique in its rank (Chakra's unsigned 64-bit id, held as a long)
 * @param type           the node's kind
 * @param name           the node's name, empty when absent
 * @param durationMicros the recorded duration ({@code duration_micros}), 0 when absent
 * @param dataDeps       ids of the nodes whose data this one consumes
 * @param ctrlDeps       ids of the nodes that must finish before this one starts
 * @param comm           what a communication node moves, null for every other kind
 */
public record TraceNode(
    long id, TraceNodeType type, String name, long durationMicros, List<Long> dataDeps, List<Long> ctrlDeps,
    TraceComm comm) {

  public TraceNode {
    Objects.requireNonNull(type, "type");
    Objects.requireNonNull(name, "name");
    if (durationMicros < 0) {
      throw new IllegalArgumentException("durationMicros must not be negative, got " + durationMicros);
    }
    dataDeps = List.copyOf(dataDeps);
    ctrlDeps = List.copyOf(ctrlDeps);
    if (type.isCommunication() != (comm != null)) {
      throw new IllegalArgumentException(type + " node " + Long.toUnsignedString(id)
          + (comm == null ? " lacks its communication" : " cannot carry a communication"));
    }
    if (comm != null && type.isPointToPoint() == (comm.peerRank() == TraceComm.NO_PEER)) {
      throw new IllegalArgumentException(type + " node " + Long.toUnsignedString(id)
          + (type.isPointToPoint() ? " needs a peer rank" : " needs a collective type, not a peer"));
    }
  }

  public static Builder builder() {
    return new Builder();
  }

  /** Builds a {@link TraceNode}; id and type are required, the rest defaults to empty. */
  public static final class Builder {
    private long id;
    private TraceNodeType type;
    private String name = "";
    private long durationMicros;
    private List<Long> dataDeps = List.of();
    private List<Long> ctrlDeps = List.of();
    private TraceComm comm;

    private Builder() {
    }

    public Builder id(long value) {
      id = value;
      return this;
    }

    public Builder type(TraceNodeType value) {
      type = value;
      return this;
    }

    public Builder name(String value) {
      name = value;
      return this;
    }

    public Builder durationMicros(long value) {
      durationMicros = value;
      return this;
    }

    public Builder dataDeps(List<Long> value) {
      dataDeps = value;
      return this;
    }

    public Builder ctrlDeps(List<Long> value) {
      ctrlDeps = value;
      return this;
    }

    public Builder comm(TraceComm value) {
      comm = value;
      return this;
    }

    public TraceNode build() {
      return new TraceNode(id, type, name, durationMicros, dataDeps, ctrlDeps, comm);
    }
  }
}
