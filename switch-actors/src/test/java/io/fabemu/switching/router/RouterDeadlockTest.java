package io.fabemu.switching.router;

import static io.fabemu.switching.router.RouterTestNetwork.CYCLE_PS;
import static io.fabemu.switching.router.RouterTestNetwork.ring;
import static io.fabemu.switching.router.RouterTestNetwork.routing;
import static io.fabemu.switching.router.RouterTestNetwork.spec;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.fabemu.core.protocol.DeviceProtocol.Credit;
import io.fabemu.core.protocol.Payload;
import io.fabemu.core.router.RouterSpec;
import io.fabemu.core.router.Switching;
import io.fabemu.core.routing.RouterRouting;
import io.fabemu.core.sim.Outbox;
import io.fabemu.core.topology.Topology;
import io.fabemu.switching.router.ChannelWait.Kind;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A ring of 4 routers where every packet goes clockwise, 2 hops: host {@code i} sends a long packet to host
 * {@code i + 2}. Each local packet takes its router's clockwise channel first (it arrives before any transit packet)
 * and, with one virtual channel and 2-flit buffers, stops at the next router with its tail still behind it, waiting
 * for the clockwise channel the next local packet holds: a cycle of 4 channels, which the run ends in and
 * {@link RouterDeadlocks} names (the stall watchdog names the waits of a router woken while stuck); a
 * dateline (class 1 from the wrap-around channel on) breaks it.
 */
class RouterDeadlockTest {
  private static final int ROUTERS = 4;
  private static final long STALL_LIMIT_PS = 1_000 * CYCLE_PS;

  /** Clockwise routing; with a dateline, class 1 on and after the channel from router 3 to router 0. */
  private static RouterRouting clockwise(Topology topology, boolean dateline) {
    return routing(topology, dateline ? 2 : 1, (r, d) -> (r + 1) % ROUTERS,
        (router, in, inClass, out, d) -> !dateline ? 0
            : inClass == 1 || router == ROUTERS + ROUTERS - 1 ? 1 : 0);
  }

  /** Clockwise routing with two classes that never leaves class 0: the dateline's classes without the dateline. */
  private static RouterRouting clockwiseWithoutDateline(Topology topology) {
    return routing(topology, 2, (r, d) -> (r + 1) % ROUTERS, (router, in, inClass, out, d) -> 0);
  }

  private static RouterTestNetwork everyHostSendsTwoAhead(RouterSpec spec, boolean dateline, int flits) {
    Topology topology = ring(ROUTERS, spec);
    RouterTestNetwork network = new RouterTestNetwork(topology, clockwise(topology, dateline), spec, STALL_LIMIT_PS);
    for (int h = 0; h < ROUTERS; h++) network.send(h, (h + 2) % ROUTERS, flits, 0);
    return network;
  }

  @Test
  void aSingleClassRingDeadlocksAndTheRunEndsWithTheCycleOfChannelsHeld() {
    RouterSpec s = spec(1, 2, 1, 1, 1, 1, 1, 1, Switching.WORMHOLE);
    RouterTestNetwork network = everyHostSendsTwoAhead(s, false, 8);
    // Blocked routers and NICs schedule nothing: the run simply runs out of events, with the packets stuck.
    network.run();
    assertThat(network.completions).isEmpty();
    assertThat(network.engine().eventsHandled()).isLessThan(STALL_LIMIT_PS / CYCLE_PS);
    for (RouterCore router : network.routers) assertThat(router.heldFlits()).isPositive();

    List<String> cycle = RouterDeadlocks.findCycle(network.topology, network.routers);
    assertThat(cycle).hasSize(4).containsExactlyInAnyOrder("router0->router1 vc 0", "router1->router2 vc 0",
        "router2->router3 vc 0", "router3->router0 vc 0");
    // In the order the packets wait: each channel's successor is the next clockwise.
    for (int i = 0; i < cycle.size(); i++) {
      String to = cycle.get(i).split("->")[1].split(" ")[0];
      String nextFrom = cycle.get((i + 1) % cycle.size()).split("->")[0];
      assertThat(nextFrom).isEqualTo(to);
    }
  }

