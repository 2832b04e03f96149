package io.fabemu.core.link;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabemu.core.fault.FaultAction;
import io.fabemu.core.fault.FaultEvent;
import io.fabemu.core.fault.FaultPlan;
import io.fabemu.core.fault.FaultSettings;
import io.fabemu.core.fault.FaultTally;
import io.fabemu.core.inc.IncFrame;
import io.fabemu.core.inc.IncPacketType;
import io.fabemu.core.protocol.DeviceProtocol.FailureNotice;
import io.fabemu.core.protocol.DeviceProtocol.FaultCommand;
import io.fabemu.core.protocol.DeviceProtocol.FaultDetected;
import io.fabemu.core.protocol.DeviceProtocol.Packet;
import io.fabemu.core.protocol.DeviceProtocol.RouteUpdate;
import io.fabemu.core.protocol.DirectedLink;
import io.fabemu.core.routing.RoutingTable;
import io.fabemu.core.sim.DeviceReport.LinkCounters;
import io.fabemu.core.sim.RecordingOutbox;
import io.fabemu.core.sim.RecordingOutbox.Sent;
import io.fabemu.core.time.Units;
import io.fabemu.core.topology.LeafSpineSpec;
import io.fabemu.core.topology.LinkSpec;
import io.fabemu.core.topology.Topology;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The fault handling of a device's forwarding, driven by hand: its ports go down, up, degraded or lossy by the plan's
 * events, it notices what happened next to it after the heartbeats, reports to the management node, loses what
 * crossed a cable while it was down, and routes by the management node's views.
 *
 * <p>Past 500 lines: one scenario (a leaf-spine with its plan and the management node's views) serves every case of
 * the forwarder's fault handling, which its private fixtures build; splitting it would copy them.
 */
class PacketForwarderFaultTest {
  /** 5 us heartbeats, 3 misses (15 us to notice a failure, 5 us a repair), 1 us to the management node. */
  private static final FaultSettings SETTINGS = new FaultSettings(5_000_000L, 3, 1_000_000L, 100_000L, 30_000_000L,
      10);
  private static final long LINK_LATENCY_PS = 500_000L;
  private static final LinkSpec LINK = new LinkSpec(100 * Units.GBPS, LINK_LATENCY_PS);
  private static final long PIPELINE_PS = 500_000L;
  private static final int MANAGEMENT = 38;
  private static final long SEED = 11L;
  private static final int WIRE_BYTES = 1_000;
  /** 1000 B at 100 Gbps. */
  private static final long SERIALIZATION_PS = 80_000L;

  // 16 hosts (0..15), TORs 16..19, spines 20 and 21. A TOR's ports: 0..3 its hosts, 4 spine0, 5 spine1.
  private static final int TOR0 = 16;
  private static final int TOR1 = 17;
  private static final int SPINE0 = 20;
  private static final int SPINE1 = 21;

  private final LeafSpineSpec spec = new LeafSpineSpec(16, 4, 2, LINK, LINK);
  private final Topology topology = spec.build();
  private final RoutingTable built = spec.routing(topology);
  private final RoutingViews views = new RoutingViews(topology, built);

  private PacketForwarder forwarder(int vertex, FaultPlan plan, ForwardingMode mode, long seed) {
    PacketForwarder forwarder = new PacketForwarder(vertex, topology, built, PIPELINE_PS, mode);
    forwarder.enableFaults(plan, views, MANAGEMENT, seed);
    return forwarder;
  }

  private PacketForwarder forwarder(int vertex, FaultPlan plan) {
    return forwarder(vertex, plan, ForwardingMode.CUT_THROUGH, SEED);
  }

  private static FaultPlan plan(FaultEvent... events) {
    return new FaultPlan(SETTINGS, List.of(events));
  }

  private static FaultEvent link(long atPs, FaultAction action, int a, int b) {
    return FaultEvent.link(atPs, action, "link " + a + "-" + b, a, b);
  }

  private FaultEvent device(long atPs, FaultAction action, int vertex) {
    return FaultEvent.device(atPs, action, "switch " + vertex, vertex, topology);
  }

  /** Hands event {@code id} of {@code plan} to {@code forwarder} at the event's time. */
  private static void command(PacketForwarder forwarder, FaultPlan plan, int id, RecordingOutbox outbox) {
    forwarder.onFaultCommand(new FaultCommand(plan.event(id)), outbox.at(plan.event(id).atPs()));
  }

  /** An ordinary packet from host {@code source} to host {@code destination}, its tail in at {@code headPs} + 80 ns. */
  private static Packet packet(int source, int destination, long headPs) {
    return Packet.builder().sourceHost(source).destinationHost(destination).messageId(7).segmentCount(1)
        .wireBytes(WIRE_BYTES).tailTimePs(headPs + SERIALIZATION_PS).build();
  }

  private static LinkCounters countersTo(PacketForwarder forwarder, int neighbour) {
    return forwarder.counters().stream().filter(c -> c.toDevice() == neighbour).findFirst().orElseThrow();
  }

  /** A flow from a host under tor0 to a host under another TOR that the built routes send up spine0. */
  private int[] flowOverSpine0() {
    for (int s = 0; s < 4; s++) {
      for (int d = 4; d < 16; d++) {
        if (built.egressPort(TOR0, d, RoutingTable.flowHash(s, d)) == 4) return new int[] {s, d};
      }
    }
    throw new AssertionError("no flow of tor0 crosses spine0");
  }

  @Test
  void aRouterNetworksNicTakesTheEventsButNotRouteUpdates() {
    FaultPlan plan = plan(link(10_000_000L, FaultAction.DOWN, 0, TOR0));
    PacketForwarder nic = new PacketForwarder(0, topology, built, PIPELINE_PS, ForwardingMode.CUT_THROUGH);
    nic.enableFaultsOnRouters(plan, MANAGEMENT, SEED);
    assertThat(nic.faultTally().eventCount()).isEqualTo(1);
    command(nic, plan, 0, new RecordingOutbox());
    assertThat(nic.linkFaults().cableDown(TOR0)).as("its only cable is down").isTrue();
    assertThatThrownBy(() -> nic.onRouteUpdate(new RouteUpdate(1, List.of(), 0)))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("vertex 0 takes a router network's detours, not routing views: route update of fault event 0");
  }

  @Test
  void aLinkDownTakesItsPortDownAndWhatIsForwardedOnItIsLostAndCounted() {
    FaultPlan plan = plan(link(10_000_000L, FaultAction.DOWN, TOR0, SPINE0));
    PacketForwarder tor0 = forwarder(TOR0, plan);
    RecordingOutbox outbox = new RecordingOutbox();

    command(tor0, plan, 0, outbox);
    // An end of the cable notices after three missed heartbeats: a self-event at 10 + 15 us.
    assertThat(outbox.take()).containsExactly(new Sent(TOR0, 25_000_000L, new FaultDetected(0)));
    assertThat(tor0.portTo(SPINE0).isDown()).isTrue();
    assertThat(tor0.portTo(SPINE1).isDown()).isFalse();

    tor0.forward(packet(0, 9, 11_000_000L), tor0.portTo(SPINE0), outbox.at(11_000_000L));
    // The routes are the built ones until the management node says otherwise: a flow over spine0 is lost too.
    int[] flow = flowOverSpine0();
    tor0.forward(packet(flow[0], flow[1], 12_000_000L), outbox.at(12_000_000L));
    assertThat(outbox.take()).isEmpty();
    FaultTally tally = tor0.faultTally();
    assertThat(tally.lostPackets(0)).isEqualTo(2);
    assertThat(tally.totalLostPackets()).isEqualTo(2);
    assertThat(countersTo(tor0, SPINE0)).isEqualTo(new LinkCounters(TOR0, SPINE0, 0, 0, 0, 2));

    tor0.forward(packet(0, 9, 13_000_000L), tor0.portTo(SPINE1), outbox.at(13_000_000L));
    assertThat(outbox.take()).extracting(Sent::targetDevice).containsExactly(SPINE1);
  }

  @Test
  void aNeighbourNoticesADeviceDownAfterTheMissedHeartbeatsAndTheDeviceItselfDoesNot() {
    FaultPlan plan = plan(device(10_000_000L, FaultAction.DOWN, SPINE0), device(50_000_000L, FaultAction.UP, SPINE0));
    PacketForwarder tor0 = forwarder(TOR0, plan);
    PacketForwarder spine0 = forwarder(SPINE0, plan);
    RecordingOutbox outbox = new RecordingOutbox();

    command(tor0, plan, 0, outbox);
    assertThat(outbox.take()).containsExactly(new Sent(TOR0, 25_000_000L, new FaultDetected(0)));
    command(spine0, plan, 0, outbox);
    assertThat(outbox.take()).isEmpty();
    for (int tor = 16; tor <= 19; tor++) assertThat(spine0.portTo(tor).isDown()).as("port to %d", tor).isTrue();
    // A device that is down loses what arrives, on its own down event.
    assertThat(spine0.arrives(TOR1, 11_000_000L)).isFalse();
    assertThat(spine0.faultTally().lostPackets(0)).isEqualTo(1);

    // A repair is noticed at the next heartbeat, 5 us later.
    command(tor0, plan, 1, outbox);
    assertThat(outbox.take()).containsExactly(new Sent(TOR0, 55_000_000L, new FaultDetected(1)));
    command(spine0, plan, 1, outbox);
    // Back up, the device looks after the next heartbeat for repairs next to it it missed while down (none here).
    assertThat(outbox.take()).extracting(Sent::payload).containsExactly(new FaultDetected(1));
    spine0.onFaultDetected(new FaultDetected(1), outbox.at(55_000_000L));
    assertThat(outbox.take()).isEmpty();
    assertThat(spine0.portTo(TOR1).isDown()).isFalse();
    assertThat(tor0.portTo(SPINE0).isDown()).isFalse();
    assertThat(spine0.arrives(TOR1, 60_000_000L)).isTrue();
  }

  @Test
  void aDetectedFailureAndItsRepairAreReportedToTheManagementNodeAManagementLatencyLater() {
    FaultPlan plan = plan(link(10_000_000L, FaultAction.DOWN, TOR0, SPINE0),
        link(40_000_000L, FaultAction.UP, TOR0, SPINE0));
    PacketForwarder tor0 = forwarder(TOR0, plan);
    RecordingOutbox outbox = new RecordingOutbox();

    command(tor0, plan, 0, outbox);
    outbox.take();
    tor0.onFaultDetected(new FaultDetected(0), outbox.at(25_000_000L));
    assertThat(outbox.take()).containsExactly(new Sent(MANAGEMENT, 26_000_000L, new FailureNotice(0, TOR0,
        25_000_000L)));
    command(tor0, plan, 1, outbox);
    assertThat(outbox.take()).containsExactly(new Sent(TOR0, 45_000_000L, new FaultDetected(1)));
    tor0.onFaultDetected(new FaultDetected(1), outbox.at(45_000_000L));
    assertThat(outbox.take()).containsExactly(new Sent(MANAGEMENT, 46_000_000L, new FailureNotice(1, TOR0,
        45_000_000L)));
  }

  @Test
  void aFailureRepairedBeforeItsDetectionIsNotReportedNorIsItsRepair() {
    FaultPlan plan = plan(link(10_000_000L, FaultAction.DOWN, TOR0, SPINE0),
        link(20_000_000L, FaultAction.UP, TOR0, SPINE0));
    PacketForwarder tor0 = forwarder(TOR0, plan);
    RecordingOutbox outbox = new RecordingOutbox();

    command(tor0, plan, 0, outbox);
    command(tor0, plan, 1, outbox);
    assertThat(outbox.take()).containsExactly(new Sent(TOR0, 25_000_000L, new FaultDetected(0)),
        new Sent(TOR0, 25_000_000L, new FaultDetected(1)));
    tor0.onFaultDetected(new FaultDetected(0), outbox.at(25_000_000L));
    tor0.onFaultDetected(new FaultDetected(1), outbox.at(25_000_000L));
    assertThat(outbox.take()).isEmpty();
  }

  @Test
  void aRepairUndoneBeforeTheNextHeartbeatIsNotReportedButTheNewFailureIs() {
    FaultPlan plan = plan(link(10_000_000L, FaultAction.DOWN, TOR0, SPINE0),
        link(40_000_000L, FaultAction.UP, TOR0, SPINE0), link(42_000_000L, FaultAction.DOWN, TOR0, SPINE0));
    PacketForwarder tor0 = forwarder(TOR0, plan);
    RecordingOutbox outbox = new RecordingOutbox();

    command(tor0, plan, 0, outbox);
    tor0.onFaultDetected(new FaultDetected(0), outbox.at(25_000_000L));
    command(tor0, plan, 1, outbox);
    command(tor0, plan, 2, outbox);
    assertThat(outbox.take()).extracting(Sent::payload).containsExactly(new FaultDetected(0),
        new FailureNotice(0, TOR0, 25_000_000L), new FaultDetected(1), new FaultDetected(2));
    tor0.onFaultDetected(new FaultDetected(1), outbox.at(45_000_000L));
    assertThat(outbox.take()).isEmpty();
    tor0.onFaultDetected(new FaultDetected(2), outbox.at(57_000_000L));
    assertThat(outbox.take()).containsExactly(new Sent(MANAGEMENT, 58_000_000L, new FailureNotice(2, TOR0,
        57_000_000L)));
  }

  @Test
  void aPacketIsLostWhenItsCableWasDownWhileItsHeadWasOnTheWire() {
    // Down for 100 ns at 10 us, and for 10 us at 20 us. Packets from spine0 take 500 ns to arrive.
    FaultPlan plan = plan(link(10_000_000L, FaultAction.DOWN, TOR0, SPINE0),
        link(10_100_000L, FaultAction.UP, TOR0, SPINE0), link(20_000_000L, FaultAction.DOWN, TOR0, SPINE0),
        link(30_000_000L, FaultAction.UP, TOR0, SPINE0));
    PacketForwarder tor0 = forwarder(TOR0, plan);
    RecordingOutbox outbox = new RecordingOutbox();

    assertThat(tor0.arrives(SPINE0, 9_900_000L)).as("arrived before the failure").isTrue();
    command(tor0, plan, 0, outbox);
    assertThat(tor0.arrives(SPINE0, 10_050_000L)).as("arrives while the cable is down").isFalse();
    command(tor0, plan, 1, outbox);
    assertThat(tor0.arrives(SPINE0, 10_300_000L)).as("left at 9.8 us, before the failure, arrived after the repair")
        .isFalse();
    assertThat(tor0.arrives(SPINE0, 10_599_999L)).as("left 1 ps before the repair").isFalse();
    assertThat(tor0.arrives(SPINE0, 10_600_000L)).as("left as the cable came back").isTrue();
    assertThat(tor0.arrives(SPINE1, 10_300_000L)).as("another cable").isTrue();
    assertThat(tor0.faultTally().lostPackets(0)).isEqualTo(3);

    command(tor0, plan, 2, outbox);
    command(tor0, plan, 3, outbox);
    assertThat(tor0.arrives(SPINE0, 30_200_000L)).as("left at 29.7 us, during the second failure").isFalse();
    assertThat(tor0.arrives(SPINE0, 30_600_000L)).as("left after the second repair").isTrue();
    assertThat(tor0.faultTally().lostPackets(2)).isEqualTo(1);
    assertThat(tor0.faultTally().totalLostPackets()).isEqualTo(4);
  }

  @Test
  void aCableDownForTwoReasonsWorksAgainOnlyWhenBothAreRepaired() {
    FaultPlan plan = plan(link(10_000_000L, FaultAction.DOWN, TOR0, SPINE0),
        device(12_000_000L, FaultAction.DOWN, SPINE0), link(20_000_000L, FaultAction.UP, TOR0, SPINE0),
        device(30_000_000L, FaultAction.UP, SPINE0));
    PacketForwarder tor0 = forwarder(TOR0, plan);
    RecordingOutbox outbox = new RecordingOutbox();

    command(tor0, plan, 0, outbox);
    command(tor0, plan, 1, outbox);
    command(tor0, plan, 2, outbox);
    assertThat(tor0.portTo(SPINE0).isDown()).isTrue();
    assertThat(tor0.arrives(SPINE0, 25_000_000L)).isFalse();
    tor0.forward(packet(0, 9, 25_000_000L), tor0.portTo(SPINE0), outbox.at(25_000_000L));
    tor0.onFaultDetected(new FaultDetected(0), outbox.at(25_000_000L));
    tor0.onFaultDetected(new FaultDetected(2), outbox.at(25_000_000L));
    tor0.onFaultDetected(new FaultDetected(1), outbox.at(27_000_000L));
    // Each reason is reported on its own: the link's failure was repaired (at 20 us) before its detection was due, so
    // neither it nor its repair is reported; spine0's failure, still holding at 27 us, is.
    assertThat(outbox.take()).extracting(Sent::payload).containsExactly(new FaultDetected(0), new FaultDetected(1),
        new FaultDetected(2), new FailureNotice(1, TOR0, 27_000_000L));

    command(tor0, plan, 3, outbox);
    assertThat(tor0.portTo(SPINE0).isDown()).isFalse();
    assertThat(tor0.arrives(SPINE0, 30_400_000L)).as("left at 29.9 us").isFalse();
    assertThat(tor0.arrives(SPINE0, 30_600_000L)).isTrue();
    tor0.forward(packet(0, 9, 31_000_000L), tor0.portTo(SPINE0), outbox.at(31_000_000L));
    tor0.onFaultDetected(new FaultDetected(3), outbox.at(35_000_000L));
    assertThat(outbox.take()).extracting(Sent::payload).containsExactly(new FaultDetected(3),
        packet(0, 9, 31_000_000L).withTailTimePs(31_000_000L + PIPELINE_PS + SERIALIZATION_PS + LINK_LATENCY_PS),
        new FailureNotice(3, TOR0, 35_000_000L));
    assertThat(tor0.faultTally().totalLostPackets()).isEqualTo(3);
  }

  @Test
  void aCableDownForTwoReasonsPutsItsLossesDownToTheReasonStillHolding() {
    FaultPlan plan = plan(link(10_000_000L, FaultAction.DOWN, TOR0, SPINE0),
        device(12_000_000L, FaultAction.DOWN, SPINE0), link(20_000_000L, FaultAction.UP, TOR0, SPINE0),
        device(30_000_000L, FaultAction.UP, SPINE0));
    PacketForwarder tor0 = forwarder(TOR0, plan);
    RecordingOutbox outbox = new RecordingOutbox();
    for (int id = 0; id < 3; id++) command(tor0, plan, id, outbox);

    // From 20 us on only spine0's failure (event 1) holds the cable down.
    tor0.forward(packet(0, 9, 25_000_000L), tor0.portTo(SPINE0), outbox.at(25_000_000L));
    assertThat(tor0.arrives(SPINE0, 26_000_000L)).isFalse();
    assertThat(tor0.faultTally().lostPackets(1)).isEqualTo(2);
    assertThat(tor0.faultTally().lostPackets(0)).isZero();
  }

  @Test
  void aHostRepairHiddenBehindItsDeadCableIsReportedOnceTheCableWorksAgain() {
    FaultPlan plan = plan(link(100_000_000L, FaultAction.DOWN, 5, TOR1),
        FaultEvent.device(110_000_000L, FaultAction.DOWN, "node host5", 5, topology),
        FaultEvent.device(200_000_000L, FaultAction.UP, "node host5", 5, topology),
        link(300_000_000L, FaultAction.UP, 5, TOR1));
    PacketForwarder tor1 = forwarder(TOR1, plan);
    RecordingOutbox outbox = new RecordingOutbox();
    command(tor1, plan, 0, outbox);
    command(tor1, plan, 1, outbox);
    tor1.onFaultDetected(new FaultDetected(0), outbox.at(115_000_000L));
    tor1.onFaultDetected(new FaultDetected(1), outbox.at(125_000_000L));
    command(tor1, plan, 2, outbox);
    // Host 5 is back, but tor1 cannot hear its heartbeats over the dead cable: nothing to report yet.
    tor1.onFaultDetected(new FaultDetected(2), outbox.at(205_000_000L));
    command(tor1, plan, 3, outbox);
    tor1.onFaultDetected(new FaultDetected(3), outbox.at(305_000_000L));

    // Host 5 is the only device that could report its own repair to the management node but does not report
    // itself: tor1 must, once the heartbeats come back.
    assertThat(outbox.take()).extracting(Sent::payload).filteredOn(p -> p instanceof FailureNotice)
        .extracting(p -> ((FailureNotice) p).eventId()).containsExactlyInAnyOrder(0, 1, 2, 3);
  }

  @Test
  void aDegradeChangesRateAndLatencyAndOneWithoutThemRestoresTheLink() {
    FaultPlan plan = plan(
        FaultEvent.degrade(10_000_000L, "link tor0-spine0", List.of(new DirectedLink(TOR0, SPINE0),
            new DirectedLink(SPINE0, TOR0)), 10 * Units.GBPS, 2_000_000L),
        FaultEvent.degrade(20_000_000L, "link tor0-spine0", List.of(new DirectedLink(TOR0, SPINE0),
            new DirectedLink(SPINE0, TOR0)), 0, 0));
    PacketForwarder tor0 = forwarder(TOR0, plan);
    RecordingOutbox outbox = new RecordingOutbox();
    EgressPort port = tor0.portTo(SPINE0);

    tor0.forward(packet(0, 9, 5_000_000L), port, outbox.at(5_000_000L));
    // Cut-through: starts a pipeline after the head, 80 ns on the wire, 500 ns to spine0.
    assertThat(outbox.take()).containsExactly(new Sent(SPINE0, 6_000_000L,
        packet(0, 9, 5_000_000L).withTailTimePs(6_080_000L)));

    command(tor0, plan, 0, outbox);
    assertThat(outbox.take()).as("a degrade is not detected").isEmpty();
    assertThat(port.latencyPs()).isEqualTo(2_500_000L);
    tor0.forward(packet(0, 9, 11_000_000L), port, outbox.at(11_000_000L));
    // 800 ns on the wire at 10 Gbps, 2.5 us to spine0.
    assertThat(outbox.take()).containsExactly(new Sent(SPINE0, 14_000_000L,
        packet(0, 9, 11_000_000L).withTailTimePs(14_800_000L)));
    assertThat(tor0.portTo(SPINE1).latencyPs()).isEqualTo(LINK_LATENCY_PS);

    command(tor0, plan, 1, outbox);
    assertThat(port.latencyPs()).isEqualTo(LINK_LATENCY_PS);
    tor0.forward(packet(0, 9, 21_000_000L), port, outbox.at(21_000_000L));
    assertThat(outbox.take()).containsExactly(new Sent(SPINE0, 22_000_000L,
        packet(0, 9, 21_000_000L).withTailTimePs(22_080_000L)));
    assertThat(tor0.faultTally().totalLostPackets()).isZero();
  }

  /** What became of each packet a lossy port was handed: D delivered, C corrupted, L lost. */
  private record LossyRun(String fates, FaultTally tally, LinkCounters counters, int controlsDelivered) {}

  private LossyRun lossyRun(long seed, boolean withControlPackets) {
    FaultPlan plan = plan(FaultEvent.lossy(0, "link tor0-spine0", List.of(new DirectedLink(TOR0, SPINE0)), 0.2,
        0.2));
    PacketForwarder tor0 = forwarder(TOR0, plan, ForwardingMode.CUT_THROUGH, seed);
    RecordingOutbox outbox = new RecordingOutbox();
    command(tor0, plan, 0, outbox);
    EgressPort port = tor0.portTo(SPINE0);
    Packet control = Packet.builder().sourceHost(0).destinationHost(9).segmentCount(1).wireBytes(WIRE_BYTES)
        .extension(new IncFrame(IncPacketType.RELEASE, 0, 0, null, null, null, null)).build();
    StringBuilder fates = new StringBuilder();
    int controlsDelivered = 0;
    for (int i = 0; i < 200; i++) {
      long now = 1_000_000L * (i + 1);
      if (withControlPackets) {
        tor0.forward(control.withTailTimePs(now), port, outbox.at(now));
        List<Sent> sent = outbox.take();
        if (sent.size() == 1 && !((Packet) sent.get(0).payload()).corrupted()) controlsDelivered++;
      }
      tor0.forward(packet(0, 9, now), port, outbox.at(now));
      List<Sent> sent = outbox.take();
      if (sent.isEmpty()) {
        fates.append('L');
      } else {
        fates.append(((Packet) sent.get(0).payload()).corrupted() ? 'C' : 'D');
      }
    }
    return new LossyRun(fates.toString(), tor0.faultTally(), countersTo(tor0, SPINE0), controlsDelivered);
  }

  @Test
  void aLossyLinkLosesAndCorruptsTheSamePacketsForTheSameSeed() {
    LossyRun run = lossyRun(SEED, false);
    long lost = run.fates().chars().filter(c -> c == 'L').count();
    long corrupted = run.fates().chars().filter(c -> c == 'C').count();

    assertThat(lossyRun(SEED, false).fates()).isEqualTo(run.fates());
    assertThat(lossyRun(SEED + 1, false).fates()).isNotEqualTo(run.fates());
    // About a fifth each of 200.
    assertThat(lost).isBetween(20L, 60L);
    assertThat(corrupted).isBetween(20L, 60L);
    assertThat(run.tally().lostPackets(0)).isEqualTo(lost);
    assertThat(run.tally().corruptedPackets(0)).isEqualTo(corrupted);
    // A lost packet still took the wire; it is counted as dropped on its link.
    assertThat(run.counters().packets()).isEqualTo(200);
    assertThat(run.counters().droppedPackets()).isEqualTo(lost);
  }

  @Test
  void aLossyLinkNeverTouchesIncControlPacketsNorDrawsForThem() {
    LossyRun without = lossyRun(SEED, false);
    LossyRun with = lossyRun(SEED, true);

    assertThat(with.controlsDelivered()).isEqualTo(200);
    // The ordinary packets meet the same fates: no draw was spent on a control packet.
    assertThat(with.fates()).isEqualTo(without.fates());
    assertThat(with.tally()).isEqualTo(without.tally());
  }

  @Test
  void aLossyFaultWithoutProbabilitiesRestoresTheLink() {
    List<DirectedLink> links = List.of(new DirectedLink(TOR0, SPINE0));
    FaultPlan plan = plan(FaultEvent.lossy(0, "link tor0-spine0", links, 0.5, 0.4),
        FaultEvent.lossy(10_000_000L, "link tor0-spine0", links, 0, 0));
    PacketForwarder tor0 = forwarder(TOR0, plan);
    RecordingOutbox outbox = new RecordingOutbox();
    command(tor0, plan, 0, outbox);
    command(tor0, plan, 1, outbox);
    for (int i = 0; i < 50; i++) {
      long now = 11_000_000L + 1_000_000L * i;
      tor0.forward(packet(0, 9, now), tor0.portTo(SPINE0), outbox.at(now));
    }
    assertThat(outbox.take()).hasSize(50).allSatisfy(s -> assertThat(((Packet) s.payload()).corrupted()).isFalse());
    assertThat(tor0.faultTally().totalLostPackets()).isZero();
    assertThat(tor0.faultTally().totalCorruptedPackets()).isZero();
  }

  @Test
  void aStoreAndForwardHopDropsACorruptedPacketAndACutThroughHopForwardsIt() {
    FaultPlan plan = plan(link(100_000_000L, FaultAction.DOWN, TOR0, SPINE0));
    PacketForwarder storeAndForward = forwarder(TOR0, plan, ForwardingMode.STORE_AND_FORWARD, SEED);
    PacketForwarder cutThrough = forwarder(TOR0, plan, ForwardingMode.CUT_THROUGH, SEED);
    RecordingOutbox outbox = new RecordingOutbox();
    Packet corrupted = packet(0, 9, 1_000_000L).asCorrupted();

    storeAndForward.forward(corrupted, storeAndForward.portTo(SPINE0), outbox.at(1_000_000L));
    assertThat(outbox.take()).isEmpty();
    assertThat(countersTo(storeAndForward, SPINE0).packets()).isZero();
    cutThrough.forward(corrupted, cutThrough.portTo(SPINE0), outbox.at(1_000_000L));
    assertThat(outbox.take()).containsExactly(new Sent(SPINE0, 2_000_000L, corrupted.withTailTimePs(2_080_000L)));
    assertThat(countersTo(cutThrough, SPINE0).packets()).isEqualTo(1);
    // Corruption is counted where the bits flip, not at the hops that pass the packet on or drop it.
    assertThat(storeAndForward.faultTally().totalCorruptedPackets()).isZero();
    assertThat(storeAndForward.faultTally().totalLostPackets()).isZero();
  }

  @Test
  void aRouteUpdateSwitchesTheTableAndADestinationWithoutARouteCountsALoss() {
    FaultPlan plan = plan(link(10_000_000L, FaultAction.DOWN, TOR0, SPINE0),
        link(20_000_000L, FaultAction.DOWN, 5, TOR1));
    PacketForwarder tor0 = forwarder(TOR0, plan);
    RecordingOutbox outbox = new RecordingOutbox();
    int[] flow = flowOverSpine0();
    assertThat(tor0.egressToward(flow[0], flow[1])).isSameAs(tor0.portTo(SPINE0));

    List<DirectedLink> spine0Cable = List.of(new DirectedLink(TOR0, SPINE0), new DirectedLink(SPINE0, TOR0));
    tor0.onRouteUpdate(new RouteUpdate(1, spine0Cable, 0));
    for (int s = 0; s < 4; s++) {
      for (int d = 4; d < 16; d++) {
        assertThat(tor0.egressToward(s, d)).as("flow %d to %d", s, d).isSameAs(tor0.portTo(SPINE1));
      }
    }

    tor0.onRouteUpdate(new RouteUpdate(2, List.of(new DirectedLink(5, TOR1), new DirectedLink(TOR0, SPINE0),
        new DirectedLink(TOR1, 5), new DirectedLink(SPINE0, TOR0)), 1));
    assertThat(tor0.egressToward(0, 5)).isNull();
    tor0.forward(packet(0, 5, 21_000_000L), outbox.at(21_000_000L));
    assertThat(outbox.take()).isEmpty();
    assertThat(tor0.faultTally().lostPackets(1)).isEqualTo(1);
    assertThat(tor0.faultTally().totalLostPackets()).isEqualTo(1);
    assertThat(tor0.egressToward(0, 6)).isSameAs(tor0.portTo(SPINE1));

    tor0.onRouteUpdate(new RouteUpdate(3, List.of(), 1));
    assertThat(tor0.egressToward(flow[0], flow[1])).isSameAs(tor0.portTo(SPINE0));
    assertThat(tor0.egressToward(0, 5)).isNotNull();
  }

  @Test
  void theRepairOfACableThatIsNotDownIsRefused() {
    FaultPlan plan = plan(link(20_000_000L, FaultAction.UP, TOR0, SPINE0));
    PacketForwarder tor0 = forwarder(TOR0, plan);
    assertThatThrownBy(() -> command(tor0, plan, 0, new RecordingOutbox()))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("vertex 16: 20.000 us link 16-20 up, but its cable to 20 is not down for it");
  }

  @Test
  void aForwarderWithoutAFaultPlanLetsEverythingArriveAndRefusesFaultPayloads() {
    PacketForwarder tor0 = new PacketForwarder(TOR0, topology, built, PIPELINE_PS, ForwardingMode.CUT_THROUGH);
    assertThat(tor0.faultTally()).isNull();
    assertThat(tor0.arrives(SPINE0, 1_000L)).isTrue();
    RouteUpdate update = new RouteUpdate(1, List.of(), 0);
    assertThatThrownBy(() -> tor0.onRouteUpdate(update))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("vertex 16 got " + update + " in a run without a fault plan");
  }
}
