package io.fabemu.switching.router;

import static io.fabemu.switching.router.RouterTestNetwork.CYCLE_PS;
import static io.fabemu.switching.router.RouterTestNetwork.line;
import static io.fabemu.switching.router.RouterTestNetwork.portTo;
import static io.fabemu.switching.router.RouterTestNetwork.shortestPaths;
import static io.fabemu.switching.router.RouterTestNetwork.spec;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabemu.core.fault.FaultAction;
import io.fabemu.core.fault.FaultEvent;
import io.fabemu.core.fault.FaultPlan;
import io.fabemu.core.fault.FaultReport;
import io.fabemu.core.fault.FaultSettings;
import io.fabemu.core.protocol.DeviceProtocol.Credit;
import io.fabemu.core.protocol.DeviceProtocol.FailureNotice;
import io.fabemu.core.protocol.DeviceProtocol.FaultCommand;
import io.fabemu.core.protocol.DeviceProtocol.Flit;
import io.fabemu.core.protocol.DeviceProtocol.RoutedPacket;
import io.fabemu.core.protocol.DirectedLink;
import io.fabemu.core.protocol.Payload;
import io.fabemu.core.router.RouterSpec;
import io.fabemu.core.router.Switching;
import io.fabemu.core.routing.DetourRouting;
import io.fabemu.core.routing.RouterRouting;
import io.fabemu.core.sim.Event;
import io.fabemu.core.sim.Outbox;
import io.fabemu.core.topology.Topology;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * {@link RouterCore} in a run with faults, driven by hand: routers 3 - 4 - 5 in a line (hosts 0, 1, 2 on them),
 * some of them run here, the others played by the test (flits sent by hand, credits returned for what reaches them).
 * Faults come a quarter cycle after an edge, as scenario times mostly do (they need not be cycle edges).
 */
class RouterCoreFaultTest {
  private static final int MANAGEMENT = 99;
  private static final int HOST0 = 0;
  private static final int HOST1 = 1;
  private static final int HOST2 = 2;
  private static final int R3 = 3;
  private static final int R4 = 4;
  private static final int R5 = 5;

  // 4 virtual channels (2 classes of the detour routing, 2 channels each) of 4 flits; every stage 1 cycle: a head
  // arriving at edge c leaves in the evaluation of c + 3, its next flits one cycle apart, and arrives 3 cycles on.
  private final RouterSpec spec = spec(4, 4, 1, 1, 1, 1, 1, 1, Switching.WORMHOLE);
  private final Topology topology = line(3, spec);
  private final RouterRouting base = shortestPaths(topology);
  private final DetourRouting detours = DetourRouting.of(base);
  private final FaultSettings settings = new FaultSettings(10_000L, 3, 5_000L, 0L, 50_000_000L, 10);

  /** A payload a router sent to a device the rig does not run. */
  private record Sent(int target, long timePs, Payload payload) {}

  /** Routers run on a queue of events; what they send elsewhere is kept, and flits there are credited back. */
  private final class Rig {
    final FaultPlan plan;
    final Map<Integer, RouterCore> routers = new TreeMap<>();
    final PriorityQueue<Event> queue = new PriorityQueue<>(
        Comparator.comparingLong(Event::timePs).thenComparingLong(Event::sourceSequence));
    final List<Sent> sent = new ArrayList<>();
    /** Devices the rig plays that do not return credits (their buffers stay full). */
    final Set<Integer> stalled = new HashSet<>();
    long sequence;

    Rig(List<FaultEvent> events, int... routerVertices) {
      this.plan = new FaultPlan(settings, events);
      for (int vertex : routerVertices) {
        RouterCore router = new RouterCore(vertex, topology, base, detours, spec, Long.MAX_VALUE);
        router.useFaults(plan, MANAGEMENT);
        routers.put(vertex, router);
      }
      for (FaultEvent event : plan.events()) {
        for (int vertex : routers.keySet()) {
          boolean touches = false;
          for (DirectedLink link : event.links()) touches |= link.from() == vertex;
          if (touches) at(event.atPs(), vertex, new FaultCommand(event));
        }
      }
    }

    RouterCore router(int vertex) {
      return routers.get(vertex);
    }

    void at(long timePs, int target, Payload payload) {
      queue.add(new Event(timePs, Event.EXTERNAL_SOURCE, sequence++, target, payload));
    }

