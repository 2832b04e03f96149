package io.fabemu.app.report;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabemu.collectives.Algorithm;
import io.fabemu.core.rings.RingEmbedding;
import io.fabemu.core.routing.RoutingTable;
import io.fabemu.core.sim.DeviceReport.LinkCounters;
import io.fabemu.core.topology.LinkSpec;
import io.fabemu.core.topology.PrismSpec;
import io.fabemu.core.topology.Topology;
import io.fabemu.fabric.Fabric;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The link table's ports, the rings' link usage on the 8-layer triangular prism, and the prism drawing. */
class PrismLinksTest {

  private static final LinkSpec LINK = new LinkSpec(100_000_000_000L, 100_000L);
  private static final PrismSpec PRISM = new PrismSpec(3, 8, LINK, LINK);
  private static final Topology TOPOLOGY = PRISM.build();

  @Test
  void shouldGiveEachCounterThePortItCameFromWhenSortedByEnds() {
    // Counters in port order with the port number as their byte count, sorted stably by (from, to) as the
    // aggregator sorts them: the table must find each one's port again.
    List<LinkCounters> counters = new ArrayList<>();
    for (int host = 0; host < TOPOLOGY.hostCount(); host++) {
      List<Topology.Link> ports = TOPOLOGY.ports(host);
      for (int p = 0; p < ports.size(); p++) counters.add(new LinkCounters(host, ports.get(p).to(), p, 1, 10 * p));
    }
    counters.sort(Comparator.comparingInt(LinkCounters::fromDevice).thenComparingInt(LinkCounters::toDevice));

    List<LinkTable.Row> rows = LinkTable.of(counters, TOPOLOGY, 100);

    assertThat(rows).hasSize(24 * 8);
    for (LinkTable.Row row : rows) assertThat(row.port()).isEqualTo((int) row.counters().bytes());
    LinkTable.Row third = rows.stream().filter(r -> r.counters().fromDevice() == 0 && r.counters().toDevice() == 1)
        .toList().get(2);
    assertThat(List.of(third.parallelIndex(), third.parallelLinks())).containsExactly(2, 3);
    assertThat(third.busyShare()).isEqualTo(10.0 * third.port() / 100);
    // Without a topology the port is unknown, the parallel links are still counted.
    assertThat(LinkTable.of(counters, null, 0).get(2).port()).isEqualTo(-1);
    assertThat(LinkTable.of(counters, null, 0).get(2).parallelIndex()).isEqualTo(2);
  }

  @Test
  void shouldPutEachRingOfASubsetOnItsOwnLinkAndLeaveTheRestIdle() {
    RingEmbedding embedding = RingEmbedding.resolve(PRISM, TOPOLOGY, RingEmbedding.Source.FACE_RULE, List.of(), 0,
        0);
    RoutingTable routing = PRISM.routing(TOPOLOGY);
    var embedded = Fabric.embeddedRings(embedding, TOPOLOGY);

    RingUsage multi = RingUsage.of(Algorithm.MULTI_RING, embedded, TOPOLOGY, routing);
    RingUsage single = RingUsage.of(Algorithm.SINGLE_RING, embedded, TOPOLOGY, routing);
    RingUsage both = RingUsage.of(Algorithm.BIDIRECTIONAL_RING, embedded, TOPOLOGY, routing);
    RingUsage line = RingUsage.of(Algorithm.LINE, embedded, TOPOLOGY, routing);

    // 24 hosts x 8 ports = 192 directed links; the six arc-disjoint rings take 144, one link each per hop.
    assertThat(List.of(multi.used().size(), multi.idle().size())).containsExactly(144, 48);
    assertThat(multi.used()).allSatisfy(a -> assertThat(a.rings()).hasSize(1));
    assertThat(List.of(single.used().size(), single.idle().size())).containsExactly(24, 168);
    assertThat(List.of(both.used().size(), both.idle().size())).containsExactly(48, 144);
    assertThat(both.rings()).containsExactly("ring 0", "ring 0 reversed");
    assertThat(List.of(line.used().size(), line.idle().size())).containsExactly(46, 146);
    // Ring 0 goes 1 -> 2 first; the hop's links are ports 3, 4, 5 of host 1 and lane 0 takes the flow's own.
    RingUsage.Arc hop = single.used().stream().filter(a -> a.from() == 1 && a.to() == 2).findFirst().orElseThrow();
    int own = routing.egressPort(1, 2, RoutingTable.flowHash(1, 2));
    assertThat(hop.port()).isEqualTo(own);
    assertThat(hop.parallelLinks()).isEqualTo(3);
    assertThat(hop.parallelIndex()).isEqualTo(LinkTable.portsToward(TOPOLOGY, 1, 2).indexOf(own));
    // Hops the subset's rings share use as many different links as rings (at most the links).
    Map<String, Set<Integer>> ports = new HashMap<>();
    Map<String, Integer> rings = new HashMap<>();
    for (RingUsage.Arc a : multi.used()) {
      ports.computeIfAbsent(a.from() + ">" + a.to(), k -> new HashSet<>()).add(a.port());
      rings.merge(a.from() + ">" + a.to(), 1, Integer::sum);
    }
    ports.forEach((h, p) -> assertThat(p).as(h).hasSize(rings.get(h)));
    assertThat(rings.values()).contains(2, 1);
  }

