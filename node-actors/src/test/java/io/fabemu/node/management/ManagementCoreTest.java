package io.fabemu.node.management;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabemu.core.fault.FaultAction;
import io.fabemu.core.fault.FaultEvent;
import io.fabemu.core.fault.FaultPlan;
import io.fabemu.core.fault.FaultRecord;
import io.fabemu.core.fault.FaultReport;
import io.fabemu.core.fault.FaultSettings;
import io.fabemu.core.link.RoutingViews;
import io.fabemu.core.protocol.DeviceProtocol.FailureNotice;
import io.fabemu.core.protocol.DeviceProtocol.RouteUpdate;
import io.fabemu.core.protocol.DirectedLink;
import io.fabemu.core.protocol.Payload;
import io.fabemu.core.sim.Event;
import io.fabemu.core.sim.Outbox;
import io.fabemu.core.time.Units;
import io.fabemu.core.topology.LeafSpineSpec;
import io.fabemu.core.topology.LinkSpec;
import io.fabemu.core.topology.Topology;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * The management node driven by hand with the devices' notices: its view of what is down, the route updates it sends
 * (to whom, when, with what), its records of the events and the partition line.
 */
class ManagementCoreTest {
  /** 1 us to the management node and back, 100 ns per update. */
  private static final FaultSettings SETTINGS = new FaultSettings(5_000_000L, 3, 1_000_000L, 100_000L, 30_000_000L,
      10);
  private static final long LATENCY_PS = 1_000_000L;
  private static final long UPDATE_PS = 100_000L;
  private static final LinkSpec LINK = new LinkSpec(100 * Units.GBPS, 500_000L);

  // 16 hosts (0..15), TORs 16..19 (4 hosts each), spines 20 and 21; 38 devices with the compute nodes.
  private static final int TOR0 = 16;
  private static final int SPINE0 = 20;
  private static final int MANAGEMENT = 38;

  private final LeafSpineSpec spec = new LeafSpineSpec(16, 4, 2, LINK, LINK);
  private final Topology topology = spec.build();
  private final RoutingViews views = new RoutingViews(topology, spec.routing(topology));

  /** One event the management node sent. */
  private record Sent(int targetDevice, long timePs, Payload payload) {}

  /** A management node, and what it sent while handling the notices of a test. */
  private final class Management {
    final ManagementCore core;
    final List<Sent> sent = new ArrayList<>();
    long sequence;

    Management(FaultPlan plan, int ranksPerHost) {
      core = new ManagementCore(MANAGEMENT, topology, plan, views, ranksPerHost);
    }

    /** Hands the notice to the management node at {@code nowPs}; returns what it sent. */
    List<Sent> notice(long nowPs, FailureNotice notice) {
      List<Sent> out = new ArrayList<>();
      Outbox outbox = new Outbox() {
        @Override
        public long nowPs() {
          return nowPs;
        }

        @Override
        public void send(int targetDevice, long timePs, Payload payload) {
          out.add(new Sent(targetDevice, timePs, payload));
        }
      };
      core.onEvent(new Event(nowPs, notice.reporterDevice(), sequence++, MANAGEMENT, notice), outbox);
      sent.addAll(out);
      return out;
    }

    FaultReport report() {
      return core.report().part(FaultReport.class);
    }
  }

  private static FaultPlan plan(FaultEvent... events) {
    return new FaultPlan(SETTINGS, List.of(events));
  }

  private FaultEvent device(long atPs, FaultAction action, String target, int vertex) {
    return FaultEvent.device(atPs, action, target, vertex, topology);
  }

  /** Updates leaving {@code startPs} + 100 ns apart, each a management latency on the way, to {@code targets}. */
  private static List<Sent> updates(long startPs, RouteUpdate update, int... targets) {
    List<Sent> out = new ArrayList<>();
    for (int i = 0; i < targets.length; i++) {
      out.add(new Sent(targets[i], startPs + (i + 1) * UPDATE_PS + LATENCY_PS, update));
    }
    return out;
  }

