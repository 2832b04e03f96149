package io.fabemu.app;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabemu.app.output.ResultsWriter;
import io.fabemu.core.topology.Topology;
import io.fabemu.fabric.result.CaseResult;
import io.fabemu.fabric.result.RunResult;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** results.json's {@code faults}: settings, a row per event, totals, partition and messages given up on. */
class ResultsJsonTest {

  private static JsonNode json(RunResult result) throws Exception {
    Topology topology = result.scenario().topology().build();
    return new ObjectMapper().readTree(ResultsWriter.toJson(result, null, topology));
  }

  private static List<String> fieldNames(JsonNode node) {
    List<String> names = new ArrayList<>();
    node.fieldNames().forEachRemaining(names::add);
    return names;
  }

  @Test
  void shouldWriteTheSettingsAndEveryEventWithWhatTheManagementNodeSawAndWhatItCost() throws Exception {
    JsonNode faults = json(Fixtures.faultedResult(2)).get("faults");

    assertThat(fieldNames(faults)).containsExactly("settings", "events", "totals", "partition", "gaveUp", "cases");
    JsonNode s = faults.get("settings");
    assertThat(fieldNames(s)).containsExactly("heartbeatPeriodPs", "heartbeatMisses", "managementLatencyPs",
        "managementUpdatePs", "retransmitTimeout", "maxRetransmissions", "baseline");
    assertThat(s.get("baseline").asBoolean()).isTrue();
    assertThat(List.of(s.get("heartbeatPeriodPs").asLong(), s.get("heartbeatMisses").asLong(),
        s.get("managementLatencyPs").asLong(), s.get("managementUpdatePs").asLong(),
        s.get("maxRetransmissions").asLong())).containsExactly(1_000_000L, 3L, 1_000_000L, 100_000L, 10L);
    // The default timeout: adaptive, between 10 us and 10 ms.
    assertThat(fieldNames(s.get("retransmitTimeout"))).containsExactly("kind", "minPs", "maxPs");
    assertThat(List.of(s.at("/retransmitTimeout/kind").asText(), s.at("/retransmitTimeout/minPs").asText(),
        s.at("/retransmitTimeout/maxPs").asText())).containsExactly("adaptive", "10000000", "10000000000");

    JsonNode events = faults.get("events");
    assertThat(events).hasSize(6);
    JsonNode down = events.get(0);
    assertThat(fieldNames(down)).containsExactly("id", "atPs", "action", "target", "detectedPs",
        "detectionDelayPs", "reporterDevice", "reporter", "rerouteCompletePs", "rerouteTimePs", "devicesUpdated",
        "lostPackets", "corruptedPackets", "resentMessages", "lossDrivenResends", "spuriousResends",
        "impactWindowEndPs", "collectivesTouched", "extraLatencyTotalPs", "extraLatencyMaxPs", "casesTouched");
    assertThat(down.get("id").asInt()).isZero();
    assertThat(down.get("atPs").asLong()).isEqualTo(40_000_000L);
    assertThat(down.get("action").asText()).isEqualTo("down");
    assertThat(down.get("target").asText()).isEqualTo("link host0-tor0");
    assertThat(down.get("detectedPs").asLong()).isEqualTo(43_000_000L);
    assertThat(down.get("detectionDelayPs").asLong()).isEqualTo(3_000_000L);
    assertThat(down.get("reporterDevice").asInt()).isEqualTo(4);
    assertThat(down.get("reporter").asText()).isEqualTo("tor0");
    assertThat(down.get("rerouteCompletePs").asLong()).isEqualTo(44_200_000L);
    assertThat(down.get("rerouteTimePs").asLong()).isEqualTo(4_200_000L);
    assertThat(down.get("devicesUpdated").asInt()).isEqualTo(3);
    assertThat(List.of(down.get("lostPackets").asLong(), down.get("corruptedPackets").asLong(),
        down.get("resentMessages").asLong())).containsExactly(12L, 0L, 3L);
    assertThat(List.of(down.get("impactWindowEndPs").asLong(), down.get("collectivesTouched").asLong(),
        down.get("extraLatencyTotalPs").asLong(), down.get("extraLatencyMaxPs").asLong()))
        .containsExactly(60_000_000L, 2L, 35_250_000L, 30_100_000L);
    assertThat(events.get(1).get("extraLatencyTotalPs").asLong()).isEqualTo(-1_500L);

    // A lossy event has no record: what the management node would have seen is null, its costs are counted.
    JsonNode lossy = events.get(1);
    assertThat(lossy.get("action").asText()).isEqualTo("lossy");
    for (String key : List.of("detectedPs", "detectionDelayPs", "reporterDevice", "rerouteCompletePs",
        "rerouteTimePs", "devicesUpdated")) {
      assertThat(lossy.get(key).isNull()).as(key).isTrue();
    }
    assertThat(lossy.has("reporter")).isFalse();
    assertThat(List.of(lossy.get("lostPackets").asLong(), lossy.get("corruptedPackets").asLong(),
        lossy.get("resentMessages").asLong())).containsExactly(5L, 2L, 4L);
    // Of its four resends one was spurious (the copy before had arrived).
    assertThat(List.of(lossy.get("lossDrivenResends").asLong(), lossy.get("spuriousResends").asLong()))
        .containsExactly(3L, 1L);
    // The TOR's failure has a record but was not noticed: times and reporter null, no device updated.
    JsonNode unseen = events.get(3);
    assertThat(unseen.get("detectedPs").isNull()).isTrue();
    assertThat(unseen.get("reporterDevice").isNull()).isTrue();
    assertThat(unseen.get("rerouteTimePs").isNull()).isTrue();
    assertThat(unseen.get("devicesUpdated").asInt()).isZero();
    assertThat(events.get(5).get("action").asText()).isEqualTo("straggler");

    JsonNode totals = faults.get("totals");
    assertThat(List.of(totals.get("lostPackets").asLong(), totals.get("corruptedPackets").asLong(),
        totals.get("resentMessages").asLong(), totals.get("duplicatesDiscarded").asLong()))
        .containsExactly(17L, 2L, 8L, 2L);
    assertThat(List.of(totals.get("lossDrivenResends").asLong(), totals.get("spuriousResends").asLong()))
        .containsExactly(7L, 1L);
    assertThat(List.of(totals.at("/noEvent/lostPackets").asLong(), totals.at("/noEvent/corruptedPackets").asLong(),
        totals.at("/noEvent/resentMessages").asLong())).containsExactly(0L, 0L, 1L);
    assertThat(faults.get("partition").asText()).isEqualTo("rank 3 cut off from ranks 0-2");
    assertThat(faults.get("gaveUp")).extracting(JsonNode::asText).containsExactly(
        "rank 3 -> rank 0: message 0 after 10 tries", "rank 3 -> rank 1: message 1 after 10 tries");
  }

