package io.fabemu.core.traffic;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Phases of a traffic workload and the values it rejects. */
class TrafficSpecTest {

  private static TrafficSpec uniform(int packetFlits, List<Double> loads, long warmup, long measure, long drain) {
    return new TrafficSpec(TrafficPattern.UNIFORM, null, packetFlits, loads, warmup, measure, drain);
  }

  @Test
  void shouldPlaceTheMeasurementWindowAfterTheWarmUp() {
    TrafficSpec spec = uniform(4, List.of(0.1, 0.2), 1_000, 5_000, 2_000);

    assertThat(spec.measureStartCycle()).isEqualTo(1_000);
    assertThat(spec.measureEndCycle()).isEqualTo(6_000);
    assertThat(spec.drainEndCycle()).isEqualTo(8_000);
    assertThat(spec.isMeasured(999)).isFalse();
    assertThat(spec.isMeasured(1_000)).isTrue();
    assertThat(spec.isMeasured(5_999)).isTrue();
    assertThat(spec.isMeasured(6_000)).isFalse();
    assertThat(spec.loadCount()).isEqualTo(2);
    assertThat(spec.offeredLoad(1)).isEqualTo(0.2);
    assertThat(spec.destinations(NetworkShape.mesh(4, 4, 1)).pattern()).isEqualTo(TrafficPattern.UNIFORM);
  }

  @Test
  void shouldKeepItsOwnCopyOfTheLoads() {
    List<Double> loads = new ArrayList<>(List.of(0.1, 0.2));
    TrafficSpec spec = uniform(1, loads, 0, 10, 0);
    loads.add(0.3);
    assertThat(spec.offeredFlitsPerNodeCycle()).containsExactly(0.1, 0.2);
  }

  @Test
  void shouldRejectInvalidValuesNamingTheParameter() {
    assertThatThrownBy(() -> uniform(0, List.of(0.1), 0, 10, 0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("packet-flits").hasMessageContaining("got 0");
    assertThatThrownBy(() -> uniform(1, List.of(), 0, 10, 0))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("at least one load");
    assertThatThrownBy(() -> uniform(1, List.of(0.0), 0, 10, 0))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("(0, 1]").hasMessageContaining("got 0.0");
    assertThatThrownBy(() -> uniform(1, List.of(1.5), 0, 10, 0))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("got 1.5");
    assertThatThrownBy(() -> uniform(1, Arrays.asList(0.1, null), 0, 10, 0))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("got null");
    assertThatThrownBy(() -> uniform(1, List.of(0.2, 0.2), 0, 10, 0))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("strictly increasing");
    assertThatThrownBy(() -> uniform(1, List.of(0.1), -1, 10, 0))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("warmup-cycles");
    assertThatThrownBy(() -> uniform(1, List.of(0.1), 0, 0, 0))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("measure-cycles");
    assertThatThrownBy(() -> uniform(1, List.of(0.1), 0, 10, -5))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("drain-cycles");
    assertThatThrownBy(() -> uniform(1, List.of(0.1), Long.MAX_VALUE, 10, 0))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("overflow");
    assertThatThrownBy(() -> uniform(1, List.of(0.1), 0, 10, 0).offeredLoad(1))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("load index");
  }

  @Test
  void shouldRequireHotSpotParametersExactlyForTheHotSpotPattern() {
    assertThatThrownBy(() -> new TrafficSpec(TrafficPattern.HOT_SPOT, null, 1, List.of(0.1), 0, 10, 0))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("hot-spot needs");
    assertThatThrownBy(() -> new TrafficSpec(TrafficPattern.SHUFFLE, new HotSpot(List.of(0), 0.5), 1, List.of(0.1),
        0, 10, 0))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("shuffle takes no hot-spot");
    assertThatThrownBy(() -> new TrafficSpec(null, null, 1, List.of(0.1), 0, 10, 0))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("pattern");
    HotSpot hotSpot = new HotSpot(List.of(3), 0.2);
    assertThat(new TrafficSpec(TrafficPattern.HOT_SPOT, hotSpot, 1, List.of(0.1), 0, 10, 0).hotSpot())
        .isEqualTo(hotSpot);
  }
}