  /** Both directions of spine0's cables to the four TORs, sorted. */
  private static List<DirectedLink> spine0Links() {
    List<DirectedLink> links = new ArrayList<>();
    for (int tor = 16; tor <= 19; tor++) links.add(new DirectedLink(tor, SPINE0));
    for (int tor = 16; tor <= 19; tor++) links.add(new DirectedLink(SPINE0, tor));
    return links;
  }

  @Test
  void aSpineDownIsRoutedAroundByAnUpdateToEveryTorOneAfterAnother() {
    Management management = new Management(plan(device(100_000_000L, FaultAction.DOWN, "switch spine0", SPINE0)), 1);

    List<Sent> sent = management.notice(116_000_000L, new FailureNotice(0, TOR0, 115_000_000L));

    // Only the TORs' routes change: the hosts have one port, the other spine reaches every TOR directly as before,
    // and the dead spine gets none.
    assertThat(sent).containsExactlyElementsOf(updates(116_000_000L, new RouteUpdate(1, spine0Links(), 0),
        16, 17, 18, 19));
    RouteUpdate update = (RouteUpdate) sent.get(0).payload();
    assertThat(views.tableFor(update.deadLinks()).nextHopPorts(TOR0, 9)).containsExactly(5);
    assertThat(management.report().recordOf(0))
        .isEqualTo(new FaultRecord(0, 115_000_000L, TOR0, 116_000_000L + 4 * UPDATE_PS + LATENCY_PS, 4));
    assertThat(management.core.partition()).isNull();
  }

  @Test
  void withIncEveryHostIsToldOfAFailureAfterTheTorsButNotOfARepair() {
    Management management = new Management(plan(device(100_000_000L, FaultAction.DOWN, "switch spine0", SPINE0),
        device(200_000_000L, FaultAction.UP, "switch spine0", SPINE0)), 1);
    management.core.notifyHostsOfFailures();

    List<Sent> sent = management.notice(116_000_000L, new FailureNotice(0, TOR0, 115_000_000L));

    // The four TORs' updates, and the 16 hosts' notices on a channel of their own (they never hold up a later
    // event's updates); the reroute is the TORs' alone.
    List<Sent> expected = new ArrayList<>(updates(116_000_000L, new RouteUpdate(1, spine0Links(), 0), 16, 17, 18,
        19));
    expected.addAll(updates(116_000_000L, new RouteUpdate(1, spine0Links(), 0), IntStream.range(0, 16).toArray()));
    assertThat(sent).containsExactlyElementsOf(expected);
    assertThat(management.report().recordOf(0))
        .isEqualTo(new FaultRecord(0, 115_000_000L, TOR0, 116_000_000L + 4 * UPDATE_PS + LATENCY_PS, 4));
    // The repair breaks nothing: only the devices whose routes change hear of it (the TORs and the spine).
    List<Sent> repair = management.notice(206_000_000L, new FailureNotice(1, TOR0, 205_000_000L));
    assertThat(repair).extracting(Sent::targetDevice).containsExactly(16, 17, 18, 19, SPINE0);
  }

  @Test
  void aSecondNoticeOfAnEventIsIgnored() {
    Management management = new Management(plan(device(100_000_000L, FaultAction.DOWN, "switch spine0", SPINE0)), 1);
    management.notice(116_000_000L, new FailureNotice(0, TOR0, 115_000_000L));

    assertThat(management.notice(116_000_000L, new FailureNotice(0, 17, 115_000_000L))).isEmpty();
    assertThat(management.notice(117_000_000L, new FailureNotice(0, 18, 116_000_000L))).isEmpty();
    assertThat(management.report().records())
        .containsExactly(new FaultRecord(0, 115_000_000L, TOR0, 117_400_000L, 4));
  }

