package io.fabemu.core.router;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabemu.core.protocol.DeviceProtocol.Credit;
import io.fabemu.core.protocol.DeviceProtocol.Flit;
import io.fabemu.core.protocol.DeviceProtocol.RoutedPacket;
import io.fabemu.core.protocol.DeviceProtocol.RouterCycle;
import io.fabemu.core.sim.RecordingOutbox;
import io.fabemu.core.sim.RecordingOutbox.Sent;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@link FlitTerminal} in a run with faults: the start channels of detour legs, a link to the router going down and
 * up, flits dropped on arrival and cut worms, each lost packet reported once.
 */
class FlitTerminalFaultTest {
  private static final long CYCLE_PS = 1_000L;
  private static final int NIC = 0;
  private static final int ROUTER = 2;
  private static final int ROUTER_PORT = 0;
  // 4 virtual channels of 4 flits, link latency 2 cycles, credit delay 1 cycle.
  private final RouterSpec spec = new RouterSpec(CYCLE_PS, 4, 4, 4, 1, 1, 1, 1, 2, 1, Switching.WORMHOLE);

  /** What the terminal told its listener: "lost id@event" and "ejected id". */
  private final List<String> heard = new ArrayList<>();
  private final RecordingOutbox outbox = new RecordingOutbox();

  private final FlitTerminal.EjectionListener listener = new FlitTerminal.EjectionListener() {
    @Override
    public void packetEjected(RoutedPacket packet, long tailArrivalPs, int hops) {
      heard.add("ejected " + packet.packetId());
    }

    @Override
    public void packetLost(RoutedPacket packet, int eventId) {
      heard.add("lost " + packet.packetId() + "@" + eventId);
    }
  };

  private static RoutedPacket packet(long id, int flits, long createdPs, int via) {
    return new RoutedPacket(id, NIC, 1, flits, createdPs, false, null, via);
  }

  private void evaluate(FlitTerminal terminal, long cycle) {
    terminal.evaluate(cycle, outbox.at(RouterTiming.evaluationPs(cycle, CYCLE_PS)));
  }

  /** The flits sent so far, as "packet.flit@vc". */
  private List<String> flitsSent() {
    List<String> out = new ArrayList<>();
    for (Sent s : outbox.sent()) {
      if (s.payload() instanceof Flit f) out.add(f.packet().packetId() + "." + f.flitIndex() + "@" + f.vc());
    }
    return out;
  }

  private List<Credit> creditsSent() {
    return outbox.payloads(Credit.class);
  }

  private Flit ejected(RoutedPacket packet, int index, int vc) {
    return new Flit(packet, index, 0, vc, 3);
  }

  @Test
  void directPacketsStartInEitherLegsFirstClassViaPacketsOnlyInLeg1s() {
    // Four classes (a torus's two, per leg) over 4 channels: class 0 is channel 0, leg 2's first class channel 2.
    FlitTerminal terminal = new FlitTerminal(NIC, ROUTER, ROUTER_PORT, spec, 4, true, listener);
    terminal.enqueue(packet(0, 1, 0, -1));
    terminal.enqueue(packet(1, 1, 0, -1));
    terminal.enqueue(packet(2, 1, 0, -1));
    terminal.enqueue(packet(3, 1, 0, 5));
    terminal.enqueue(packet(4, 1, 0, 5));
    terminal.enqueue(packet(5, 1, 0, -1));
    for (long cycle = 0; cycle < 6; cycle++) evaluate(terminal, cycle);
    // Round robin over {0, 2} for direct packets; a via packet skips channel 2.
    assertThat(flitsSent()).containsExactly("0.0@0", "1.0@2", "2.0@0", "3.0@0", "4.0@0", "5.0@2");
    assertThat(terminal.credits(0)).isEqualTo(0);
    assertThat(terminal.credits(2)).isEqualTo(2);
    assertThat(terminal.credits(1)).isEqualTo(4);
    assertThat(terminal.credits(3)).isEqualTo(4);

    // A mesh's detour classes (2 over 4 channels): class 0 is channels 0-1, leg 2's channels 2-3.
    outbox.clear();
    FlitTerminal mesh = new FlitTerminal(NIC, ROUTER, ROUTER_PORT, spec, 2, true, listener);
    for (int i = 0; i < 5; i++) mesh.enqueue(packet(i, 1, 0, i == 4 ? 9 : -1));
    for (long cycle = 0; cycle < 5; cycle++) evaluate(mesh, cycle);
    assertThat(flitsSent()).containsExactly("0.0@0", "1.0@1", "2.0@2", "3.0@3", "4.0@0");

    // Without detour legs every packet starts in class 0, channel 0 of the four classes.
    outbox.clear();
    FlitTerminal plain = new FlitTerminal(NIC, ROUTER, ROUTER_PORT, spec, 4, false, listener);
    for (int i = 0; i < 3; i++) plain.enqueue(packet(i, 1, 0, -1));
    for (long cycle = 0; cycle < 3; cycle++) evaluate(plain, cycle);
    assertThat(flitsSent()).containsExactly("0.0@0", "1.0@0", "2.0@0");
    assertThatThrownBy(() -> new FlitTerminal(NIC, ROUTER, ROUTER_PORT, spec, 1, true, listener))
        .isInstanceOf(IllegalArgumentException.class).hasMessage("detour legs need an even number of classes, got 1");
  }

