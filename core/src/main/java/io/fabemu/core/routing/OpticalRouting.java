package io.fabemu.core.routing;

import io.fabemu.core.optical.Circuit;
import io.fabemu.core.optical.ConnectionPolicy;
import java.util.Arrays;
import java.util.List;

/**
 * Routes of the optical full interconnect (the optical patent, {@code Topologies.optical}) computed from its numbering and
 * its connection policy, in constant time per lookup: no NPU talks across servers except over its own circuit, so a
 * packet from NPU i of server a to NPU j of server b goes to the gateway NPU {@code g = gatewayNpu(a, b)} of a over
 * the intra-server fabric (unless i = g), over g's circuit to NPU g of b, then to NPU j over b's intra-server fabric
 * (unless j = g). Inside a server it takes the intra-server fabric only. One port per hop, no ECMP.
 *
 * <p>These are the shortest paths among those that cross no third server, not always the shortest paths of the
 * graph: a hop count alone would also send traffic through a third server c whose circuits reach both ends (NPU i of
 * a reaches c, NPU j of c reaches b), a path as short as the direct one with a full mesh inside servers and shorter
 * with server switches. The patent's rule keeps it off: a server pair's traffic uses their own circuit. Every hop
 * still brings the packet one hop closer along this route, so routes are loop-free and {@link #distance} is the
 * route's hop count.
 *
 * <p>Numbering: host {@code server * N + npu}; a host's intra-server ports first (full mesh: {@code 0 .. N-2}, port
 * {@code p} to NPU {@code p < npu ? p : p + 1}; server switch: port 0), then its circuit (port {@code N - 1}, or 1
 * with a server switch); server switch {@code s} is vertex {@code M * N + s}, its port {@code d} to NPU {@code d}.
 *
 * <p>A run whose policy changes (docs/optical.md, "The OCS controller") has a topology with the circuits of all its
 * policies ({@code Topologies.optical} of a list): a host's circuit ports follow its intra-server ports in the order
 * its circuits first appear, and each policy's routes ({@link #of(PortGraph, List, int, boolean)}) use the port of
 * that policy's circuit, never another.
 */
public final class OpticalRouting extends RoutingTable {

  private static final int[] NO_PEERS = new int[0];

  private final int servers;
  private final int npus;
  private final boolean serverSwitch;
  /** A host's first circuit port: after its intra-server ports. */
  private final int circuitPortBase;
  /** Per host, the hosts at the other end of its circuit ports, in port order (every policy's circuits). */
  private final int[][] circuitPeers;
  /** Per host, the port of its circuit in this policy, or -1 when it has none. */
  private final int[] circuitPort;
  /** {@code [a * M + b]}: the NPU of server a whose circuit reaches server b (-1 on the diagonal). */
  private final int[] gateway;
  /** {@code [p]} for every port number: shared single-port sets. */
  private final int[][] singlePort;

  private OpticalRouting(List<ConnectionPolicy> policies, int index, boolean serverSwitch) {
    super(policies.get(index).servers() * policies.get(index).npusPerServer(),
        policies.get(index).servers() * policies.get(index).npusPerServer()
            + (serverSwitch ? policies.get(index).servers() : 0));
    ConnectionPolicy policy = policies.get(index);
    this.servers = policy.servers();
    this.npus = policy.npusPerServer();
    this.serverSwitch = serverSwitch;
    this.circuitPortBase = serverSwitch ? 1 : npus - 1;
    int hosts = servers * npus;
    // The cabling order of Topologies.optical: a host's circuit ports in the order its circuits first appear.
    int[][] peers = new int[hosts][];
    Arrays.fill(peers, NO_PEERS);
    int mostPorts = 0;
    for (Circuit c : ConnectionPolicy.unionOfCircuits(policies)) {
      int a = c.serverA() * npus + c.plane();
      int b = c.serverB() * npus + c.plane();
      peers[a] = append(peers[a], b);
      peers[b] = append(peers[b], a);
      mostPorts = Math.max(mostPorts, Math.max(peers[a].length, peers[b].length));
    }
    this.circuitPeers = peers;
    this.circuitPort = new int[hosts];
    for (int s = 0; s < servers; s++) {
      for (int d = 0; d < npus; d++) {
        int host = s * npus + d;
        int peer = policy.peerServer(s, d);
        circuitPort[host] = peer == ConnectionPolicy.NO_CIRCUIT ? -1
            : circuitPortBase + indexOf(peers[host], peer * npus + d);
      }
    }
    this.gateway = new int[servers * servers];
    for (int a = 0; a < servers; a++) {
      for (int b = 0; b < servers; b++) gateway[a * servers + b] = policy.gatewayNpu(a, b);
    }
    this.singlePort = singletons(Math.max(npus, circuitPortBase + mostPorts));
  }

