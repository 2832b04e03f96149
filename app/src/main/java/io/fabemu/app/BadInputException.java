package io.fabemu.app;

/** Bad input found by the app itself (output folder, files): exit code 2 with one line. */
public final class BadInputException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public BadInputException(String message) {
    super(message);
  }
}
