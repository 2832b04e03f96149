package io.fabemu.core.routing;

import java.util.Objects;

/**
 * Dimension-order routing of the group-ring (the patent's parallel computer): groups of routers fully connected
 * inside, the routers at the same index of every group joined in a ring. Intra-group and inter-group links are the
 * two dimensions: a packet first hops, inside its source group, straight to the router at the destination's index
 * (one hop, when the indices differ), then goes round that index's ring to the destination's group, the shorter way;
 * when both ways are equally short (exactly half-way round an even number of groups) it goes the + way (increasing
 * group number). Every route is therefore a shortest path (at most one intra-group hop plus the ring distance, and
 * no route can do with less), and the same for every packet of a pair.
 *
 * <p>Deadlock freedom, as on a torus: the intra-group hop is class 0 (it is always the first hop, so nothing waits
 * on it but injection). The dateline of a ring is its closing channel, from the last group to group 0 the + way and
 * from group 0 to the last group the - way; on the ring a packet takes class 0 until it takes the dateline channel,
 * which and every later ring channel it takes in class 1. With 2 groups a ring is one cable and has no dateline.
 * The way out to the local NIC is class 0.
 *
 * <p>Numbering and port order: those of {@code Topologies.groupRing}: node {@code g * nodesPerGroup + i} is host and
 * router {@code (g, i)}; router {@code (g, i)} has port 0 = its host, ports {@code 1 .. nodesPerGroup-1} to index
 * {@code j} of its group at {@code 1 + (j < i ? j : j - 1)}, then its ring ports from {@code nodesPerGroup}: with 3
 * or more groups the previous group's then the next group's, except in group 0 (next, then the last group); with 2
 * groups one port. Constant time per call, no per-router memory.
 */
public final class GroupRingRouting implements RouterRouting {

  private final int groups;
  private final int nodesPerGroup;
  private final int nodes;
  /** The first ring port of every router: {@code nodesPerGroup}. */
  private final int ringPort;

  private GroupRingRouting(int groups, int nodesPerGroup) {
    this.groups = groups;
    this.nodesPerGroup = nodesPerGroup;
    this.nodes = groups * nodesPerGroup;
    this.ringPort = nodesPerGroup;
  }

  /**
   * The routing of {@code graph}, which {@code Topologies.groupRing(groups, nodesPerGroup, ..)} built.
   *
   * @throws IllegalArgumentException if {@code groups < 2}, {@code nodesPerGroup < 1}, or {@code graph} is not
   *                                  numbered and cabled as that group-ring (every port is checked, in time linear
   *                                  in the links)
   */
  public static GroupRingRouting of(PortGraph graph, int groups, int nodesPerGroup) {
    String kind = "group-ring routing";
    if (groups < 2) throw new IllegalArgumentException(kind + " needs groups >= 2, got " + groups);
    if (nodesPerGroup < 1) {
      throw new IllegalArgumentException(kind + " needs nodes-per-group >= 1, got " + nodesPerGroup);
    }
    if ((long) groups * nodesPerGroup > RouterNetworkShape.MAX_NODES) {
      throw new IllegalArgumentException(kind + " of " + groups + " groups of " + nodesPerGroup
          + " is too large: at most " + RouterNetworkShape.MAX_NODES + " nodes");
    }
    GroupRingRouting routing = new GroupRingRouting(groups, nodesPerGroup);
    routing.requireGraph(graph, kind + " of " + groups + " groups of " + nodesPerGroup);
    return routing;
  }

  private void requireGraph(PortGraph graph, String routing) {
    RouterNetworkShape.requireHostsAndLocalPorts(graph, routing, nodes);
    int ringPorts = groups == 2 ? 1 : 2;
    for (int node = 0; node < nodes; node++) {
      int router = nodes + node;
      int group = node / nodesPerGroup;
      int index = node % nodesPerGroup;
      RouterNetworkShape.requirePortCount(graph, routing, router, nodesPerGroup + ringPorts);
      for (int j = 0; j < nodesPerGroup; j++) {
        if (j != index) {
          RouterNetworkShape.requirePort(graph, routing, router, intraGroupPort(index, j),
              nodes + group * nodesPerGroup + j, "index " + j + " of its group");
        }
      }
      int next = (group + 1) % groups;
      int previous = (group + groups - 1) % groups;
      RouterNetworkShape.requirePort(graph, routing, router, ringPortTowards(group, true),
          nodes + next * nodesPerGroup + index, "next group");
      RouterNetworkShape.requirePort(graph, routing, router, ringPortTowards(group, false),
          nodes + previous * nodesPerGroup + index, "previous group");
    }
  }

  @Override
  public int hostCount() {
    return nodes;
  }

  private static int intraGroupPort(int index, int destinationIndex) {
    return 1 + (destinationIndex < index ? destinationIndex : destinationIndex - 1);
  }

  /** The ring port the {@code plus} way (to group {@code group + 1}) or the other. */
  private int ringPortTowards(int group, boolean plus) {
    if (groups == 2) return ringPort;
    // Group 0's + cable was cabled first; every other group's - cable was.
    return plus == (group == 0) ? ringPort : ringPort + 1;
  }

  @Override
  public int outputPort(int router, int destinationHost) {
    int node = Objects.checkIndex(router - nodes, nodes);
    Objects.checkIndex(destinationHost, nodes);
    int index = node % nodesPerGroup;
    int destinationIndex = destinationHost % nodesPerGroup;
    if (index != destinationIndex) return intraGroupPort(index, destinationIndex);
    int group = node / nodesPerGroup;
    int destinationGroup = destinationHost / nodesPerGroup;
    if (group == destinationGroup) return LOCAL_PORT;
    int plusHops = Math.floorMod(destinationGroup - group, groups);
    // The + way when it is no longer than the - way (groups - plusHops): ties go the + way.
    return ringPortTowards(group, 2 * plusHops <= groups);
  }

  /** 2: class 0 before the ring's dateline, class 1 from it on. */
  @Override
  public int vcClasses() {
    return 2;
  }

  @Override
  public int outputVcClass(int router, int inputPort, int inputVcClass, int outputPort, int destinationHost) {
    int node = Objects.checkIndex(router - nodes, nodes);
    int portCount = ringPort + (groups == 2 ? 1 : 2);
    if (outputPort < 0 || outputPort >= portCount) {
      throw new IllegalArgumentException("group-ring router " + node + " has ports 0.." + (portCount - 1)
          + ", not " + outputPort);
    }
    if (outputPort < ringPort) return 0; // the local NIC or the intra-group hop
    if (groups > 2) {
      int group = node / nodesPerGroup;
      boolean plus = outputPort == ringPortTowards(group, true);
      if (plus ? group == groups - 1 : group == 0) return 1; // the dateline channel
    }
    return inputPort >= ringPort ? inputVcClass : 0;
  }
}
