package io.fabemu.core.rings;

import io.fabemu.core.topology.PrismSpec;
import io.fabemu.core.topology.Topology;
import io.fabemu.core.topology.TopologySpec;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The directed rings a run's embedded-ring algorithms use, resolved once when the scenario is read: the prism's face
 * rule, a search, or the rings the user listed, checked ({@link RingCheck}) against the topology's host-to-host
 * links.
 *
 * @param source   how the rings were found
 * @param rings    the rings, each a cyclic sequence of every host
 * @param summary  one line for users: how many rings, from where, and whether they are arc-disjoint
 * @param warnings one line per hop that more rings use than it has links (the rings share its bandwidth), then the
 *                 worst sharing; empty when the rings are arc-disjoint
 * @param lineFragments fragments the streaming line algorithms cut a vector into; 0 for one per ring member (the
 *                 size of a ring's chunks)
 */
public record RingEmbedding(Source source, List<List<Integer>> rings, String summary, List<String> warnings,
                            int lineFragments) {
  /** Most hosts a ring embedding may have: checking keeps a host x host matrix of arcs. */
  public static final int MAX_HOSTS = 4_096;

  public RingEmbedding {
    rings = rings.stream().map(List::copyOf).toList();
    warnings = List.copyOf(warnings);
  }

  /** An embedding whose line algorithms stream one fragment per ring member. */
  public RingEmbedding(Source source, List<List<Integer>> rings, String summary, List<String> warnings) {
    this(source, rings, summary, warnings, 0);
  }

  /** The same rings, the line algorithms streaming {@code fragments} fragments (0: one per ring member). */
  public RingEmbedding withLineFragments(int fragments) {
    return new RingEmbedding(source, rings, summary, warnings, fragments);
  }

  /** Where the rings come from. */
  public enum Source {
    /** The face rule on a prism, a search on any other topology. */
    AUTO,
    /** The prism's face rule ({@link PrismRings#faceRule}). */
    FACE_RULE,
    /** The arc-disjoint ring search ({@link RingSearch}). */
    SEARCH,
    /** The rings the scenario lists. */
    LISTED;

    /** The name the scenario's {@code rings.source} uses. */
    public String configName() {
      return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    /** The source named {@code name}, or null. */
    public static Source fromConfigName(String name) {
      for (Source s : values()) {
        if (s.configName().equals(name)) return s;
      }
      return null;
    }
  }

  /**
   * Resolves the rings of {@code topology}.
   *
   * @param spec        the topology's spec (a prism allows the face rule)
   * @param source      where the rings come from
   * @param listed      the user's rings ({@link Source#LISTED}); ignored otherwise
   * @param searchSteps the search's step limit ({@link Source#SEARCH}, or {@link Source#AUTO} off a prism)
   * @param maxRings    most rings the search looks for (0: as many as there can be)
   * @throws IllegalArgumentException with one line saying why no usable rings result: too many hosts, the face
   *                                  rule off a prism, no ring found, or a listed ring that is not Hamiltonian or
   *                                  hops where no link is
   */
  public static RingEmbedding resolve(TopologySpec spec, Topology topology, Source source, List<List<Integer>> listed,
                                      long searchSteps, int maxRings) {
    int hosts = topology.hostCount();
    if (hosts > MAX_HOSTS) {
      throw new IllegalArgumentException("ring embedding is limited to " + MAX_HOSTS + " hosts; this topology has "
          + hosts);
    }
    HostGraph graph = HostGraph.of(topology);
    Source used = source == Source.AUTO ? (spec.prism().isPresent() ? Source.FACE_RULE : Source.SEARCH) : source;
    List<List<Integer>> rings;
    String origin;
    switch (used) {
      case FACE_RULE -> {
        PrismSpec prism = spec.prism().orElseThrow(() -> new IllegalArgumentException("the face rule needs a prism;"
            + " this topology is " + spec.configName() + " (use source = search or list the rings)"));
        rings = PrismRings.faceRule(prism);
        origin = "the face rule";
      }
      case SEARCH -> {
        if (hosts > 1 && graph.ringUpperBound() == 0) {
          // Say why rather than report an empty search: the usual cause is a switched topology.
          throw new IllegalArgumentException("no ring is possible: a host has no direct link to another host (rings "
              + "run on host-to-host links, never through a switch), as on " + spec.configName() + "; use a topology "
              + "that cables hosts to each other (prism, ring, full-mesh)");
        }
        RingSearch.Result found = RingSearch.search(graph, maxRings == 0 ? Integer.MAX_VALUE : maxRings, searchSteps);
        if (found.rings().isEmpty()) throw new IllegalArgumentException(found.message());
        rings = found.rings();
        origin = "the search: " + found.message();
      }
      case LISTED -> {
        if (listed.isEmpty()) throw new IllegalArgumentException("source = listed, but no ring is listed");
        rings = listed;
        origin = "the scenario's list";
      }
      default -> throw new IllegalStateException("unresolved source " + used);
    }
    RingCheck.Result check = RingCheck.check(graph, rings);
    if (!check.valid()) throw new IllegalArgumentException(check.errors().get(0));
    List<String> warnings = new ArrayList<>(check.warnings());
    if (!check.arcDisjoint()) {
      warnings.add(check.sharedArcs() + (check.sharedArcs() == 1 ? " hop carries" : " hops carry") + " more rings "
          + "than links; the worst link carries " + check.maxSharing() + " rings, each at 1/" + check.maxSharing()
          + " of its rate there");
    }
    String summary = rings.size() + " directed ring" + (rings.size() == 1 ? "" : "s") + " of " + hosts + " hosts from "
        + origin + (check.arcDisjoint() ? ", arc-disjoint" : ", sharing links");
    return new RingEmbedding(used, rings, summary, warnings);
  }
}
