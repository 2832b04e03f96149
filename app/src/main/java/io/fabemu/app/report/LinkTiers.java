package io.fabemu.app.report;

import io.fabemu.core.topology.Topology;
import java.util.List;

/**
 * Names and tiers of a link's ends, from the topology: a device's name ({@code tor0}, {@code device7} without a
 * topology) and its tier (host, tor, aggregation (a fat-tree's middle tier), spine, switch; node for the compute
 * nodes beyond the topology's vertices), with the order tiers are shown in. What the link sections share, so that
 * their tables and heat maps agree.
 */
final class LinkTiers {
  private static final List<String> ORDER = List.of("host", "tor", "aggregation", "spine", "switch", "node", "device");

  private final Topology topology;

  /** @param topology the fabric; may be null (devices then named by id, all of tier {@code device}) */
  LinkTiers(Topology topology) {
    this.topology = topology;
  }

  String name(int device) {
    if (topology != null && device >= 0 && device < topology.vertexCount()) return topology.vertex(device).name();
    return "device" + device;
  }

  String tier(int device) {
    if (topology == null) return "device";
    if (device < 0 || device >= topology.vertexCount()) return "node";
    return switch (topology.tier(device)) {
      case HOST -> "host";
      case TOR -> "tor";
      case AGGREGATION -> "aggregation";
      case SPINE -> "spine";
      case NONE -> "switch";
    };
  }

  /** The position of {@code tier} in the order tiers are shown (unknown tiers last). */
  static int order(String tier) {
    int i = ORDER.indexOf(tier);
    return i < 0 ? ORDER.size() : i;
  }
}
