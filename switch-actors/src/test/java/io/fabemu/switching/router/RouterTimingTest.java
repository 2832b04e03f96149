package io.fabemu.switching.router;

import static io.fabemu.switching.router.RouterTestNetwork.CYCLE_PS;
import static io.fabemu.switching.router.RouterTestNetwork.line;
import static io.fabemu.switching.router.RouterTestNetwork.portTo;
import static io.fabemu.switching.router.RouterTestNetwork.shortestPaths;
import static io.fabemu.switching.router.RouterTestNetwork.spec;
import static io.fabemu.switching.router.RouterTestNetwork.topology;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabemu.core.protocol.DeviceProtocol.RoutedPacket;
import io.fabemu.core.router.RouterSpec;
import io.fabemu.core.router.RouterTiming;
import io.fabemu.core.router.Switching;
import io.fabemu.core.sim.DeviceReport.LinkCounters;
import io.fabemu.core.topology.Topology;
import io.fabemu.switching.router.RouterTestNetwork.Completion;
import io.fabemu.switching.router.RouterTestNetwork.Ejection;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Exact cycle timing of the router and the NIC terminal: zero-load latency, store-and-forward, wormhole against
 * virtual cut-through under contention, and round-robin fairness.
 *
 * <p><b>Zero-load latency.</b> A packet of {@code F} flits created at {@code t} is injected by its terminal's first
 * evaluation at or after {@code t}, in cycle {@code c0 = RouterTiming.firstEvaluationAtOrAfter(t)}; its head arrives
 * at the first router at edge {@code c0 + L} (injection link); each of the {@code H + 1} routers on the way holds the
 * head {@code routerCycles} ({@code Rc}) and each of the {@code H} router-to-router links and the ejection link
 * take {@code L}; the body follows one flit per cycle, so the tail arrives {@code F - 1} cycles after the head:
 * <pre>
 *   tail arrival = (c0 + L + (H + 1) * Rc + H * L + L + (F - 1)) * cyclePs
 *   latency      = tail arrival - t
 * </pre>
 * exact as long as credits never run out: {@code bufferDepthFlits >= F}, or {@code >= Rc + L + creditDelay} (the
 * credit loop of a head: its credit comes back {@code Rc + L + creditDelay} cycles after the upstream sent it).
 */
class RouterTimingTest {
  /** Stage cycles: routing, VC allocation, switch allocation, traversal, link latency, credit delay. */
  private static final int[][] STAGES = {
      {1, 1, 1, 1, 1, 1}, {0, 0, 0, 0, 1, 1}, {2, 1, 0, 3, 2, 4}, {0, 2, 1, 0, 3, 1}};
  /** Creation times: on an edge, mid-cycle (injected the same cycle), just after mid-cycle (the next), early. */
  private static final long[] CREATED_PS = {0, 7 * CYCLE_PS + CYCLE_PS / 2, 7 * CYCLE_PS + CYCLE_PS / 2 + 1,
      5 * CYCLE_PS + 3};

  private static RouterSpec specOf(int[] s, int vcs, int depth, Switching switching) {
    return RouterTestNetwork.spec(vcs, depth, s[0], s[1], s[2], s[3], s[4], s[5], switching);
  }

  /** One packet from host 0 over routers 0..hops to host {@code hops}, alone in the network. */
  private static Completion alone(RouterSpec spec, int hops, int flits, long createdPs) {
    Topology topology = line(hops + 1, spec);
    RouterTestNetwork network = new RouterTestNetwork(topology, shortestPaths(topology), spec, Long.MAX_VALUE);
    network.send(0, hops, flits, createdPs);
    network.run();
    assertThat(network.completions).hasSize(1);
    Completion completion = network.completions.get(0);
    assertThat(completion.host()).isEqualTo(hops);
    assertThat(completion.hops()).isEqualTo(hops);
    return completion;
  }

  private static long zeroLoadTailCycle(RouterSpec s, int hops, int flits, long createdPs) {
    long c0 = RouterTiming.firstEvaluationAtOrAfter(createdPs, s.cyclePs());
    return c0 + s.linkLatencyCycles() + (hops + 1L) * s.routerCycles() + (long) hops * s.linkLatencyCycles()
        + s.linkLatencyCycles() + flits - 1;
  }

