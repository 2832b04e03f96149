package io.fabemu.switching.router;

import static io.fabemu.switching.router.RouterTestNetwork.CYCLE_PS;
import static io.fabemu.switching.router.RouterTestNetwork.portTo;
import static io.fabemu.switching.router.RouterTestNetwork.routing;
import static io.fabemu.switching.router.RouterTestNetwork.spec;
import static io.fabemu.switching.router.RouterTestNetwork.topology;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabemu.core.protocol.DeviceProtocol.Flit;
import io.fabemu.core.protocol.DeviceProtocol.RoutedPacket;
import io.fabemu.core.router.RouterSpec;
import io.fabemu.core.router.RouterTiming;
import io.fabemu.core.router.Switching;
import io.fabemu.core.routing.RouterRouting;
import io.fabemu.core.topology.Topology;
import io.fabemu.switching.router.RouterTestNetwork.Completion;
import io.fabemu.switching.router.RouterTestNetwork.Ejection;
import io.fabemu.switching.router.RouterTestNetwork.TestNic;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * A 2x2 grid of routers (router {@code i} at {@code x = i % 2, y = i / 2}) under seeded random load, with
 * dimension-order (XY) routing: every flit arrives exactly once, in order, where it was sent, and the network ends
 * as it began (every credit back, every virtual channel free). Runs are deterministic.
 */
class RouterLoadTest {
  private static final int HOSTS = 4;
  private static final int PACKETS = 400;

  private static Topology grid(RouterSpec spec) {
    return topology(HOSTS, new int[][] {{0, 1}, {2, 3}, {0, 2}, {1, 3}}, spec);
  }

  /** XY routing; with two classes a packet takes class 1 on the vertical channels (any class is deadlock-free). */
  private static RouterRouting xy(Topology topology, int vcClasses) {
    return routing(topology, vcClasses, (r, d) -> (r % 2) != (d % 2) ? r ^ 1 : r ^ 2,
        (router, in, inClass, out, d) -> vcClasses == 1 ? 0
            : topology.neighbour(router, out) == ((router - HOSTS) ^ 2) + HOSTS ? 1 : 0);
  }

  private static int manhattan(int a, int b) {
    return Math.abs(a % 2 - b % 2) + Math.abs(a / 2 - b / 2);
  }

  /** Seeded traffic: random source and destination (itself included), 1..4 flits, created over 300 cycles. */
  private static RouterTestNetwork loaded(RouterSpec spec, int vcClasses, long seed) {
    Topology topology = grid(spec);
    RouterTestNetwork network = new RouterTestNetwork(topology, xy(topology, vcClasses), spec, 100_000 * CYCLE_PS);
    SplittableRandom random = new SplittableRandom(seed);
    for (int i = 0; i < PACKETS; i++) {
      network.send(random.nextInt(HOSTS), random.nextInt(HOSTS), 1 + random.nextInt(4),
          random.nextLong(300 * CYCLE_PS));
    }
    return network;
  }

  @Test
  void everyFlitArrivesOnceInOrderAtItsDestinationAndAllCreditsReturn() {
    for (Switching switching : Switching.values()) {
      for (int vcClasses : new int[] {1, 2}) {
        RouterSpec s = spec(4, 4, 1, 1, 1, 1, 1, 1, switching);
        RouterTestNetwork network = loaded(s, vcClasses, 17);
        network.run();
        String label = switching.configName() + ", " + vcClasses + " classes";
        assertConserved(network, label);
      }
    }
  }

