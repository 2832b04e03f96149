package io.fabemu.node.rank;

import io.fabemu.collectives.IncLayout;
import io.fabemu.collectives.IncMode;
import io.fabemu.core.topology.Topology;

/**
 * The facts of a fabric with top-of-rack switches that the in-network algorithms need: how many nodes, how many
 * under each TOR and which TOR each is under, and the sockets per node. Layouts are built once per mode and shared
 * by the ranks of a JVM (they are immutable).
 */
public final class IncEnvironment {
  private final int nodes;
  private final int ppn;
  private final int socketsPerNode;
  private final int hostsPerTor;
  /** The vertex of each node's TOR, by node index. */
  private final int[] torVertexOfNode;
  private final boolean incEnabled;
  private IncLayout nodeLayout;
  private IncLayout socketLayout;

  /**
   * @param torVertexOfNode the vertex of each node's TOR, by node index; nodes fill TORs in order, {@code
   *                        hostsPerTor} each (the last may have fewer)
   * @param incEnabled      the switches and NICs have INC (when false, every in-network case falls back at once: a
   *                        NIC without an INC unit cannot even send a query)
   */
  public IncEnvironment(int ppn, int socketsPerNode, int hostsPerTor, int[] torVertexOfNode, boolean incEnabled) {
    this.incEnabled = incEnabled;
    this.nodes = torVertexOfNode.length;
    this.ppn = ppn;
    this.socketsPerNode = socketsPerNode;
    this.hostsPerTor = hostsPerTor;
    this.torVertexOfNode = torVertexOfNode.clone();
  }

  /**
   * The environment of {@code topology}, or null when some host hangs off no top-of-rack switch (direct networks):
   * there the in-network algorithms fall back to the host algorithm. Hosts per TOR are those under host 0's TOR.
   */
  public static IncEnvironment of(Topology topology, int ppn, int socketsPerNode, boolean incEnabled) {
    int hosts = topology.hostCount();
    int[] torVertexOfNode = new int[hosts];
    int hostsPerTor = 0;
    for (int h = 0; h < hosts; h++) {
      torVertexOfNode[h] = topology.torOf(h);
      if (torVertexOfNode[h] < 0) return null;
      if (torVertexOfNode[h] == torVertexOfNode[0]) hostsPerTor++;
    }
    return new IncEnvironment(ppn, socketsPerNode, hostsPerTor, torVertexOfNode, incEnabled);
  }

  /** The vertex of the TOR above world rank {@code rank}'s node: the IP address its control packets name. */
  public int torVertexOfRank(int rank) {
    return torVertexOfNode[rank / ppn];
  }

  public boolean incEnabled() {
    return incEnabled;
  }

  /** The layout of {@code mode}; throws IllegalArgumentException when the ranks do not meet the mode's rules. */
  public synchronized IncLayout layout(IncMode mode) {
    if (mode == IncMode.NODE) {
      if (nodeLayout == null) nodeLayout = IncLayout.of(mode, nodes, ppn, socketsPerNode, hostsPerTor);
      return nodeLayout;
    }
    if (socketLayout == null) socketLayout = IncLayout.of(mode, nodes, ppn, socketsPerNode, hostsPerTor);
    return socketLayout;
  }
}
