package io.fabemu.app.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;

/** The SVG charts: well-formed, one mark per value, tooltips with the figures, and what cannot be drawn left out. */
class ChartsTest {

  private static Document svg(Markup m) throws Exception {
    return Xml.parse(m.toString());
  }

  @Test
  void shouldDrawALinePerSeriesWithAMarkerAndTooltipPerPoint() throws Exception {
    Markup m = new Markup();
    LineChart.render(m, "Latency & <size>", Axis.log2Bytes("size", 4, 64), Axis.log10("us", 1, 100), List.of(
        new LineChart.Series("ring", List.of(4.0, 64.0), List.of(2.0, 50.0), List.of("4 B", "64 B")),
        new LineChart.Series("rd", List.of(4.0, 16.0, 64.0), List.of(1.0, 0.0, 80.0))));

    Document doc = svg(m);
    assertThat(Xml.texts(doc, "title").get(0)).isEqualTo("Latency & <size>");
    List<Element> series = Xml.all(doc, "g").stream().filter(g -> "series".equals(g.getAttribute("class")))
        .toList();
    assertThat(series).hasSize(2);
    assertThat(series.get(0).getAttribute("stroke")).isEqualTo(LineChart.colour(0));
    // rd's 0 cannot go on a log axis: two of its three points are drawn.
    assertThat(series.get(0).getElementsByTagName("circle").getLength()).isEqualTo(2);
    assertThat(series.get(1).getElementsByTagName("circle").getLength()).isEqualTo(2);
    assertThat(Xml.texts(doc, "title")).contains("ring: 4 B → 2", "ring: 64 B → 50", "rd: 64 → 80");
    assertThat(Xml.texts(doc, "text")).contains("ring", "rd", "4", "8", "16", "32", "64", "1", "10", "100");
  }

  @Test
  void shouldPlaceAPointWhereItsAxesSay() throws Exception {
    Markup m = new Markup();
    LineChart.render(m, "t", Axis.linear("x", 0, 10, true), Axis.linear("y", 0, 10, true),
        List.of(new LineChart.Series("s", List.of(0.0, 10.0), List.of(0.0, 10.0))));

    List<Element> circles = Xml.all(svg(m), "circle");
    double x0 = Double.parseDouble(circles.get(0).getAttribute("cx"));
    double y0 = Double.parseDouble(circles.get(0).getAttribute("cy"));
    double x1 = Double.parseDouble(circles.get(1).getAttribute("cx"));
    double y1 = Double.parseDouble(circles.get(1).getAttribute("cy"));
    assertThat(x1).isGreaterThan(x0);
    assertThat(y1).isLessThan(y0);
    Element frame = Xml.all(svg(m), "rect").stream().filter(r -> "frame".equals(r.getAttribute("class")))
        .findFirst().orElseThrow();
    assertThat(x0).isCloseTo(Double.parseDouble(frame.getAttribute("x")), within(0.01));
    assertThat(y1).isCloseTo(Double.parseDouble(frame.getAttribute("y")), within(0.01));
  }

  @Test
  void shouldShortenLongLegendLabelsAndKeepTheWholeLabelInATooltip() throws Exception {
    String label = "topology.hosts=16, workload.algorithms=[ring, recursive-doubling] · auto (ring)";
    Markup m = new Markup();
    LineChart.render(m, "t", Axis.linear("x", 0, 1, true), Axis.linear("y", 0, 1, true),
        List.of(new LineChart.Series(label, List.of(0.5), List.of(0.5))));

    Document doc = svg(m);
    assertThat(Xml.texts(doc, "title")).contains(label);
    assertThat(Xml.texts(doc, "text").stream().filter(t -> t.endsWith("…"))).hasSize(1);
  }