    /** Flit {@code index} of {@code packet} arrives at router {@code to} from {@code from} on vc {@code vc}. */
    void flit(long timePs, int from, int to, RoutedPacket packet, int index, int vc) {
      at(timePs, to, new Flit(packet, index, portTo(topology, to, from), vc, 0));
    }

    void run() {
      while (!queue.isEmpty()) {
        Event event = queue.poll();
        RouterCore router = routers.get(event.targetDevice());
        router.onEvent(event, new Outbox() {
          @Override
          public long nowPs() {
            return event.timePs();
          }

          @Override
          public void send(int target, long timePs, Payload payload) {
            if (routers.containsKey(target)) {
              queue.add(new Event(timePs, router.deviceId(), sequence++, target, payload));
              return;
            }
            sent.add(new Sent(target, timePs, payload));
            if (payload instanceof Flit f && !stalled.contains(target)) {
              // The device there takes the flit (or drops it) and returns its credit a cycle later.
              queue.add(new Event(timePs + CYCLE_PS, target, sequence++, router.deviceId(),
                  new Credit(portTo(topology, router.deviceId(), target), f.vc(), f.isTail())));
            }
          }
        });
      }
    }

    /** Flits sent to {@code target}, as "packet.flit" plus "cut" for a cut flit and "@vc". */
    List<String> flitsTo(int target) {
      List<String> out = new ArrayList<>();
      for (Sent s : sent) {
        if (s.target() == target && s.payload() instanceof Flit f) {
          out.add(f.packet().packetId() + "." + f.flitIndex() + (f.isCut() ? " cut" + f.cutByEvent() : "") + "@"
              + f.vc());
        }
      }
      return out;
    }

    List<Sent> creditsTo(int target) {
      List<Sent> out = new ArrayList<>();
      for (Sent s : sent) {
        if (s.target() == target && s.payload() instanceof Credit) out.add(s);
      }
      return out;
    }

    long lost(int router, int eventId) {
      return router(router).report().part(FaultReport.class).tally().lostPackets(eventId);
    }

    /** Every output channel of every router run here free, with all its credits, and nothing held. */
    void assertAllCreditsBack() {
      for (RouterCore router : routers.values()) {
        assertThat(router.heldFlits()).as("flits held by %d", router.deviceId()).isZero();
        for (int port = 0; port < router.portCount(); port++) {
          for (int vc = 0; vc < spec.virtualChannels(); vc++) {
            assertThat(router.credits(port, vc)).as("router %d port %d vc %d", router.deviceId(), port, vc)
                .isEqualTo(spec.bufferDepthFlits());
            assertThat(router.isOutputVcFree(port, vc)).isTrue();
          }
        }
      }
    }
  }

  private static RoutedPacket packet(long id, int source, int destination, int flits) {
    return new RoutedPacket(id, source, destination, flits, 0, false, null);
  }

  private FaultEvent cable(long atPs, FaultAction action, int a, int b) {
    return FaultEvent.link(atPs, action, "cable " + a + "-" + b, a, b);
  }

  @Test
  void aWormWhoseHeadGoesToADeadPortLosesAllItsFlitsEvenAfterThePortIsBack() {
    // r4 - r5 down at 2.25 ns, up at 6.25 ns; host 0's packet of 4 flits for host 2 reaches r4 from 3 ns on.
    Rig rig = new Rig(List.of(cable(2_250, FaultAction.DOWN, R4, R5), cable(6_250, FaultAction.UP, R4, R5)), R4);
    RoutedPacket p = packet(7, HOST0, HOST2, 4);
    rig.flit(3_000, R3, R4, p, 0, 0);
    rig.flit(4_000, R3, R4, p, 1, 0);
    rig.flit(8_000, R3, R4, p, 2, 0);
    rig.flit(9_000, R3, R4, p, 3, 0);
    // A packet after the repair goes through.
    RoutedPacket q = packet(8, HOST0, HOST2, 2);
    rig.flit(12_000, R3, R4, q, 0, 1);
    rig.flit(13_000, R3, R4, q, 1, 1);
    rig.run();
    // The head left while the port was dead: lost, and so are flits 1-3, which leave after the repair.
    assertThat(rig.flitsTo(R5)).containsExactly("8.0@0", "8.1@0");
    assertThat(rig.lost(R4, 0)).isEqualTo(1);
    assertThat(rig.lost(R4, 1)).isZero();
    // Every flit returned its credit upstream (4 of p, 2 of q), two of p's after the repair.
    List<Sent> credits = rig.creditsTo(R3);
    assertThat(credits).hasSize(6);
    assertThat(credits.subList(0, 4)).extracting(s -> ((Credit) s.payload()).vc()).containsOnly(0);
    assertThat(credits.get(3).timePs()).isGreaterThan(6_250);
    assertThat(((Credit) credits.get(3).payload()).tail()).isTrue();
    rig.assertAllCreditsBack();
  }

