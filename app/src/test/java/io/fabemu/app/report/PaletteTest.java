package io.fabemu.app.report;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabemu.collectives.Algorithm;
import io.fabemu.collectives.Collective;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;

/** One colour per algorithm: fixed for the known ones, by name for others, the same in every chart of a report. */
class PaletteTest {

  @Test
  void shouldGiveEveryAlgorithmAColourAndDistinctColoursToThoseOfOneCollective() {
    for (Algorithm a : Algorithm.values()) {
      assertThat(Palette.KNOWN).as(a.configName()).containsKey(a.configName());
    }
    for (Collective c : Collective.values()) {
      List<String> names = Algorithm.validFor(c).stream().map(Algorithm::configName).toList();
      Set<String> colours = names.stream().map(Palette::colour).collect(Collectors.toSet());
      assertThat(colours).as("colours of the algorithms of " + c + ": " + names).hasSize(names.size());
    }
  }

  @Test
  void shouldColourAnUnknownNameByItsNameAlone() {
    assertThat(Palette.colour("ring")).isEqualTo("#2166ac");
    assertThat(Palette.colour("my-algorithm")).isIn(Palette.OTHERS).isEqualTo(Palette.colour("my-algorithm"));
    assertThat(Palette.OTHERS.get(Math.floorMod("my-algorithm".hashCode(), Palette.OTHERS.size())))
        .isEqualTo(Palette.colour("my-algorithm"));
  }

  @Test
  void shouldDrawAnAlgorithmInItsColourInEveryChartWhateverItsPlaceInTheWorkload() throws Exception {
    List<CaseFigures> ringFirst = List.of(
        CaseSeriesTest.figures(0, "ring", "ring", CaseFigures.OUT_OF_PLACE, 8, 3, null),
        CaseSeriesTest.figures(1, "ring", "ring", CaseFigures.OUT_OF_PLACE, 64, 4, null),
        CaseSeriesTest.figures(2, "inc-node", "inc-node", CaseFigures.OUT_OF_PLACE, 8, 1, true),
        CaseSeriesTest.figures(3, "inc-node", "inc-node", CaseFigures.OUT_OF_PLACE, 64, 2, true));
    List<CaseFigures> incFirst = List.of(ringFirst.get(2), ringFirst.get(3), ringFirst.get(0), ringFirst.get(1));

    for (List<CaseFigures> cases : List.of(ringFirst, incFirst)) {
      List<CaseSeries> series = CaseSeries.of(cases);
      Markup m = new Markup();
      m.start("div");
      new CurvesSection("curves", "c", series).render(m);
      new IncSpeedupSection(series).render(m);
      m.end("div");
      Document doc = Xml.parse(m.toString());
      List<Element> lines = Xml.all(doc, "g").stream().filter(g -> "series".equals(g.getAttribute("class")))
          .toList();
      // Two curves charts of two lines, the speed-up chart of one.
      assertThat(lines).hasSize(5);
      for (Element line : lines) {
        String tip = line.getElementsByTagName("title").item(0).getTextContent();
        String algorithm = tip.startsWith("ring") ? "ring" : "inc-node";
        assertThat(line.getAttribute("stroke")).as(tip).isEqualTo(Palette.colour(algorithm));
      }
    }
  }

  @Test
  void shouldDashAnInPlaceSeriesInItsAlgorithmsColour() {
    CaseSeries inPlace = CaseSeries.of(List.of(
        CaseSeriesTest.figures(0, "ring", "ring", CaseFigures.IN_PLACE, 8, 3, null))).get(0);

    assertThat(inPlace.style().colour()).isEqualTo(Palette.colour("ring"));
    assertThat(inPlace.style().dash()).isEqualTo(CaseSeries.IN_PLACE_DASH);
  }
}
