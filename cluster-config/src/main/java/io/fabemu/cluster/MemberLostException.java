package io.fabemu.cluster;

import io.fabemu.fabric.result.RunResult;

/**
 * A distributed run stopped because a cluster member was lost (its JVM died, or the network cut it off). The
 * message names the member and the last virtual time every member completed; {@link #partialResult()} holds what
 * was finished before, marked incomplete, so it can be written without being mistaken for a whole run.
 */
public final class MemberLostException extends RuntimeException {
  private final transient RunResult partialResult;

  public MemberLostException(String message, RunResult partialResult, Throwable cause) {
    super(message, cause);
    this.partialResult = partialResult;
  }

  /** The cases every rank completed before the loss; {@code complete()} is false. */
  public RunResult partialResult() {
    return partialResult;
  }
}
