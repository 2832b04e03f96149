package io.fabemu.switching.router;

import static io.fabemu.switching.router.RouterTestNetwork.CYCLE_PS;
import static io.fabemu.switching.router.RouterTestNetwork.line;
import static io.fabemu.switching.router.RouterTestNetwork.routing;
import static io.fabemu.switching.router.RouterTestNetwork.shortestPaths;
import static io.fabemu.switching.router.RouterTestNetwork.spec;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabemu.core.protocol.DeviceProtocol.Credit;
import io.fabemu.core.protocol.DeviceProtocol.Flit;
import io.fabemu.core.protocol.DeviceProtocol.RoutedPacket;
import io.fabemu.core.protocol.DeviceProtocol.StartWorkload;
import io.fabemu.core.router.FlitTerminal;
import io.fabemu.core.router.RouterSpec;
import io.fabemu.core.router.RouterTiming;
import io.fabemu.core.router.Switching;
import io.fabemu.core.sim.Event;
import io.fabemu.core.sim.RecordingOutbox;
import io.fabemu.core.sim.RecordingOutbox.Sent;
import io.fabemu.core.topology.Topology;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The router's and the terminal's contracts: the checks on their arguments and on the flow control they get. */
class RouterCoreTest {
  private final RouterSpec spec = spec(4, 2, 1, 1, 1, 1, 2, 3, Switching.WORMHOLE);
  private final Topology topology = line(2, spec);

  @Test
  void theLookaheadIsTheShortestArrivalAfterAnEvaluation() {
    assertThat(RouterTiming.lookaheadPs(spec)).isEqualTo(2 * CYCLE_PS - CYCLE_PS / 2);
    assertThat(RouterTiming.lookaheadPs(spec(1, 1, 0, 0, 0, 0, 3, 1, Switching.WORMHOLE)))
        .isEqualTo(CYCLE_PS / 2);
    RouterSpec oddCycle = new RouterSpec(3, 4, 1, 1, 0, 0, 0, 0, 1, 1, Switching.WORMHOLE);
    assertThat(RouterTiming.lookaheadPs(oddCycle)).isEqualTo(2);
  }

