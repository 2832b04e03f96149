package io.fabemu.core.routing;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabemu.core.topology.FullMeshSpec;
import io.fabemu.core.topology.LeafSpineSpec;
import io.fabemu.core.topology.LineSpec;
import io.fabemu.core.topology.LinkSpec;
import io.fabemu.core.topology.RingSpec;
import io.fabemu.core.topology.Topologies;
import io.fabemu.core.topology.Topology.Link;
import io.fabemu.core.topology.Topology.Tier;
import io.fabemu.core.topology.Topology;
import io.fabemu.core.topology.TopologySpec;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

class RoutingTablePropertyTest {

  private static final LinkSpec LINK = new LinkSpec(100_000_000_000L, 500_000);

  /** A topology shape; shrinks and prints better than a built {@link Topology}. */
  record Shape(String kind, int hosts, int hostsPerTor, int spines) {
    Topology build() {
      return switch (kind) {
        case "leaf-spine" -> Topologies.leafSpine(hosts, hostsPerTor, spines, LINK, LINK);
        case "line" -> Topologies.line(hosts, LINK);
        case "ring" -> Topologies.ring(hosts, LINK);
        case "full-mesh" -> Topologies.fullMesh(hosts, LINK);
        default -> throw new IllegalArgumentException(kind);
      };
    }

    /** The kind's record, whose {@link TopologySpec#routing} computes routes from the numbering. */
    TopologySpec spec() {
      return switch (kind) {
        case "leaf-spine" -> new LeafSpineSpec(hosts, hostsPerTor, spines, LINK, LINK);
        case "line" -> new LineSpec(hosts, LINK);
        case "ring" -> new RingSpec(hosts, LINK);
        case "full-mesh" -> new FullMeshSpec(hosts, LINK);
        default -> throw new IllegalArgumentException(kind);
      };
    }
  }

  /** A shape with one flow in it. */
  record Case(Shape shape, int source, int destination) {}

  @Provide
  Arbitrary<Shape> shapes() {
    Arbitrary<Shape> leafSpine = Combinators.combine(
            Arbitraries.integers().between(1, 40), Arbitraries.integers().between(1, 8),
            Arbitraries.integers().between(0, 4))
        // Zero spines only for a single TOR, the one case the builder accepts.
        .as((hosts, perTor, spines) -> new Shape("leaf-spine", hosts, perTor, hosts <= perTor ? spines
            : Math.max(1, spines)));
    return Arbitraries.oneOf(leafSpine,
        Arbitraries.integers().between(1, 30).map(h -> new Shape("line", h, 0, 0)),
        Arbitraries.integers().between(1, 30).map(h -> new Shape("ring", h, 0, 0)),
        Arbitraries.integers().between(1, 12).map(h -> new Shape("full-mesh", h, 0, 0)));
  }

  @Provide
  Arbitrary<Case> cases() {
    return shapes().flatMap(this::flowsIn);
  }

  @Provide
  Arbitrary<Case> leafSpineCases() {
    return Combinators.combine(Arbitraries.integers().between(2, 40), Arbitraries.integers().between(1, 8),
            Arbitraries.integers().between(1, 4))
        .as((hosts, perTor, spines) -> new Shape("leaf-spine", hosts, perTor, spines))
        .flatMap(this::flowsIn);
  }

  private Arbitrary<Case> flowsIn(Shape shape) {
    Arbitrary<Integer> host = Arbitraries.integers().between(0, shape.hosts() - 1);
    return Combinators.combine(host, host).as((s, d) -> new Case(shape, s, d));
  }

  /** Hop counts from every vertex to {@code destination}: a BFS over reversed links, independent of RoutingTable. */
  private static int[] bfsDistances(Topology t, int destination) {
    List<List<Integer>> senders = new ArrayList<>();
    for (int v = 0; v < t.vertexCount(); v++) senders.add(new ArrayList<>());
    for (Link l : t.links()) senders.get(l.to()).add(l.from());
    int[] distance = new int[t.vertexCount()];
    Arrays.fill(distance, -1);
    distance[destination] = 0;
    List<Integer> frontier = List.of(destination);
    while (!frontier.isEmpty()) {
      List<Integer> next = new ArrayList<>();
      for (int u : frontier) {
        for (int v : senders.get(u)) {
          if (distance[v] < 0) {
            distance[v] = distance[u] + 1;
            next.add(v);
          }
        }
      }
      frontier = next;
    }
    return distance;
  }

  private static boolean linked(Topology t, int from, int to) {
    return t.ports(from).stream().anyMatch(l -> l.to() == to);
  }

  @Property(tries = 100)
  void shouldFollowLoopFreeShortestPathWhenAnyFlow(@ForAll("cases") Case c) {
    Topology t = c.shape().build();
    RoutingTable routes = RoutingTable.compute(t);
    int shortest = bfsDistances(t, c.destination())[c.source()];

    List<Integer> path = routes.path(c.source(), c.destination());

    assertThat(path).doesNotHaveDuplicates();
    assertThat(path.get(0)).isEqualTo(c.source());
    assertThat(path.get(path.size() - 1)).isEqualTo(c.destination());
    assertThat(path).hasSize(shortest + 1);
    for (int i = 0; i + 1 < path.size(); i++) {
      assertThat(linked(t, path.get(i), path.get(i + 1))).as("hop %d of %s", i, path).isTrue();
    }
    assertThat(routes.distance(c.source(), c.destination())).isEqualTo(shortest);
  }

