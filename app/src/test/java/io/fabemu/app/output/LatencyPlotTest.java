package io.fabemu.app.output;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabemu.app.CliTestBase;
import io.fabemu.app.Fixtures;
import io.fabemu.app.ScenarioExecutor;
import io.fabemu.app.report.Palette;
import io.fabemu.collectives.Algorithm;
import io.fabemu.fabric.result.CaseResult;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import javax.xml.parsers.DocumentBuilder;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;

/** The latency plot: series and labels, axes, SVG/PNG output, and {@code fabemu run --out} writing it. */
public class LatencyPlotTest extends CliTestBase {

  private final Fixtures.FakeExecutor executor = new Fixtures.FakeExecutor();

  @Override
  protected ScenarioExecutor executor() {
    return executor;
  }

  /** Parses an SVG as XML (without fetching its DTD: there is no network in tests). */
  static Document parseSvg(byte[] svg) throws Exception {
    DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
    factory.setNamespaceAware(true);
    factory.setValidating(false);
    factory.setFeature("http://apache.org/xml/features/nonvalidating/load-external-dtd", false);
    DocumentBuilder builder = factory.newDocumentBuilder();
    Document doc = builder.parse(new ByteArrayInputStream(svg));
    assertThat(doc.getDocumentElement().getLocalName()).isEqualTo("svg");
    return doc;
  }

  /** The lines of the SVG's {@code <desc>}: a caption, then one line per series. */
  public static List<String> descriptionLines(Path svg) throws Exception {
    return descriptionLines(parseSvg(Files.readAllBytes(svg)));
  }

  private static List<String> descriptionLines(Document doc) {
    Element desc = (Element) doc.getDocumentElement().getElementsByTagNameNS("*", "desc").item(0);
    return Arrays.asList(desc.getTextContent().split("\n"));
  }

  private static CaseResult rd(int index, long size, double latencyPs) {
    return CaseResult.builder(index, Algorithm.RECURSIVE_DOUBLING, size, size / 4, 2).avgLatencyPs(latencyPs)
        .minLatencyPs(latencyPs).maxLatencyPs(latencyPs).build();
  }

  // ------------------------------------------------------------------------------ series and labels

  @Test
  void shouldMakeOneSeriesPerWorkloadAlgorithmWithLatenciesInMicroseconds() {
    List<LatencyPlot.Series> series = LatencyPlot.series(Fixtures.result());

    assertThat(series).containsExactly(new LatencyPlot.Series("ring", List.of(4L, 1_048_576L), List.of(5.43, 250.0)));
  }

  @Test
  void shouldNameTheAlgorithmsAutoChoseWhenLabellingAnAutoSeries() {
    List<CaseResult> cases = List.of(rd(0, 4, 1),
        CaseResult.builder(1, Algorithm.RING, 1 << 20, 1 << 18, 2).avgLatencyPs(1).minLatencyPs(1).maxLatencyPs(1)
            .build());

    assertThat(LatencyPlot.label("auto", "auto", false, cases)).isEqualTo("auto (recursive-doubling, ring)");
    assertThat(LatencyPlot.label("host", "auto", false, cases.subList(0, 1))).isEqualTo("host (recursive-doubling)");
    assertThat(LatencyPlot.label("ring", "ring", true, List.of(
        CaseResult.builder(0, Algorithm.RING, 4, 1, 2).avgLatencyPs(1).minLatencyPs(1).maxLatencyPs(1)
            .build()))).isEqualTo("ring, hierarchical");
    assertThat(LatencyPlot.label("host", "auto", false, List.of())).isEqualTo("host (auto)");
  }

  @Test
  void shouldLabelSizeTicksAsPowersOfTwo() {
    assertThat(LatencyPlot.powerOfTwoLabel(2)).isEqualTo("4");
    assertThat(LatencyPlot.powerOfTwoLabel(9)).isEqualTo("512");
    assertThat(LatencyPlot.powerOfTwoLabel(10)).isEqualTo("1K");
    assertThat(LatencyPlot.powerOfTwoLabel(16)).isEqualTo("64K");
    assertThat(LatencyPlot.powerOfTwoLabel(20)).isEqualTo("1M");
    assertThat(LatencyPlot.powerOfTwoLabel(30)).isEqualTo("1G");
    assertThat(LatencyPlot.powerOfTwoLabel(2.5)).isEmpty();
    assertThat(LatencyPlot.powerOfTwoLabel(-1)).isEmpty();
  }

