package io.fabemu.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.typesafe.config.ConfigFactory;
import io.fabemu.app.output.ResultsWriter;
import io.fabemu.app.report.RunReport;
import io.fabemu.app.report.SweepPoint;
import io.fabemu.app.report.SweepReport;
import io.fabemu.app.report.Xml;
import io.fabemu.collectives.Algorithm;
import io.fabemu.collectives.Collective;
import io.fabemu.collectives.WorkloadSpec;
import io.fabemu.core.inc.IncCodes.FailCause;
import io.fabemu.core.sim.DeviceReport.LinkCounters;
import io.fabemu.core.topology.LeafSpineSpec;
import io.fabemu.core.topology.LinkSpec;
import io.fabemu.core.topology.Topology;
import io.fabemu.fabric.ScenarioSpec;
import io.fabemu.fabric.result.CaseResult;
import io.fabemu.fabric.result.RunResult;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/** The run's HTML report: self-contained, well-formed, every section, escaped, deterministic but for wall time. */
class ReportHtmlTest {

  private static String html(RunResult result) {
    Topology topology = result.scenario().topology().build();
    return new RunReport("golden: allreduce latency", result, topology,
        ConfigFactory.parseString("name = golden\nworkload { iterations = 10 }"),
        ResultsWriter.caseFigures(result, topology)).html();
  }

  private static RunResult withWallSeconds(RunResult r, double wallSeconds) {
    return RunResult.builder(r.scenario()).cases(r.cases()).links(r.links()).complete(r.complete())
        .incompleteReason(r.incompleteReason()).virtualEndPs(r.virtualEndPs()).windows(r.windows())
        .events(r.events()).wallSeconds(wallSeconds).digest(r.digest()).build();
  }

  private static ScenarioSpec named(String name, WorkloadSpec workload) {
    ScenarioSpec base = Fixtures.spec();
    return base.toBuilder().name(name).workload(workload).build();
  }

  @Test
  void shouldSetEachSweepPointsLinkUtilisationSideBySide() throws Exception {
    RunResult small = Fixtures.result();
    // The second point: host 1's uplink busy half its run, the TOR's link to host 0 a quarter.
    RunResult large = RunResult.builder(small.scenario()).cases(small.cases())
        .links(List.of(new LinkCounters(1, 4, 8_000_000, 2_000, 1_000_000_000L),
            new LinkCounters(4, 0, 4_000_000, 1_000, 500_000_000L)))
        .complete(true).virtualEndPs(2_000_000_000L).windows(1).events(1).wallSeconds(0.1).digest("cd34").build();
    List<SweepPoint> points = List.of(
        new SweepPoint(1, "workload.sizes=[4 B]", List.of("[4 B]"), "points/1", 0, small,
            ResultsWriter.caseFigures(small, small.scenario().topology().build()), null),
        new SweepPoint(2, "workload.sizes=[1 MiB]", List.of("[1 MiB]"), "points/2", 0, large,
            ResultsWriter.caseFigures(large, large.scenario().topology().build()), null));

    Document doc = Xml.parse(new SweepReport("golden: sweep", "golden.conf", List.of("workload.sizes"), List.of(),
        points, null, 1.0).html());

    Element links = Xml.all(doc, "section").stream().filter(s -> "links".equals(s.getAttribute("id")))
        .findFirst().orElseThrow();
    assertThat(links.getElementsByTagName("svg").getLength()).isEqualTo(1);
    List<String> cells = new ArrayList<>();
    NodeList tds = links.getElementsByTagName("td");
    for (int i = 0; i < tds.getLength(); i++) cells.add(tds.item(i).getTextContent());
    // Per point its busiest links, named from the topology, busy share over the point's own virtual end.
    assertThat(cells).containsSubsequence("1", "[4 B]", "1", "host0 → tor0", "977 KiB", "12.3 %");
    assertThat(cells).containsSubsequence("2", "[1 MiB]", "1", "host1 → tor0", "7.63 MiB", "50.0 %",
        "2", "[1 MiB]", "2", "tor0 → host0", "3.81 MiB", "25.0 %");
    assertThat(Xml.texts(doc, "title")).anyMatch(t -> t.startsWith("point 2, host → tor: 1 links, mean busy 50.0 %"));
  }