  @Test
  void aLinkGoingDownLosesTheQueueAndTheRestOfThePacketGoingOut() {
    FlitTerminal terminal = new FlitTerminal(NIC, ROUTER, ROUTER_PORT, spec, 4, true, listener);
    terminal.enqueue(packet(0, 4, 0, -1));
    terminal.enqueue(packet(1, 2, 0, -1));
    terminal.enqueue(packet(2, 2, 0, 7));
    evaluate(terminal, 0);
    evaluate(terminal, 1);
    assertThat(flitsSent()).containsExactly("0.0@0", "0.1@0");
    terminal.linkDown(3);
    assertThat(terminal.isLinkDown()).isTrue();
    // The queued packets are lost here, once each; packet 0's head left, so its loss is counted where its worm ends.
    assertThat(heard).containsExactly("lost 1@3", "lost 2@3");
    assertThat(terminal.queuedPackets()).isZero();
    // Its remaining two flits are lost one per cycle, without credits; then its channel is free.
    assertThat(terminal.needsEvaluation()).isTrue();
    assertThat(terminal.isIdle()).isFalse();
    evaluate(terminal, 2);
    assertThat(terminal.isIdle()).isFalse();
    evaluate(terminal, 3);
    assertThat(terminal.isIdle()).isTrue();
    assertThat(terminal.needsEvaluation()).isFalse();
    assertThat(flitsSent()).containsExactly("0.0@0", "0.1@0");
    assertThat(terminal.credits(0)).isEqualTo(2);
    assertThat(terminal.flitsInjected()).isEqualTo(2);
    assertThat(terminal.packetsInjected()).isZero();
    // A packet handed over while the link is down is lost at once; a later down event takes over.
    terminal.enqueue(packet(3, 1, 4_000, -1));
    terminal.linkDown(5);
    assertThat(heard).containsExactly("lost 1@3", "lost 2@3", "lost 3@3");
    terminal.enqueue(packet(4, 1, 4_000, -1));
    assertThat(heard).containsExactly("lost 1@3", "lost 2@3", "lost 3@3", "lost 4@5");
    // Back up: packets go out again, on channel 2 (the round-robin pointer moved past channel 0), then on the
    // channel packet 0 freed.
    terminal.linkUp();
    assertThat(terminal.isLinkDown()).isFalse();
    terminal.enqueue(packet(5, 1, 5_000, -1));
    terminal.enqueue(packet(6, 1, 5_000, -1));
    evaluate(terminal, 5);
    evaluate(terminal, 6);
    assertThat(flitsSent()).containsExactly("0.0@0", "0.1@0", "5.0@2", "6.0@0");
    assertThat(terminal.credits(0)).isEqualTo(1);
    assertThat(heard).hasSize(4);
  }

  @Test
  void aPacketNotYetStartedWhenTheLinkDiesIsLostOnceAndOneBeingEjectedToo() {
    FlitTerminal terminal = new FlitTerminal(NIC, ROUTER, ROUTER_PORT, spec, 2, true, listener);
    RoutedPacket arriving = packet(40, 3, 0, -1);
    terminal.onFlit(ejected(arriving, 0, 1), outbox.at(3 * CYCLE_PS));
    terminal.linkDown(2);
    assertThat(heard).containsExactly("lost 40@2");
    // Its next flit was on the wire: dropped by the owner, its credit goes back, the packet is not lost again.
    terminal.dropArriving(ejected(arriving, 1, 1), 2, outbox.at(4 * CYCLE_PS));
    assertThat(heard).containsExactly("lost 40@2");
    assertThat(creditsSent()).containsExactly(new Credit(ROUTER_PORT, 1, false), new Credit(ROUTER_PORT, 1, false));
    assertThat(terminal.packetsEjected()).isZero();
    assertThat(terminal.flitsEjected()).isEqualTo(1);
  }

