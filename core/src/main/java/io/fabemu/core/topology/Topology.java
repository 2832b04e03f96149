package io.fabemu.core.topology;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * An immutable fabric graph. Vertices are hosts (ids 0..hostCount-1, so a host's id is its host index) and
 * switches (the ids after). Every cable is two directed links. A vertex's ports are numbered in the order its
 * outgoing links were added; {@link #ports(int)} lists them.
 */
public final class Topology {

  public enum VertexKind { HOST, SWITCH }

  /**
   * @param tier 0 for hosts; 1 for top-of-rack (leaf) switches; 2 for spines
   */
  public record Vertex(int id, VertexKind kind, String name, int tier) {}

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

  Topology(List<Vertex> vertices, List<Link> links, List<List<Link>> ports, String description) {
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
  }

  public List<Vertex> vertices() {
    return vertices;
  }

  public Vertex vertex(int id) {
    return vertices.get(id);
  }

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

  public int hostCount() {
    return hostCount;
  }

  public boolean isHost(int vertex) {
    return vertex < hostCount;
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
  public String description() {
    return description;
  }

  @Override
  public String toString() {
    return description;
  }
}
