package io.fabemu.core.topology;

import io.fabemu.core.topology.Topology.Link;
import io.fabemu.core.topology.Topology.Tier;
import io.fabemu.core.topology.Topology.Vertex;
import io.fabemu.core.topology.Topology.VertexKind;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** Assembles a {@link Topology}: add every host first, then switches, then connect them. */
public final class TopologyBuilder {
  private final List<Vertex> vertices = new ArrayList<>();
  private final List<Link> links = new ArrayList<>();
  private final List<List<Link>> ports = new ArrayList<>();

  public int addHost(String name) {
    return add(VertexKind.HOST, name, Tier.HOST);
  }

  /** Adds a switch in {@code tier} ({@link Tier#NONE} for a fabric without tiers). */
  public int addSwitch(String name, Tier tier) {
    if (tier == Tier.HOST) {
      throw new IllegalArgumentException("switch " + name + " cannot be in the host tier");
    }
    return add(VertexKind.SWITCH, name, tier);
  }

  private int add(VertexKind kind, String name, Tier tier) {
    int id = vertices.size();
    vertices.add(new Vertex(id, kind, name, tier));
    ports.add(new ArrayList<>());
    return id;
  }

  /** Joins {@code a} and {@code b} with a cable: one link each way, both with {@code spec}. */
  public TopologyBuilder connect(int a, int b, LinkSpec spec) {
    if (a == b) {
      throw new IllegalArgumentException("cannot connect vertex " + a + " to itself");
    }
    if (spec.latencyPs() <= 0 || spec.bandwidthBitsPerSecond() <= 0) {
      throw new IllegalArgumentException("link latency and bandwidth must be positive: " + spec);
    }
    int portA = ports.get(a).size();
    int portB = ports.get(b).size();
    Link ab = new Link(links.size(), a, b, portA, portB, spec);
    links.add(ab);
    Link ba = new Link(links.size(), b, a, portB, portA, spec);
    links.add(ba);
    ports.get(a).add(ab);
    ports.get(b).add(ba);
    return this;
  }

  public Topology build(String description) {
    return new Topology(vertices, links, ports, description, Optional.empty());
  }

  /** The topology, whose hosts lie on {@code grid} as {@link NodeGrid} numbers them. */
  public Topology build(String description, NodeGrid grid) {
    return new Topology(vertices, links, ports, description, Optional.of(grid));
  }
}
