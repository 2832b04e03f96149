package io.fabemu.switching.router;

import io.fabemu.core.protocol.DeviceProtocol.Credit;
import io.fabemu.core.protocol.DeviceProtocol.Flit;
import io.fabemu.core.protocol.DeviceProtocol.RoutedPacket;
import io.fabemu.core.protocol.DeviceProtocol.RouterCycle;
import io.fabemu.core.protocol.DeviceProtocol.StartWorkload;
import io.fabemu.core.protocol.RouterPayload;
import io.fabemu.core.protocol.WorkloadPayload;
import io.fabemu.core.router.FlitTerminal;
import io.fabemu.core.router.RouterSpec;
import io.fabemu.core.router.RouterTiming;
import io.fabemu.core.router.Switching;
import io.fabemu.core.routing.RouterRouting;
import io.fabemu.core.sim.DeviceCore;
import io.fabemu.core.sim.DeviceReport;
import io.fabemu.core.sim.Event;
import io.fabemu.core.sim.Outbox;
import io.fabemu.core.sim.WindowedEngine;
import io.fabemu.core.topology.Topology.Link;
import io.fabemu.core.topology.Topology.Tier;
import io.fabemu.core.topology.Topology;
import io.fabemu.core.topology.TopologyBuilder;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.IntBinaryOperator;

/**
 * A router network for tests: hosts {@code host0..} whose NICs are {@link FlitTerminal}s, routers {@code router0..}
 * ({@link RouterCore}s), numbered and cabled as the router-network builders do (hosts, then routers; each host cabled
 * to its router first), run on the plain {@link WindowedEngine} with {@link RouterTiming#lookaheadPs}. Packets are
 * injected at given times; every ejected flit and completed packet is recorded.
 */
final class RouterTestNetwork {
  static final long CYCLE_PS = 1_000L;

  /** A packet whose tail a NIC ejected. */
  record Completion(RoutedPacket packet, int host, long tailArrivalPs, int hops) {
    long latencyPs() {
      return tailArrivalPs - packet.createdPs();
    }
  }

  /** A flit a NIC ejected. */
  record Ejection(int host, Flit flit, long arrivalPs) {}

  /** The virtual-channel class of a packet leaving a router (see {@link RouterRouting#outputVcClass}). */
  @FunctionalInterface
  interface ClassRule {
    int outputVcClass(int router, int inputPort, int inputVcClass, int outputPort, int destinationHost);
  }

  final Topology topology;
  final RouterRouting routing;
  final RouterSpec spec;
  final List<RouterCore> routers = new ArrayList<>();
  final TestNic[] nics;
  final List<Completion> completions = new ArrayList<>();
  final List<Ejection> ejections = new ArrayList<>();
  private final int hosts;
  private final long[] nextPacketId;
  private long injectedFlits;
  private WindowedEngine engine;

  RouterTestNetwork(Topology topology, RouterRouting routing, RouterSpec spec, long stallLimitPs) {
    this.topology = topology;
    this.routing = routing;
    this.spec = spec;
    this.hosts = topology.hostCount();
    this.nics = new TestNic[hosts];
    this.nextPacketId = new long[hosts];
    for (int h = 0; h < hosts; h++) nics[h] = new TestNic(h);
    for (int h = 0; h < hosts; h++) {
      routers.add(new RouterCore(hosts + h, topology, routing, spec, stallLimitPs));
    }
  }

  /** Creates a packet of {@code flits} flits from {@code source} to {@code destination} at {@code createdPs}. */
  RoutedPacket send(int source, int destination, int flits, long createdPs) {
    RoutedPacket packet = new RoutedPacket(nextPacketId[source]++, source, destination, flits, createdPs, true, null);
    nics[source].pending.computeIfAbsent(createdPs, t -> new ArrayList<>()).add(packet);
    injectedFlits += flits;
    return packet;
  }

  long injectedFlits() {
    return injectedFlits;
  }

