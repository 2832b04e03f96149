package io.fabemu.traces;

/**
 * A Chakra trace that cannot be used: a rank file missing, unreadable, truncated or corrupted, over a limit, or failing
 * a check of the graph (unknown node type, dangling or cyclic dependency, duplicate id, incomplete communication node,
 * peer or process group outside the ranks).
 *
 * <p>Contract: the message is exactly one line, {@code FILE: node ID: reason}, or {@code FILE: reason} when no single
 * node is at fault (a missing file, a message that could not be decoded); the CLI prints it and exits with status 2.
 */
public final class TraceException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /** The node id reported when the error concerns no single node. */
  public static final long NO_NODE = -1;

  private final String file;
  private final long nodeId;
  private final String reason;

  /**
   * @param file   the rank file as the caller named it
   * @param nodeId the node at fault, or {@link #NO_NODE}
   * @param reason what is wrong, without file or node
   */
  public TraceException(String file, long nodeId, String reason) {
    this(file, nodeId, reason, null);
  }

  /** As {@link #TraceException(String, long, String)}, keeping the decoder's exception as the cause. */
  public TraceException(String file, long nodeId, String reason, Throwable cause) {
    super(format(file, nodeId, reason), cause);
    this.file = file;
    this.nodeId = nodeId;
    this.reason = oneLine(reason);
  }

  public String file() {
    return file;
  }

  /** The node at fault, or {@link #NO_NODE}. */
  public long nodeId() {
    return nodeId;
  }

  public String reason() {
    return reason;
  }

  private static String format(String file, long nodeId, String reason) {
    String where = nodeId == NO_NODE ? file : file + ": node " + Long.toUnsignedString(nodeId);
    return where + ": " + oneLine(reason);
  }

  private static String oneLine(String text) {
    return text == null ? "" : text.replaceAll("\\s*[\\r\\n]+\\s*", " ").strip();
  }
}