  @Test
  void shouldWriteAStandaloneSvgWhoseTextIsTextWithTheStylesInline() throws Exception {
    String svg = LineChart.standalone("Latency & co", "the data\nas text", Axis.log2Bytes("size", 4, 64),
        Axis.linear("us", 0, 10, true), List.of(new LineChart.Series("ring", List.of(4.0, 64.0), List.of(2.0, 5.0),
            null, LineChart.Style.ofAlgorithm("ring"))), List.of());

    assertThat(svg).startsWith("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg ");
    Document doc = Xml.parse(svg);
    Element root = doc.getDocumentElement();
    assertThat(root.getAttribute("xmlns")).isEqualTo("http://www.w3.org/2000/svg");
    assertThat(Xml.texts(doc, "style").get(0)).contains("svg.chart text");
    assertThat(Xml.texts(doc, "title").get(0)).isEqualTo("Latency & co");
    assertThat(Xml.texts(doc, "desc")).containsExactly("the data\nas text");
    List<String> firstChildren = new java.util.ArrayList<>();
    for (org.w3c.dom.Node n = root.getFirstChild(); n != null && firstChildren.size() < 3; n = n.getNextSibling()) {
      if (n instanceof Element e) firstChildren.add(e.getTagName());
    }
    assertThat(firstChildren).containsExactly("title", "desc", "style");
    assertThat(Xml.texts(doc, "text")).contains("Latency & co", "size", "us", "4", "64", "0", "10");
    assertThat(Xml.all(doc, "g").stream().filter(g -> "series".equals(g.getAttribute("class")))
        .map(g -> g.getAttribute("stroke"))).containsExactly(Palette.colour("ring"));
  }

  @Test
  void shouldDrawEachMarkerKindWithItsTooltipAndLeaveAMarksOnlySeriesUnjoined() throws Exception {
    Markup m = new Markup();
    List<LineChart.Series> series = new java.util.ArrayList<>();
    for (LineChart.Marker marker : LineChart.Marker.values()) {
      series.add(new LineChart.Series(marker.name(), List.of(1.0, 2.0), List.of(1.0, 2.0), null,
          new LineChart.Style("#123456", "4 2", marker, marker != LineChart.Marker.CROSS)));
    }
    LineChart.render(m, "t", Axis.linear("x", 0, 3, true), Axis.linear("y", 0, 3, true), series);

    Document doc = svg(m);
    List<Element> groups = Xml.all(doc, "g").stream().filter(g -> "series".equals(g.getAttribute("class")))
        .toList();
    assertThat(groups).hasSize(LineChart.Marker.values().length);
    assertThat(groups.get(0).getElementsByTagName("circle").getLength()).isEqualTo(2);
    assertThat(groups.get(1).getElementsByTagName("rect").getLength()).isEqualTo(2);
    // Triangle and diamond: a joining path and a path per point; the cross: its two marks only.
    assertThat(groups.get(2).getElementsByTagName("path").getLength()).isEqualTo(3);
    assertThat(groups.get(3).getElementsByTagName("path").getLength()).isEqualTo(3);
    assertThat(groups.get(4).getElementsByTagName("path").getLength()).isEqualTo(2);
    assertThat(((Element) groups.get(0).getElementsByTagName("path").item(0)).getAttribute("stroke-dasharray"))
        .isEqualTo("4 2");
    assertThat(Xml.texts(doc, "title")).contains("CROSS: 2 → 2", "DIAMOND: 1 → 1");
  }

  @Test
  void shouldColourHeatMapCellsByTheirShareOfTheLargestValueAndSkipMissingCells() throws Exception {
    Markup m = new Markup();
    double[][] values = {{Double.NaN, 10}, {0, 5}};
    HeatMap.render(m, "busy", List.of("a", "b"), List.of("a", "b"), values,
        new String[][] {{null, "a → b: ten"}, {null, null}}, v -> Formats.significant(v, 3));

    Document doc = svg(m);
    Element cells = Xml.all(doc, "g").stream().filter(g -> "cells".equals(g.getAttribute("class"))).findFirst()
        .orElseThrow();
    // Three cells: the missing value (NaN) is not drawn; the 0 is drawn grey.
    assertThat(cells.getElementsByTagName("rect").getLength()).isEqualTo(3);
    assertThat(((Element) cells.getElementsByTagName("rect").item(1)).getAttribute("fill")).isEqualTo("#eeeeee");
    assertThat(Xml.texts(doc, "title")).contains("a → b: ten", "b → a: 0", "b → b: 5");
    assertThat(HeatMap.colour(1)).isEqualTo("#800026");
    assertThat(HeatMap.colour(0)).isEqualTo("#fff7bc");
    assertThat(HeatMap.colour(2)).isEqualTo("#800026");
    assertThat(Xml.texts(doc, "text")).contains("10", "0");
  }

  @Test
  void shouldSummariseDistributionsWithInterpolatedQuartiles() {
    BoxPlot.Box box = BoxPlot.Box.of(new double[] {4, 1, 3, 2, 5});

    assertThat(box).isEqualTo(new BoxPlot.Box(1, 2, 3, 4, 5, 5));
    assertThat(BoxPlot.Box.of(new double[] {1, 2, 3, 4})).isEqualTo(new BoxPlot.Box(1, 1.75, 2.5, 3.25, 4, 4));
    assertThat(BoxPlot.Box.of(new double[] {7})).isEqualTo(new BoxPlot.Box(7, 7, 7, 7, 7, 1));
  }

