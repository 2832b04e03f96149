package io.fabemu.core.topology;

import io.fabemu.core.routing.FatTreeRouting;
import io.fabemu.core.routing.RoutingTable;
import io.fabemu.core.topology.Topology.Tier;
import java.util.Optional;

/**
 * A three-tier fat-tree: {@code pods} pods, each of {@code leavesPerPod} leaves (top-of-rack switches, with
 * {@code hostsPerLeaf} hosts each) and {@code aggregationsPerPod} aggregation switches, every leaf cabled to every
 * aggregation of its pod; over the pods a core layer of {@code cores} switches, aggregation {@code j} of every pod
 * cabled to cores {@code j * C / A .. (j + 1) * C / A - 1} (C cores, A aggregations per pod: the standard k-ary
 * wiring, so core {@code c} reaches every pod through its aggregation {@code c / (C / A)}). One pod with no cores is a
 * two-tier tree; more pods reach each other only through the cores. Build one with {@link #builder()}: its eight
 * components are many and of like types.
 *
 * <p>Numbering ({@link #build()}): hosts first, host {@code (pod * leavesPerPod + leaf) * hostsPerLeaf + i} named
 * {@code host<n>}; then the leaves {@code leaf<n>}, leaf {@code n = pod * leavesPerPod + leaf} (tier {@link Tier#TOR});
 * then the aggregations {@code agg<n>}, {@code n = pod * aggregationsPerPod + j} (tier {@link Tier#AGGREGATION}); then
 * the cores {@code core<c>} (tier {@link Tier#SPINE}). Cabling order, which fixes every port: all host cables (host
 * order), then every leaf to the aggregations of its pod (pods, leaves, aggregations in order), then every
 * aggregation to its cores (pods, aggregations, cores in order). So a host's only port (0) goes to its leaf; a leaf's
 * ports are its hosts in order, then its pod's aggregations in order; an aggregation's ports are its pod's leaves in
 * order, then its cores in order; core {@code c}'s port {@code p} goes to pod {@code p}'s aggregation
 * {@code c / (C / A)}. Every port list is in neighbour order, and no two vertices share two cables.
 *
 * <p>The record checks each component on its own (counts at least 1, cores at least 0, links given); the rules across
 * them ({@link #shapeProblem()}: the core count against the aggregations and the pods, the size) are checked by
 * {@link #build()} and, naming the scenario key, by the scenario loader, from the same method.
 *
 * @param pods               pods, at least 1
 * @param leavesPerPod       leaves (TORs) in each pod, at least 1
 * @param aggregationsPerPod aggregation switches in each pod (A), at least 1
 * @param cores              core switches (C), at least 0; a multiple of A; at least 1 with more than one pod
 * @param hostsPerLeaf       hosts under each leaf, at least 1
 * @param hostLink           host-leaf cables
 * @param leafLink           leaf-aggregation cables
 * @param coreLink           aggregation-core cables; may be null when {@code cores} is 0
 */
