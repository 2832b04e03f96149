package io.fabemu.app.report;

import java.util.List;
import java.util.Set;

/**
 * HTML tables of the report, one source line per row (so a changed figure shows as a changed line in a diff).
 *
 * <p>Contract: text is escaped by {@link Markup}; columns listed as numeric are right-aligned.
 */
public final class Tables {

  private Tables() {}

  /** A table with a header row and a row per entry of {@code rows}. */
  public static void table(Markup out, List<String> header, List<List<String>> rows, Set<Integer> numericColumns) {
    out.start("table").newline();
    out.start("thead").start("tr");
    for (String h : header) out.element("th", h);
    out.end("tr").end("thead").newline();
    out.start("tbody").newline();
    for (List<String> row : rows) {
      out.start("tr");
      for (int i = 0; i < row.size(); i++) {
        out.element("td", row.get(i), "class", numericColumns.contains(i) ? "num" : null);
      }
      out.end("tr").newline();
    }
    out.end("tbody").end("table").newline();
  }

  /** Opens a two-column table of facts; add rows with {@link #fact} and close it with {@code end("table")}. */
  public static void startFacts(Markup out) {
    out.start("table", "class", "facts").newline();
  }

  /** One fact: its name and value on one source line. */
  public static void fact(Markup out, String name, String value) {
    out.start("tr").element("th", name).element("td", value).end("tr").newline();
  }

  /** A paragraph in the note style, e.g. why a figure is missing. */
  public static void note(Markup out, String text) {
    out.element("p", text, "class", "note").newline();
  }
}