  @Test
  void shouldColourUsedLinksByTheirFigureAndDashTheUnusedOnes() {
    Map<Long, PrismDrawing.LinkValue> values = new HashMap<>();
    values.put(PrismDrawing.key(0, 0), new PrismDrawing.LinkValue(0.5, "half"));
    values.put(PrismDrawing.key(4, 7), new PrismDrawing.LinkValue(0.25, "quarter"));
    values.put(PrismDrawing.key(5, 1), new PrismDrawing.LinkValue(0.0, "nothing"));

    String svg = PrismDrawing.standalone("t", PRISM, TOPOLOGY, values, "busy share", Formats::percent);

    assertThat(count(svg, "<line ")).isEqualTo(192 + 1);
    assertThat(count(svg, "class=\"used\"")).isEqualTo(2);
    assertThat(count(svg, "class=\"unused\"")).isEqualTo(190);
    assertThat(count(svg, "<circle ")).isEqualTo(24);
    assertThat(svg).contains("stroke=\"" + HeatMap.colour(1.0) + "\" class=\"used\"><title>host0 → host1, link 1 "
        + "of 3: half</title>");
    assertThat(svg).contains("stroke=\"" + PrismDrawing.colour(0.5) + "\" class=\"used\"><title>host4 → host7, "
        + "link 2 of 2: quarter</title>");
    assertThat(svg).contains("<title>host5 → host2, link 2 of 2: nothing</title>");
    assertThat(PrismDrawing.colour(0)).isEqualTo(HeatMap.colour(0.25));
    assertThat(PrismDrawing.drawable(new PrismSpec(3, 86, LINK, LINK))).isFalse();
  }

  @Test
  void shouldPrintEachAlgorithmsBusBandwidthAndItsRatioToTheBaseline() {
    RingComparison c = new RingComparison(List.of(Algorithm.MULTI_RING, Algorithm.SINGLE_RING), 1,
        List.of(1024L, 1048576L), new double[][] {{0.03, 0.05}, {21.5, Double.NaN}});

    assertThat(c.text()).isEqualTo("""
        # fabemu embedded-ring comparison: busbw (GB/s) and ratio to single-ring
        # Size                  multi-ring           single-ring
        1024                  0.03 (0.60x)          0.05 (1.00x)
        1048576                      21.50                     -
        """);
    assertThat(c.ratio(0, 0)).isEqualTo(0.03 / 0.05);
  }

  private static int count(String text, String part) {
    int n = 0;
    for (int i = text.indexOf(part); i >= 0; i = text.indexOf(part, i + 1)) n++;
    return n;
  }

  @Test
  void shouldPlaceNoTwoPositionsOfALayerAtTheSameXSoEdgesNeverCrossNodes() {
    for (int n = 3; n <= 12; n++) {
      Set<Long> xs = new HashSet<>();
      for (int position = 0; position < n; position++) {
        xs.add(Math.round(Math.cos(PrismDrawing.angle(position, n)) * 1_000_000));
      }
      assertThat(xs).as("x of the %d positions of a layer", n).hasSize(n);
    }
  }
}