  @Test
  void theRepairOfASpineRestoresTheBuiltRoutesOnTheTorsAndOnTheSpineItself() {
    FaultPlan plan = plan(device(100_000_000L, FaultAction.DOWN, "switch spine0", SPINE0),
        device(200_000_000L, FaultAction.UP, "switch spine0", SPINE0));
    Management management = new Management(plan, 1);
    management.notice(116_000_000L, new FailureNotice(0, TOR0, 115_000_000L));

    List<Sent> sent = management.notice(206_000_000L, new FailureNotice(1, 17, 205_000_000L));

    // The TORs updated for the failure get the built routes back; so does spine0, which got no update while it was
    // down and must learn the view it comes back up in (here the fabric as built).
    assertThat(sent).containsExactlyElementsOf(updates(206_000_000L, new RouteUpdate(2, List.of(), 1),
        16, 17, 18, 19, SPINE0));
    assertThat(views.tableFor(List.of())).isSameAs(views.built());
    assertThat(management.report().recordOf(1))
        .isEqualTo(new FaultRecord(1, 205_000_000L, 17, 206_000_000L + 5 * UPDATE_PS + LATENCY_PS, 5));
    assertThat(management.report().recordOf(0).devicesUpdated()).isEqualTo(4);
    assertThat(management.core.partition()).isNull();
  }

  @Test
  void theUpdatesOfANoticeLeaveAfterThoseOfTheNoticeBefore() {
    FaultPlan plan = plan(FaultEvent.link(100_000_000L, FaultAction.DOWN, "link tor0-spine0", TOR0, SPINE0),
        FaultEvent.link(100_000_000L, FaultAction.DOWN, "link tor1-spine0", 17, SPINE0));
    Management management = new Management(plan, 1);

    List<Sent> first = management.notice(116_000_000L, new FailureNotice(0, TOR0, 115_000_000L));
    // Every TOR's routes to or from tor0's hosts, and spine0's to them (down another TOR now) change.
    assertThat(first).extracting(Sent::targetDevice).containsExactly(16, 17, 18, 19, SPINE0);
    List<Sent> second = management.notice(116_200_000L, new FailureNotice(1, 17, 115_000_000L));

    // The channel is busy until 116.5 us: the second notice's updates leave 116.6 us on.
    List<DirectedLink> dead = List.of(new DirectedLink(TOR0, SPINE0), new DirectedLink(17, SPINE0),
        new DirectedLink(SPINE0, TOR0), new DirectedLink(SPINE0, 17));
    assertThat(second).containsExactlyElementsOf(updates(116_500_000L, new RouteUpdate(2, dead, 1),
        17, 18, 19, SPINE0));
    assertThat(management.report().recordOf(1).rerouteCompletePs()).isEqualTo(116_900_000L + LATENCY_PS);
  }

  @Test
  void aHostCutOffGivesThePartitionLineWithItsRanksAndItHealsOnTheRepair() {
    FaultPlan plan = plan(FaultEvent.link(100_000_000L, FaultAction.DOWN, "link host1-tor0", 1, TOR0),
        FaultEvent.link(300_000_000L, FaultAction.UP, "link host1-tor0", 1, TOR0));
    Management management = new Management(plan, 4);

    List<Sent> sent = management.notice(116_000_000L, new FailureNotice(0, TOR0, 115_000_000L));

    // Every vertex loses its route to host 1 (host 1 all of its routes): each gets an update.
    int[] everyVertex = IntStream.range(0, 22).toArray();
    List<DirectedLink> dead = List.of(new DirectedLink(1, TOR0), new DirectedLink(TOR0, 1));
    assertThat(sent).containsExactlyElementsOf(updates(116_000_000L, new RouteUpdate(1, dead, 0), everyVertex));
    String line = "partition since 100.000 us (link host1-tor0 down): ranks 0-3,8-63 cannot reach ranks 4-7";
    assertThat(management.core.partition()).isEqualTo(line);
    assertThat(management.report().partition()).isEqualTo(line);

    sent = management.notice(306_000_000L, new FailureNotice(1, TOR0, 305_000_000L));
    assertThat(sent).containsExactlyElementsOf(updates(306_000_000L, new RouteUpdate(2, List.of(), 1), everyVertex));
    assertThat(management.core.partition()).isNull();
    assertThat(management.report().partition()).isNull();
    assertThat(management.report().records()).extracting(FaultRecord::devicesUpdated).containsExactly(22, 22);
  }