  // ------------------------------------------------------------------------------ axes

  @Test
  void shouldUseALogLatencyAxisOnlyWhenLatenciesSpanMoreThanTenTimes() {
    var wide = new LatencyPlot.Series("a", List.of(4L, 8L), List.of(1.0, 10.5));
    var narrow = new LatencyPlot.Series("b", List.of(4L, 8L), List.of(1.0, 10.0));

    assertThat(LatencyPlot.chart("t", List.of(wide)).getStyler().isYAxisLogarithmic()).isTrue();
    assertThat(LatencyPlot.chart("t", List.of(narrow)).getStyler().isYAxisLogarithmic()).isFalse();
    assertThat(LatencyPlot.chart("t", List.of(narrow)).getXAxisTitle()).isEqualTo("Message size (bytes, log2)");
  }

  @Test
  void shouldDrawASizeOfZeroOnALinearAxis() throws Exception {
    var barrier = new LatencyPlot.Series("dissemination", List.of(0L), List.of(3.0));

    assertThat(LatencyPlot.chart("t", List.of(barrier)).getXAxisTitle()).isEqualTo("Message size (bytes)");
    assertThat(parseSvg(LatencyPlot.draw("t", List.of(barrier)).svg())).isNotNull();
  }

  @Test
  void shouldStillDrawWhenNoSeriesHasAPoint() throws Exception {
    LatencyPlot.Images images = LatencyPlot.draw("nothing finished",
        List.of(new LatencyPlot.Series("ring", List.of(), List.of())));

    assertThat(descriptionLines(parseSvg(images.svg())))
        .containsExactly("Average latency (us) against message size (bytes).", "ring:");
    assertThat(images.png()).startsWith(0x89, 'P', 'N', 'G');
  }

  @Test
  void shouldMarkEverySizeWhereTheInNetworkAlgorithmFellBackWithItsReason() throws Exception {
    var inc = new LatencyPlot.Series("inc-node", List.of(256L, 512L, 1024L), List.of(10.0, 29.5, 50.0),
        List.of("", "message-too-large", "message-too-large"));

    var chart = LatencyPlot.chart("t", List.of(inc));
    var marks = chart.removeSeries("inc-node: no INC, host algorithm (message-too-large)");
    assertThat(marks).isNotNull();
    assertThat(marks.getXData()).containsExactly(9.0, 10.0);
    assertThat(chart.removeSeries("inc-node").getXData()).containsExactly(8.0, 9.0, 10.0);
    assertThat(descriptionLines(parseSvg(LatencyPlot.draw("t", List.of(inc)).svg()))).contains("inc-node: 256 B "
        + "10.00 us, 512 B 29.50 us (no INC, host algorithm: message-too-large), 1024 B 50.00 us (no INC, host "
        + "algorithm: message-too-large)");
  }

  // ------------------------------------------------------------------------------ output