  @Test
  void aDroppedFlitReturnsItsCreditAndAHeadsPacketIsLostOnce() {
    FlitTerminal terminal = new FlitTerminal(NIC, ROUTER, ROUTER_PORT, spec, 2, true, listener);
    RoutedPacket a = packet(10, 3, 0, -1);
    // Head and body dropped (the link was down while they were on it): one loss, two credits a credit delay later.
    terminal.dropArriving(ejected(a, 0, 2), 4, outbox.at(5 * CYCLE_PS));
    terminal.dropArriving(ejected(a, 1, 2), 4, outbox.at(6 * CYCLE_PS));
    terminal.dropArriving(ejected(a, 2, 2), 4, outbox.at(7 * CYCLE_PS));
    assertThat(heard).containsExactly("lost 10@4");
    assertThat(outbox.sent()).extracting(Sent::timePs).containsExactly(6 * CYCLE_PS, 7 * CYCLE_PS, 8 * CYCLE_PS);
    assertThat(outbox.sent()).extracting(Sent::targetDevice).containsOnly(ROUTER);
    assertThat(creditsSent()).containsExactly(new Credit(ROUTER_PORT, 2, false), new Credit(ROUTER_PORT, 2, false),
        new Credit(ROUTER_PORT, 2, true));

    // A packet partly ejected whose next flit is dropped: lost once, its channel free for the next packet.
    RoutedPacket b = packet(11, 3, 0, -1);
    terminal.onFlit(ejected(b, 0, 1), outbox.at(10 * CYCLE_PS));
    terminal.dropArriving(ejected(b, 1, 1), 6, outbox.at(11 * CYCLE_PS));
    terminal.dropArriving(ejected(b, 2, 1), 6, outbox.at(12 * CYCLE_PS));
    assertThat(heard).containsExactly("lost 10@4", "lost 11@6");
    RoutedPacket c = packet(12, 1, 0, -1);
    terminal.onFlit(ejected(c, 0, 1), outbox.at(13 * CYCLE_PS));
    assertThat(heard).containsExactly("lost 10@4", "lost 11@6", "ejected 12");
    assertThat(creditsSent()).hasSize(7);
    assertThat(terminal.packetsEjected()).isEqualTo(1);
    assertThatThrownBy(() -> terminal.dropArriving(ejected(c, 0, 4), 6, outbox.at(14 * CYCLE_PS)))
        .isInstanceOf(IllegalStateException.class).hasMessageContaining("vc 4");
  }

  @Test
  void aCutTailClosesItsWormAndItsPacketIsLostNotEjected() {
    FlitTerminal terminal = new FlitTerminal(NIC, ROUTER, ROUTER_PORT, spec, 2, true, listener);
    RoutedPacket cut = packet(20, 4, 0, -1);
    terminal.onFlit(ejected(cut, 0, 3), outbox.at(2 * CYCLE_PS));
    Flit closing = ejected(cut, 1, 3).cutBy(8);
    assertThat(closing.isTail()).isTrue();
    assertThat(closing.isCut()).isTrue();
    terminal.onFlit(closing, outbox.at(3 * CYCLE_PS));
    assertThat(heard).containsExactly("lost 20@8");
    assertThat(terminal.packetsEjected()).isZero();
    assertThat(terminal.flitsEjected()).isEqualTo(2);
    // The cut flit returns a tail credit: the router paid for the slot it took.
    assertThat(creditsSent()).containsExactly(new Credit(ROUTER_PORT, 3, false), new Credit(ROUTER_PORT, 3, true));
    // The channel takes the next packet's head.
    RoutedPacket next = packet(21, 2, 0, -1);
    terminal.onFlit(ejected(next, 0, 3), outbox.at(4 * CYCLE_PS));
    terminal.onFlit(ejected(next, 1, 3), outbox.at(5 * CYCLE_PS));
    assertThat(heard).containsExactly("lost 20@8", "ejected 21");
    // A cut head alone is a whole worm: lost at once.
    terminal.onFlit(ejected(packet(22, 3, 0, -1), 0, 0).cutBy(9), outbox.at(6 * CYCLE_PS));
    assertThat(heard).containsExactly("lost 20@8", "ejected 21", "lost 22@9");
  }

  @Test
  void aLossWithoutAFaultPlanListenerIsAnError() {
    FlitTerminal terminal = new FlitTerminal(NIC, ROUTER, ROUTER_PORT, spec, 2, true,
        (packet, tailArrivalPs, hops) -> { });
    assertThatThrownBy(() -> terminal.dropArriving(ejected(packet(3, 1, 0, -1), 0, 0), 1,
        outbox.at(CYCLE_PS)))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("packet 3 of host 0 lost to fault event 1 in a run without a fault plan");
  }

