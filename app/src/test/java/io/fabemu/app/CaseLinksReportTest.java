package io.fabemu.app;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabemu.app.output.ResultsWriter;
import io.fabemu.app.report.CaseLinkLoad;
import io.fabemu.app.report.RunReport;
import io.fabemu.app.report.Xml;
import io.fabemu.core.sim.BusyProfile;
import io.fabemu.core.sim.DeviceReport.LinkCounters;
import io.fabemu.core.topology.Topology;
import io.fabemu.fabric.result.CaseResult;
import io.fabemu.fabric.result.RunResult;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;

/** Link utilisation cut by case: the loads, the report's section and results.json agree with the ports' periods. */
class CaseLinksReportTest {
  private static final long US = 1_000_000L;

  /**
   * {@link Fixtures#result()} (4 hosts on tor0, device 4) with case 0 from 0 to 45 us and case 1 from 45 us to
   * 2,600 us; host0 → tor0 busy 10 us in case 0 and 1,000 us in case 1, tor0 → host0 200 us in case 1 only, and
   * host1 → tor0 with one merged period [40, 50) us holding 5 us, which straddles the edge between the cases.
   */
  private static RunResult timedResult() {
    RunResult r = Fixtures.result();
    List<CaseResult> cases = List.of(timed(r.cases().get(0), 0, 45 * US), timed(r.cases().get(1), 45 * US,
        2_600 * US));
    List<LinkCounters> links = List.of(
        new LinkCounters(0, 4, 1_000, 10, profile(0, new long[] {10 * US, 100 * US},
            new long[] {20 * US, 1_100 * US}, new long[] {10 * US, 1_000 * US}), 0),
        new LinkCounters(1, 4, 100, 1, profile(2 * US, new long[] {40 * US}, new long[] {50 * US},
            new long[] {5 * US}), 0),
        new LinkCounters(4, 0, 1_000, 10, profile(0, new long[] {200 * US}, new long[] {400 * US},
            new long[] {200 * US}), 0));
    return RunResult.builder(r.scenario()).cases(cases).links(links).complete(true).virtualEndPs(2_600 * US)
        .windows(r.windows()).events(r.events()).wallSeconds(r.wallSeconds()).digest(r.digest()).build();
  }

  private static BusyProfile profile(long mergedGapPs, long[] starts, long[] ends, long[] busy) {
    long total = 0;
    for (long b : busy) total += b;
    return new BusyProfile(total, starts, ends, busy, mergedGapPs);
  }

  private static CaseResult timed(CaseResult c, long startPs, long endPs) {
    return CaseResult.builder(c.caseIndex(), c.algorithm(), c.sizeBytes(), c.count(), c.iterations())
        .avgLatencyPs(c.avgLatencyPs()).minLatencyPs(c.minLatencyPs()).maxLatencyPs(c.maxLatencyPs())
        .wrongElements(c.wrongElements()).checked(c.checked()).incOutcome(c.incOutcome())
        .rankLatenciesPs(c.rankLatenciesPs()).iterationLatenciesPs(c.iterationLatenciesPs())
        .iterationStartsPs(c.iterationStartsPs()).iterationEndsPs(c.iterationEndsPs()).partEndsPs(c.partEndsPs())
        .startPs(startPs).endPs(endPs).build();
  }