  private static int[] append(int[] array, int value) {
    int[] out = Arrays.copyOf(array, array.length + 1);
    out[array.length] = value;
    return out;
  }

  private static int indexOf(int[] array, int value) {
    for (int i = 0; i < array.length; i++) {
      if (array[i] == value) return i;
    }
    throw new IllegalStateException("no circuit port to host " + value);
  }

  /**
   * The routes of {@code graph}, which {@code Topologies.optical(policy, ..)} built, with a server switch in every
   * server when {@code serverSwitch}, else a full mesh.
   *
   * @throws IllegalArgumentException if {@code policy} is no full interconnect, or {@code graph} does not have the
   *                                  hosts and switches of that shape
   */
  public static OpticalRouting of(PortGraph graph, ConnectionPolicy policy, boolean serverSwitch) {
    return of(graph, List.of(policy), 0, serverSwitch);
  }

  /**
   * The routes of policy {@code index} of {@code policies} on {@code graph}, which
   * {@code Topologies.optical(policies, ..)} built (the circuits of every policy), with a server switch in every
   * server when {@code serverSwitch}, else a full mesh.
   *
   * @throws IllegalArgumentException if that policy is no full interconnect, or {@code graph} does not have the
   *                                  hosts and switches of that shape
   */
  public static OpticalRouting of(PortGraph graph, List<ConnectionPolicy> policies, int index, boolean serverSwitch) {
    ConnectionPolicy policy = policies.get(index);
    List<String> problems = policy.fullInterconnectProblems();
    if (!problems.isEmpty()) {
      throw new IllegalArgumentException("optical routing needs a full interconnect: " + problems.get(0));
    }
    int hosts = policy.servers() * policy.npusPerServer();
    requireShape(graph, "optical routing of " + policy.servers() + " servers x " + policy.npusPerServer() + " NPUs"
        + (serverSwitch ? " with server switches" : ""), hosts, hosts + (serverSwitch ? policy.servers() : 0));
    return new OpticalRouting(policies, index, serverSwitch);
  }

  @Override
  int[] ports(int vertex, int destinationHost) {
    if (destinationHost == vertex) return NO_PORTS;
    int targetServer = destinationHost / npus;
    int hosts = servers * npus;
    if (vertex >= hosts) {
      int server = vertex - hosts;
      // A server switch: to the destination itself, or to the NPU whose circuit reaches the destination's server.
      return singlePort[targetServer == server ? destinationHost % npus : gateway[server * servers + targetServer]];
    }
    int server = vertex / npus;
    int npu = vertex % npus;
    int next;
    if (targetServer == server) {
      next = destinationHost % npus;
    } else {
      next = gateway[server * servers + targetServer];
      if (next == npu) return singlePort[circuitPort[vertex]];
    }
    if (serverSwitch) return singlePort[0];
    return singlePort[next < npu ? next : next - 1];
  }

  @Override
  int neighbour(int vertex, int port) {
    int hosts = servers * npus;
    if (vertex >= hosts) return (vertex - hosts) * npus + port;
    if (port >= circuitPortBase) return circuitPeers[vertex][port - circuitPortBase];
    int server = vertex / npus;
    if (serverSwitch) return hosts + server;
    int npu = vertex % npus;
    return server * npus + (port < npu ? port : port + 1);
  }
}