  @Test
  void theLastQueuedCreationTimeIsTheQueuesTail() {
    FlitTerminal terminal = new FlitTerminal(NIC, ROUTER, ROUTER_PORT, spec, 2, true, listener);
    assertThat(terminal.lastQueuedCreatedPs()).isEqualTo(Long.MIN_VALUE);
    terminal.enqueue(packet(0, 1, 3_000, -1));
    terminal.enqueue(packet(1, 1, 7_000, -1));
    assertThat(terminal.lastQueuedCreatedPs()).isEqualTo(7_000);
  }

  /** The cycles of the router-cycle events sent so far. */
  private List<Long> cyclesScheduled() {
    List<Long> out = new ArrayList<>();
    for (Sent s : outbox.sent()) {
      if (s.payload() instanceof RouterCycle) out.add(RouterTiming.cycleOfEvaluation(s.timePs(), CYCLE_PS));
    }
    return out;
  }

  @Test
  void aPacketQueuedAfterTheLinkCameBackMayAskForAnEarlierCycleThanTheOneItsLostPacketWaitedFor() {
    FlitTerminal terminal = new FlitTerminal(NIC, ROUTER, ROUTER_PORT, spec, 2, true, listener);
    // A segment whose DMA read ends at 50 ns: its evaluation is scheduled for cycle 50.
    terminal.enqueue(packet(1, 2, 50_000, -1));
    terminal.scheduleEvaluation(outbox.at(10_000));
    terminal.linkDown(0);
    terminal.linkUp();
    // An acknowledgement created at 12 ns asks for cycle 12; cycle 50 stays scheduled and is evaluated when it comes.
    terminal.enqueueControl(packet(2, 1, 12_000, -1));
    terminal.scheduleEvaluation(outbox.at(12_000));
    assertThat(cyclesScheduled()).containsExactly(50L, 12L);

    terminal.onRouterCycle(outbox.at(RouterTiming.evaluationPs(12, CYCLE_PS)));
    terminal.onRouterCycle(outbox.at(RouterTiming.evaluationPs(50, CYCLE_PS)));
    assertThat(flitsSent()).containsExactly("2.0@0");
    assertThat(heard).containsExactly("lost 1@0");
  }

  @Test
  void anAcknowledgementGoesBeforeTheSegmentsQueuedBeforeIt() {
    FlitTerminal terminal = new FlitTerminal(NIC, ROUTER, ROUTER_PORT, spec, 2, true, listener);
    terminal.enqueue(packet(1, 2, 0, -1));
    terminal.enqueue(packet(2, 2, 0, -1));
    terminal.enqueueControl(packet(3, 1, 0, -1));
    for (long cycle = 0; cycle < 5; cycle++) evaluate(terminal, cycle);
    // The acknowledgement first; each packet on the next free start channel in turn (0 and 1 are leg 1's class 0,
    // 2 and 3 leg 2's).
    assertThat(flitsSent()).containsExactly("3.0@0", "1.0@1", "1.1@1", "2.0@2", "2.1@2");
  }

  @Test
  void everyQueuedPacketLeavesOnceWhenItsTailIsInjectedOrItIsLostHere() {
    List<String> left = new ArrayList<>();
    FlitTerminal terminal = new FlitTerminal(NIC, ROUTER, ROUTER_PORT, spec, 2, true,
        new FlitTerminal.EjectionListener() {
          @Override
          public void packetEjected(RoutedPacket packet, long tailArrivalPs, int hops) {}

          @Override
          public void packetLeft(RoutedPacket packet) {
            left.add("left " + packet.packetId());
          }

          @Override
          public void packetLost(RoutedPacket packet, int eventId) {
            left.add("lost " + packet.packetId());
          }
        });
    terminal.enqueue(packet(1, 2, 0, -1));
    terminal.enqueue(packet(2, 3, 0, -1));
    terminal.enqueue(packet(3, 1, 0, -1));
    evaluate(terminal, 0);
    evaluate(terminal, 1);
    assertThat(left).containsExactly("left 1");
    evaluate(terminal, 2);
    // Packet 2 is going out (its head left): it leaves at once, its loss is counted where its worm is cut; packet 3,
    // still queued, leaves and is lost here; one handed over while the link is down too.
    terminal.linkDown(4);
    terminal.enqueue(packet(4, 1, 3_000, -1));
    assertThat(left).containsExactly("left 1", "left 3", "lost 3", "left 2", "left 4", "lost 4");
  }
}
