package io.fabemu.cluster.scenario;

/**
 * A scenario that cannot be run: unreadable, not valid HOCON, or failing the schema.
 *
 * <p>Contract: the message is exactly one line, {@code FILE[:LINE]: KEY.PATH: reason}, e.g.
 * {@code examples/bad.conf:3: topology.hosts-per-torr: unknown key (did you mean 'hosts-per-tor'?)}. The line is
 * present when the offending value was written in the file (not taken from a default); the key path is absent for
 * errors that concern the whole file (unreadable, HOCON syntax).
 */
public final class ScenarioException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final String file;
  private final int line;
  private final String keyPath;
  private final String reason;

  /**
   * @param file    the scenario file as the user named it
   * @param line    1-based line in {@code file}, or 0 or less when unknown
   * @param keyPath key path such as {@code workload.sizes[1]}, or null when the error concerns the whole file
   * @param reason  what is wrong, without file or key
   */
  public ScenarioException(String file, int line, String keyPath, String reason) {
    super(format(file, line, keyPath, reason));
    this.file = file;
    this.line = line;
    this.keyPath = keyPath;
    this.reason = oneLine(reason);
  }

  public String file() {
    return file;
  }

  /** 1-based line, or 0 or less when unknown. */
  public int line() {
    return line;
  }

  /** The key path, or null when the error concerns the whole file. */
  public String keyPath() {
    return keyPath;
  }

  public String reason() {
    return reason;
  }

  private static String format(String file, int line, String keyPath, String reason) {
    // A file name or key may hold a line break (validate $'x\ny'): escaped, the message stays one line.
    StringBuilder sb = new StringBuilder(printable(file));
    if (line > 0) sb.append(':').append(line);
    sb.append(": ");
    if (keyPath != null) sb.append(printable(keyPath)).append(": ");
    sb.append(oneLine(reason));
    return sb.toString();
  }

  /** {@code s} with control characters written as escapes ({@code \n}, {@code \u0000}). */
  private static String printable(String s) {
    if (s == null) return "null";
    StringBuilder sb = new StringBuilder(s.length());
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c == '\n') {
        sb.append("\\n");
      } else if (c == '\r') {
        sb.append("\\r");
      } else if (c == '\t') {
        sb.append("\\t");
      } else if (Character.isISOControl(c) || c == '\u2028' || c == '\u2029') {
        sb.append(String.format("\\u%04x", (int) c));
      } else {
        sb.append(c);
      }
    }
    return sb.toString();
  }

  private static String oneLine(String s) {
    return s == null ? "" : s.strip().replaceAll("\\s*[\\r\\n]+\\s*", " ");
  }
}