  @Test
  void aPartitionIntoMoreThanTwoGroupsKeepsTheTimeAndCauseItBeganWithUntilItHeals() {
    FaultPlan plan = plan(FaultEvent.link(100_000_000L, FaultAction.DOWN, "link host1-tor0", 1, TOR0),
        device(110_000_000L, FaultAction.DOWN, "node host5", 5),
        FaultEvent.link(200_000_000L, FaultAction.UP, "link host1-tor0", 1, TOR0),
        device(300_000_000L, FaultAction.UP, "node host5", 5));
    Management management = new Management(plan, 1);

    management.notice(116_000_000L, new FailureNotice(0, TOR0, 115_000_000L));
    List<Sent> sent = management.notice(126_000_000L, new FailureNotice(1, 17, 125_000_000L));
    assertThat(management.core.partition()).isEqualTo("partition since 100.000 us (link host1-tor0 down): "
        + "ranks 0,2-4,6-15, rank 1 and rank 5 cannot reach one another");
    // Host 5 is down: it gets no update, but every vertex that routed to it does (host 1, cut off, had no route).
    assertThat(sent).extracting(Sent::targetDevice)
        .containsExactlyElementsOf(IntStream.range(0, 22).filter(v -> v != 1 && v != 5).boxed().toList());

    management.notice(206_000_000L, new FailureNotice(2, TOR0, 205_000_000L));
    assertThat(management.core.partition())
        .isEqualTo("partition since 100.000 us (link host1-tor0 down): ranks 0-4,6-15 cannot reach rank 5");
    management.notice(306_000_000L, new FailureNotice(3, 17, 305_000_000L));
    assertThat(management.core.partition()).isNull();
    assertThat(management.sent.get(management.sent.size() - 1).payload())
        .isEqualTo(new RouteUpdate(4, List.of(), 3));
  }

  @Test
  void aRepairOfWhatIsNotDownInItsViewIsRefused() {
    FaultPlan plan = plan(FaultEvent.link(100_000_000L, FaultAction.DOWN, "link host1-tor0", 1, TOR0),
        FaultEvent.link(300_000_000L, FaultAction.UP, "link host1-tor0", 1, TOR0));
    Management management = new Management(plan, 1);

    assertThatThrownBy(() -> management.notice(306_000_000L, new FailureNotice(1, TOR0, 305_000_000L)))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("management node: 300.000 us link host1-tor0 up noticed, but link 1->16 is not down in its view");
    assertThat(management.report().records()).isEmpty();
  }

  @Test
  void aFamilyOtherThanTheNoticesIsRefusedEvenWhatTheManagementNodeItselfSends() {
    ManagementCore core = new ManagementCore(MANAGEMENT, topology, plan(), views, 1);
    RouteUpdate update = new RouteUpdate(1, List.of(), 0);
    Outbox outbox = new Outbox() {
      @Override
      public long nowPs() {
        return 0L;
      }

      @Override
      public void send(int targetDevice, long timePs, Payload payload) {
        throw new AssertionError("a refused payload sent " + payload);
      }
    };

    assertThatThrownBy(() -> core.onEvent(new Event(0L, TOR0, 0L, MANAGEMENT, update), outbox))
        .isInstanceOf(IllegalArgumentException.class).hasMessage("management node 38 cannot handle " + update);
  }
}