  /** Runs until nothing is pending. */
  WindowedEngine run() {
    DeviceCore[] devices = new DeviceCore[2 * hosts];
    for (int h = 0; h < hosts; h++) {
      devices[h] = nics[h];
      devices[hosts + h] = routers.get(h);
    }
    engine = new WindowedEngine(devices, RouterTiming.lookaheadPs(spec));
    long sequence = 0;
    for (TestNic nic : nics) {
      for (long createdPs : nic.pending.keySet()) {
        engine.inject(new Event(createdPs, Event.EXTERNAL_SOURCE, sequence++, nic.host, StartWorkload.INSTANCE));
      }
    }
    engine.run();
    return engine;
  }

  /** The engine of the last {@link #run()}, also when it threw. */
  WindowedEngine engine() {
    return engine;
  }

  Completion completionOf(RoutedPacket packet) {
    for (Completion c : completions) {
      if (c.packet().sourceHost() == packet.sourceHost() && c.packet().packetId() == packet.packetId()) return c;
    }
    throw new AssertionError("packet " + packet + " did not complete");
  }

  RouterCore router(int index) {
    return routers.get(index);
  }

  /** The port of vertex {@code from} whose link goes to {@code to}. */
  static int portTo(Topology topology, int from, int to) {
    for (Link link : topology.ports(from)) {
      if (link.to() == to) return link.fromPort();
    }
    throw new IllegalArgumentException("vertex " + from + " has no link to " + to);
  }

  /** A NIC made of a {@link FlitTerminal}: injects its packets at their creation times, records its ejections. */
  final class TestNic implements DeviceCore, WorkloadPayload.Handler<Outbox>, RouterPayload.Handler<Outbox> {
    final int host;
    final FlitTerminal terminal;
    final Map<Long, List<RoutedPacket>> pending = new TreeMap<>();

    TestNic(int host) {
      this.host = host;
      this.terminal = new FlitTerminal(host, hosts + host, RouterRouting.LOCAL_PORT, spec, routing.vcClasses(),
          (packet, tailArrivalPs, hops) -> completions.add(new Completion(packet, host, tailArrivalPs, hops)));
    }

    @Override
    public int deviceId() {
      return host;
    }

    @Override
    public void onEvent(Event event, Outbox outbox) {
      event.payload().handleWith(this, outbox);
    }

    @Override
    public String deviceName() {
      return "test NIC " + host;
    }

    @Override
    public void onStartWorkload(StartWorkload start, Outbox outbox) {
      for (RoutedPacket packet : pending.getOrDefault(outbox.nowPs(), List.of())) terminal.enqueue(packet);
      terminal.scheduleEvaluation(outbox);
    }

    @Override
    public void onFlit(Flit flit, Outbox outbox) {
      ejections.add(new Ejection(host, flit, outbox.nowPs()));
      terminal.onFlit(flit, outbox);
    }

    @Override
    public void onCredit(Credit credit, Outbox outbox) {
      terminal.onCredit(credit, outbox);
    }

    @Override
    public void onRouterCycle(RouterCycle cycle, Outbox outbox) {
      terminal.onRouterCycle(outbox);
    }

    @Override
    public DeviceReport report() {
      return new DeviceReport(host, List.of(), List.of());
    }
  }

  // ---------------------------------------------------------------- specs, topologies and routings

  /** A spec with the given stage cycles, 1,000 ps cycles and 4-byte flits. */
  static RouterSpec spec(int virtualChannels, int depth, int routingCycles, int vcAllocationCycles,
                         int switchAllocationCycles, int traversalCycles, int linkLatencyCycles,
                         int creditDelayCycles, Switching switching) {
    return new RouterSpec(CYCLE_PS, 4, virtualChannels, depth, routingCycles, vcAllocationCycles,
        switchAllocationCycles, traversalCycles, linkLatencyCycles, creditDelayCycles, switching);
  }