  @Test
  void aWormWhoseHeadLeftIsLostBehindAPortThatDiesAndComesBackBeforeItsNextFlit() {
    // Head and flit 1 reach r5 before r4 - r5 dies at 7.25 ns; it is back at 8.25 ns, before p's flit 2 reaches r4.
    // r5 closed the worm with a cut flit when the port died, so r4 must lose flits 2 and 3, not send them on.
    Rig rig = new Rig(List.of(cable(7_250, FaultAction.DOWN, R4, R5), cable(8_250, FaultAction.UP, R4, R5)), R4, R5);
    RoutedPacket p = packet(7, HOST0, HOST2, 4);
    rig.flit(1_000, R3, R4, p, 0, 0);
    rig.flit(2_000, R3, R4, p, 1, 0);
    rig.flit(10_000, R3, R4, p, 2, 0);
    rig.flit(11_000, R3, R4, p, 3, 0);
    rig.run();
    // r5 had forwarded the head and still held flit 1 (arrived at 7 ns): it closed the worm with it.
    assertThat(rig.flitsTo(HOST2)).containsExactly("7.0@0", "7.1 cut0@0");
    assertThat(rig.lost(R4, 0)).isZero();
    assertThat(rig.lost(R5, 0)).isZero();
    assertThat(rig.creditsTo(R3)).hasSize(4);
    rig.assertAllCreditsBack();
  }

  @Test
  void aWormArrivingOnAPortThatDiesIsClosedByItsLastBufferedFlit() {
    // Host 1's NIC takes no flit back (no credit): r4 forwards p's flits 0-3 and keeps flit 4 when r3 - r4 dies.
    Rig rig = new Rig(List.of(cable(9_250, FaultAction.DOWN, R3, R4)), R4);
    rig.stalled.add(HOST1);
    RoutedPacket p = packet(3, HOST0, HOST1, 6);
    for (int i = 0; i < 5; i++) rig.flit(1_000 + i * CYCLE_PS, R3, R4, p, i, 1);
    // Flit 5 was on the wire when the cable died: dropped, its credit returned.
    rig.flit(10_000, R3, R4, p, 5, 1);
    rig.run();
    assertThat(rig.flitsTo(HOST1)).containsExactly("3.0@0", "3.1@0", "3.2@0", "3.3@0");
    assertThat(rig.router(R4).heldFlits()).isEqualTo(1);
    // Host 1's NIC takes its 4 flits: the cut flit 4 goes, closing the worm, and r4 is empty.
    for (int i = 0; i < 4; i++) rig.at(20_000 + i * CYCLE_PS, R4, new Credit(RouterRouting.LOCAL_PORT, 0, i == 3));
    rig.run();
    assertThat(rig.flitsTo(HOST1)).containsExactly("3.0@0", "3.1@0", "3.2@0", "3.3@0", "3.4 cut0@0");
    // Every flit that reached r4 from r3, flit 5 included, returned its credit; the packet is lost at host 1.
    assertThat(rig.creditsTo(R3)).hasSize(6);
    assertThat(((Credit) rig.creditsTo(R3).get(4).payload()).tail()).isTrue();
    assertThat(rig.lost(R4, 0)).isZero();
    rig.stalled.clear();
    rig.at(30_000, R4, new Credit(RouterRouting.LOCAL_PORT, 0, true));
    rig.run();
    rig.assertAllCreditsBack();
  }

  @Test
  void aWormArrivingOnAPortThatDiesWithNothingBufferedGetsAnAddedCutFlitThatReturnsNoCredit() {
    Rig rig = new Rig(List.of(cable(6_250, FaultAction.DOWN, R3, R4)), R4);
    RoutedPacket p = packet(5, HOST0, HOST2, 4);
    rig.flit(1_000, R3, R4, p, 0, 2);
    rig.flit(2_000, R3, R4, p, 1, 2);
    rig.run();
    // Direct packets keep their leg: arrived in class 1 (vcs 2-3), they leave in class 1.
    assertThat(rig.flitsTo(R5)).containsExactly("5.0@2", "5.1@2", "5.2 cut0@2");
    // Two flits arrived, two credits went back: none for the cut flit r4 added.
    assertThat(rig.creditsTo(R3)).hasSize(2);
    assertThat(rig.creditsTo(R3)).extracting(s -> ((Credit) s.payload()).tail()).containsExactly(false, false);
    rig.assertAllCreditsBack();
  }

