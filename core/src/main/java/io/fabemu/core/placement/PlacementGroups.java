package io.fabemu.core.placement;

import io.fabemu.core.topology.Topology;
import java.util.Arrays;

/**
 * The placement groups of a topology, the units a {@link PlacementPlan} never splits, with the device count of each.
 *
 * <p>The groups are those the automatic plan keeps whole: on a grid ({@link io.fabemu.core.topology.NodeGrid}) a
 * node (a host's NIC and compute node, with its router in a router network); on a direct topology without a grid a
 * host's NIC and compute node; on a switched topology a TOR (the switch every host's first port is cabled to) with
 * its hosts' NICs and compute nodes, and each other switch (a spine) alone. Groups are numbered by their first
 * vertex: a host's group by the host, a TOR's by the TOR, a spine's by the spine, in vertex order, so TOR groups come
 * before spines. Plain, immutable, a pure function of the topology.
 */
final class PlacementGroups {
  private final int[] groupOfVertex;
  private final int[] devicesOfGroup;
  /** The vertex that names each group in messages: its TOR, its host, its spine. */
  private final int[] headOfGroup;
  /** Groups that hold hosts: the most members the topology can be spread over. */
  private final int hostGroups;

  private PlacementGroups(int[] groupOfVertex, int[] devicesOfGroup, int[] headOfGroup, int hostGroups) {
    this.groupOfVertex = groupOfVertex;
    this.devicesOfGroup = devicesOfGroup;
    this.headOfGroup = headOfGroup;
    this.hostGroups = hostGroups;
  }

  /**
   * The groups of {@code topology}.
   *
   * @throws IllegalArgumentException when a host of a switched topology is not cabled to a switch on its first port,
   *                                  or a switch of a grid serves no host or several
   */
  static PlacementGroups of(Topology topology) {
    int vertices = topology.vertexCount();
    int hosts = topology.hostCount();
    int[] head = new int[vertices];
    if (topology.nodeGrid().isPresent()) {
      int[] node = GridPlacement.nodeOfVertex(topology);
      // A node's head is its host (a router network's router belongs to its host's node).
      System.arraycopy(node, 0, head, 0, vertices);
    } else if (vertices == hosts) {
      for (int h = 0; h < hosts; h++) head[h] = h;
    } else {
      for (int v = hosts; v < vertices; v++) head[v] = v;
      for (int h = 0; h < hosts; h++) {
        var ports = topology.ports(h);
        if (ports.isEmpty() || topology.isHost(ports.get(0).to())) {
          throw new IllegalArgumentException("placement: host " + h + " of " + topology.description()
              + " is not cabled to a switch on its first port");
        }
        head[h] = ports.get(0).to();
      }
    }
    // Groups numbered in the order of their head vertex.
    int[] groupOfHead = new int[vertices];
    Arrays.fill(groupOfHead, -1);
    int groups = 0;
    boolean[] isHead = new boolean[vertices];
    for (int v = 0; v < vertices; v++) isHead[head[v]] = true;
    for (int v = 0; v < vertices; v++) {
      if (isHead[v]) groupOfHead[v] = groups++;
    }
    int[] groupOfVertex = new int[vertices];
    int[] devices = new int[groups];
    int[] heads = new int[groups];
    boolean[] holdsHost = new boolean[groups];
    for (int v = 0; v < vertices; v++) {
      int g = groupOfHead[head[v]];
      groupOfVertex[v] = g;
      heads[g] = head[v];
      // A host brings its compute node along.
      devices[g] += topology.isHost(v) ? 2 : 1;
      if (topology.isHost(v)) holdsHost[g] = true;
    }
    int hostGroups = 0;
    for (boolean h : holdsHost) hostGroups += h ? 1 : 0;
    return new PlacementGroups(groupOfVertex, devices, heads, hostGroups);
  }

  int count() {
    return devicesOfGroup.length;
  }

  /** Groups that hold hosts (TOR groups, nodes): the most members a topology can be spread over. */
  int hostGroups() {
    return hostGroups;
  }

  int groupOf(int vertex) {
    return groupOfVertex[vertex];
  }

  /** Devices of {@code group}: its vertices and its hosts' compute nodes. */
  int devices(int group) {
    return devicesOfGroup[group];
  }

  /** The vertex that names {@code group}: its TOR, host or spine. */
  int head(int group) {
    return headOfGroup[group];
  }
}