  @Test
  void shouldDrawABoxPerSeriesAndCategoryWithItsFiveNumbersInTheTooltip() throws Exception {
    Markup m = new Markup();
    BoxPlot.render(m, "spread", Axis.categories("size", List.of("4", "8")), Axis.linear("us", 0, 10, true),
        List.of(new BoxPlot.Series("ring", List.of(BoxPlot.Box.of(new double[] {1, 2, 3}),
                BoxPlot.Box.of(new double[] {4, 5}))),
            new BoxPlot.Series("rd", java.util.Arrays.asList(null, BoxPlot.Box.of(new double[] {6})))), "us");

    Document doc = svg(m);
    List<Element> boxes = Xml.all(doc, "g").stream().filter(g -> "box".equals(g.getAttribute("class"))).toList();
    assertThat(boxes).hasSize(3);
    assertThat(Xml.texts(doc, "title")).contains("ring, 4: 3 values; min 1, q1 1.5, median 2, q3 2.5, max 3 us",
        "rd, 8: 1 values; min 6, q1 6, median 6, q3 6, max 6 us");
  }

  @Test
  void shouldDrawTimelineLanesTopDownClampBarsToTheAxisAndListOnlyTheKindsDrawn() throws Exception {
    TimelineChart.MarkerKind start =
        new TimelineChart.MarkerKind("start", TimelineChart.Shape.TRIANGLE_DOWN, "#b2182b");
    TimelineChart.MarkerKind unused = new TimelineChart.MarkerKind("unused", TimelineChart.Shape.CIRCLE, "#2166ac");
    TimelineChart.MarkerKind mark = new TimelineChart.MarkerKind("mark", TimelineChart.Shape.PLUS, "#666666");
    String longLane = "link a-very-long-switch-name-0 to another-one";
    Markup m = new Markup();
    TimelineChart.render(m, "t", Axis.linear("time", 0, 10, true), List.of("first <lane>", longLane),
        List.of(new TimelineChart.Bar(0, 2, 50, "bar past the end")), "busy",
        List.of(new TimelineChart.Marker(1, 4, mark, "m1"), new TimelineChart.Marker(0, 2, start, "s0")),
        List.of(start, unused, mark));

    Document doc = svg(m);
    List<Element> lanes = Xml.all(doc, "g").stream().filter(g -> "lane".equals(g.getAttribute("class"))).toList();
    assertThat(lanes).extracting(g -> g.getAttribute("data-lane")).containsExactly("first <lane>", longLane);
    Element bar = (Element) lanes.get(0).getElementsByTagName("rect").item(0);
    Element frame = Xml.all(doc, "rect").stream().filter(r -> "frame".equals(r.getAttribute("class"))).findFirst()
        .orElseThrow();
    double frameLeft = Double.parseDouble(frame.getAttribute("x"));
    double frameWidth = Double.parseDouble(frame.getAttribute("width"));
    // From 2 to 50 on an axis from 0 to 10: the bar stops at the frame's right edge.
    assertThat(Double.parseDouble(bar.getAttribute("x"))).isCloseTo(frameLeft + frameWidth * 0.2, within(0.02));
    assertThat(Double.parseDouble(bar.getAttribute("x")) + Double.parseDouble(bar.getAttribute("width")))
        .isCloseTo(frameLeft + frameWidth, within(0.02));
    // The first lane is above the second.
    double y0 = Double.parseDouble(bar.getAttribute("y")) + 8;
    String d1 = ((Element) lanes.get(1).getElementsByTagName("path").item(0)).getAttribute("d");
    double y1 = Double.parseDouble(d1.split(" ")[1]);
    assertThat(y0).isLessThan(y1);
    assertThat(Xml.texts(doc, "text")).contains("first <lane>", "link a-very-long-switch…", "busy", "start",
        "mark").doesNotContain("unused");
    assertThat(Xml.all(doc, "path").stream().filter(p -> "legend-marker".equals(p.getAttribute("class")))
        .map(p -> p.getAttribute("data-kind"))).containsExactly("start", "mark");
    assertThat(Xml.texts(doc, "title")).contains("bar past the end", "m1", "s0");
  }
}