  @Test
  void zeroLoadLatencyIsExactForWormholeAndVirtualCutThrough() {
    int cases = 0;
    for (Switching switching : List.of(Switching.WORMHOLE, Switching.VIRTUAL_CUT_THROUGH)) {
      for (int[] stages : STAGES) {
        for (int hops : new int[] {0, 1, 3}) {
          for (int flits : new int[] {1, 5, 8}) {
            for (long createdPs : CREATED_PS) {
              RouterSpec s = specOf(stages, 2, 8, switching);
              Completion completion = alone(s, hops, flits, createdPs);
              assertThat(completion.tailArrivalPs())
                  .as("%s stages %s, %d hops, %d flits, created at %d ps", switching, List.of(stages), hops, flits,
                      createdPs)
                  .isEqualTo(zeroLoadTailCycle(s, hops, flits, createdPs) * CYCLE_PS);
              cases++;
            }
          }
        }
      }
    }
    assertThat(cases).isEqualTo(2 * 4 * 3 * 3 * 4);
  }

  @Test
  void wormholeZeroLoadLatencyHoldsWithBuffersShorterThanThePacketWhenTheCreditLoopFits() {
    for (int[] stages : STAGES) {
      RouterSpec probe = specOf(stages, 1, 1, Switching.WORMHOLE);
      int depth = probe.routerCycles() + probe.linkLatencyCycles() + probe.creditDelayCycles();
      RouterSpec s = specOf(stages, 1, depth, Switching.WORMHOLE);
      int flits = depth + 5;
      Completion completion = alone(s, 2, flits, 0);
      assertThat(completion.tailArrivalPs()).as("stages %s", List.of(stages))
          .isEqualTo(zeroLoadTailCycle(s, 2, flits, 0) * CYCLE_PS);
    }
  }

  @Test
  void aBufferTooShortForTheCreditLoopSlowsTheStreamDown() {
    // Stages 1,1,1,1, link 1, credit 1: the loop is Rc + L + credit = 6 cycles; a 2-flit buffer lets 2 flits go per
    // 6 cycles, so a 10-flit packet's tail is late (the formula would hold with 6-flit buffers).
    RouterSpec s = specOf(STAGES[0], 1, 2, Switching.WORMHOLE);
    Completion completion = alone(s, 1, 10, 0);
    assertThat(completion.tailArrivalPs()).isGreaterThan(zeroLoadTailCycle(s, 1, 10, 0) * CYCLE_PS);
  }

  /**
   * Store-and-forward: at every router the head waits until its tail has arrived ({@code F - 1} cycles after the
   * head) or until route computation and VC allocation are done, whichever is later, then switch allocation,
   * traversal and the link. So the head moves from one router's input to the next's in {@code max(R + VA, F - 1) +
   * SA + T + L} cycles and the tail arrives at the NIC at {@code c0 + L + (H + 1) * (max(R + VA, F - 1) + SA + T + L)
   * + F - 1}: every hop pays the packet's full serialization.
   */
  @Test
  void storeAndForwardPaysThePacketsSerializationAtEveryRouter() {
    for (int[] stages : STAGES) {
      for (int hops : new int[] {0, 1, 3}) {
        for (int flits : new int[] {1, 2, 6}) {
          RouterSpec s = specOf(stages, 2, 6, Switching.STORE_AND_FORWARD);
          int perHop = Math.max(s.routingCycles() + s.vcAllocationCycles(), flits - 1) + s.switchAllocationCycles()
              + s.traversalCycles() + s.linkLatencyCycles();
          long expectedCycle = s.linkLatencyCycles() + (hops + 1L) * perHop + flits - 1;
          Completion completion = alone(s, hops, flits, 0);
          assertThat(completion.tailArrivalPs()).as("stages %s, %d hops, %d flits", List.of(stages), hops, flits)
              .isEqualTo(expectedCycle * CYCLE_PS);
        }
      }
    }
  }

  @Test
  void virtualCutThroughAndStoreAndForwardRejectAPacketLongerThanABuffer() {
    for (Switching switching : List.of(Switching.VIRTUAL_CUT_THROUGH, Switching.STORE_AND_FORWARD)) {
      RouterSpec s = specOf(STAGES[1], 1, 2, switching);
      Topology topology = line(2, s);
      RouterTestNetwork network = new RouterTestNetwork(topology, shortestPaths(topology), s, Long.MAX_VALUE);
      network.send(0, 1, 4, 0);
      assertThatThrownBy(network::run).isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("4 flits").hasMessageContaining("2 flits").hasMessageContaining("buffer-depth");
    }
  }

