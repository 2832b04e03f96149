package io.fabemu.core.traffic;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Sources, stats and the saturation finder together over an ideal contention-free mesh (a packet's tail is ejected
 * its Manhattan distance plus its flit count after creation): below saturation accepted must equal offered for
 * every pattern, fixed points included, which is what normalising by the sending nodes is for.
 */
class IdealNetworkSweepTest {
  private static final NetworkShape MESH_4X4 = NetworkShape.mesh(4, 4, 1);

  private static List<LoadPoint> sweep(TrafficSpec spec, DestinationPicker destinations) {
    List<LoadPoint> points = new ArrayList<>();
    for (int load = 0; load < spec.loadCount(); load++) {
      TrafficStats total = new TrafficStats(spec);
      for (int node = 0; node < MESH_4X4.nodeCount(); node++) {
        TrafficStats stats = new TrafficStats(spec);
        TrafficSource source = TrafficSource.forLoad(spec, load, destinations, node, 31L);
        while (source.hasNext()) {
          long created = source.nextPacketCycle();
          int hops = manhattan(node, source.nextDestination());
          stats.recordCreated(created, spec.packetFlits());
          long tail = created + hops + spec.packetFlits();
          for (int flit = 0; flit < spec.packetFlits(); flit++) stats.recordFlitsEjected(tail - flit, 1);
          stats.recordArrived(created, tail, hops);
          source.advance();
        }
        total.merge(stats);
      }
      points.add(total.result(spec.offeredLoad(load), destinations.sendingNodeCount()));
    }
    return points;
  }

  private static int manhattan(int from, int to) {
    int[] a = MESH_4X4.coordinates(from);
    int[] b = MESH_4X4.coordinates(to);
    return Math.abs(a[0] - b[0]) + Math.abs(a[1] - b[1]);
  }

  @Test
  void shouldAcceptWhatItOffersOnAContentionFreeNetworkForEveryPattern() {
    for (TrafficPattern pattern : List.of(TrafficPattern.UNIFORM, TrafficPattern.TRANSPOSE,
        TrafficPattern.BIT_REVERSE, TrafficPattern.SHUFFLE, TrafficPattern.NEAREST_NEIGHBOUR)) {
      TrafficSpec spec = new TrafficSpec(pattern, null, 4, List.of(0.1, 0.4, 0.8), 1_000, 20_000, 200);
      DestinationPicker destinations = spec.destinations(MESH_4X4);
      List<LoadPoint> points = sweep(spec, destinations);

      for (LoadPoint point : points) {
        assertThat(point.generatedFlitsPerNodeCycle()).as(pattern + " generated")
            .isCloseTo(point.offeredFlitsPerNodeCycle(), within(0.03 * point.offeredFlitsPerNodeCycle()));
        assertThat(point.acceptedFlitsPerNodeCycle()).as(pattern + " accepted")
            .isCloseTo(point.generatedFlitsPerNodeCycle(), within(0.01 * point.generatedFlitsPerNodeCycle()));
        assertThat(point.drainCompleted()).isTrue();
        assertThat(point.averageLatencyCycles()).isCloseTo(point.averageHops() + 4, within(1e-9));
      }
      assertThat(SaturationFinder.standard().find(points)).as(pattern.configName()).isEqualTo(Optional.empty());
    }
  }

  @Test
  void shouldCrossTheHandComputedAverageDistanceOfTranspose() {
    // The 12 off-diagonal nodes of a 4x4 transpose travel 2|x - y| hops: (6 x 2 + 4 x 4 + 2 x 6) / 12 = 10/3.
    TrafficSpec spec = new TrafficSpec(TrafficPattern.TRANSPOSE, null, 1, List.of(0.2), 100, 5_000, 50);
    LoadPoint point = sweep(spec, spec.destinations(MESH_4X4)).get(0);
    assertThat(point.averageHops()).isCloseTo(10.0 / 3.0, within(0.05));
  }
}