  @Test
  void aCycleOfOnePicosecondIsRejected() {
    RouterSpec tooShort = new RouterSpec(1, 4, 1, 1, 0, 0, 0, 0, 1, 1, Switching.WORMHOLE);
    assertThatThrownBy(() -> RouterTiming.lookaheadPs(tooShort)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("at least 2").hasMessageContaining("got 1");
    assertThatThrownBy(() -> new RouterCore(3, line(2, tooShort), shortestPaths(line(2, tooShort)), tooShort, 1))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("cycle");
  }

  @Test
  void virtualChannelsMustBeAMultipleOfTheRoutingsClasses() {
    RouterSpec three = spec(3, 2, 1, 1, 1, 1, 1, 1, Switching.WORMHOLE);
    Topology t = line(2, three);
    assertThatThrownBy(() -> new RouterCore(2, t, routing(t, 2, (r, d) -> d, (r, i, c, o, d) -> 0), three, 1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("router virtual-channels must be a positive multiple of the routing's 2 virtual-channel "
            + "classes, got 3");
    assertThatThrownBy(() -> new FlitTerminal(0, 2, 0, three, 2)).isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("got 3");
  }

  @Test
  void aRouterNeedsASwitchVertexAndAPositiveStallLimit() {
    assertThatThrownBy(() -> new RouterCore(0, topology, shortestPaths(topology), spec, 1))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("got 0");
    assertThatThrownBy(() -> new RouterCore(2, topology, shortestPaths(topology), spec, 0))
        .isInstanceOf(IllegalArgumentException.class).hasMessage("router stall limit must be positive, got 0 ps");
  }

  @Test
  void aRouterRejectsPayloadsOfOtherDevices() {
    RouterCore router = new RouterCore(2, topology, shortestPaths(topology), spec, 1);
    assertThatThrownBy(() -> router.onEvent(new Event(0, 0, 0, 2, StartWorkload.INSTANCE), new RecordingOutbox(0)))
        .isInstanceOf(IllegalArgumentException.class).hasMessage("router 2 cannot handle INSTANCE");
  }

  @Test
  void aRouterRejectsAFlitSentWithoutACredit() {
    RouterCore router = new RouterCore(2, topology, shortestPaths(topology), spec, Long.MAX_VALUE);
    RoutedPacket packet = new RoutedPacket(0, 0, 1, 5, 0, true, null);
    router.onFlit(new Flit(packet, 0, 0, 0, 0), new RecordingOutbox(CYCLE_PS));
    router.onFlit(new Flit(packet, 1, 0, 0, 0), new RecordingOutbox(CYCLE_PS));
    assertThatThrownBy(() -> router.onFlit(new Flit(packet, 2, 0, 0, 0), new RecordingOutbox(CYCLE_PS)))
        .isInstanceOf(IllegalStateException.class).hasMessageContaining("overflowed its 2 flits");
  }

  @Test
  void aRouterRejectsACreditItDidNotGiveAndAFlitOffTheClock() {
    RouterCore router = new RouterCore(2, topology, shortestPaths(topology), spec, Long.MAX_VALUE);
    assertThatThrownBy(() -> router.onCredit(new Credit(1, 0, false), new RecordingOutbox(CYCLE_PS)))
        .isInstanceOf(IllegalStateException.class).hasMessageContaining("has all its 2 credits");
    RoutedPacket packet = new RoutedPacket(0, 0, 1, 1, 0, true, null);
    assertThatThrownBy(() -> router.onFlit(new Flit(packet, 0, 0, 0, 0), new RecordingOutbox(CYCLE_PS + 1)))
        .isInstanceOf(IllegalStateException.class).hasMessageContaining("not on a cycle edge");
  }

  @Test
  void aHeadGetsOneEvaluationPerCycleAndAnIdleRouterNone() {
    RouterCore router = new RouterCore(2, topology, shortestPaths(topology), spec, Long.MAX_VALUE);
    RoutedPacket packet = new RoutedPacket(0, 0, 1, 2, 0, true, null);
    RecordingOutbox arrival = new RecordingOutbox(CYCLE_PS);
    router.onFlit(new Flit(packet, 0, 0, 0, 0), arrival);
    router.onFlit(new Flit(packet, 1, 0, 0, 0), arrival);
    // Two arrivals at one edge: one evaluation, mid-cycle.
    assertThat(arrival.sent()).extracting(Sent::timePs).containsExactly(CYCLE_PS + CYCLE_PS / 2);
  }

  @Test
  void theTerminalInjectsOneFlitPerCycleWithinItsCredits() {
    FlitTerminal terminal = new FlitTerminal(0, 2, 0, spec, 1, (p, t, h) -> { });
    terminal.enqueue(new RoutedPacket(0, 0, 1, 3, 0, true, null));
    assertThat(terminal.needsEvaluation()).isTrue();
    List<Sent> sent = new ArrayList<>();
    for (long cycle = 0; cycle < 3; cycle++) {
      RecordingOutbox outbox = new RecordingOutbox(RouterTiming.evaluationPs(cycle, CYCLE_PS));
      terminal.evaluate(cycle, outbox);
      sent.addAll(outbox.sent());
    }
    // Two credits (buffer depth 2): flits 0 and 1 go in cycles 0 and 1, arriving a link latency (2) later.
    assertThat(sent).extracting(Sent::timePs).containsExactly(2 * CYCLE_PS, 3 * CYCLE_PS);
    assertThat(terminal.needsEvaluation()).isFalse();
    RecordingOutbox creditArrival = new RecordingOutbox(4 * CYCLE_PS);
    terminal.onCredit(new Credit(0, 0, false), creditArrival);
    assertThat(creditArrival.sent()).extracting(Sent::timePs).containsExactly(4 * CYCLE_PS + CYCLE_PS / 2);
    assertThat(terminal.flitsInjected()).isEqualTo(2);
  }

  @Test
  void theTerminalReturnsACreditPerEjectedFlitAndReportsTheTail() {
    List<String> ejected = new ArrayList<>();
    FlitTerminal terminal = new FlitTerminal(1, 3, 0, spec, 1, (p, t, h) -> ejected.add(p.packetId() + "@" + t
        + "/" + h));
    RoutedPacket packet = new RoutedPacket(7, 0, 1, 2, 0, true, null);
    RecordingOutbox first = new RecordingOutbox(5 * CYCLE_PS);
    terminal.onFlit(new Flit(packet, 0, 0, 1, 1), first);
    assertThat(first.sent()).containsExactly(new Sent(3, 8 * CYCLE_PS, new Credit(0, 1, false)));
    assertThatThrownBy(() -> terminal.onFlit(new Flit(packet, 0, 0, 1, 1), new RecordingOutbox(6 * CYCLE_PS)))
        .isInstanceOf(IllegalStateException.class).hasMessageContaining("out of order");
    RecordingOutbox second = new RecordingOutbox(6 * CYCLE_PS);
    terminal.onFlit(new Flit(packet, 1, 0, 1, 1), second);
    assertThat(second.sent()).containsExactly(new Sent(3, 9 * CYCLE_PS, new Credit(0, 1, true)));
    assertThat(ejected).containsExactly("7@" + 6 * CYCLE_PS + "/1");
  }
}