public record FatTreeSpec(int pods, int leavesPerPod, int aggregationsPerPod, int cores, int hostsPerLeaf,
                          LinkSpec hostLink, LinkSpec leafLink, LinkSpec coreLink) implements TopologySpec {

  public static final String CONFIG_NAME = "fat-tree";

  public FatTreeSpec {
    requireAtLeast("pods", pods, 1);
    requireAtLeast("leaves-per-pod", leavesPerPod, 1);
    requireAtLeast("aggregations-per-pod", aggregationsPerPod, 1);
    requireAtLeast("cores", cores, 0);
    requireAtLeast("hosts-per-leaf", hostsPerLeaf, 1);
    requireLink("host-link", hostLink);
    requireLink("leaf-link", leafLink);
    if (cores > 0) requireLink("core-link", coreLink);
  }

  /** A rule across the components that a shape breaks: the key it is reported at, and why. */
  public record ShapeProblem(String key, String reason) {}

  /**
   * The first rule across the components this shape breaks, if any: {@code cores} a multiple of
   * {@code aggregations-per-pod}; at least one core with more than one pod; vertices and devices that an {@code int}
   * numbers. {@link #build()} refuses such a shape with the reason; the scenario loader at the key.
   */
  public Optional<ShapeProblem> shapeProblem() {
    if (cores % aggregationsPerPod != 0) {
      return Optional.of(new ShapeProblem("cores", cores + " is not a multiple of aggregations-per-pod ("
          + aggregationsPerPod + "): aggregation j of every pod links to cores j*C/A .. (j+1)*C/A-1"));
    }
    if (pods > 1 && cores == 0) {
      return Optional.of(new ShapeProblem("cores", "must be at least 1 with " + pods + " pods, which reach each other"
          + " only through the cores (one pod with no cores is a two-tier tree)"));
    }
    long hosts = (long) pods * leavesPerPod * hostsPerLeaf;
    long switches = (long) pods * (leavesPerPod + (long) aggregationsPerPod) + cores;
    // A fabric's devices (a NIC and a compute node per host, one per switch) are numbered by int.
    if (2 * hosts + switches > Integer.MAX_VALUE) {
      return Optional.of(new ShapeProblem("pods", pods + " pods x " + leavesPerPod + " leaves x " + hostsPerLeaf
          + " hosts with " + switches + " switches is too large: at most " + Integer.MAX_VALUE + " devices"));
    }
    return Optional.empty();
  }

  /**
   * {@code pods * leavesPerPod * hostsPerLeaf} (saturating at {@link Integer#MAX_VALUE}; {@link #build()} refuses
   * that).
   */
  @Override
  public int hosts() {
    return Topologies.saturatedProduct(pods, leavesPerPod, hostsPerLeaf);
  }

  /** Leaves of the whole fabric. */
  public int leaves() {
    return pods * leavesPerPod;
  }

  /** Cores each aggregation switch links to, {@code C / A}. */
  public int coresPerAggregation() {
    return cores / aggregationsPerPod;
  }

  @Override
  public String configName() {
    return CONFIG_NAME;
  }

  /**
   * The fabric, numbered and cabled as the type's comment says.
   *
   * @throws IllegalArgumentException naming the kind and the rule when {@link #shapeProblem()} finds one
   */
  @Override
  public Topology build() {
    shapeProblem().ifPresent(p -> {
      throw new IllegalArgumentException(CONFIG_NAME + " " + p.key() + ": " + p.reason());
    });
    int hosts = hosts();
    int leaves = leaves();
    int aggregations = pods * aggregationsPerPod;
    int firstLeaf = hosts;
    int firstAggregation = firstLeaf + leaves;
    int firstCore = firstAggregation + aggregations;
    int perAggregation = coresPerAggregation();
    TopologyBuilder b = new TopologyBuilder();
    for (int h = 0; h < hosts; h++) b.addHost("host" + h);
    for (int l = 0; l < leaves; l++) b.addSwitch("leaf" + l, Tier.TOR);
    for (int a = 0; a < aggregations; a++) b.addSwitch("agg" + a, Tier.AGGREGATION);
    for (int c = 0; c < cores; c++) b.addSwitch("core" + c, Tier.SPINE);
    // All host cables first: that gives every leaf its host ports before any aggregation port.
    for (int h = 0; h < hosts; h++) b.connect(h, firstLeaf + h / hostsPerLeaf, hostLink);
    for (int l = 0; l < leaves; l++) {
      int pod = l / leavesPerPod;
      for (int j = 0; j < aggregationsPerPod; j++) {
        b.connect(firstLeaf + l, firstAggregation + pod * aggregationsPerPod + j, leafLink);
      }
    }
    for (int a = 0; a < aggregations; a++) {
      int j = a % aggregationsPerPod;
      for (int k = 0; k < perAggregation; k++) b.connect(firstAggregation + a, firstCore + j * perAggregation + k,
          coreLink);
    }
    return b.build(CONFIG_NAME + ": " + count(pods, "pod", "pods") + " x " + count(leavesPerPod, "leaf", "leaves")
        + " x " + count(hostsPerLeaf, "host", "hosts") + " (" + count(hosts, "host", "hosts") + "), "
        + count(aggregationsPerPod, "aggregation", "aggregations") + " per pod, " + count(cores, "core", "cores"));
  }

  private static String count(int n, String one, String many) {
    return n + " " + (n == 1 ? one : many);
  }

  /** Routes from the numbering (constant time per lookup, no per-destination table). */
  @Override
  public RoutingTable routing(Topology topology) {
    return FatTreeRouting.of(topology, pods, leavesPerPod, aggregationsPerPod, cores, hostsPerLeaf);
  }

  /** Leaves, aggregations and cores, as built. */
  @Override
  public long switchCount() {
    return (long) pods * (leavesPerPod + (long) aggregationsPerPod) + cores;
  }

  /** A cable per host, one from every leaf to every aggregation of its pod, one from every aggregation to its cores. */
  @Override
  public long cableCount() {
    return hosts() + (long) pods * leavesPerPod * aggregationsPerPod + (long) pods * cores;
  }

  /**
   * Under one leaf: host link, leaf, host link (2); else up to an aggregation and down (4); in another pod up to a
   * core and down (6). A ring's neighbours leave their leaf only at its last host and their pod only at its last
   * leaf's; any other partner is as likely anywhere.
   */
  @Override
  public double meanLinkHops(boolean neighbours) {
    double hosts = hosts();
    double leafAway = leaves() == 1 ? 0 : neighbours ? 1.0 / hostsPerLeaf : 1 - hostsPerLeaf / hosts;
    double perPod = (double) leavesPerPod * hostsPerLeaf;
    double podAway = pods == 1 ? 0 : neighbours ? 1 / perPod : 1 - perPod / hosts;
    return 2 + 2 * leafAway + 2 * podAway;
  }

  /**
   * A leaf's hosts: the placement keeps a TOR (the switch every host's first port is cabled to) with its hosts'
   * devices and places aggregations and cores alone, as a leaf-spine's spines; it has no notion of a pod, so a pod
   * would overstate what stays together.
   */
  @Override
  public int hostsPerPlacementGroup() {
    return hostsPerLeaf;
  }

  /** A builder with no component set: every count 0 and every link null, which the record refuses until set. */
  public static Builder builder() {
    return new Builder();
  }

  /** A builder holding this spec's values, to change some of them. */
  public Builder toBuilder() {
    return new Builder().pods(pods).leavesPerPod(leavesPerPod).aggregationsPerPod(aggregationsPerPod).cores(cores)
        .hostsPerLeaf(hostsPerLeaf).hostLink(hostLink).leafLink(leafLink).coreLink(coreLink);
  }

  private static void requireAtLeast(String parameter, int value, int min) {
    if (value < min) {
      throw new IllegalArgumentException(CONFIG_NAME + " needs " + parameter + " >= " + min + ", got " + value);
    }
  }

  private static void requireLink(String role, LinkSpec link) {
    if (link == null) throw new IllegalArgumentException(CONFIG_NAME + " needs a " + role + " spec, got none");
  }

  /** Names each component of a {@link FatTreeSpec}; {@link #build()} checks them as the record does. */
  public static final class Builder {
    private int pods;
    private int leavesPerPod;
    private int aggregationsPerPod;
    private int cores;
    private int hostsPerLeaf;
    private LinkSpec hostLink;
    private LinkSpec leafLink;
    private LinkSpec coreLink;

    private Builder() {}

    public Builder pods(int value) {
      this.pods = value;
      return this;
    }

    public Builder leavesPerPod(int value) {
      this.leavesPerPod = value;
      return this;
    }

    public Builder aggregationsPerPod(int value) {
      this.aggregationsPerPod = value;
      return this;
    }

    public Builder cores(int value) {
      this.cores = value;
      return this;
    }

    public Builder hostsPerLeaf(int value) {
      this.hostsPerLeaf = value;
      return this;
    }

    public Builder hostLink(LinkSpec value) {
      this.hostLink = value;
      return this;
    }

    public Builder leafLink(LinkSpec value) {
      this.leafLink = value;
      return this;
    }

    public Builder coreLink(LinkSpec value) {
      this.coreLink = value;
      return this;
    }

    public FatTreeSpec build() {
      return new FatTreeSpec(pods, leavesPerPod, aggregationsPerPod, cores, hostsPerLeaf, hostLink, leafLink,
          coreLink);
    }
  }
}
