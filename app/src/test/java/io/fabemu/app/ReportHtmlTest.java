package io.fabemu.app;

import static org.assertj.core.api.Assertions.assertThat;

import com.typesafe.config.ConfigFactory;
import io.fabemu.app.report.RunReport;
import io.fabemu.app.report.Xml;
import io.fabemu.collectives.Algorithm;
import io.fabemu.collectives.Collective;
import io.fabemu.collectives.WorkloadSpec;
import io.fabemu.core.data.DataType;
import io.fabemu.core.data.ReduceOp;
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

/** The run's HTML report: self-contained, well-formed, every section, escaped, deterministic but for wall time. */
class ReportHtmlTest {

  private static String html(RunResult result) {
    Topology topology = result.scenario().topology().build();
    return new RunReport("golden: allreduce latency", result, topology,
        ConfigFactory.parseString("name = golden\nworkload { iterations = 10 }"),
        ResultsWriter.caseFigures(result, topology)).html();
  }

  private static RunResult withWallSeconds(RunResult r, double wallSeconds) {
    return new RunResult(r.scenario(), r.cases(), r.links(), r.complete(), r.incompleteReason(), r.virtualEndPs(),
        r.windows(), r.events(), wallSeconds, r.digest());
  }

  private static ScenarioSpec named(String name, WorkloadSpec workload) {
    ScenarioSpec base = Fixtures.spec();
    return new ScenarioSpec(name, base.source(), base.seed(), base.topology(), base.devices(), workload);
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
    RunResult result = new RunResult(spec, golden.cases(), golden.links(), true, null, golden.virtualEndPs(), 1, 1,
        0.1, "ab12");

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
    ScenarioSpec spec = new ScenarioSpec("big", "big.conf", 1, big, base.devices(), base.workload());
    RunResult result = new RunResult(spec, Fixtures.result().cases(), links, true, null, 1_000_000, 1, 1, 0.1, "d");

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
    WorkloadSpec w = new WorkloadSpec(Collective.ALLREDUCE, List.of(Algorithm.AUTO, Algorithm.INC_NODE),
        List.of(4L, 8L), 10, 2, 1, DataType.FLOAT32, ReduceOp.SUM, false, 0);
    double[] ranks = {9e6, 10e6, 11e6, 12e6};
    RunResult result = new RunResult(named("inc", w), List.of(
        new CaseResult(0, Algorithm.RECURSIVE_DOUBLING, 4, 1, 10, 10.5e6, 9e6, 12e6, 0, true, null, ranks, null),
        new CaseResult(1, Algorithm.RECURSIVE_DOUBLING, 8, 2, 10, 12e6, 12e6, 12e6, 0, true, null),
        new CaseResult(2, Algorithm.INC_NODE, 4, 1, 10, 3.5e6, 3e6, 4e6, 0, true, FailCause.NONE,
            new double[] {3e6, 4e6}, null),
        new CaseResult(3, Algorithm.INC_NODE, 8, 2, 10, 12e6, 12e6, 12e6, 0, true, FailCause.NO_FREE_GROUPS)),
        List.of(), true, null, 1, 1, 1, 0.1, "d");

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
    RunResult cut = new RunResult(golden.scenario(), golden.cases().subList(0, 1), List.of(), false,
        "lost member 2 (127.0.0.1:25521) at virtual time 5 ps", 5, 1, 1, 0.1, "ab12");

    Document doc = Xml.parse(html(cut));

    assertThat(Xml.texts(doc, "td")).contains("INCOMPLETE: lost member 2 (127.0.0.1:25521) at virtual time 5 ps",
        "1 of 2 finished");
    assertThat(Xml.texts(doc, "p")).anyMatch(p -> p.startsWith("No link counters: the run was cut short"));
  }
}
