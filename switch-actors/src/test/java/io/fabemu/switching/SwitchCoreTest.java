package io.fabemu.switching;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabemu.core.fault.FaultAction;
import io.fabemu.core.fault.FaultEvent;
import io.fabemu.core.inc.IncFrame;
import io.fabemu.core.inc.IncPacketType;
import io.fabemu.core.link.ForwardingMode;
import io.fabemu.core.protocol.DeviceProtocol.FaultCommand;
import io.fabemu.core.protocol.DeviceProtocol.NicSend;
import io.fabemu.core.protocol.DeviceProtocol.Packet;
import io.fabemu.core.protocol.Message;
import io.fabemu.core.protocol.Payload;
import io.fabemu.core.routing.RoutingTable;
import io.fabemu.core.sim.DeviceReport.LinkCounters;
import io.fabemu.core.sim.Event;
import io.fabemu.core.sim.RecordingOutbox;
import io.fabemu.core.sim.RecordingOutbox.Sent;
import io.fabemu.core.time.Units;
import io.fabemu.core.topology.LinkSpec;
import io.fabemu.core.topology.Topologies;
import io.fabemu.core.topology.Topology;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * {@link SwitchCore} driven by hand: where its routing sends a packet, when (its pipeline latency, store-and-forward
 * or cut-through, a FIFO per egress port), what it counts, its route changes, and what it refuses.
 */
class SwitchCoreTest {
  private static final long LATENCY_PS = 500_000L;
  private static final LinkSpec LINK = new LinkSpec(100 * Units.GBPS, LATENCY_PS);
  private static final long PIPELINE_PS = 600_000L;
  private static final int WIRE_BYTES = 1_000;
  /** 1000 B at 100 Gbps. */
  private static final long SERIALIZATION_PS = 80_000L;
  // 8 hosts (0..7), TOR 8 over hosts 0..3 (ports 0..3, then 4: spine 10, 5: spine 11), TOR 9 over hosts 4..7.
  private static final int TOR0 = 8;
  private static final int SPINE0 = 10;
  private static final int SPINE1 = 11;

  private final Topology topology = Topologies.leafSpine(8, 4, 2, LINK, LINK);
  private final RoutingTable routing = RoutingTable.compute(topology);
  private final RecordingOutbox outbox = new RecordingOutbox();
  private long sequence;

  private SwitchCore tor0(ForwardingMode mode) {
    return new SwitchCore(TOR0, topology, routing, new SwitchSpec(PIPELINE_PS, mode), null, 0, 0, List.of(), 1L);
  }

  /** A packet from {@code source} to {@code destination} whose head reaches the switch at {@code headPs}. */
  private static Packet packet(int source, int destination, long messageId, long headPs) {
    return Packet.builder().sourceHost(source).destinationHost(destination).messageId(messageId).segmentCount(1)
        .wireBytes(WIRE_BYTES).tailTimePs(headPs + SERIALIZATION_PS).build();
  }

  /** Hands {@code payload} from {@code sourceDevice} to the switch at {@code timePs}; returns what it sent. */
  private List<Sent> handle(SwitchCore core, long timePs, int sourceDevice, Payload payload) {
    core.onEvent(new Event(timePs, sourceDevice, sequence++, core.deviceId(), payload), outbox.at(timePs));
    return outbox.take();
  }

  @Test
  void shouldForwardToTheHostAfterTheWholePacketAndThePipelineWhenStoreAndForward() {
    SwitchCore core = tor0(ForwardingMode.STORE_AND_FORWARD);
    Packet in = packet(0, 1, 1, 1_000_000L);
    // Tail in at 1.08 us, out after the 600 ns pipeline at 1.68 us; the head reaches host 1 500 ns later.
    assertThat(handle(core, 1_000_000L, 0, in))
        .containsExactly(new Sent(1, 2_180_000L, in.withTailTimePs(2_260_000L)));
  }

  @Test
  void shouldStartAPipelineAfterTheHeadWhenCutThrough() {
    SwitchCore core = tor0(ForwardingMode.CUT_THROUGH);
    Packet in = packet(0, 1, 1, 1_000_000L);
    // Out at 1.6 us, its last bit not before its tail came in plus the pipeline (1.68 us).
    assertThat(handle(core, 1_000_000L, 0, in))
        .containsExactly(new Sent(1, 2_100_000L, in.withTailTimePs(2_180_000L)));
  }