  @Test
  void shouldCutEachLinksBusyTimeAtTheCasesEdges() {
    RunResult result = timedResult();
    List<CaseLinkLoad> loads = CaseLinkLoad.of(result, result.scenario().topology().build());

    assertThat(loads).extracting(CaseLinkLoad::caseIndex).containsExactly(0, 1);
    CaseLinkLoad first = loads.get(0);
    assertThat(first.label()).isEqualTo("0 (allreduce ring, 4 B)");
    assertThat(first.intervalPs()).isEqualTo(45 * US);
    // host → tor: host0 10 us, host1 half of its merged 5 us (2.5 us): 22.2 % and 5.6 % of 45 us
    assertThat(first.tiers()).extracting(t -> t.from() + " → " + t.to()).containsExactly("host → tor", "tor → host");
    assertThat(first.tiers().get(0).meanShare()).isCloseTo((10.0 / 45 + 2.5 / 45) / 2, within(1e-9));
    assertThat(first.tiers().get(1).meanShare()).isZero();
    assertThat(first.busiest().from()).isEqualTo("host0");
    assertThat(first.busiest().busyPs()).isEqualTo(10 * US);
    assertThat(first.estimatedLinks()).isEqualTo(1);
    CaseLinkLoad second = loads.get(1);
    assertThat(second.busiest().busyPs()).isEqualTo(1_000 * US);
    assertThat(second.tiers().get(1).meanShare()).isCloseTo(200.0 / 2_555, within(1e-9));
    assertThat(second.tiers().get(1).busiest().to()).isEqualTo("host0");
    assertThat(second.estimatedLinks()).isEqualTo(1);
  }

  @Test
  void shouldShowTheCasesSideBySideInTheReport() throws Exception {
    RunResult result = timedResult();
    Topology topology = result.scenario().topology().build();

    Document doc = Xml.parse(new RunReport("golden", result, topology, null,
        ResultsWriter.caseFigures(result, topology)).html());

    assertThat(Xml.texts(doc, "h2")).contains("Link utilisation", "Link utilisation per case");
    assertThat(Xml.texts(doc, "title")).contains("Mean busy share per case and tier pair");
    assertThat(Xml.tableRows(doc, "case", "interval")).containsExactly(
        List.of("0 (allreduce ring, 4 B)", "45 us", "host0 → tor0", "10 us", "22.2 %", "1"),
        List.of("1 (allreduce ring, 1 MiB)", "2.555 ms", "host0 → tor0", "1 ms", "39.1 %", "1"));
    assertThat(Xml.texts(doc, "p")).anyMatch(p -> p.startsWith("2 of the 6 link-case figures are estimates"));
  }

  @Test
  void shouldWriteEachCasesLoadIntoResultsJson() {
    RunResult result = timedResult();
    CaseLinkLoad load = CaseLinkLoad.of(result, result.scenario().topology().build()).get(1);
    ObjectNode n = new ObjectMapper().createObjectNode();

    load.json(n);

    assertThat(n.get("intervalPs").asLong()).isEqualTo(2_555 * US);
    assertThat(n.get("busiest").get("from").asText()).isEqualTo("host0");
    assertThat(n.get("busiest").get("utilization").asDouble()).isCloseTo(1_000.0 / 2_555, within(1e-12));
    assertThat(n.get("tiers").get(1).get("from").asText()).isEqualTo("tor");
    assertThat(n.get("tiers").get(1).get("meanUtilization").asDouble()).isCloseTo(200.0 / 2_555, within(1e-12));
  }

  @Test
  void shouldLeaveTheSectionOutWithoutTimedLinksOrWithOneCase() throws Exception {
    RunResult timed = timedResult();
    Topology topology = timed.scenario().topology().build();
    // counters that know only how long, not when (as built by hand before the ports kept periods)
    RunResult untimed = RunResult.builder(timed.scenario()).cases(timed.cases()).links(Fixtures.result().links())
        .complete(true).virtualEndPs(timed.virtualEndPs()).windows(1).events(1).wallSeconds(0.1).digest("ab").build();
    RunResult oneCase = RunResult.builder(timed.scenario()).cases(timed.cases().subList(0, 1)).links(timed.links())
        .complete(true).virtualEndPs(timed.virtualEndPs()).windows(1).events(1).wallSeconds(0.1).digest("ab").build();

    assertThat(CaseLinkLoad.of(untimed, topology)).isEmpty();
    assertThat(CaseLinkLoad.of(oneCase, topology)).hasSize(1);
    for (RunResult r : List.of(untimed, oneCase)) {
      Document doc = Xml.parse(new RunReport("golden", r, topology, null, ResultsWriter.caseFigures(r, topology))
          .html());
      assertThat(Xml.texts(doc, "h2")).contains("Link utilisation").doesNotContain("Link utilisation per case");
    }
  }
}
