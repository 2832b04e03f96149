package io.fabemu.app.report;

/**
 * One section of an HTML report (run facts, latency charts, link utilisation, ...): a heading and its body. A new
 * kind of figure (fault timelines, ring utilisation) is a new section; {@link HtmlReport} lays the sections out and
 * lists them in the table of contents.
 *
 * <p>Contract: {@link #render} writes only through the {@link Markup} it is given, closes what it opens, and is a
 * pure function of what the section was built from (the report is deterministic apart from the wall-time line).
 */
public interface ReportSection {

  /** The section's anchor: lower case letters, digits and dashes, unique in the report. */
  String id();

  /** The heading. */
  String title();

  /** Writes the body (below the heading). */
  void render(Markup out);
}