  private static void assertConserved(RouterTestNetwork network, String label) {
    assertThat(network.completions).as(label).hasSize(PACKETS);
    // Flits per packet, in arrival order: each packet's flits 0..F-1 exactly once, in order, at its destination.
    Map<String, List<Integer>> flitsOf = new HashMap<>();
    long flitHops = 0;
    for (Ejection e : network.ejections) {
      Flit flit = e.flit();
      assertThat(e.host()).as(label).isEqualTo(flit.packet().destinationHost());
      flitsOf.computeIfAbsent(flit.packet().sourceHost() + "/" + flit.packet().packetId(), k -> new ArrayList<>())
          .add(flit.flitIndex());
    }
    for (Completion c : network.completions) {
      RoutedPacket p = c.packet();
      List<Integer> expected = new ArrayList<>();
      for (int i = 0; i < p.flitCount(); i++) expected.add(i);
      assertThat(flitsOf.get(p.sourceHost() + "/" + p.packetId())).as(label).isEqualTo(expected);
      assertThat(c.host()).isEqualTo(p.destinationHost());
      assertThat(c.hops()).as(label).isEqualTo(manhattan(p.sourceHost(), p.destinationHost()));
      flitHops += (long) p.flitCount() * (c.hops() + 1);
    }
    assertThat(flitsOf).hasSize(PACKETS);
    assertThat(network.ejections).hasSize((int) network.injectedFlits());
    long injected = 0;
    long ejected = 0;
    for (TestNic nic : network.nics) {
      injected += nic.terminal.flitsInjected();
      ejected += nic.terminal.flitsEjected();
      assertThat(nic.terminal.isIdle()).isTrue();
      for (int vc = 0; vc < network.spec.virtualChannels(); vc++) {
        assertThat(nic.terminal.credits(vc)).as(label).isEqualTo(network.spec.bufferDepthFlits());
      }
    }
    assertThat(injected).isEqualTo(network.injectedFlits());
    assertThat(ejected).isEqualTo(network.injectedFlits());
    // Every flit crossed hops + 1 routers; every credit came back and every output virtual channel is free.
    long sent = 0;
    for (RouterCore router : network.routers) {
      assertThat(router.heldFlits()).isZero();
      for (int port = 0; port < router.portCount(); port++) {
        sent += router.flitsSent(port);
        for (int vc = 0; vc < network.spec.virtualChannels(); vc++) {
          assertThat(router.credits(port, vc)).as(label).isEqualTo(network.spec.bufferDepthFlits());
          assertThat(router.isOutputVcFree(port, vc)).isTrue();
        }
      }
    }
    assertThat(sent).as(label).isEqualTo(flitHops);
  }

  @Test
  void theLoadIsRealAndPacketsQueue() {
    RouterSpec s = spec(4, 4, 1, 1, 1, 1, 1, 1, Switching.WORMHOLE);
    RouterTestNetwork network = loaded(s, 1, 17);
    network.run();
    // Zero-load tail latency of each packet is 2L + (H+1)*Rc + H*L + F - 1 cycles plus the wait for the first
    // evaluation; under this load some packets take far longer, and none less.
    long slower = 0;
    for (Completion c : network.completions) {
      RoutedPacket p = c.packet();
      int hops = c.hops();
      long firstCycle = RouterTiming.firstEvaluationAtOrAfter(p.createdPs(), CYCLE_PS);
      long zeroLoad = (firstCycle + 2 + (hops + 1) * 4L + hops + p.flitCount() - 1) * CYCLE_PS;
      assertThat(c.tailArrivalPs()).isGreaterThanOrEqualTo(zeroLoad);
      if (c.tailArrivalPs() > zeroLoad + 10 * CYCLE_PS) slower++;
    }
    assertThat(slower).isGreaterThan(PACKETS / 10);
    // Packets overlapped on a channel: router 1's input from router 0 held packets on several virtual channels.
    int fromRouter0 = portTo(network.topology, 5, 4);
    int vcsUsed = 0;
    for (int vc = 0; vc < s.virtualChannels(); vc++) {
      if (network.router(1).busyCycles(fromRouter0, vc) > 0) vcsUsed++;
    }
    assertThat(vcsUsed).isGreaterThan(1);
  }

  @Test
  void runsAreDeterministic() {
    for (Switching switching : Switching.values()) {
      RouterSpec s = spec(4, 4, 1, 0, 1, 0, 2, 1, switching);
      RouterTestNetwork first = loaded(s, 2, 99);
      RouterTestNetwork second = loaded(s, 2, 99);
      first.run();
      second.run();
      assertThat(second.completions).isEqualTo(first.completions);
      assertThat(second.ejections).isEqualTo(first.ejections);
    }
  }
}
