package io.fabemu.core.routing;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The channel dependency graph of a router network under a {@link RouterRouting}, and a search for a cycle in it:
 * the test of deadlock freedom (Dally and Seitz) that a routing's virtual-channel classes must pass, and what a
 * router's deadlock report can name.
 *
 * <p>Vertices are (directed router-router channel, virtual-channel class) pairs; there is an edge from {@code (a, c)}
 * to {@code (b, c')} when some packet, following the routing from its source's router to its destination's, takes
 * channel {@code b} in class {@code c'} right after channel {@code a} in class {@code c}. Every (source, destination)
 * pair of hosts is walked. Injection and ejection channels (host to router, router to host) are left out: a NIC
 * always accepts what its router ejects, so nothing waits in a cycle through them. If the graph is acyclic, no set
 * of packets holding channels can wait on each other in a circle, so the routing cannot deadlock.
 *
 * <p>Cost: the walks to one destination share their tails (a routing's next port and class depend only on the
 * router, the channel and class a packet came in on, and the destination), so each (channel, class) is walked at
 * most once per destination: time up to hosts x channels x classes, memory linear in channels x classes x ports.
 * Meant for checks and reports on networks of up to some thousands of nodes, not for the hot path.
 */
public final class ChannelDependencyGraph {

  private final PortGraph graph;
  private final int hosts;
  private final int classes;
  /** {@code channelStart[i]}: the channel id of port 0 of router vertex {@code hosts + i}; channel = start + port. */
  private final int[] channelStart;
  /** Router vertex at the far end of each channel (unused for port-0 channels). */
  private final int[] channelTarget;
  /** Port of {@link #channelTarget} leading back: the input port a packet arrives on. */
  private final int[] reversePort;
  /** Successor slots per vertex: a successor is (port at the channel's target router, class). */
  private final int slots;
  private final int wordsPerVertex;
  /** Bit {@code port * classes + class} of vertex {@code v}'s words: the edge to that channel and class. */
  private final long[] successors;

  /**
   * One hop of a routing, as the walk asks it: the port out of a router and the class on it, for a packet that
   * arrived by {@code inputPort} in {@code inputClass}, bound for {@code destination} through {@code via} (-1: none).
   */
  private interface Step {
    int port(int router, int inputClass, int destination, int via);

    int vcClass(int router, int inputPort, int inputClass, int port, int destination, int via);
  }

  private ChannelDependencyGraph(PortGraph graph, int hosts, int classes) {
    this.graph = graph;
    this.hosts = hosts;
    this.classes = classes;
    if (classes < 1) throw new IllegalArgumentException("routing needs at least 1 VC class, got " + classes);
    RoutingTable.requireShape(graph, "channel dependency graph of a router network of " + hosts + " hosts", hosts,
        2 * hosts);
    channelStart = new int[hosts + 1];
    int maxPorts = 1;
    for (int i = 0; i < hosts; i++) {
      int ports = graph.portCount(hosts + i);
      maxPorts = Math.max(maxPorts, ports);
      channelStart[i + 1] = channelStart[i] + ports;
    }
    int channels = channelStart[hosts];
    channelTarget = new int[channels];
    reversePort = new int[channels];
    for (int i = 0; i < hosts; i++) {
      int router = hosts + i;
      for (int port = 1; port < graph.portCount(router); port++) {
        int target = graph.neighbour(router, port);
        if (target < hosts) {
          throw new IllegalArgumentException("not a router network: port " + port + " of "
              + graph.vertexName(router) + " leads to host " + graph.vertexName(target) + " (" + graph.description()
              + ")");
        }
        channelTarget[channelStart[i] + port] = target;
        reversePort[channelStart[i] + port] = portTowards(target, router);
      }
    }
    this.slots = maxPorts * classes;
    this.wordsPerVertex = (slots + 63) / 64;
    this.successors = new long[Math.multiplyExact(channels * classes, wordsPerVertex)];
  }

  /**
   * A cycle of the channel dependency graph of {@code graph} under {@code routing}, as the channels in the order a
   * packet would take them (the last depends on the first), each named like {@code router3->router4 (class 0)};
   * empty when the graph is acyclic, i.e. the routing is deadlock-free. {@code graph} is typically the
   * {@code Topology} the routing was made for.
   *
   * @throws IllegalArgumentException if {@code graph} is not a router network of the routing's hosts, or the routing
   *                                  names a port or class that does not exist or ejects a packet at another router
   *                                  than its destination's
   */
  public static Optional<List<String>> findCycle(PortGraph graph, RouterRouting routing) {
    ChannelDependencyGraph cdg = new ChannelDependencyGraph(graph, routing.hostCount(), routing.vcClasses());
    Step step = new Step() {
      @Override
      public int port(int router, int inputClass, int destination, int via) {
        return routing.outputPort(router, destination);
      }

      @Override
      public int vcClass(int router, int inputPort, int inputClass, int port, int destination, int via) {
        return routing.outputVcClass(router, inputPort, inputClass, port, destination);
      }
    };
    cdg.walkRoutes(step, -1, new int[] {0});
    return cdg.cycle();
  }

  /**
   * As {@link #findCycle(PortGraph, RouterRouting)} for the detours of a run with faults: every route any detour table
   * can give, i.e. every (source, destination) pair through every via node (and directly), and a direct packet
   * injected in either leg's class set. Acyclic means no set of detours and direct packets can deadlock, whatever
   * fails. Time up to hosts^2 x channels x classes.
   */
  public static Optional<List<String>> findCycle(PortGraph graph, DetourRouting detours) {
    ChannelDependencyGraph cdg = new ChannelDependencyGraph(graph, detours.hostCount(), detours.vcClasses());
    Step step = new Step() {
      @Override
      public int port(int router, int inputClass, int destination, int via) {
        return detours.outputPort(router, inputClass, destination, via);
      }

      @Override
      public int vcClass(int router, int inputPort, int inputClass, int port, int destination, int via) {
        return detours.outputVcClass(router, inputPort, inputClass, port, destination, via);
      }
    };
    cdg.walkRoutes(step, -1, new int[] {0, detours.classesPerLeg()});
    for (int via = 0; via < detours.hostCount(); via++) cdg.walkRoutes(step, via, new int[] {0});
    return cdg.cycle();
  }

  private int portTowards(int router, int neighbour) {
    for (int port = 1; port < graph.portCount(router); port++) {
      if (graph.neighbour(router, port) == neighbour) return port;
    }
    throw new IllegalArgumentException(graph.vertexName(router) + " has no link back to "
        + graph.vertexName(neighbour) + " (" + graph.description() + ")");
  }

  /**
   * Adds the edges of every route through {@code via} (-1: direct) from every source, injected in each of
   * {@code injectionClasses}, to every destination other than the via node.
   */
  private void walkRoutes(Step step, int via, int[] injectionClasses) {
    int[] walkedFor = new int[channelTarget.length * classes];
    int stamp = 0;
    for (int destination = 0; destination < hosts; destination++) {
      if (destination == via) continue;
      for (int injectionClass : injectionClasses) {
        // A route's rest depends only on where it is, its destination and via node (and its leg, its class).
        stamp++;
        for (int source = 0; source < hosts; source++) {
          if (source != via) walk(step, source, destination, via, injectionClass, walkedFor, stamp);
        }
      }
    }
  }

  private void walk(Step step, int source, int destination, int via, int injectionClass, int[] walkedFor,
                    int stamp) {
    int router = hosts + source;
    int inputPort = RouterRouting.LOCAL_PORT;
    int inputClass = injectionClass;
    int previous = -1;
    while (true) {
      int port = step.port(router, inputClass, destination, via);
      if (port == RouterRouting.LOCAL_PORT) {
        if (router != hosts + destination) {
          throw new IllegalArgumentException("routing ejects a packet for " + graph.vertexName(destination)
              + " at " + graph.vertexName(router));
        }
        break;
      }
      if (port < 0 || port >= graph.portCount(router)) {
        throw new IllegalArgumentException("routing sends a packet for " + graph.vertexName(destination)
            + " out of port " + port + " of " + graph.vertexName(router) + ", which has "
            + graph.portCount(router) + " ports");
      }
      int vcClass = step.vcClass(router, inputPort, inputClass, port, destination, via);
      if (vcClass < 0 || vcClass >= classes) {
        throw new IllegalArgumentException("routing gives class " + vcClass + " at " + graph.vertexName(router)
            + " port " + port + ", but has " + classes + " classes");
      }
      int channel = channelStart[router - hosts] + port;
      int vertex = channel * classes + vcClass;
      if (previous >= 0) {
        int slot = port * classes + vcClass;
        successors[previous * wordsPerVertex + (slot >>> 6)] |= 1L << slot;
      }
      // Walked to this destination already: the rest of the route, and its edges, are the same.
      if (walkedFor[vertex] == stamp) break;
      walkedFor[vertex] = stamp;
      previous = vertex;
      inputPort = reversePort[channel];
      inputClass = vcClass;
      router = channelTarget[channel];
    }
  }

  /** The vertex in slot {@code slot} of {@code vertex}'s successors. */
  private int successor(int vertex, int slot) {
    int target = channelTarget[vertex / classes];
    return (channelStart[target - hosts] + slot / classes) * classes + slot % classes;
  }

  /** Iterative depth-first search; a successor still on the stack closes a cycle. */
  private Optional<List<String>> cycle() {
    int vertices = channelTarget.length * classes;
    byte[] state = new byte[vertices]; // 0 unvisited, 1 on the stack, 2 done
    int[] stack = new int[vertices];
    int[] nextSlot = new int[vertices];
    int[] stackIndex = new int[vertices];
    for (int start = 0; start < vertices; start++) {
      if (state[start] != 0) continue;
      int depth = 0;
      stack[0] = start;
      nextSlot[0] = 0;
      stackIndex[start] = 0;
      state[start] = 1;
      while (depth >= 0) {
        int vertex = stack[depth];
        int slot = nextEdge(vertex, nextSlot[depth]);
        if (slot < 0) {
          state[vertex] = 2;
          depth--;
          continue;
        }
        nextSlot[depth] = slot + 1;
        int next = successor(vertex, slot);
        if (state[next] == 1) {
          List<String> channels = new ArrayList<>();
          for (int i = stackIndex[next]; i <= depth; i++) channels.add(name(stack[i]));
          return Optional.of(List.copyOf(channels));
        }
        if (state[next] == 0) {
          depth++;
          stack[depth] = next;
          nextSlot[depth] = 0;
          stackIndex[next] = depth;
          state[next] = 1;
        }
      }
    }
    return Optional.empty();
  }

  /** The first successor slot of {@code vertex} at or after {@code from}, or -1. */
  private int nextEdge(int vertex, int from) {
    if (from >= slots) return -1;
    int base = vertex * wordsPerVertex;
    int word = from >>> 6;
    long bits = successors[base + word] & (-1L << (from & 63));
    while (bits == 0) {
      if (++word == wordsPerVertex) return -1;
      bits = successors[base + word];
    }
    return word * 64 + Long.numberOfTrailingZeros(bits);
  }

  private String name(int vertex) {
    int channel = vertex / classes;
    int router = hosts + routerIndexOf(channel);
    return graph.vertexName(router) + "->" + graph.vertexName(channelTarget[channel]) + " (class "
        + vertex % classes + ")";
  }

  /** The router index whose ports hold {@code channel}: binary search of {@link #channelStart}. */
  private int routerIndexOf(int channel) {
    int low = 0;
    int high = hosts - 1;
    while (low < high) {
      int mid = (low + high + 1) >>> 1;
      if (channelStart[mid] <= channel) {
        low = mid;
      } else {
        high = mid - 1;
      }
    }
    return low;
  }
}
