package io.fabemu.core.topology;

import io.fabemu.core.routing.PortGraph;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;

/**
 * An immutable fabric graph. Vertices are hosts (ids 0..hostCount-1, so a host's id is its host index) and
 * switches (the ids after). Every cable is two directed links. A vertex's ports are numbered in the order its
 * outgoing links were added; {@link #ports(int)} lists them.
 *
 * <p>It is also the one place that answers how devices are numbered: a host's NIC has the host's vertex id, a
 * switch its vertex id, and the compute node of host {@code h} comes after every vertex ({@link
 * #computeNodeDevice}); and which tier a switch is in ({@link Vertex#tier()}), set by the kind's builder.
 *
 * <p>Routing sees it as a {@link PortGraph}; which routing a topology gets is its kind's choice
 * ({@link TopologySpec#routing}).
 */
public final class Topology implements PortGraph {

  public enum VertexKind { HOST, SWITCH }

  /**
   * A vertex's place in a tiered (Clos) fabric. {@link #level()} is the number the INC headers carry (the INC patent's
   * tier field). Switches of fabrics without tiers get {@link #NONE}.
   *
   * <p>{@link #AGGREGATION} is the middle tier of a three-tier fat-tree, between its leaves ({@link #TOR}) and its
   * cores ({@link #SPINE}, the top tier, as a leaf-spine's spines are). Its level is 2, the tier above the TORs; the
   * fat-tree's cores keep the spines' 2 as well. No INC header carries either there: the switch INC has two tiers, TOR
   * and SPINE, and a fat-tree refuses INC.
   */
  public enum Tier {
    HOST(0), TOR(1), AGGREGATION(2), SPINE(2), NONE(-1);

    private final int level;

    Tier(int level) {
      this.level = level;
    }

    /**
     * 0 for hosts, 1 for top-of-rack (leaf) switches, 2 for spines and a fat-tree's aggregation switches; -1 for a
     * switch outside any tier.
     */
    public int level() {
      return level;
    }
  }

  /** @param tier {@link Tier#HOST} for hosts; a switch's tier in a tiered fabric, else {@link Tier#NONE} */
  public record Vertex(int id, VertexKind kind, String name, Tier tier) {}

  /**
   * A directed link.
   *
   * @param id       index in {@link #links()}
   * @param from     sending vertex
   * @param to       receiving vertex
   * @param fromPort port number at the sender
   * @param toPort   port number at the receiver (the port of the reverse link at {@code to})
   * @param spec     rate and latency
   */
  public record Link(int id, int from, int to, int fromPort, int toPort, LinkSpec spec) {}

  private final List<Vertex> vertices;
  private final List<Link> links;
  private final List<List<Link>> ports;
  private final int hostCount;
  private final String description;
  private final Optional<NodeGrid> nodeGrid;

  Topology(List<Vertex> vertices, List<Link> links, List<List<Link>> ports, String description,
           Optional<NodeGrid> nodeGrid) {
    this.vertices = List.copyOf(vertices);
    this.links = List.copyOf(links);
    List<List<Link>> frozen = new ArrayList<>(ports.size());
    for (List<Link> p : ports) frozen.add(List.copyOf(p));
    this.ports = Collections.unmodifiableList(frozen);
    int hosts = 0;
    while (hosts < vertices.size() && vertices.get(hosts).kind() == VertexKind.HOST) hosts++;
    for (int i = hosts; i < vertices.size(); i++) {
      if (vertices.get(i).kind() == VertexKind.HOST) {
        throw new IllegalArgumentException("hosts must come before switches: host " + vertices.get(i).name()
            + " has id " + i + " after a switch");
      }
    }
    this.hostCount = hosts;
    this.description = description;
    nodeGrid.ifPresent(grid -> {
      if (grid.nodeCount() != hostCount) {
        throw new IllegalArgumentException("a node grid of " + grid.nodeCount() + " nodes does not fit "
            + hostCount + " hosts");
      }
    });
    this.nodeGrid = nodeGrid;
  }

  public List<Vertex> vertices() {
    return vertices;
  }

  public Vertex vertex(int id) {
    return vertices.get(id);
  }

  @Override
  public int vertexCount() {
    return vertices.size();
  }

  public List<Link> links() {
    return links;
  }

  /** Outgoing links of {@code vertex}, indexed by port number. */
  public List<Link> ports(int vertex) {
    return ports.get(vertex);
  }

  @Override
  public int hostCount() {
    return hostCount;
  }

  @Override
  public int portCount(int vertex) {
    return ports.get(vertex).size();
  }

  @Override
  public int neighbour(int vertex, int port) {
    return ports.get(vertex).get(port).to();
  }

  @Override
  public String vertexName(int vertex) {
    return vertices.get(vertex).name();
  }

  public boolean isHost(int vertex) {
    return vertex < hostCount;
  }

  /** The tier of vertex {@code id}. */
  public Tier tier(int id) {
    return vertices.get(id).tier();
  }

  /**
   * The top-of-rack switch host {@code host} hangs off: its one neighbour that is a {@link Tier#TOR} switch (on a
   * rail-optimized leaf-spine, its rail leaf, whether or not the host also has a server switch); else -1 (direct
   * networks, switches outside any tier, or a host under several TORs).
   */
  public int torOf(int host) {
    int tor = -1;
    for (Link link : ports.get(host)) {
      if (vertices.get(link.to()).tier() != Tier.TOR) continue;
      if (tor >= 0) return -1;
      tor = link.to();
    }
    return tor;
  }

  /** Devices of a fabric built on this topology: one per vertex (NICs and switches) and a compute node per host. */
  public int deviceCount() {
    return vertices.size() + hostCount;
  }

  /** The device id of host {@code host}'s NIC: the host's vertex id. */
  public int nicDevice(int host) {
    return host;
  }

  /** The device id of host {@code host}'s compute node: after every vertex. */
  public int computeNodeDevice(int host) {
    return vertices.size() + host;
  }

  /** True when device {@code device} is a compute node (else it is the NIC or switch of the vertex with its id). */
  public boolean isComputeNode(int device) {
    return device >= vertices.size();
  }

  /** The host of compute node {@code device}. */
  public int hostOfComputeNode(int device) {
    return device - vertices.size();
  }

  /**
   * How the kind lays its hosts out on a grid, when it does (mesh, torus, group-ring, prism, optical cluster of
   * full-mesh servers): what placement cuts into blocks. Empty for the other kinds.
   */
  public Optional<NodeGrid> nodeGrid() {
    return nodeGrid;
  }

  /** The link in the opposite direction of {@code link}. */
  public Link reverse(Link link) {
    return ports.get(link.to()).get(link.toPort());
  }

  /** Smallest latency of any link, the bound on the engine's lookahead. */
  public long minLatencyPs() {
    long min = Long.MAX_VALUE;
    for (Link l : links) min = Math.min(min, l.spec().latencyPs());
    return min;
  }

  /** One line naming the topology, e.g. {@code leaf-spine: 16 hosts, 4 TORs (4 hosts each), 2 spines}. */
  @Override
  public String description() {
    return description;
  }

  @Override
  public String toString() {
    return description;
  }
}
