package io.fabemu.app.output;

import java.util.List;

/**
 * CSV text as RFC 4180 writes it: fields separated by commas, rows ended by a line feed, and a field quoted (its
 * quotes doubled) when it holds a comma, a quote, a line break, or leading or trailing spaces; other fields as they
 * are.
 *
 * <p>Contract: pure functions; a reader that follows RFC 4180 (Python's csv, pandas, spreadsheets) gets the fields
 * back exactly.
 */
public final class Csv {

  private Csv() {}

  /** The header row then each row, each ended by a line feed. */
  public static String table(List<String> header, List<List<String>> rows) {
    StringBuilder sb = new StringBuilder(row(header));
    for (List<String> r : rows) sb.append(row(r));
    return sb.toString();
  }

  /** One row, ended by a line feed. */
  static String row(List<String> fields) {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < fields.size(); i++) {
      if (i > 0) sb.append(',');
      sb.append(field(fields.get(i)));
    }
    return sb.append('\n').toString();
  }

  /** One field, quoted when it must be. */
  static String field(String value) {
    if (value == null) return "";
    boolean quote = value.indexOf(',') >= 0 || value.indexOf('"') >= 0 || value.indexOf('\n') >= 0
        || value.indexOf('\r') >= 0 || (!value.isEmpty() && (value.charAt(0) == ' '
        || value.charAt(value.length() - 1) == ' '));
    return quote ? '"' + value.replace("\"", "\"\"") + '"' : value;
  }
}