  @Test
  void theWatchdogThrowsOnTheNextEventOfARouterStuckLongerThanTheStallLimit() {
    RouterSpec s = spec(1, 2, 1, 1, 1, 1, 1, 1, Switching.WORMHOLE);
    RouterTestNetwork network = everyHostSendsTwoAhead(s, false, 8);
    network.run();
    RouterCore router = network.routers.get(0);
    // Something wakes router 0 long after its last move: a credit for the clockwise channel it is missing some of.
    int clockwisePort = -1;
    for (int port = 0; port < router.portCount(); port++) {
      if (router.credits(port, 0) < 2) clockwisePort = port;
    }
    assertThat(clockwisePort).isPositive();
    long late = 5 * STALL_LIMIT_PS;
    Outbox outbox = new Outbox() {
      @Override
      public long nowPs() {
        return late;
      }

      @Override
      public void send(int targetDevice, long timePs, Payload payload) {}
    };
    Credit credit = new Credit(clockwisePort, 0, false);
    RouterDeadlockException deadlock = catchThrowableOfType(() -> router.onCredit(credit, outbox),
        RouterDeadlockException.class);
    assertThat(deadlock).isNotNull();
    assertThat(deadlock.getMessage()).doesNotContain("\n").contains("no flit moved for")
        .contains("waits for a free vc 0 on port").contains("held by input 0 vc 0")
        .startsWith("router router0 (vertex " + ROUTERS + ")");
    // Its router holds a transit packet (blocked on the clockwise channel) and its own host's (waiting downstream).
    List<Kind> kinds = new ArrayList<>();
    for (ChannelWait wait : deadlock.waits()) kinds.add(wait.kind());
    assertThat(kinds).contains(Kind.FREE_OUTPUT_VC).allMatch(Kind::blocked);
  }

  @Test
  void virtualCutThroughDeadlocksTooWhenEveryPacketWaitsWholeForTheNextOnesChannel() {
    // 2-flit packets in 2-flit buffers: each local packet moves whole into the next router and waits there for the
    // clockwise channel the next local packet holds (free only when that one's tail leaves the router after).
    RouterSpec s = spec(1, 2, 1, 1, 1, 1, 1, 1, Switching.VIRTUAL_CUT_THROUGH);
    RouterTestNetwork network = everyHostSendsTwoAhead(s, false, 2);
    network.run();
    assertThat(network.completions).isEmpty();
    assertThat(RouterDeadlocks.findCycle(network.topology, network.routers)).containsExactlyInAnyOrder(
        "router0->router1 vc 0", "router1->router2 vc 0", "router2->router3 vc 0", "router3->router0 vc 0");
  }

  @Test
  void aDatelineBreaksTheCycleAndEveryPacketArrives() {
    RouterSpec s = spec(2, 2, 1, 1, 1, 1, 1, 1, Switching.WORMHOLE);
    RouterTestNetwork network = everyHostSendsTwoAhead(s, true, 8);
    network.run();
    assertThat(network.completions).hasSize(ROUTERS);
    assertThat(RouterDeadlocks.findCycle(network.topology, network.routers)).isEmpty();
    for (RouterCore router : network.routers) assertThat(router.heldFlits()).isZero();
  }

  @Test
  void itIsTheDatelineThatBreaksTheCycleNotTheSecondVirtualChannel() {
    // Same spec (2 virtual channels in 2 classes) and traffic, but every packet stays in class 0: deadlock.
    RouterSpec s = spec(2, 2, 1, 1, 1, 1, 1, 1, Switching.WORMHOLE);
    Topology topology = ring(ROUTERS, s);
    RouterTestNetwork network = new RouterTestNetwork(topology, clockwiseWithoutDateline(topology), s,
        STALL_LIMIT_PS);
    for (int h = 0; h < ROUTERS; h++) network.send(h, (h + 2) % ROUTERS, 8, 0);
    network.run();
    assertThat(network.completions).isEmpty();
    assertThat(RouterDeadlocks.findCycle(network.topology, network.routers)).hasSize(4);
  }
}