  @Test
  void shouldHoldEverySectionInOneWellFormedFileWithNothingToFetch() throws Exception {
    String html = html(Fixtures.result());

    Document doc = Xml.parse(html);
    assertThat(html).startsWith("<!DOCTYPE html>\n<html lang=\"en\">");
    assertThat(Xml.texts(doc, "h2")).containsExactly("Run", "Latency and bus bandwidth", "In-network speed-up",
        "Link utilisation", "Per-rank spread", "Scenario");
    assertThat(Xml.all(doc, "a").stream().map(a -> a.getAttribute("href")).toList())
        .containsExactly("#run", "#curves", "#inc", "#links", "#ranks", "#scenario");
    // Self-contained: no script, no external style sheet, image or font; the only URL is SVG's namespace name.
    assertThat(html).doesNotContain("<script", "<link", "<img", "src=", "url(", "@import")
        .doesNotContain("https://");
    assertThat(html.replace("http://www.w3.org/2000/svg", "")).doesNotContain("http://");
    assertThat(Xml.all(doc, "svg")).hasSize(5);
  }

  @Test
  void shouldShowTheFactsTheDigestAndTheScenarioAsLoaded() throws Exception {
    Document doc = Xml.parse(html(Fixtures.result()));

    List<String> cells = Xml.texts(doc, "td");
    assertThat(cells).contains("golden (golden.conf)", "leaf-spine: 4 hosts, 1 TOR (4 hosts), 0 spines",
        "4 (4 nodes x 1 per node)", "complete, every output exact", "2.6 ms (2600000000 ps)", "1234", "56789", "ab12",
        "allreduce float32 sum; algorithms ring; 2 sizes, 4 B to 1 MiB; 10 iterations + 2 warm-up");
    assertThat(Xml.texts(doc, "pre")).singleElement().asString().contains("name=golden").contains("iterations=10");
    assertThat(Xml.texts(doc, "p")).contains("No speed-up to show: this run has no in-network cases (algorithms "
        + "inc-node or inc-socket).", "No per-rank figures: the run reported none for its finished cases.");
  }

  @Test
  void shouldShowTheOcsSetUpAndEachPolicyChangeInTheRunFacts() throws Exception {
    Document doc = Xml.parse(html(Fixtures.ocsResult()));

    assertThat(Xml.texts(doc, "th")).containsSubsequence("Virtual end", "OCS circuits", "OCS change", "Windows");
    assertThat(Xml.texts(doc, "td")).contains("6 circuits set up, the last up at 10 us; 16 packets waited for their"
        + " circuit, 100.88 us in total, worst 6.545 us", "policy change at 20 us to formula 1: 6 circuits torn down,"
        + " 6 set up, the last up at 30.5 us; 12 packets waited for them, 85.072 us in total, worst 9.3 us");
    assertThat(Xml.texts(Xml.parse(html(Fixtures.result())), "th")).doesNotContain("OCS circuits", "OCS change");
  }

  @Test
  void shouldDifferOnlyInTheWallTimeLineBetweenTwoRunsOfTheSameScenario() {
    List<String> first = html(withWallSeconds(Fixtures.result(), 0.5)).lines().toList();
    List<String> second = html(withWallSeconds(Fixtures.result(), 7.25)).lines().toList();

    assertThat(second).hasSameSizeAs(first);
    List<String> differing = new ArrayList<>();
    for (int i = 0; i < first.size(); i++) {
      if (!first.get(i).equals(second.get(i))) differing.add(second.get(i));
    }
    assertThat(differing).singleElement().asString().contains("Wall time").contains("7.250 s")
        .contains("7833 events/s");
  }

  @Test
  void shouldEscapeTextFromTheScenario() throws Exception {
    RunResult golden = Fixtures.result();
    ScenarioSpec spec = named("<script>alert('x')</script> & co", golden.scenario().workload());
    RunResult result = RunResult.builder(spec).cases(golden.cases()).links(golden.links()).complete(true)
        .virtualEndPs(golden.virtualEndPs()).windows(1).events(1).wallSeconds(0.1).digest("ab12").build();

    String html = html(result);

    assertThat(html).doesNotContain("<script>").contains("&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; &amp; co");
    assertThat(Xml.texts(Xml.parse(html), "td")).contains("<script>alert('x')</script> & co (golden.conf)");
  }