  /**
   * {@code n} hosts and their routers, each host cabled to its router first, then the routers cabled as
   * {@code routerLinks} lists (pairs of router indices, in order).
   */
  static Topology topology(int n, int[][] routerLinks, RouterSpec spec) {
    TopologyBuilder builder = new TopologyBuilder();
    for (int h = 0; h < n; h++) builder.addHost("host" + h);
    for (int r = 0; r < n; r++) builder.addSwitch("router" + r, Tier.NONE);
    for (int h = 0; h < n; h++) builder.connect(h, n + h, spec.channel());
    for (int[] pair : routerLinks) builder.connect(n + pair[0], n + pair[1], spec.channel());
    return builder.build(n + " test routers");
  }

  /** Routers {@code 0 - 1 - ... - n-1} in a line. */
  static Topology line(int n, RouterSpec spec) {
    int[][] links = new int[n - 1][];
    for (int i = 0; i + 1 < n; i++) links[i] = new int[] {i, i + 1};
    return topology(n, links, spec);
  }

  /** Routers {@code 0 - 1 - ... - n-1 - 0} in a ring. */
  static Topology ring(int n, RouterSpec spec) {
    int[][] links = new int[n][];
    for (int i = 0; i < n; i++) links[i] = new int[] {i, (i + 1) % n};
    return topology(n, links, spec);
  }

  /**
   * A routing from a next-router rule: {@code nextRouter(router, destination)} (router indices) names the neighbour a
   * packet for {@code destination} goes to.
   */
  static RouterRouting routing(Topology topology, int vcClasses, IntBinaryOperator nextRouter, ClassRule classes) {
    int n = topology.hostCount();
    int[][] ports = new int[n][n];
    for (int r = 0; r < n; r++) {
      for (int d = 0; d < n; d++) {
        ports[r][d] = r == d ? RouterRouting.LOCAL_PORT : portTo(topology, n + r, n + nextRouter.applyAsInt(r, d));
      }
    }
    return new RouterRouting() {
      @Override
      public int hostCount() {
        return n;
      }

      @Override
      public int outputPort(int router, int destinationHost) {
        return ports[router - n][destinationHost];
      }

      @Override
      public int vcClasses() {
        return vcClasses;
      }

      @Override
      public int outputVcClass(int router, int inputPort, int inputVcClass, int outputPort, int destinationHost) {
        return outputPort == LOCAL_PORT ? 0
            : classes.outputVcClass(router, inputPort, inputVcClass, outputPort, destinationHost);
      }
    };
  }

  /** Shortest paths between routers, ties broken by the lowest port; one virtual-channel class. */
  static RouterRouting shortestPaths(Topology topology) {
    int n = topology.hostCount();
    int[][] distance = new int[n][];
    for (int d = 0; d < n; d++) distance[d] = distancesTo(topology, d);
    IntBinaryOperator next = (r, d) -> {
      for (Link link : topology.ports(n + r)) {
        int to = link.to() - n;
        if (to >= 0 && distance[d][to] == distance[d][r] - 1) return to;
      }
      throw new IllegalStateException("router " + r + " has no way to " + d);
    };
    return routing(topology, 1, next, (r, in, c, out, d) -> 0);
  }

  /** Router-to-router hops from every router to router {@code d}. */
  static int[] distancesTo(Topology topology, int d) {
    int n = topology.hostCount();
    int[] distance = new int[n];
    Arrays.fill(distance, -1);
    distance[d] = 0;
    ArrayDeque<Integer> queue = new ArrayDeque<>(List.of(d));
    while (!queue.isEmpty()) {
      int r = queue.poll();
      for (Link link : topology.ports(n + r)) {
        int to = link.to() - n;
        if (to >= 0 && distance[to] < 0) {
          distance[to] = distance[r] + 1;
          queue.add(to);
        }
      }
    }
    return distance;
  }
}
