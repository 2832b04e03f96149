package io.fabemu.core.traffic;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import org.junit.jupiter.api.Test;

/** Latency, throughput and drain results of hand-made samples. */
class TrafficStatsTest {

  /** Measurement window [10, 20), drain until 30. */
  private static TrafficStats window() {
    return new TrafficStats(10, 20, 30);
  }

  @Test
  void shouldMeasureOnlyPacketsCreatedInTheWindowAndCountEveryFlitEjectedInIt() {
    TrafficStats stats = window();
    for (long created : new long[] {5, 10, 15, 19, 20}) stats.recordCreated(created, 4);
    stats.recordArrived(5, 12, 3);   // warm-up packet: no latency sample
    stats.recordArrived(10, 14, 2);  // latency 4
    stats.recordArrived(15, 25, 4);  // latency 10
    stats.recordArrived(19, 35, 6);  // latency 16, after the drain's end
    stats.recordArrived(20, 21, 1);  // drain packet: no sample
    stats.recordFlitsEjected(9, 1);  // before the window
    stats.recordFlitsEjected(10, 1);
    stats.recordFlitsEjected(19, 2);
    stats.recordFlitsEjected(20, 3); // after it

    LoadPoint point = stats.result(0.5, 2);

    assertThat(point.offeredFlitsPerNodeCycle()).isEqualTo(0.5);
    // 3 measured packets of 4 flits over 2 nodes x 10 cycles; 3 flits ejected in the window.
    assertThat(point.generatedFlitsPerNodeCycle()).isEqualTo(0.6);
    assertThat(point.acceptedFlitsPerNodeCycle()).isEqualTo(0.15);
    assertThat(point.averageLatencyCycles()).isEqualTo(10.0);
    assertThat(point.p99LatencyCycles()).isEqualTo(16.0);
    assertThat(point.averageHops()).isEqualTo(4.0);
    assertThat(point.measuredPacketsCreated()).isEqualTo(3);
    assertThat(point.measuredPacketsArrived()).isEqualTo(3);
    assertThat(point.drainCompleted()).isFalse();
  }

  @Test
  void shouldCompleteTheDrainWhenEveryMeasuredPacketArrivedBeforeItsEnd() {
    TrafficStats stats = window();
    stats.recordCreated(12, 1);
    stats.recordCreated(18, 1);
    assertThat(stats.drainCompleted()).isFalse();
    stats.recordArrived(12, 20, 1);
    assertThat(stats.drainCompleted()).isFalse();
    stats.recordArrived(18, 29, 1); // the drain's last cycle
    assertThat(stats.drainCompleted()).isTrue();
    assertThat(stats.result(0.1, 1).drainCompleted()).isTrue();
  }

  @Test
  void shouldTakeTheNearestRankNinetyNinthPercentile() {
    // 200 latencies 1..200 in scrambled order: rank ceil(0.99 * 200) = 198.
    TrafficStats stats = new TrafficStats(0, 1_000, 2_000);
    for (int i = 0; i < 200; i++) {
      long latency = (i * 77L) % 200 + 1;
      stats.recordCreated(i, 1);
      stats.recordArrived(i, i + latency, 0);
    }
    assertThat(stats.result(0.2, 1).p99LatencyCycles()).isEqualTo(198.0);
    assertThat(stats.result(0.2, 1).averageLatencyCycles()).isEqualTo(100.5);

    // 101 latencies 1..101: rank ceil(99.99) = 100.
    TrafficStats odd = new TrafficStats(0, 1_000, 2_000);
    for (int i = 101; i >= 1; i--) odd.recordArrived(i, 2L * i, 0);
    assertThat(odd.result(0.2, 1).p99LatencyCycles()).isEqualTo(100.0);

    // A single sample is its own p99.
    TrafficStats one = new TrafficStats(0, 1_000, 2_000);
    one.recordArrived(3, 10, 2);
    assertThat(one.result(0.2, 1).p99LatencyCycles()).isEqualTo(7.0);
  }

  @Test
  void shouldGiveTheSameResultWhateverWayTheRecordsAreSplitAndMerged() {
    TrafficStats whole = new TrafficStats(100, 1_100, 1_500);
    TrafficStats[] parts = {new TrafficStats(100, 1_100, 1_500), new TrafficStats(100, 1_100, 1_500),
        new TrafficStats(100, 1_100, 1_500)};
    for (int i = 0; i < 3_000; i++) {
      long created = 50 + i / 2;
      long ejected = created + 5 + (i * 31L) % 97;
      int hops = i % 7;
      for (TrafficStats stats : new TrafficStats[] {whole, parts[i % 3]}) {
        stats.recordCreated(created, 3);
        stats.recordArrived(created, ejected, hops);
        stats.recordFlitsEjected(ejected, 3);
      }
    }
    TrafficStats merged = new TrafficStats(100, 1_100, 1_500);
    merged.merge(parts[2]);
    merged.merge(parts[0]);
    merged.merge(parts[1]);

    assertThat(merged.result(0.3, 4)).isEqualTo(whole.result(0.3, 4));
    assertThat(whole.result(0.3, 4).measuredPacketsArrived()).isEqualTo(2_000);
    // 2 packets of 3 flits a cycle over 4 nodes, all ejected within about 100 cycles: 1.5 flits/node/cycle.
    assertThat(whole.result(0.3, 4).acceptedFlitsPerNodeCycle()).isCloseTo(1.5, within(0.03));
  }

  @Test
  void shouldReportNoLatencyWhenNoMeasuredPacketArrived() {
    TrafficStats stats = window();
    stats.recordCreated(11, 2);
    LoadPoint point = stats.result(0.01, 4);

    assertThat(point.averageLatencyCycles()).isNaN();
    assertThat(point.p99LatencyCycles()).isNaN();
    assertThat(point.averageHops()).isNaN();
    assertThat(point.measuredPacketsArrived()).isZero();
    assertThat(point.drainCompleted()).isFalse();
    assertThat(point.generatedFlitsPerNodeCycle()).isEqualTo(0.05);
  }

  @Test
  void shouldTakeItsPhasesFromTheSpec() {
    TrafficSpec spec = new TrafficSpec(TrafficPattern.UNIFORM, null, 1, List.of(0.5), 10, 10, 10);
    TrafficStats stats = new TrafficStats(spec);
    stats.recordCreated(10, 1);
    stats.recordArrived(10, 29, 1);
    assertThat(stats.drainCompleted()).isTrue();
    assertThatThrownBy(() -> stats.merge(new TrafficStats(10, 20, 31)))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("share their phases");
  }

  @Test
  void shouldRejectImpossibleRecords() {
    TrafficStats stats = window();
    assertThatThrownBy(() -> stats.recordArrived(15, 14, 1))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("got 14");
    assertThatThrownBy(() -> stats.recordArrived(15, 16, -1))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("hops");
    assertThatThrownBy(() -> stats.recordCreated(15, 0))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("flits");
    assertThatThrownBy(() -> stats.result(0.5, 0))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("sending node count");
    assertThatThrownBy(() -> new TrafficStats(10, 10, 20))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("measure end");
  }
}