  @Test
  void shouldNameLinksFromTheTopologyWithTheirBytesAndBusyShare() throws Exception {
    Document doc = Xml.parse(html(Fixtures.result()));

    // 320 us busy of a 2.6 ms run: 12.3 %; device 4 is the TOR of the 4 hosts.
    assertThat(Xml.texts(doc, "title")).contains("host0 → tor0: 977 KiB in 300 packets, busy 320 us (12.3 % of the "
        + "run)", "tor0 → host0: 977 KiB in 300 packets, busy 320 us (12.3 % of the run)");
    assertThat(Xml.texts(doc, "td")).contains("host → tor", "tor → host", "host0 → tor0");
    assertThat(Xml.texts(doc, "title")).contains("Busy share per link (from x to)", "Bytes per link (from x to)",
        "Mean busy share per tier pair");
  }

  @Test
  void shouldDrawTheTiersOnlyWhenTheFabricIsTooLargeForAMatrix() throws Exception {
    LeafSpineSpec big = new LeafSpineSpec(80, 4, 2, new LinkSpec(25_000_000_000L, 500_000L),
        new LinkSpec(100_000_000_000L, 500_000L));
    Topology topology = big.build();
    List<LinkCounters> links = new ArrayList<>();
    for (Topology.Link l : topology.links()) {
      links.add(new LinkCounters(l.from(), l.to(), 100L * l.id(), l.id(), l.id()));
    }
    ScenarioSpec base = Fixtures.spec();
    ScenarioSpec spec = ScenarioSpec.builder("big", "big.conf", 1, big, base.devices(), base.workload()).build();
    RunResult result = RunResult.builder(spec).cases(Fixtures.result().cases()).links(links).complete(true)
        .virtualEndPs(1_000_000).windows(1).events(1).wallSeconds(0.1).digest("d").build();

    Document doc = Xml.parse(new RunReport("big", result, topology, null, ResultsWriter.caseFigures(result, topology))
        .html());

    assertThat(Xml.texts(doc, "title")).contains("Mean busy share per tier pair")
        .doesNotContain("Busy share per link (from x to)");
    assertThat(Xml.texts(doc, "p")).anyMatch(p -> p.startsWith("The fabric has 102 devices on links, too many"));
    assertThat(Xml.texts(doc, "td")).contains("host → tor", "tor → spine", "spine → tor", "tor → host");
    assertThat(Xml.texts(doc, "p")).contains("The scenario as loaded is not available for this run.");
  }

  @Test
  void shouldShowTheSpeedUpAndTheRanksSpreadOfAnInNetworkRun() throws Exception {
    WorkloadSpec w = WorkloadSpec.builder(Collective.ALLREDUCE, List.of(Algorithm.AUTO, Algorithm.INC_NODE),
        List.of(4L, 8L)).iterations(10).warmup(2).build();
    double[] ranks = {9e6, 10e6, 11e6, 12e6};
    RunResult result = RunResult.builder(named("inc", w))
        .cases(List.of(CaseResult.builder(0, Algorithm.RECURSIVE_DOUBLING, 4, 1, 10).avgLatencyPs(10.5e6)
            .minLatencyPs(9e6).maxLatencyPs(12e6).rankLatenciesPs(ranks)
            .build(), CaseResult.builder(1, Algorithm.RECURSIVE_DOUBLING, 8, 2, 10).avgLatencyPs(12e6)
                .minLatencyPs(12e6).maxLatencyPs(12e6).build(),
            CaseResult.builder(2, Algorithm.INC_NODE, 4, 1, 10).avgLatencyPs(3.5e6).minLatencyPs(3e6).maxLatencyPs(4e6)
                .incOutcome(FailCause.NONE).rankLatenciesPs(new double[] {3e6, 4e6}).build(),
            CaseResult.builder(3, Algorithm.INC_NODE, 8, 2, 10).avgLatencyPs(12e6).minLatencyPs(12e6).maxLatencyPs(12e6)
                .incOutcome(FailCause.NO_FREE_GROUPS).build()))
        .links(List.of()).complete(true).virtualEndPs(1).windows(1).events(1).wallSeconds(0.1).digest("d").build();

    Document doc = Xml.parse(html(result));

    assertThat(Xml.texts(doc, "td")).contains("3.00x", "1.00x", "INC in use", "no INC, host algorithm ran: "
        + FailCause.NO_FREE_GROUPS.description(), "auto (recursive-doubling)");
    assertThat(Xml.texts(doc, "title")).contains("auto (recursive-doubling), 4: 4 values; min 9, q1 9.75, "
        + "median 10.5, q3 11.25, max 12 us", "inc-node, 4: 2 values; min 3, q1 3.25, median 3.5, q3 3.75, max 4 us");
    assertThat(Xml.texts(doc, "p")).contains("No link carried anything.");
  }