  @Test
  void shouldWriteWellFormedSvgWithTitleAndDataAndAPng() throws Exception {
    List<LatencyPlot.Series> series = List.of(
        new LatencyPlot.Series("ring", List.of(4L, 8L), List.of(20.0, 20.5)),
        new LatencyPlot.Series("a & <b>", List.of(4L, 8L), List.of(2.0, 2.125)));

    LatencyPlot.Images images = LatencyPlot.draw("x: allreduce latency", series);

    Document doc = parseSvg(images.svg());
    assertThat(doc.getDocumentElement().getElementsByTagNameNS("*", "title").item(0).getTextContent())
        .isEqualTo("x: allreduce latency");
    assertThat(descriptionLines(doc)).containsExactly("Average latency (us) against message size (bytes).",
        "ring: 4 B 20.00 us, 8 B 20.50 us", "a & <b>: 4 B 2.00 us, 8 B 2.13 us");
    assertThat(images.png()).startsWith(0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n');
    // Drawing is deterministic: the same plot gives the same bytes.
    assertThat(LatencyPlot.draw("x: allreduce latency", series).svg()).isEqualTo(images.svg());
  }

  @Test
  void shouldWriteTheSvgsTextAsTextElementsInTheAlgorithmsColours() throws Exception {
    List<Long> sizes = new java.util.ArrayList<>();
    List<Double> ring = new java.util.ArrayList<>();
    List<Double> rd = new java.util.ArrayList<>();
    for (int e = 2; e <= 20; e++) {
      sizes.add(1L << e);
      ring.add(100.0 + e);
      rd.add(4.0 * e * e);
    }
    List<LatencyPlot.Series> series = List.of(new LatencyPlot.Series("ring", sizes, ring),
        new LatencyPlot.Series("auto (recursive-doubling)", sizes, rd, java.util.Collections.nCopies(19, ""),
            "recursive-doubling"));

    byte[] svg = LatencyPlot.draw("quick: allreduce latency", series).svg();

    Document doc = parseSvg(svg);
    List<String> texts = new java.util.ArrayList<>();
    var nodes = doc.getElementsByTagNameNS("*", "text");
    for (int i = 0; i < nodes.getLength(); i++) texts.add(nodes.item(i).getTextContent());
    assertThat(texts).contains("quick: allreduce latency", "ring", "auto (recursive-doubling)", "4", "1K", "1M",
        "message size (bytes, log2)", "average latency (us), log");
    // Letters are not drawn as outlines: a path per line (the joined points) and nothing else.
    assertThat(doc.getElementsByTagNameNS("*", "path").getLength()).isEqualTo(2);
    var groups = doc.getElementsByTagNameNS("*", "g");
    List<String> strokes = new java.util.ArrayList<>();
    for (int i = 0; i < groups.getLength(); i++) {
      Element g = (Element) groups.item(i);
      if ("series".equals(g.getAttribute("class"))) strokes.add(g.getAttribute("stroke"));
    }
    assertThat(strokes).containsExactly(io.fabemu.app.report.Palette.colour("ring"),
        io.fabemu.app.report.Palette.colour("recursive-doubling"));
    // Two lines of 19 points: XChart's outlined text made this 500 kB; as text it is a few kB.
    assertThat(svg.length).isLessThan(16_000);
  }

  @Test
  void shouldWriteThePlotWithOneSeriesPerAlgorithmWhenRunWritesResults() throws Exception {
    Path out = dir.resolve("out");

    assertThat(fabemu("run", tinyScenario().toString(), "--out", out.toString())).as(stderr).isZero();

    try (var files = Files.list(out)) {
      assertThat(files.map(p -> p.getFileName().toString())).containsExactlyInAnyOrder("results.json",
          "results.csv", "latency.svg", "latency.png", "nccl-tests", "report.html", "osu");
    }
    assertThat(descriptionLines(out.resolve("latency.svg"))).containsExactly(
        "Average latency (us) against message size (bytes).",
        "ring: 4 B 2.00 us, 64 B 2.06 us",
        "recursive-doubling: 4 B 2.00 us, 64 B 2.06 us");
    Document doc = parseSvg(Files.readAllBytes(out.resolve("latency.svg")));
    assertThat(doc.getDocumentElement().getElementsByTagNameNS("*", "title").item(0).getTextContent())
        .isEqualTo("tiny: allreduce latency, 2 ranks (2 hosts x 1)");
  }

  @Test
  void shouldNameThePlotAndExitOneWhenRunCannotWriteIt() throws IOException {
    Path out = dir.resolve("out");
    Files.createDirectories(out.resolve("latency.png"));
    Files.writeString(out.resolve("latency.png/keep"), "x");

    assertThat(fabemu("run", tinyScenario().toString(), "--out", out.toString())).isEqualTo(1);

    assertThat(stderr.lines()).hasSize(1);
    assertThat(stderr).startsWith("fabemu: cannot write " + out.resolve("latency.png") + ": ");
    assertThat(out.resolve("latency.svg")).isRegularFile();
    assertThat(out.resolve("results.json")).isRegularFile();
  }
}