  /**
   * Routers 3 - 0 - 1 - 2 (router links 0-1, 1-2, 0-3), one virtual channel, stages R = VA = SA = T = 0, link 1
   * and credit 1 cycle, so a head crosses a hop per cycle and a 2-flit buffer streams at full rate. An output channel
   * is free for the next packet once the previous tail has left (in the next cycle's VC allocation). At time 0:
   * A (host 1 to host 2, 4 flits), B (host 0 to host 2, 4 flits), then C (host 0 to host 3, 4 flits, queued
   * behind B at host 0). Cycle by cycle (a flit "at X c" arrives at X's edge c; routers send it the same cycle):
   * <ul>
   *   <li>A: host 1 sends A0..A3 in cycles 0..3; they reach router 1 at 1..4 and take its only vc to router 2 at
   *   cycle 1; they reach router 2 at 2..5 and host 2 at 3..6: A's tail arrives at 6 (the zero-load formula,
   *   3L + F - 1). Router 1 sends A3 at 4, so its vc to router 2 is free from cycle 5; router 2's credits for A come
   *   back at 3..6.</li>
   *   <li>B, wormhole (2-flit buffers): host 0 sends B0, B1 at 0, 1; router 0 passes them on at 1, 2 (credits back
   *   at host 0 at 2, 3), so host 0 sends B2, B3 at 2, 3. B0, B1 fill router 1's buffer from router 0 (at 2, 3) and
   *   wait for the vc held by A; router 0 has no credit left, so B2, B3 sit in router 0's buffer from host 0 (at 3,
   *   4): B is spread over two routers. Router 1 takes the vc at 5 (with 1 credit back) and sends B0, B1 at 5, 6;
   *   their credits let router 0 send B2, B3 at 6, 7, which router 1 sends at 7, 8; router 2 ejects each a cycle
   *   on: B's tail reaches host 2 at 10. Host 0's vc is free once B3 left it (cycle 3), but its credits come back
   *   only as router 0 sends B2, B3 (at 6, 7): C0, C1 go at 7, 8 and C2, C3 at 9, 10 (router 0 sends C on towards
   *   router 3 as it comes), reaching host 3 three cycles later: C's tail arrives at 13. Router 0's input from host
   *   0 held B for cycles 1..7 and C for 8..11 (11 cycles); router 1's input from router 0 held B for 2..8 (7).</li>
   *   <li>B, virtual cut-through (4-flit buffers): host 0 sends B0..B3 at 0..3; router 0 has room for the whole
   *   packet at router 1 and sends them at 1..4, so the whole of B waits in router 1 (arriving 2..5). Router 1 may
   *   take the vc to router 2 only with credits for all 4 flits, which are back at 6: it sends B at 6..9, and B's
   *   tail is at host 2 at 11, a cycle later than under wormhole. But host 0 needs 4 credits for C, back at 5
   *   (router 0 sent B3 at 4): C goes at 5..8 and reaches host 3 at 8..11: C's tail arrives at 11, 2 cycles earlier
   *   than under wormhole. Router 0's input from host 0 held B for 1..4 and C for 6..9 (8 cycles); router 1's input
   *   from router 0 held B for 2..9 (8).</li>
   * </ul>
   */
  @Test
  void wormholeSpreadsABlockedPacketOverTwoRoutersWhereVirtualCutThroughGathersItInOne() {
    contend(Switching.WORMHOLE, 2, new int[] {6, 10, 13}, new int[] {11, 7});
    contend(Switching.VIRTUAL_CUT_THROUGH, 4, new int[] {6, 11, 11}, new int[] {8, 8});
  }

  private static void contend(Switching switching, int depth, int[] expectedTailCycles, int[] expectedBusyCycles) {
    RouterSpec s = spec(1, depth, 0, 0, 0, 0, 1, 1, switching);
    Topology topology = topology(4, new int[][] {{0, 1}, {1, 2}, {0, 3}}, s);
    RouterTestNetwork network = new RouterTestNetwork(topology, shortestPaths(topology), s, Long.MAX_VALUE);
    RoutedPacket a = network.send(1, 2, 4, 0);
    RoutedPacket b = network.send(0, 2, 4, 0);
    RoutedPacket c = network.send(0, 3, 4, 0);
    network.run();
    List<Long> tails = new ArrayList<>();
    for (RoutedPacket p : List.of(a, b, c)) tails.add(network.completionOf(p).tailArrivalPs() / CYCLE_PS);
    assertThat(tails).as(switching.configName()).containsExactly((long) expectedTailCycles[0],
        (long) expectedTailCycles[1], (long) expectedTailCycles[2]);
    int fromRouter0AtRouter1 = portTo(topology, 5, 4);
    assertThat(network.router(0).busyCycles(0, 0)).as("router 0, input from host 0").isEqualTo(expectedBusyCycles[0]);
    assertThat(network.router(1).busyCycles(fromRouter0AtRouter1, 0)).as("router 1, input from router 0")
        .isEqualTo(expectedBusyCycles[1]);
  }