  @Test
  void shouldMarkACutShortRunAndSayWhyItHasNoLinkCounters() throws Exception {
    RunResult golden = Fixtures.result();
    RunResult cut = RunResult.builder(golden.scenario()).cases(golden.cases().subList(0, 1)).links(List.of())
        .complete(false).incompleteReason("lost member 2 (127.0.0.1:25521) at virtual time 5 ps").virtualEndPs(5)
        .windows(1).events(1).wallSeconds(0.1).digest("ab12").build();

    Document doc = Xml.parse(html(cut));

    assertThat(Xml.texts(doc, "td")).contains("INCOMPLETE: lost member 2 (127.0.0.1:25521) at virtual time 5 ps",
        "1 of 2 finished");
    assertThat(Xml.texts(doc, "p")).anyMatch(p -> p.startsWith("No link counters: the run was cut short"));
  }

  @Test
  void shouldShowTheFaultsWithALanePerTargetABarWhileDownAndAMarkerPerInjectionDetectionAndReroute()
      throws Exception {
    String html = html(Fixtures.faultedResult(2));
    Document doc = Xml.parse(html);

    assertThat(Xml.texts(doc, "h2")).containsExactly("Run", "Faults", "Latency and bus bandwidth",
        "In-network speed-up", "Link utilisation", "Per-rank spread", "Scenario");
    assertThat(Xml.all(doc, "svg")).hasSize(6);
    Element timeline = Xml.all(doc, "svg").stream().filter(e -> e.getAttribute("class").contains("timeline"))
        .findFirst().orElseThrow();
    List<Element> lanes = children(timeline, "g", "lane");
    assertThat(lanes).extracting(e -> e.getAttribute("data-lane")).containsExactly("link host0-tor0", "tor links",
        "switch tor0", "host links", "host host3", "cases");
    // The cable: down 40 to 60 us, noticed and rerouted both times. The TOR: down from 100 us to the end.
    assertThat(kinds(lanes.get(0))).containsExactly("down", "detected", "rerouted", "up", "detected", "rerouted");
    assertThat(kinds(lanes.get(1))).containsExactly("lossy");
    assertThat(kinds(lanes.get(2))).containsExactly("down");
    assertThat(kinds(lanes.get(3))).containsExactly("degrade");
    assertThat(kinds(lanes.get(4))).containsExactly("straggler");
    assertThat(children(lanes.get(0), "rect", "interval")).extracting(Element::getTextContent)
        .containsExactly("link host0-tor0 down from 40.000 us to 60.000 us (20.000 us; events 0 and 2)");
    assertThat(children(lanes.get(2), "rect", "interval")).extracting(Element::getTextContent)
        .containsExactly("switch tor0 down from 100.000 us to the end of the run (event 3)");
    for (int lane = 1; lane < 5; lane++) {
      if (lane != 2) assertThat(children(lanes.get(lane), "rect", "interval")).isEmpty();
    }
    // The bar of the TOR ends where the run did, at 2.6 ms, on an axis from 0 to 3000 us.
    Element frame = children(timeline, "rect", "frame").get(0);
    Element torBar = children(lanes.get(2), "rect", "interval").get(0);
    assertThat(Double.parseDouble(torBar.getAttribute("x")) + Double.parseDouble(torBar.getAttribute("width")))
        .isCloseTo(Double.parseDouble(frame.getAttribute("x")) + Double.parseDouble(frame.getAttribute("width"))
            * 2600 / 3000, within(0.02));
    assertThat(Double.parseDouble(torBar.getAttribute("x"))).isCloseTo(Double.parseDouble(frame.getAttribute("x"))
        + Double.parseDouble(frame.getAttribute("width")) * 100 / 3000, within(0.02));
    assertThat(Xml.texts(doc, "title")).contains("link host0-tor0 down (event 0) noticed at 43.000 us, 3.000 us "
        + "after it happened, first reported by tor0", "link host0-tor0 up (event 2) routed around at 62.300 us, "
        + "2.300 us after it happened; 2 devices updated", "event 1: 50.000 us tor links lossy (drop 1 %, corrupt "
        + "0.1 %); 5 packets lost, 2 corrupted, 3 messages resent after a loss, 1 spuriously; 3 collectives touched, "
        + "-0.002 us extra latency");
    // The legend: the bar and each kind of marker drawn, in a fixed order.
    assertThat(children(timeline, "path", "legend-marker")).extracting(e -> e.getAttribute("data-kind"))
        .containsExactly("down", "up", "degrade", "lossy", "straggler", "detected", "rerouted");

    List<List<String>> rows = rows(doc, "id");
    assertThat(rows).containsExactly(
        List.of("0", "40.000", "link host0-tor0", "down", "3.000", "4.200", "tor0", "3", "12", "0", "3", "0", "2",
            "35.250", "30.100", ""),
        List.of("1", "50.000", "tor links", "lossy", "-", "-", "-", "-", "5", "2", "3", "1", "3", "-0.002", "0.002",
            "drop 1 %, corrupt 0.1 %"),
        List.of("2", "60.000", "link host0-tor0", "up", "1.000", "2.300", "host0", "2", "0", "0", "0", "0", "1",
            "5.150", "5.150", ""),
        List.of("3", "100.000", "switch tor0", "down", "-", "-", "-", "0", "0", "0", "0", "0", "0", "0.000", "0.000",
            ""),
        List.of("4", "120.000", "host links", "degrade", "-", "-", "-", "-", "0", "0", "0", "0", "4", "12.000",
            "4.000", "rate 10 Gb/s, +200 ns latency"),
        List.of("5", "130.000", "host host3", "straggler", "-", "-", "-", "-", "0", "0", "0", "0", "4", "8.000",
            "2.500", "slowdown 2x"));
    assertThat(rows(doc, "Lost packets")).isEmpty();
    assertThat(Xml.texts(doc, "td")).containsSequence("17", "2", "7", "1 (the copy before had arrived: raise "
        + "faults.transport.min-retransmit-timeout (now 10 us; if the waits reach max-retransmit-timeout, now 10 ms, "
        + "that too))", "2", "0 lost, 0 corrupted, 1 resent after a loss, "
        + "0 spuriously (included above)", "rank 3 cut off from ranks 0-2", "2 messages");
    assertThat(Xml.texts(doc, "li")).containsExactly("rank 3 -> rank 0: message 0 after 10 tries",
        "rank 3 -> rank 1: message 1 after 10 tries");
  }

