package io.fabemu.traces;

/** The kind of a trace node, as Chakra's {@code NodeType} names it (less {@code INVALID_NODE}, which is refused). */
public enum TraceNodeType {
  METADATA,
  MEM_LOAD,
  MEM_STORE,
  COMP,
  COMM_SEND,
  COMM_RECV,
  COMM_COLL;

  /** Whether nodes of this kind move data between ranks (and so carry a {@link TraceComm}). */
  public boolean isCommunication() {
    return this == COMM_SEND || this == COMM_RECV || this == COMM_COLL;
  }

  /** Whether nodes of this kind talk to one peer (send or receive). */
  public boolean isPointToPoint() {
    return this == COMM_SEND || this == COMM_RECV;
  }
}
