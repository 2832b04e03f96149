package io.fabemu.app.report;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigRenderOptions;

/**
 * The scenario as it was loaded: every key with its value after the defaults were filled in and the command-line
 * overrides applied (the same document {@code results.json} holds under {@code scenario}), written as HOCON that
 * {@code fabemu run} accepts, inside a {@code <details>} element that is closed until the reader opens it.
 */
final class ScenarioEchoSection implements ReportSection {

  private final Config scenario;
  private final String note;

  /** {@code scenario} as loaded (null: not available), introduced by {@code note} (where it came from). */
  ScenarioEchoSection(Config scenario, String note) {
    this.scenario = scenario;
    this.note = note;
  }

  /** The section of a run's scenario, read from {@code source}. */
  static ScenarioEchoSection ofRun(Config scenario, String source) {
    return new ScenarioEchoSection(scenario, "Read from " + source + ", with every default filled in and the "
        + "command-line values applied.");
  }

  @Override
  public String id() {
    return "scenario";
  }

  @Override
  public String title() {
    return "Scenario";
  }

  @Override
  public void render(Markup out) {
    if (scenario == null) {
      Tables.note(out, "The scenario as loaded is not available for this run.");
      return;
    }
    Tables.note(out, note);
    // Collapsed: the whole scenario runs to hundreds of lines, which would bury the figures above when printed or
    // scrolled; one click opens it.
    String text = render(scenario);
    long lines = text.lines().count();
    out.start("details").element("summary", "Show the scenario as loaded (" + lines + " lines of HOCON)").newline();
    out.element("pre", text).newline();
    out.end("details").newline();
  }

  /** {@code scenario} as HOCON: keys sorted, no comments. */
  static String render(Config scenario) {
    return scenario.root().render(ConfigRenderOptions.defaults().setOriginComments(false).setComments(false)
        .setJson(false).setFormatted(true));
  }
}
