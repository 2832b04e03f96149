package io.fabemu.app.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The sweep's link utilisation per point when no point has counters; with counters it is checked on whole sweep
 * reports ({@code ReportHtmlTest}), which build real results.
 */
class SweepLinksSectionTest {

  @Test
  void shouldSaySoWhenNoPointHasLinkCounters() throws Exception {
    SweepPoint failed = new SweepPoint(1, "seed=1", List.of("1"), "points/1-seed=1", 1, null, List.of(), "boom");
    Markup m = new Markup();

    new SweepLinksSection(List.of(failed), p -> null).render(m);

    assertThat(Xml.texts(Xml.parse("<div>" + m + "</div>"), "p"))
        .containsExactly("No point has link counters (none finished, or no link carried anything).");
  }

  @Test
  void shouldNameTheSectionForTheReportsContents() {
    SweepLinksSection section = new SweepLinksSection(List.of(), p -> null);

    assertThat(section.id()).isEqualTo("links");
    assertThat(section.title()).isEqualTo("Link utilisation per point");
  }
}
