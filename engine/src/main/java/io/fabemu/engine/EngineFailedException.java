package io.fabemu.engine;

/**
 * A run of the actor engine could not finish: a device failed or stopped, a member's scheduler failed, the run
 * was cancelled, or the actor system went down. The message names the member, the device and the window.
 */
public class EngineFailedException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public EngineFailedException(String message) {
    super(message);
  }

  public EngineFailedException(String message, Throwable cause) {
    super(message, cause);
  }
}
