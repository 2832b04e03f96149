package io.fabemu.app.report;

import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Lays out an HTML report: one self-contained file with the style sheet inline and every chart as inline SVG, so it
 * opens offline in any browser, with no script and no external file; a title, a table of contents, then each
 * {@link ReportSection} under its heading.
 *
 * <p>Contract: {@link #render} is a pure function of its arguments; the document is HTML5 that is also well-formed
 * XML (see {@link Markup}), UTF-8, and escapes all text. Section ids must be unique.
 */
public final class HtmlReport {

  /**
   * The charts' styles, also written inside each standalone chart file ({@link LineChart#standalone}): text as text
   * in the page's font, grid and frame lines.
   */
  static final String CHART_CSS = """
      svg.chart { max-width: 100%; height: auto; background: #fff; }
      svg.chart { font-size: 12px; font-family: system-ui, -apple-system, "Segoe UI", Roboto, "DejaVu Sans",
        sans-serif; }
      svg.chart text { fill: #1d2330; stroke: none; }
      svg.chart .chart-title { font-size: 14px; font-weight: bold; }
      svg.chart .axis-title { font-size: 12px; fill: #3a4254; }
      svg.chart .grid line { stroke: #e6e8ee; stroke-width: 1; }
      svg.chart .frame { fill: none; stroke: #8a90a0; stroke-width: 1; }
      """;

  /** The style sheet: plain, printable, and charts that scale to the page width. */
  static final String CSS = """
      body { font-family: system-ui, -apple-system, "Segoe UI", Roboto, "DejaVu Sans", sans-serif; margin: 0;
        color: #1d2330; background: #f4f5f7; line-height: 1.45; }
      header { background: #1d2b45; color: #fff; padding: 18px 28px; }
      header h1 { margin: 0 0 4px 0; font-size: 1.5em; }
      header p { margin: 0; opacity: 0.85; }
      nav { padding: 10px 28px; background: #fff; border-bottom: 1px solid #d9dce3; }
      nav a { margin-right: 16px; color: #1f5fa8; text-decoration: none; white-space: nowrap; }
      main { padding: 8px 28px 40px 28px; max-width: 1280px; }
      section { background: #fff; border: 1px solid #d9dce3; border-radius: 6px; margin: 18px 0;
        padding: 6px 20px 16px; }
      h2 { font-size: 1.2em; border-bottom: 1px solid #e3e6ec; padding-bottom: 6px; }
      h3 { font-size: 1.0em; margin: 18px 0 6px 0; }
      table { border-collapse: collapse; margin: 8px 0; font-size: 0.9em; }
      th, td { border: 1px solid #d9dce3; padding: 3px 8px; text-align: left; vertical-align: top; }
      th { background: #f0f2f5; }
      td.num { text-align: right; font-variant-numeric: tabular-nums; }
      table.facts th { width: 12em; }
      pre { background: #f6f8fa; border: 1px solid #e1e4e8; padding: 10px; overflow-x: auto; font-size: 0.85em; }
      code, .digest { font-family: "DejaVu Sans Mono", Menlo, Consolas, monospace; word-break: break-all; }
      .note { color: #5a6275; font-style: italic; }
      .bad { color: #b00020; font-weight: bold; }
      .charts { display: flex; flex-wrap: wrap; gap: 12px; }
      details > summary { cursor: pointer; color: #1f5fa8; margin: 6px 0; }
      """ + HtmlReport.CHART_CSS;

  private HtmlReport() {}

  /** The whole document: {@code title} and {@code subtitle} in the header, then the sections in order. */
  public static String render(String title, String subtitle, List<ReportSection> sections) {
    Set<String> ids = new HashSet<>();
    for (ReportSection s : sections) {
      if (!ids.add(s.id())) throw new IllegalArgumentException("two sections have the id " + s.id());
      if (!s.id().matches("[a-z0-9-]+")) throw new IllegalArgumentException("bad section id " + s.id());
    }
    Markup m = new Markup();
    m.raw("<!DOCTYPE html>\n");
    m.start("html", "lang", "en").newline();
    m.start("head").newline();
    m.empty("meta", "charset", "utf-8").newline();
    m.empty("meta", "name", "viewport", "content", "width=device-width, initial-scale=1").newline();
    m.element("title", title).newline();
    m.start("style").raw("\n").raw(CSS).end("style").newline();
    m.end("head").newline();
    m.start("body").newline();
    m.start("header").element("h1", title);
    if (subtitle != null && !subtitle.isEmpty()) m.element("p", subtitle);
    m.end("header").newline();
    m.start("nav");
    for (ReportSection s : sections) {
      m.element("a", s.title(), "href", "#" + s.id());
    }
    m.end("nav").newline();
    m.start("main").newline();
    for (ReportSection s : sections) {
      m.start("section", "id", s.id()).newline();
      m.element("h2", s.title()).newline();
      s.render(m);
      m.newline().end("section").newline();
    }
    m.end("main").newline();
    m.end("body").newline();
    m.end("html").newline();
    return m.toString();
  }
}
