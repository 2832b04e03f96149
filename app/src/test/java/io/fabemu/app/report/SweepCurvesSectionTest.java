package io.fabemu.app.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;

/** A sweep's curves: the algorithm's colour, the point's line style, and a legend of both that can be read. */
class SweepCurvesSectionTest {

  private static SweepPoint point(int number, String hosts, String algorithms, List<String> asked) {
    List<CaseFigures> cases = new java.util.ArrayList<>();
    int index = 0;
    for (String a : asked) {
      cases.add(CaseSeriesTest.figures(index++, a, a, CaseFigures.OUT_OF_PLACE, 4, 10 + number, null));
      cases.add(CaseSeriesTest.figures(index++, a, a, CaseFigures.OUT_OF_PLACE, 1 << 20, 900 + number, null));
    }
    return new SweepPoint(number, "topology.hosts=" + hosts + ", workload.algorithms=" + algorithms,
        List.of(hosts, algorithms), "points/" + number, 0, null, cases, null);
  }

  private static Document render(List<SweepPoint> points) throws Exception {
    Markup m = new Markup();
    new SweepCurvesSection(points).render(m);
    return Xml.parse("<div>" + m + "</div>");
  }

  @Test
  void shouldKeyTheLegendByAlgorithmAndByPointBelowThePlotWithoutCuttingALabel() throws Exception {
    List<SweepPoint> points = List.of(point(1, "8", "[ring]", List.of("ring")),
        point(2, "8", "[recursive-doubling, rabenseifner]", List.of("recursive-doubling", "rabenseifner")),
        point(3, "16", "[ring]", List.of("ring")),
        point(4, "16", "[recursive-doubling, rabenseifner]", List.of("recursive-doubling", "rabenseifner")));

    Document doc = render(points);

    Element chart = Xml.all(doc, "svg").get(0);
    Element legend = children(chart, "g").stream().filter(g -> "legend".equals(g.getAttribute("class")))
        .findFirst().orElseThrow();
    List<String> entries = texts(legend);
    // An entry per algorithm and one per point, not one per line (6 lines).
    assertThat(entries).containsExactly("ring", "recursive-doubling", "rabenseifner", "point 1: 8, [ring]",
        "point 2: 8, [recursive-doubling, rabenseifner]", "point 3: 16, [ring]",
        "point 4: 16, [recursive-doubling, rabenseifner]");
    assertThat(children(chart, "g").stream().filter(g -> "series".equals(g.getAttribute("class")))).hasSize(6);
    // Below the plot's frame, on rows of their own.
    Element frame = Xml.all(doc, "rect").stream().filter(r -> "frame".equals(r.getAttribute("class")))
        .findFirst().orElseThrow();
    double frameBottom = Double.parseDouble(frame.getAttribute("y")) + Double.parseDouble(frame.getAttribute("height"));
    List<double[]> places = new java.util.ArrayList<>();
    for (Element t : childTexts(legend)) {
      double x = Double.parseDouble(t.getAttribute("x"));
      double y = Double.parseDouble(t.getAttribute("y"));
      assertThat(y).isGreaterThan(frameBottom + 30);
      for (double[] p : places) assertThat(p[1] != y || Math.abs(p[0] - x) > 7 * 48).isTrue();
      places.add(new double[] {x, y});
    }
  }

  @Test
  void shouldDrawEachLineInItsAlgorithmsColourWithItsPointsLineStyle() throws Exception {
    Document doc = render(List.of(point(1, "8", "[ring]", List.of("ring")),
        point(2, "16", "[ring, rabenseifner]", List.of("ring", "rabenseifner"))));

    List<Element> lines = Xml.all(doc, "g").stream().filter(g -> "series".equals(g.getAttribute("class")))
        .toList().subList(0, 3);
    assertThat(lines).extracting(g -> g.getAttribute("stroke")).containsExactly(Palette.colour("ring"),
        Palette.colour("ring"), Palette.colour("rabenseifner"));
    Element point1 = (Element) lines.get(0).getElementsByTagName("path").item(0);
    Element point2 = (Element) lines.get(1).getElementsByTagName("path").item(0);
    assertThat(point1.hasAttribute("stroke-dasharray")).isFalse();
    assertThat(point2.getAttribute("stroke-dasharray")).isEqualTo(SweepCurvesSection.DASHES.get(1));
    assertThat(lines.get(0).getElementsByTagName("circle").getLength()).isEqualTo(2);
    assertThat(lines.get(1).getElementsByTagName("rect").getLength()).isEqualTo(2);
    assertThat(Xml.texts(doc, "title")).contains("ring · point 2 (topology.hosts=16, workload.algorithms=[ring, "
        + "rabenseifner]): 1 MiB → 902");
  }

  @Test
  void shouldLabelAPointWithItsAssignmentsWhenTheyAreShortAndWithItsValuesOtherwise() {
    SweepPoint shortOne = new SweepPoint(1, "topology.hosts=8", List.of("8"), "points/1", 0, null, List.of(), null);

    assertThat(SweepCurvesSection.pointLabel(shortOne)).isEqualTo("point 1: topology.hosts=8");
    assertThat(SweepCurvesSection.pointLabel(point(2, "16", "[ring, rabenseifner]", List.of("ring"))))
        .isEqualTo("point 2: 16, [ring, rabenseifner]");
  }

  private static List<Element> children(Element parent, String tag) {
    List<Element> out = new java.util.ArrayList<>();
    for (org.w3c.dom.Node n = parent.getFirstChild(); n != null; n = n.getNextSibling()) {
      if (n instanceof Element e && e.getTagName().equals(tag)) out.add(e);
    }
    return out;
  }

  private static List<Element> childTexts(Element legend) {
    return children(legend, "text");
  }

  private static List<String> texts(Element legend) {
    return childTexts(legend).stream().map(Element::getTextContent).toList();
  }
}