  @Test
  void shouldQueuePacketsForOnePortOneAfterAnotherAndCountThem() {
    SwitchCore core = tor0(ForwardingMode.STORE_AND_FORWARD);
    Packet first = packet(0, 1, 1, 1_000_000L);
    Packet second = packet(2, 1, 2, 1_000_000L);
    handle(core, 1_000_000L, 0, first);
    // Ready at 1.68 us too, it waits until the first has left at 1.76 us.
    assertThat(handle(core, 1_000_000L, 2, second))
        .containsExactly(new Sent(1, 2_260_000L, second.withTailTimePs(2_340_000L)));

    LinkCounters toHost1 = core.report().links().stream().filter(c -> c.toDevice() == 1).findFirst().orElseThrow();
    assertThat(toHost1.fromDevice()).isEqualTo(TOR0);
    assertThat(toHost1.packets()).isEqualTo(2);
    assertThat(toHost1.bytes()).isEqualTo(2L * WIRE_BYTES);
    assertThat(toHost1.busyPs()).isEqualTo(2 * SERIALIZATION_PS);
    assertThat(core.report().links()).filteredOn(c -> c.toDevice() != 1).allSatisfy(c ->
        assertThat(c.packets()).isZero());
  }

  @Test
  void shouldSendEachFlowUpTheSpineItsRoutingSays() {
    SwitchCore core = tor0(ForwardingMode.STORE_AND_FORWARD);
    Set<Integer> spines = new HashSet<>();
    for (int s = 0; s < 4; s++) {
      for (int d = 4; d < 8; d++) {
        int spine = routing.path(s, d).get(2);
        long headPs = 1_000_000L * (1 + 4 * s + d);
        assertThat(handle(core, headPs, s, packet(s, d, 10L * s + d, headPs))).extracting(Sent::targetDevice)
            .as("flow %d->%d", s, d).containsExactly(spine);
        spines.add(spine);
      }
    }
    assertThat(spines).as("ECMP spreads the flows over both spines").containsExactlyInAnyOrder(SPINE0, SPINE1);
  }

  @Test
  void shouldRouteByTheNewTableFromARouteChangesTimeOn() {
    SwitchCore core = tor0(ForwardingMode.STORE_AND_FORWARD);
    // A flow the built routes send up spine 0, and a table without TOR 0's port to spine 0 (port 4).
    int[] flow = flowOver(SPINE0);
    boolean[][] dead = new boolean[topology.vertexCount()][];
    dead[TOR0] = new boolean[] {false, false, false, false, true, false};
    core.useRouteChanges(List.of(5_000_000L), List.of(RoutingTable.computeAvoiding(topology, dead)));

    assertThat(handle(core, 4_000_000L, flow[0], packet(flow[0], flow[1], 1, 4_000_000L)))
        .extracting(Sent::targetDevice).containsExactly(SPINE0);
    assertThat(handle(core, 5_000_000L, flow[0], packet(flow[0], flow[1], 2, 5_000_000L)))
        .extracting(Sent::targetDevice).containsExactly(SPINE1);
  }

  private int[] flowOver(int spine) {
    for (int s = 0; s < 4; s++) {
      for (int d = 4; d < 8; d++) {
        if (routing.path(s, d).get(2) == spine) return new int[] {s, d};
      }
    }
    throw new AssertionError("no flow of TOR 0 crosses vertex " + spine);
  }

  @Test
  void shouldRefuseAnIncTaskPacketAddressedToItWithoutAnIncUnit() {
    SwitchCore core = tor0(ForwardingMode.CUT_THROUGH);
    assertThat(core.incUnit()).isNull();
    Packet task = packet(0, TOR0, 1, 0L).toBuilder()
        .extension(new IncFrame(IncPacketType.TASK_UP, 0, 0, null, null, null, null)).build();
    assertThatThrownBy(() -> handle(core, 0L, 0, task)).isInstanceOf(IllegalStateException.class)
        .hasMessage("switch tor0 (vertex 8) got an INC TASK_UP packet addressed to it, but has no INC unit (the INC "
            + "control plane must not build a tree over such a switch)");
  }

  @Test
  void shouldRefuseWhatIsNotForASwitchAndFaultsInARunWithoutThem() {
    SwitchCore core = tor0(ForwardingMode.CUT_THROUGH);
    NicSend send = new NicSend(1, Message.synthetic(0, 1, 1L, 8L));
    assertThatThrownBy(() -> handle(core, 0L, 0, send)).isInstanceOf(IllegalArgumentException.class)
        .hasMessage("switch 8 cannot handle " + send);
    FaultCommand command = new FaultCommand(FaultEvent.link(0L, FaultAction.DOWN, "link 8-10", TOR0, SPINE0));
    assertThatThrownBy(() -> handle(core, 0L, 0, command)).isInstanceOf(IllegalStateException.class)
        .hasMessageEndingWith("in a run without a fault plan");
    assertThat(outbox.sent()).isEmpty();
  }
}
