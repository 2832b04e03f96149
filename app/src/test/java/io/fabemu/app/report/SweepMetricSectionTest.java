package io.fabemu.app.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;

class SweepMetricSectionTest {

  private static SweepPoint point(int number, List<String> keys, List<String> values, double latencyUs) {
    StringBuilder label = new StringBuilder();
    for (int k = 0; k < keys.size(); k++) label.append(k == 0 ? "" : ", ").append(keys.get(k)).append('=')
        .append(values.get(k));
    return new SweepPoint(number, label.toString(), values, "points/" + number, 0, null, List.of(
        CaseSeriesTest.figures(0, "ring", "ring", CaseFigures.OUT_OF_PLACE, 4, latencyUs / 2, null),
        CaseSeriesTest.figures(1, "ring", "ring", CaseFigures.OUT_OF_PLACE, 64, latencyUs, null)), null);
  }

  private static Document render(List<String> keys, List<SweepPoint> points) throws Exception {
    Markup m = new Markup();
    new SweepMetricSection(keys, points).render(m);
    return Xml.parse("<div>" + m + "</div>");
  }

  @Test
  void shouldDrawTheMetricsAgainstTheValueOfASingleNumericKey() throws Exception {
    List<String> keys = List.of("topology.hosts");

    Document doc = render(keys, List.of(point(1, keys, List.of("8"), 10), point(2, keys, List.of("16"), 30)));

    assertThat(Xml.texts(doc, "text")).contains("topology.hosts", "8", "10", "12", "14", "16",
        "latency at the largest size (us)", "average bus bandwidth (GB/s)");
    assertThat(Xml.texts(doc, "title")).contains("ring: topology.hosts=8 (largest size 64 B) → 10",
        "ring: topology.hosts=16 (largest size 64 B) → 30");
  }

  @Test
  void shouldGiveEachPointASlotWhenSeveralKeysAreVaried() throws Exception {
    List<String> keys = List.of("topology.hosts", "workload.sizes");

    Document doc = render(keys, List.of(point(1, keys, List.of("8", "[4 B]"), 10),
        point(2, keys, List.of("8", "[64 B]"), 20)));

    assertThat(Xml.texts(doc, "text")).contains("8, [4 B]", "8, [64 B]", "topology.hosts, workload.sizes");
    assertThat(Xml.texts(doc, "title")).contains("ring: topology.hosts=8, workload.sizes=[64 B] (largest size 64 B) "
        + "→ 20");
  }

  @Test
  void shouldSaySoWhenNoPointFinishedACase() throws Exception {
    SweepPoint failed = new SweepPoint(1, "seed=1", List.of("1"), "points/1-seed=1", 1, null, List.of(), "boom");

    assertThat(Xml.texts(render(List.of("seed"), List.of(failed)), "p"))
        .containsExactly("No point finished a case, so there is nothing to draw.");
  }
}