  @Test
  void flitsArrivingOnADeadPortAreDroppedAndReturnTheirCredits() {
    Rig rig = new Rig(List.of(cable(1_250, FaultAction.DOWN, R3, R4)), R4);
    RoutedPacket p = packet(5, HOST0, HOST2, 2);
    rig.flit(2_000, R3, R4, p, 0, 1);
    rig.flit(3_000, R3, R4, p, 1, 1);
    rig.run();
    assertThat(rig.flitsTo(R5)).isEmpty();
    assertThat(rig.creditsTo(R3)).extracting(Sent::timePs).containsExactly(3_000L, 4_000L);
    assertThat(rig.creditsTo(R3)).extracting(s -> (Credit) s.payload()).containsExactly(
        new Credit(portTo(topology, R3, R4), 1, false), new Credit(portTo(topology, R3, R4), 1, true));
    assertThat(rig.lost(R4, 0)).isEqualTo(1);
    rig.assertAllCreditsBack();
  }

  @Test
  void aRouterGoingDownLosesEverythingItHoldsAndReturnsTheirCredits() {
    FaultEvent down = FaultEvent.device(20_250, FaultAction.DOWN, "router4", R4, topology);
    Rig rig = new Rig(List.of(down), R4);
    rig.stalled.add(HOST1);
    // a (vc 0) and b (vc 1) from r3 for host 1 take both class-0 channels to it and stall after 4 flits; c from r5
    // for host 1 waits for a channel with its two flits.
    RoutedPacket a = packet(1, HOST0, HOST1, 6);
    RoutedPacket b = packet(2, HOST0, HOST1, 6);
    RoutedPacket c = packet(3, HOST2, HOST1, 2);
    for (int i = 0; i < 5; i++) {
      rig.flit(1_000 + i * CYCLE_PS, R3, R4, a, i, 0);
      rig.flit(1_000 + i * CYCLE_PS, R3, R4, b, i, 1);
    }
    rig.flit(10_000, R5, R4, c, 0, 0);
    rig.flit(11_000, R5, R4, c, 1, 0);
    // a's last flit arrives while r4 is down: dropped, credit returned.
    rig.flit(21_000, R3, R4, a, 5, 0);
    rig.run();
    assertThat(rig.flitsTo(HOST1)).hasSize(8);
    assertThat(rig.router(R4).heldFlits()).isZero();
    // Held: a's flit 4, b's flit 4, c's two flits: four credits back, plus a's dropped flit 5.
    assertThat(rig.creditsTo(R3)).hasSize(11);
    assertThat(rig.creditsTo(R5)).hasSize(2);
    // The fault came at 20.25 ns: the credits leave from the next edge, 21 ns, a credit delay on.
    assertThat(rig.creditsTo(R5)).extracting(Sent::timePs).containsExactly(22_000L, 22_000L);
    // One head was held (c's): counted lost to the router's down event; a's and b's are counted where they end.
    assertThat(rig.lost(R4, 0)).isEqualTo(1);
    for (int port = 0; port < rig.router(R4).portCount(); port++) {
      for (int vc = 0; vc < 4; vc++) assertThat(rig.router(R4).isOutputVcFree(port, vc)).isTrue();
    }
    // Host 1's NIC returns the credits of the 8 flits it took: every output has all of them again.
    for (int i = 0; i < 4; i++) {
      rig.at(30_000 + i * CYCLE_PS, R4, new Credit(RouterRouting.LOCAL_PORT, 0, false));
      rig.at(30_000 + i * CYCLE_PS, R4, new Credit(RouterRouting.LOCAL_PORT, 1, false));
    }
    rig.run();
    rig.assertAllCreditsBack();
    assertThat(rig.sent).extracting(Sent::target).doesNotContain(MANAGEMENT);
  }

