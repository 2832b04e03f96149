package io.fabemu.nic;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabemu.core.ethernet.EthernetSpec;
import io.fabemu.core.protocol.DeviceProtocol.RouterCycle;
import io.fabemu.core.protocol.DeviceProtocol.StartWorkload;
import io.fabemu.core.sim.Event;
import io.fabemu.core.sim.RecordingOutbox;
import io.fabemu.core.time.Units;
import io.fabemu.core.traffic.DestinationPicker;
import io.fabemu.core.traffic.NetworkShape;
import io.fabemu.core.traffic.TrafficPattern;
import io.fabemu.core.traffic.TrafficSpec;
import io.fabemu.core.traffic.TrafficStats;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Synthetic traffic on a router-network NIC: created from the start on, counted in the report. */
class TrafficExtensionTest {
  private static final TrafficSpec TRAFFIC = new TrafficSpec(TrafficPattern.UNIFORM, null, 1, List.of(0.5), 10, 10,
      10);
  private static final DestinationPicker DESTINATIONS = DestinationPicker.of(TrafficPattern.UNIFORM,
      NetworkShape.mesh(2, 2, 1), null);

  private static NicBuilder withTraffic(TrafficSpec traffic) {
    return NicFixtures.onMesh(0).extension(s -> new TrafficExtension(s, traffic, DESTINATIONS, 3L));
  }

  @Test
  void shouldQueuePacketsFromTheStartAndCountThem() {
    NicCore nic = withTraffic(TRAFFIC).build();
    RecordingOutbox outbox = new RecordingOutbox(0L);
    assertThat(nic.report().part(TrafficStats.class).measuredPacketsCreated()).as("nothing before the start").isZero();
    nic.onEvent(new Event(0L, 0, 0L, 0, StartWorkload.INSTANCE), outbox);
    assertThat(outbox.ofType(RouterCycle.class)).hasSize(1);
    assertThat(((RouterNicPort) nic.port()).terminal().queuedPackets()).isPositive();
    assertThat(nic.report().part(TrafficStats.class).measuredPacketsCreated()).as("every packet of the run, at the end")
        .isPositive();
    assertThatThrownBy(() -> nic.onEvent(new Event(0L, 0, 1L, 0, StartWorkload.INSTANCE), outbox))
        .as("started twice").isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void shouldTakeOneLoadOnARouterNetworkWithoutIoNodes() {
    TrafficSpec twoLoads = new TrafficSpec(TrafficPattern.UNIFORM, null, 1, List.of(0.5, 0.6), 10, 10, 10);
    assertThatThrownBy(() -> withTraffic(twoLoads).build()).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("NIC 0: synthetic traffic needs one offered load, got 2");
    EthernetSpec ethernet = new EthernetSpec(List.of(0), List.of(), 10 * Units.GBPS, 2_000_000L, 2, 0.0, 1, 1, 5,
        200, 5_000_000L, 0L);
    assertThatThrownBy(() -> withTraffic(TRAFFIC).extension(s -> new EthernetExtension(s, ethernet, 6, 3L)).build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("NIC 0: synthetic traffic takes the router port alone, not with Ethernet frames");
    assertThatThrownBy(() -> NicFixtures.onMesh(0).extension(s -> new TrafficExtension(s, TRAFFIC, null, 3L)).build())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("NIC 0: synthetic traffic needs the pattern's destinations");
  }
}