  /**
   * Router 1 gets A from host 1 and B from router 0, both for host 2, with 2 virtual channels (so both get one on
   * the channel to router 2) and no pipeline stages: both heads arrive at router 1 at cycle 2 (B left host 0 a cycle
   * earlier). A takes vc 0 and crosses at 2; B takes vc 1 at 3; from then on the output port's round-robin arbiter
   * alternates: B, A, B, ..., so host 2 receives A0, B0, A1, B1, ... in consecutive cycles 4..19.
   */
  @Test
  void twoInputsSharingAnOutputGetAlternateFlitsRoundRobin() {
    RouterSpec s = spec(2, 8, 0, 0, 0, 0, 1, 1, Switching.WORMHOLE);
    Topology topology = line(3, s);
    RouterTestNetwork network = new RouterTestNetwork(topology, shortestPaths(topology), s, Long.MAX_VALUE);
    network.send(0, 2, 8, 0);
    network.send(1, 2, 8, CYCLE_PS);
    network.run();
    List<String> order = new ArrayList<>();
    List<Long> cycles = new ArrayList<>();
    for (Ejection e : network.ejections) {
      order.add((e.flit().packet().sourceHost() == 1 ? "A" : "B") + e.flit().flitIndex());
      cycles.add(e.arrivalPs() / CYCLE_PS);
    }
    List<String> alternating = new ArrayList<>();
    List<Long> consecutive = new ArrayList<>();
    for (int i = 0; i < 8; i++) {
      alternating.add("A" + i);
      alternating.add("B" + i);
      consecutive.add(4L + 2 * i);
      consecutive.add(5L + 2 * i);
    }
    assertThat(order).isEqualTo(alternating);
    assertThat(cycles).isEqualTo(consecutive);
  }

  /**
   * With one virtual channel, router 1's channel to router 2 is granted a packet at a time; hosts 0 and 1 each send
   * four 2-flit packets to host 2 at time 0. Each time the channel frees, the other input's head is waiting with the
   * next head of the input just served, and the round-robin arbiter serves the other input: the packets complete
   * alternately (a fixed-priority arbiter would serve host 1's four first).
   */
  @Test
  void twoInputsSharingAVirtualChannelGetAlternatePackets() {
    RouterSpec s = spec(1, 4, 0, 0, 0, 0, 1, 1, Switching.WORMHOLE);
    Topology topology = line(3, s);
    RouterTestNetwork network = new RouterTestNetwork(topology, shortestPaths(topology), s, Long.MAX_VALUE);
    for (int i = 0; i < 4; i++) {
      network.send(0, 2, 2, 0);
      network.send(1, 2, 2, 0);
    }
    network.run();
    List<Integer> sources = new ArrayList<>();
    for (Completion c : network.completions) sources.add(c.packet().sourceHost());
    assertThat(sources).containsExactly(1, 0, 1, 0, 1, 0, 1, 0);
  }

  @Test
  void theReportCountsFlitsAndPacketsPerOutputPort() {
    RouterSpec s = specOf(STAGES[0], 1, 8, Switching.WORMHOLE);
    Topology topology = line(2, s);
    RouterTestNetwork network = new RouterTestNetwork(topology, shortestPaths(topology), s, Long.MAX_VALUE);
    network.send(0, 1, 5, 0);
    network.send(0, 1, 3, 0);
    network.run();
    List<LinkCounters> links = network.router(0).report().links();
    int toRouter1 = portTo(topology, 2, 3);
    assertCounts(links.get(toRouter1), 2, 3, 8 * 4, 2, 8 * CYCLE_PS);
    assertThat(links.get(0)).isEqualTo(new LinkCounters(2, 0, 0, 0, 0));
    LinkCounters toNic1 = network.router(1).report().links().get(0);
    assertCounts(toNic1, 3, 1, 8 * 4, 2, 8 * CYCLE_PS);
    // the cycles the flits left in: a period per run of back-to-back flits, each a whole number of cycles
    assertThat(toNic1.busy().timed()).isTrue();
    for (int i = 0; i < toNic1.busy().periods(); i++) {
      assertThat(toNic1.busy().startsPs()[i] % CYCLE_PS).isZero();
      assertThat(toNic1.busy().busyPs()[i] % CYCLE_PS).isZero();
    }
  }

  private static void assertCounts(LinkCounters l, int from, int to, long bytes, long packets, long busyPs) {
    assertThat(List.of(l.fromDevice(), l.toDevice(), l.bytes(), l.packets(), l.busyPs()))
        .containsExactly(from, to, bytes, packets, busyPs);
  }
}
