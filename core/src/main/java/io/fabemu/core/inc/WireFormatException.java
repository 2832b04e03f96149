package io.fabemu.core.inc;

/**
 * Bytes that are no valid INC header or frame: too few or too many, a missing flag, an unknown code, or a field
 * the record refuses. The message names the header and what is wrong. It is an {@link IllegalArgumentException}
 * so that callers treating bad input as a bad argument need no extra catch.
 */
public final class WireFormatException extends IllegalArgumentException {
  private static final long serialVersionUID = 1L;

  public WireFormatException(String message) {
    super(message);
  }

  public WireFormatException(String message, Throwable cause) {
    super(message, cause);
  }
}