  @Test
  void aFailureNextToTheRouterIsReportedAfterTheMissedHeartbeatsAndItsRepairAfterOne() {
    Rig rig = new Rig(List.of(cable(2_250, FaultAction.DOWN, R4, R5), cable(50_250, FaultAction.UP, R4, R5),
        cable(100_250, FaultAction.DOWN, R3, R4), cable(110_250, FaultAction.UP, R3, R4)), R4);
    rig.run();
    List<Sent> notices = new ArrayList<>();
    for (Sent s : rig.sent) {
      if (s.target() == MANAGEMENT) notices.add(s);
    }
    // Down: 3 missed heartbeats of 10 ns, then 5 ns to the management node; up: the next heartbeat. The second
    // failure is repaired before its third missed heartbeat: never reported, nor its repair.
    assertThat(notices).extracting(Sent::timePs).containsExactly(37_250L, 65_250L);
    assertThat(notices).extracting(Sent::payload).containsExactly(new FailureNotice(0, R4, 32_250),
        new FailureNotice(1, R4, 60_250));
    rig.assertAllCreditsBack();
  }

  @Test
  void faultsNeedTheDetourRoutingAndARouterWithoutFaultsRefusesFaultCommands() {
    RouterCore plain = new RouterCore(R4, topology, base, spec, Long.MAX_VALUE);
    FaultPlan plan = new FaultPlan(settings, List.of(cable(1_000, FaultAction.DOWN, R4, R5)));
    assertThatThrownBy(() -> plain.useFaults(plan, MANAGEMENT)).isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("faults need the detour routing");
    assertThatThrownBy(() -> plain.onFaultCommand(new FaultCommand(plan.event(0)), null))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("cannot handle");
    assertThat(plain.report().part(FaultReport.class)).isNull();
  }

  @Test
  void aCutFlitAddedForAWormWithNothingLeftTakesNoCreditedSlotSoTheBufferStillTakesAFullPacket() {
    RouterSpec spec = spec(4, 4, 1, 1, 1, 1, 1, 1, Switching.WORMHOLE);
    Topology topology = line(3, spec);
    RouterRouting base = shortestPaths(topology);
    FaultPlan plan = new FaultPlan(new FaultSettings(10_000L, 3, 5_000L, 0L, 50_000_000L, 10), List.of(
        FaultEvent.link(9_250, FaultAction.DOWN, "cable 3-4", 3, 4),
        FaultEvent.link(10_250, FaultAction.UP, "cable 3-4", 3, 4)));
    RouterCore r4 = new RouterCore(4, topology, base, DetourRouting.of(base), spec, Long.MAX_VALUE);
    r4.useFaults(plan, MANAGEMENT);
    PriorityQueue<Event> queue = new PriorityQueue<>(Comparator.comparingLong(Event::timePs)
        .thenComparingLong(Event::sourceSequence));
    long[] sequence = {0};
    queue.add(new Event(9_250, Event.EXTERNAL_SOURCE, sequence[0]++, 4, new FaultCommand(plan.event(0))));
    queue.add(new Event(10_250, Event.EXTERNAL_SOURCE, sequence[0]++, 4, new FaultCommand(plan.event(1))));
    // A 6-flit packet from router 3 toward host 2 on vc 0; router 5 never returns a credit, so router 4 forwards
    // flits 0-3 (its 4 credits) and the cable to router 3 dies before flits 4 and 5 come: router 4 adds a cut flit.
    int in = portTo(topology, 4, 3);
    RoutedPacket cutOff = new RoutedPacket(1, HOST0, HOST2, 6, 0, false, null);
    for (int i = 0; i < 4; i++) {
      queue.add(new Event(1_000 + i * CYCLE_PS, 3, sequence[0]++, 4, new Flit(cutOff, i, in, 0, 0)));
    }
    // Back up, router 3 has its 4 credits of vc 0 again (every flit it sent left router 4) and sends 4 flits more.
    RoutedPacket next = new RoutedPacket(2, HOST0, HOST2, 4, 0, false, null);
    for (int i = 0; i < 4; i++) {
      queue.add(new Event(20_000 + i * CYCLE_PS, 3, sequence[0]++, 4, new Flit(next, i, in, 0, 0)));
    }
    while (!queue.isEmpty()) {
      Event e = queue.poll();
      r4.onEvent(e, new Outbox() {
        @Override
        public long nowPs() {
          return e.timePs();
        }

        @Override
        public void send(int target, long timePs, Payload payload) {
          if (target == 4) queue.add(new Event(timePs, 4, sequence[0]++, 4, payload));
        }
      });
    }
    // The cut flit still waits for a credit toward router 5, with the new packet behind it: no overflow.
    assertThat(r4.heldFlits()).isEqualTo(5);
  }
}

