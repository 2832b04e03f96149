package io.fabemu.nic;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabemu.core.fault.FaultReport;
import io.fabemu.core.protocol.DeviceProtocol.IncRetransmitTimer;
import io.fabemu.core.routing.RoutingTable;
import io.fabemu.core.sim.Event;
import io.fabemu.core.sim.RecordingOutbox;
import io.fabemu.core.time.Units;
import io.fabemu.core.topology.LinkSpec;
import io.fabemu.core.topology.Topologies;
import io.fabemu.core.topology.Topology;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** INC on a NIC: only under a TOR, and then its INC unit takes the INC path. */
class IncExtensionTest {
  private static final IncNicSpec INC = new IncNicSpec(256, 10_000L, 50_000_000L, 3);

  private static NicCore.Builder underTor(int host) {
    LinkSpec link = new LinkSpec(25 * Units.GBPS, 500_000L);
    Topology topology = Topologies.leafSpine(4, 2, 1, link, link);
    return NicCore.builder(host, topology.computeNodeDevice(host), topology, RoutingTable.compute(topology),
        NicFixtures.NIC, NicFixtures.PCIE, 8);
  }

  @Test
  void shouldNeedAHostUnderATor() {
    assertThatThrownBy(() -> NicFixtures.onLine(0).extension(s -> new IncExtension(s, INC, Optional.empty())).build())
        .isInstanceOf(IllegalArgumentException.class).hasMessage("NIC 0: INC needs a host that hangs off a TOR");
  }

  @Test
  void shouldTakeTheIncPathWithItsUnit() {
    NicCore nic = underTor(1).extension(s -> new IncExtension(s, INC, Optional.empty())).build();
    IncExtension inc = nic.extension(IncExtension.class).orElseThrow();
    assertThat(inc.unit().pendingTasks()).isZero();
    // A timer of a task it never started: nothing to resend, no error (a NIC without INC would refuse it).
    RecordingOutbox outbox = new RecordingOutbox(0L);
    nic.onEvent(new Event(0L, 1, 0L, 1, new IncRetransmitTimer(0, 5L, 0L)), outbox);
    assertThat(outbox.sent()).isEmpty();
    assertThat(nic.report().part(FaultReport.class)).as("no faults: nothing to report").isNull();
  }
}
