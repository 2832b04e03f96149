package io.fabemu.app;

import io.fabemu.engine.EngineFailedException;

/** How the command line puts an error on its one line of stderr. */
public final class ErrorLines {
  private ErrorLines() {}

  /** {@code s} stripped, its line breaks (and the blanks around them) joined into single spaces; "" for null. */
  public static String oneLine(String s) {
    return s == null ? "" : s.strip().replaceAll("\\s*[\\r\\n]+\\s*", " ");
  }

  /**
   * What an emulation that stopped says on its one line: an engine failure's own message (it names the member, the
   * device, the window and the device's finding), anything else with its class, as it may be a bug.
   */
  public static String failure(Throwable ex) {
    if (ex instanceof EngineFailedException && ex.getMessage() != null) return ex.getMessage();
    return ex.getMessage() == null ? ex.getClass().getName() : ex.getClass().getSimpleName() + ": " + ex.getMessage();
  }
}
