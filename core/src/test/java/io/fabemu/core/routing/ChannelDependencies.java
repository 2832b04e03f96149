package io.fabemu.core.routing;

import io.fabemu.core.topology.Topology;
import io.fabemu.core.topology.Topology.Link;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A test's channel dependency graph of a router network, built the plain way, independently of
 * {@link ChannelDependencyGraph}: every (source, destination) route walked in full, every pair of consecutive
 * router-router channels (with their classes) recorded in a hash set, and acyclicity decided by Kahn's algorithm.
 * Vertices are {@code link id * classes + class}, {@code link id} that of {@link Topology#links()}.
 */
final class ChannelDependencies {

  /** The vertices and their successors. */
  final Map<Integer, Set<Integer>> successors = new HashMap<>();
  private final int classes;

  private ChannelDependencies(int classes) {
    this.classes = classes;
  }

  /**
   * Walks every route of {@code routing} on {@code topology} from the source's router to the destination's.
   *
   * @throws AssertionError if a route does not reach its destination's router within as many hops as there are
   *                        routers, or leaves by a port the router lacks
   */
  static ChannelDependencies of(Topology topology, RouterRouting routing) {
    int hosts = routing.hostCount();
    ChannelDependencies graph = new ChannelDependencies(routing.vcClasses());
    for (int source = 0; source < hosts; source++) {
      for (int destination = 0; destination < hosts; destination++) {
        int router = routing.routerOf(source);
        int inputPort = RouterRouting.LOCAL_PORT;
        int inputClass = 0;
        int previous = -1;
        for (int hops = 0; ; hops++) {
          if (hops > hosts) throw new AssertionError("route " + source + " -> " + destination + " does not end");
          int port = routing.outputPort(router, destination);
          if (port == RouterRouting.LOCAL_PORT) break;
          if (port >= topology.portCount(router)) {
            throw new AssertionError(topology.vertexName(router) + " has no port " + port);
          }
          Link link = topology.ports(router).get(port);
          int vcClass = routing.outputVcClass(router, inputPort, inputClass, port, destination);
          int vertex = link.id() * graph.classes + vcClass;
          graph.successors.computeIfAbsent(vertex, v -> new HashSet<>());
          if (previous >= 0) graph.successors.get(previous).add(vertex);
          previous = vertex;
          router = link.to();
          inputPort = link.toPort();
          inputClass = vcClass;
        }
        if (router != routing.routerOf(destination)) {
          throw new AssertionError("route " + source + " -> " + destination + " ends at router vertex " + router);
        }
      }
    }
    return graph;
  }

  /**
   * Walks every detour any table can give on {@code topology}: each (source, destination) pair through each via
   * node, leg 1 by {@code base} to the via node's router, leg 2 by {@code base} from there to the destination's,
   * with the phase kept by the walk itself (not read from the classes, as {@code DetourRouting} does). With
   * {@code separateLegClasses} leg 2 takes classes {@code b..2b-1}; without, both legs take the base classes.
   */
  static ChannelDependencies ofDetours(Topology topology, RouterRouting base, boolean separateLegClasses) {
    int hosts = base.hostCount();
    int b = base.vcClasses();
    ChannelDependencies graph = new ChannelDependencies(separateLegClasses ? 2 * b : b);
    for (int source = 0; source < hosts; source++) {
      for (int destination = 0; destination < hosts; destination++) {
        for (int via = 0; via < hosts; via++) {
          if (via == source || via == destination) continue;
          int previous = graph.walkLeg(topology, base, base.routerOf(source), via, 0, -1);
          previous = graph.walkLeg(topology, base, base.routerOf(via), destination, separateLegClasses ? b : 0,
              previous);
        }
      }
    }
    return graph;
  }

  /**
   * Walks one leg from {@code router} (as if injected there) to {@code target}'s router in classes offset by
   * {@code classOffset}, chaining from vertex {@code previous} (-1: none); returns the leg's last vertex (or
   * {@code previous} when the leg has no hop).
   */
  private int walkLeg(Topology topology, RouterRouting base, int router, int target, int classOffset, int previous) {
    int inputPort = RouterRouting.LOCAL_PORT;
    int inputClass = 0;
    for (int hops = 0; ; hops++) {
      if (hops > base.hostCount()) throw new AssertionError("leg to " + target + " does not end");
      int port = base.outputPort(router, target);
      if (port == RouterRouting.LOCAL_PORT) return previous;
      Link link = topology.ports(router).get(port);
      int vcClass = base.outputVcClass(router, inputPort, inputClass, port, target);
      int vertex = link.id() * classes + classOffset + vcClass;
      successors.computeIfAbsent(vertex, v -> new HashSet<>());
      if (previous >= 0) successors.get(previous).add(vertex);
      previous = vertex;
      router = link.to();
      inputPort = link.toPort();
      inputClass = vcClass;
    }
  }

  int edgeCount() {
    int edges = 0;
    for (Set<Integer> next : successors.values()) edges += next.size();
    return edges;
  }

  /** Kahn's algorithm: acyclic exactly when every vertex can be removed once its predecessors are. */
  boolean isAcyclic() {
    Map<Integer, Integer> inDegree = new HashMap<>();
    for (int v : successors.keySet()) inDegree.putIfAbsent(v, 0);
    for (Set<Integer> next : successors.values()) {
      for (int w : next) inDegree.merge(w, 1, Integer::sum);
    }
    Deque<Integer> ready = new ArrayDeque<>();
    inDegree.forEach((v, degree) -> {
      if (degree == 0) ready.add(v);
    });
    int removed = 0;
    while (!ready.isEmpty()) {
      int v = ready.poll();
      removed++;
      for (int w : successors.getOrDefault(v, Set.of())) {
        if (inDegree.merge(w, -1, Integer::sum) == 0) ready.add(w);
      }
    }
    return removed == inDegree.size();
  }

  /** The vertices' classes, for checks that a class is used or not. */
  List<Integer> classesUsed() {
    Set<Integer> used = new HashSet<>();
    for (int v : successors.keySet()) used.add(v % classes);
    List<Integer> sorted = new ArrayList<>(used);
    sorted.sort(null);
    return sorted;
  }
}
