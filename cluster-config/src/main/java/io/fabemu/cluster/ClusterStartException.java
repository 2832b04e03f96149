package io.fabemu.cluster;

/**
 * A cluster member could not start: its transport failed to bind or initialize, a setting was invalid, or it did
 * not join its seed nodes in time. The message is one line meant for the user; the member's actor system has been
 * terminated, so nothing is left running that could keep the JVM alive.
 */
public final class ClusterStartException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public ClusterStartException(String message, Throwable cause) {
    super(message, cause);
  }
}