  @Property(tries = 100)
  void shouldListExactlyPortsOneHopCloserWhenAnyVertexAndDestination(@ForAll("shapes") Shape s) {
    Topology t = s.build();

    assertListsPortsOneHopCloser(t, RoutingTable.compute(t));
    assertListsPortsOneHopCloser(t, s.spec().routing(t));
  }

  private static void assertListsPortsOneHopCloser(Topology t, RoutingTable routes) {
    // Every (vertex, destination): the ECMP sets that matter (antipodes of an even ring, say) are rare picks.
    for (int d = 0; d < t.hostCount(); d++) {
      int[] distance = bfsDistances(t, d);
      for (int v = 0; v < t.vertexCount(); v++) {
        int closer = distance[v] - 1;
        int[] expected = t.ports(v).stream()
            .filter(l -> distance[l.to()] == closer)
            .sorted(Comparator.comparingInt(Link::to).thenComparingInt(Link::fromPort))
            .mapToInt(Link::fromPort)
            .toArray();

        int[] ports = routes.nextHopPorts(v, d);

        assertThat(ports).as("vertex %d to host %d", v, d).containsExactly(expected);
        for (int p : ports) assertThat(distance[t.ports(v).get(p).to()]).isEqualTo(closer);
        assertThat(routes.distance(v, d)).isEqualTo(distance[v]);
      }
    }
  }

  @Property(tries = 100)
  void shouldChooseSameEgressWhenRecomputedOrRepeated(@ForAll("cases") Case c, @ForAll int flowHash) {
    Topology t = c.shape().build();
    RoutingTable routes = RoutingTable.compute(t);
    RoutingTable again = RoutingTable.compute(c.shape().build());
    int d = c.destination();

    for (int v = 0; v < t.vertexCount(); v++) {
      if (v == d) continue;
      int[] ports = routes.nextHopPorts(v, d);
      int chosen = routes.egressPort(v, d, flowHash);
      assertThat(chosen).isEqualTo(ports[Math.floorMod(flowHash, ports.length)]);
      assertThat(routes.egressPort(v, d, flowHash)).isEqualTo(chosen);
      assertThat(again.egressPort(v, d, flowHash)).isEqualTo(chosen);
    }
    assertThat(again.path(c.source(), d)).isEqualTo(routes.path(c.source(), d));
  }

  @Property(tries = 100)
  void shouldCrossOneSpineWhenHostsOnDifferentTors(@ForAll("leafSpineCases") Case c) {
    Shape s = c.shape();
    Topology t = s.build();
    RoutingTable routes = RoutingTable.compute(t);
    int sourceTor = s.hosts() + c.source() / s.hostsPerTor();
    int destinationTor = s.hosts() + c.destination() / s.hostsPerTor();

    List<Integer> path = routes.path(c.source(), c.destination());

    if (c.source() == c.destination()) {
      assertThat(path).containsExactly(c.source());
    } else if (sourceTor == destinationTor) {
      assertThat(path).containsExactly(c.source(), sourceTor, c.destination());
    } else {
      assertThat(path).hasSize(5);
      assertThat(path.get(1)).isEqualTo(sourceTor);
      assertThat(t.tier(path.get(2))).isEqualTo(Tier.SPINE);
      assertThat(path.get(3)).isEqualTo(destinationTor);
      assertThat(path.get(4)).isEqualTo(c.destination());
    }
  }

  /**
   * With at least 24 hosts and at most 8 per TOR there are at least 384 cross-TOR flows, against at most 4 spines:
   * a spine missed by a well-mixed hash would be a 1-in-10^40 event, so a miss means bad spreading.
   */
  @Property(tries = 50)
  void shouldUseEverySpineWhenManyFlowsCrossTors(@ForAll("manyFlowShapes") Shape s) {
    Topology t = s.build();
    RoutingTable routes = RoutingTable.compute(t);
    Set<Integer> used = new HashSet<>();

    for (int src = 0; src < s.hosts(); src++) {
      for (int dst = 0; dst < s.hosts(); dst++) {
        if (src / s.hostsPerTor() != dst / s.hostsPerTor()) used.add(routes.path(src, dst).get(2));
      }
    }

    int firstSpine = t.vertexCount() - s.spines();
    Set<Integer> spines = new HashSet<>();
    for (int v = firstSpine; v < t.vertexCount(); v++) spines.add(v);
    assertThat(used).isEqualTo(spines);
  }

  @Provide
  Arbitrary<Shape> manyFlowShapes() {
    return Combinators.combine(Arbitraries.integers().between(24, 64), Arbitraries.integers().between(1, 8),
            Arbitraries.integers().between(1, 4))
        .as((hosts, perTor, spines) -> new Shape("leaf-spine", hosts, perTor, spines));
  }
}
