package io.fabemu.fabric;

import io.fabemu.collectives.WorkloadSpec;
import io.fabemu.core.link.PacketDropSpec;
import io.fabemu.core.topology.TopologySpec;

/**
 * A whole scenario, checked and immutable.
 *
 * @param name     short name for reports
 * @param source   where it was read from (file path), for messages
 * @param seed     seed of the input data (the only random choice in a run)
 * @param topology the fabric
 * @param devices  device timing
 * @param workload what the ranks run
 * @param packetDrops injected loss on links (INC packets only)
 */
public record ScenarioSpec(String name, String source, long seed, TopologySpec topology, DeviceSpec devices,
                           WorkloadSpec workload, java.util.List<PacketDropSpec> packetDrops) {

  public ScenarioSpec {
    packetDrops = java.util.List.copyOf(packetDrops);
  }

  /** A scenario without injected loss. */
  public ScenarioSpec(String name, String source, long seed, TopologySpec topology, DeviceSpec devices,
                      WorkloadSpec workload) {
    this(name, source, seed, topology, devices, workload, java.util.List.of());
  }

  public ScenarioSpec withSeed(long newSeed) {
    return new ScenarioSpec(name, source, newSeed, topology, devices, workload, packetDrops);
  }
}