  @Test
  void shouldDrawTheCaseBoundariesAndSetEachCaseWithTheFaultsBesideItsBaseline() throws Exception {
    RunResult r = Fixtures.withFaults(Fixtures.result(), Fixtures.faultPlan(), null);
    // Case 0 from 0 to 45 us (the cable's outage from 40 us begins in it), case 1 from 45 us to 2.6 ms.
    List<CaseResult> cases = List.of(timed(r.cases().get(0), 0, 45_000_000L),
        timed(r.cases().get(1), 45_000_000L, 2_600_000_000L));
    List<CaseResult> baseline = List.of(timed(r.cases().get(0), 0, 44_000_000L),
        timed(withLatency(r.cases().get(1), 240_000_000.0), 44_000_000L, 2_500_000_000L));
    RunResult result = RunResult.builder(r.scenario()).cases(cases).links(r.links()).complete(true)
        .virtualEndPs(r.virtualEndPs()).windows(r.windows()).events(r.events()).wallSeconds(r.wallSeconds())
        .digest(r.digest()).baseline(Fixtures.baselineOf(r, baseline)).build();
    Document doc = Xml.parse(html(result));

    Element timeline = Xml.all(doc, "svg").stream().filter(e -> e.getAttribute("class").contains("timeline"))
        .findFirst().orElseThrow();
    List<Element> lanes = children(timeline, "g", "lane");
    Element caseLane = lanes.get(lanes.size() - 1);
    assertThat(caseLane.getAttribute("data-lane")).isEqualTo("cases");
    assertThat(kinds(caseLane)).containsExactly("case start", "case end", "case start", "case end");
    assertThat(Xml.texts(doc, "title")).contains("start of case 1 (allreduce ring, 1 MiB): 45.000 us to "
        + "2600.000 us (warm-up included)");
    assertThat(Xml.texts(doc, "h3")).contains("Cases each event touched", "Cases with and without the faults");
    // The cable's outage (40 to 60 us) overlaps both cases; every later event falls in case 1.
    assertThat(rows(doc, "event")).extracting(row -> row.get(2)).containsExactly(
        "0 (allreduce ring, 4 B), 1 (allreduce ring, 1 MiB)", "1 (allreduce ring, 1 MiB)",
        "1 (allreduce ring, 1 MiB)", "1 (allreduce ring, 1 MiB)", "1 (allreduce ring, 1 MiB)",
        "1 (allreduce ring, 1 MiB)");
    assertThat(rows(doc, "case")).containsExactly(
        List.of("0 (allreduce ring, 4 B)", "0.000", "45.000", "5.430", "5.430", "+0.000", "0"),
        List.of("1 (allreduce ring, 1 MiB)", "45.000", "2600.000", "250.000", "240.000", "+10.000",
            "0, 1, 2, 3, 4, 5"));
  }