  @Test
  void shouldWriteTheOcsSetUpAndEachPolicyChangesCost() throws Exception {
    JsonNode ocs = json(Fixtures.ocsResult()).get("ocs");
    assertThat(fieldNames(ocs)).containsExactly("circuitsSetUp", "lastCircuitUpPs", "heldPackets", "totalWaitPs",
        "worstWaitPs", "changes");
    assertThat(ocs.get("circuitsSetUp").asInt()).isEqualTo(6);
    assertThat(ocs.get("totalWaitPs").asLong()).isEqualTo(100_880_480L);
    JsonNode change = ocs.get("changes").get(0);
    assertThat(ocs.get("changes")).hasSize(1);
    assertThat(fieldNames(change)).containsExactly("atPs", "formula", "circuitsTornDown", "circuitsSetUp",
        "lastCircuitUpPs", "heldPackets", "totalWaitPs", "worstWaitPs");
    assertThat(change.get("atPs").asLong()).isEqualTo(20_000_000L);
    assertThat(change.get("formula").asText()).isEqualTo("formula 1");
    assertThat(change.get("circuitsTornDown").asInt()).isEqualTo(6);
    assertThat(change.get("circuitsSetUp").asInt()).isEqualTo(6);
    assertThat(change.get("lastCircuitUpPs").asLong()).isEqualTo(30_500_000L);
    assertThat(change.get("heldPackets").asLong()).isEqualTo(12L);
    assertThat(change.get("totalWaitPs").asLong()).isEqualTo(85_072_000L);
    assertThat(change.get("worstWaitPs").asLong()).isEqualTo(9_299_520L);
    assertThat(json(Fixtures.result()).has("ocs")).isFalse();
  }

  @Test
  void shouldLeaveTheFaultsOutEntirelyWithoutAPlan() throws Exception {
    RunResult plain = Fixtures.result();
    RunResult withNullReport = Fixtures.withFaults(plain, plain.scenario().faults(), null);

    assertThat(fieldNames(json(plain))).containsExactly("tool", "name", "source", "seed", "topology", "ranks",
        "payload", "complete", "incompleteReason", "wrongElements", "virtualEndPs", "virtualEnd", "windows", "events",
        "wallSeconds", "eventsPerWallSecond", "digest", "cases", "linksNote", "links", "scenario");
    assertThat(ResultsWriter.toJson(withNullReport, null, null)).isEqualTo(ResultsWriter.toJson(plain, null, null));
  }

