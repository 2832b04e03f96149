package io.fabemu.cluster.scenario;

import io.fabemu.collectives.LineProtocol;
import io.fabemu.collectives.ProtocolCost;
import io.fabemu.collectives.ProtocolSpec;
import io.fabemu.core.topology.FatTreeSpec;
import io.fabemu.core.topology.LeafSpineSpec;
import io.fabemu.core.topology.RailLeafSpineSpec;
import io.fabemu.core.topology.TopologySpec;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code workload.protocol} and {@code workload.protocol-costs}: the protocol the messages travel by (NCCL's
 * {@code simple}, {@code ll} or {@code ll128}, or {@code auto}: each case the cheapest by the tuner's cost model) and
 * what each costs, its latency per message and its payload rate per engine ({@link ProtocolSpec}). The tuner's rate
 * is the link a ring's steps cross, taken from the topology: a GPU's link to its server switch when every host is in
 * one server of a fabric with server switches, else the host link ({@code topology.host-link}, a NIC's); only the
 * kinds with a host link take {@code auto}.
 */
final class ProtocolSection {
  static final String AUTO = "auto";
  /** The slowest engine a protocol may have, other than none: 1 Gb/s. */
  static final long MIN_RATE_BITS_PER_SECOND = 1_000_000_000L;
  /** The topology kinds whose hosts have a host link, which {@code auto} tunes for. */
  static final List<String> HOST_LINK_KINDS = List.of(LeafSpineSpec.CONFIG_NAME, FatTreeSpec.CONFIG_NAME,
      RailLeafSpineSpec.CONFIG_NAME);

  private ProtocolSection() {}

  /** The protocols of a workload on {@code topology}. */
  static ProtocolSpec spec(ScenarioReader in, TopologySpec topology) {
    List<LineProtocol> candidates = in.enumValue("workload.protocol", ProtocolSection::candidates, names());
    // Only a choice needs the tuner's rate; with one candidate it stays at the default's, so that a scenario without
    // protocols loads to the very default (ProtocolSpec.SIMPLE_ONLY).
    long tunerBitsPerSecond = ProtocolSpec.SIMPLE_ONLY.tunerBitsPerSecond();
    if (candidates.size() > 1) {
      if (!HOST_LINK_KINDS.contains(topology.configName())) {
        throw in.error("workload.protocol", "auto tunes for the host link, which a " + topology.configName()
            + " has none of (only " + String.join(", ", HOST_LINK_KINDS) + "): choose simple, ll or ll128");
      }
      int gpusPerServer = topology.gpuDirectHostsPerServer();
      String rateKey = gpusPerServer > 0 && topology.hosts() <= gpusPerServer ? "topology.server-switch.link"
          : "topology.host-link";
      tunerBitsPerSecond = in.link(rateKey).bandwidthBitsPerSecond();
    }
    return new ProtocolSpec(candidates, cost(in, LineProtocol.SIMPLE), cost(in, LineProtocol.LL),
        cost(in, LineProtocol.LL128), tunerBitsPerSecond);
  }

  /**
   * {@code workload.protocol-costs.<protocol>}: its latency and its rate per engine (0: no limit; else at least
   * {@link #MIN_RATE_BITS_PER_SECOND}, so that the engine time of any message fits the virtual clock).
   */
  private static ProtocolCost cost(ScenarioReader in, LineProtocol protocol) {
    String path = "workload.protocol-costs." + protocol.configName() + ".";
    long rate = in.rateBitsPerSecond(path + "rate", false);
    if (rate != 0 && rate < MIN_RATE_BITS_PER_SECOND) {
      throw in.error(path + "rate", "an engine's rate is 0 (no limit) or at least 1 Gbps, got " + rate + " bit/s");
    }
    return new ProtocolCost(in.durationPs(path + "latency", false), rate);
  }

  /** Every value {@code workload.protocol} takes, for messages. */
  static List<String> names() {
    List<String> names = new ArrayList<>(LineProtocol.configNames());
    names.add(AUTO);
    return names;
  }

  /** The candidates {@code name} gives: every protocol for {@link #AUTO}, else the one named; null for no name. */
  private static List<LineProtocol> candidates(String name) {
    if (name.equals(AUTO)) return List.of(LineProtocol.values());
    LineProtocol p = LineProtocol.fromConfigName(name);
    return p == null ? null : List.of(p);
  }
}