  private static CaseResult timed(CaseResult c, long startPs, long endPs) {
    return CaseResult.builder(c.caseIndex(), c.algorithm(), c.sizeBytes(), c.count(), c.iterations())
        .avgLatencyPs(c.avgLatencyPs()).minLatencyPs(c.minLatencyPs()).maxLatencyPs(c.maxLatencyPs())
        .wrongElements(c.wrongElements()).checked(c.checked()).incOutcome(c.incOutcome())
        .rankLatenciesPs(c.rankLatenciesPs()).iterationLatenciesPs(c.iterationLatenciesPs())
        .iterationStartsPs(c.iterationStartsPs()).iterationEndsPs(c.iterationEndsPs()).partEndsPs(c.partEndsPs())
        .startPs(startPs).endPs(endPs).build();
  }

  private static CaseResult withLatency(CaseResult c, double avgPs) {
    return CaseResult.builder(c.caseIndex(), c.algorithm(), c.sizeBytes(), c.count(), c.iterations())
        .avgLatencyPs(avgPs).minLatencyPs(avgPs).maxLatencyPs(avgPs).wrongElements(c.wrongElements())
        .checked(c.checked()).build();
  }

  @Test
  void shouldSayTheRunReportedNoFaultCountsAndStillDrawItsPlan() throws Exception {
    Document doc = Xml.parse(html(Fixtures.withFaults(Fixtures.result(), Fixtures.faultPlan(), null)));

    assertThat(Xml.texts(doc, "h2")).contains("Faults");
    assertThat(Xml.texts(doc, "p")).contains("The run reported no fault counts.");
    assertThat(Xml.all(doc, "path").stream().filter(e -> "marker".equals(e.getAttribute("class")))).hasSize(6);
    assertThat(rows(doc, "id").get(0)).containsExactly("0", "40.000", "link host0-tor0", "down", "-", "-", "-",
        "-", "-", "-", "-", "-", "-", "-", "-", "");
  }

  /** The elements named {@code tag} of class {@code cssClass} inside {@code parent}. */
  private static List<Element> children(Element parent, String tag, String cssClass) {
    NodeList nodes = parent.getElementsByTagName(tag);
    List<Element> out = new ArrayList<>();
    for (int i = 0; i < nodes.getLength(); i++) {
      Element e = (Element) nodes.item(i);
      if (cssClass.equals(e.getAttribute("class"))) out.add(e);
    }
    return out;
  }

  /** The kinds of the markers of a lane, in drawing order. */
  private static List<String> kinds(Element lane) {
    return children(lane, "path", "marker").stream().map(e -> e.getAttribute("data-kind")).toList();
  }

  /** The body rows' cells of the table whose first heading is {@code firstHeading}. */
  private static List<List<String>> rows(Document doc, String firstHeading) {
    return Xml.tableRows(doc, firstHeading);
  }
}