  @Test
  void shouldPlaceTheFaultsAfterTheLinksAndWriteNullsWhenTheRunReportedNothing() throws Exception {
    JsonNode root = json(Fixtures.withFaults(Fixtures.result(), Fixtures.faultPlan(), null));

    List<String> names = fieldNames(root);
    assertThat(names.subList(names.size() - 3, names.size())).containsExactly("links", "faults", "scenario");
    JsonNode faults = root.get("faults");
    assertThat(faults.get("events")).hasSize(6);
    assertThat(faults.at("/events/0/lostPackets").isNull()).isTrue();
    assertThat(faults.at("/events/0/detectedPs").isNull()).isTrue();
    assertThat(faults.at("/events/0/atPs").asLong()).isEqualTo(40_000_000L);
    // No run without faults to compare with: the impact figures are left out, not null.
    assertThat(faults.at("/events/0").has("collectivesTouched")).isFalse();
    assertThat(faults.at("/events/0").has("extraLatencyTotalPs")).isFalse();
    assertThat(faults.get("totals").isNull()).isTrue();
    assertThat(faults.get("partition").isNull()).isTrue();
    assertThat(faults.get("gaveUp")).isEmpty();
    // The cases have no interval here: no event touched one; no baseline: no latency without the faults.
    assertThat(faults.at("/events/0/casesTouched")).isEmpty();
    assertThat(faults.at("/cases/1/caseIndex").asInt()).isEqualTo(1);
    assertThat(faults.at("/cases/1/avgLatencyPs").asDouble()).isEqualTo(250_000_000.0);
    assertThat(faults.at("/cases/1/baselineAvgLatencyPs").isNull()).isTrue();
    assertThat(root.at("/cases/0/startPs").isNull()).isTrue();
  }

  @Test
  void shouldGiveEachCaseItsIntervalAndEachEventTheCasesItTouchedWithTheBaselinesLatency() throws Exception {
    RunResult r = Fixtures.withFaults(Fixtures.result(), Fixtures.faultPlan(), null);
    CaseResult c0 = r.cases().get(0);
    CaseResult c1 = r.cases().get(1);
    List<CaseResult> cases = List.of(
        CaseResult.builder(0, c0.algorithm(), c0.sizeBytes(), c0.count(), c0.iterations())
            .avgLatencyPs(c0.avgLatencyPs()).minLatencyPs(c0.minLatencyPs()).maxLatencyPs(c0.maxLatencyPs()).startPs(0)
            .endPs(45_000_000L).build(),
        CaseResult.builder(1, c1.algorithm(), c1.sizeBytes(), c1.count(), c1.iterations())
            .avgLatencyPs(c1.avgLatencyPs()).minLatencyPs(c1.minLatencyPs()).maxLatencyPs(c1.maxLatencyPs())
            .startPs(45_000_000L).endPs(2_600_000_000L).build());
    RunResult timed = RunResult.builder(r.scenario()).cases(cases).links(r.links()).complete(true)
        .virtualEndPs(r.virtualEndPs()).windows(r.windows()).events(r.events()).wallSeconds(r.wallSeconds())
        .digest(r.digest()).baseline(Fixtures.baselineOf(r, List.of(r.cases().get(0)))).build();
    JsonNode root = json(timed);

    JsonNode second = root.at("/cases/1");
    assertThat(second.get("startPs").asLong()).isEqualTo(45_000_000L);
    assertThat(second.get("endPs").asLong()).isEqualTo(2_600_000_000L);
    assertThat(second.get("start").asText()).isEqualTo("45 us");
    assertThat(second.get("end").asText()).isEqualTo("2.6 ms");
    // The cable's outage (40 to 60 us) overlaps both cases; the lossy event at 50 us falls in case 1.
    assertThat(root.at("/faults/events/0/casesTouched").toString()).isEqualTo("[0,1]");
    assertThat(root.at("/faults/events/1/casesTouched").toString()).isEqualTo("[1]");
    // Only case 0 ran in the baseline given.
    assertThat(root.at("/faults/cases/0/differencePs").asDouble()).isZero();
    assertThat(root.at("/faults/cases/1/differencePs").isNull()).isTrue();
  }
}
