package io.fabemu.core.spec;

/**
 * A whole scenario, checked and immutable.
 *
 * @param name     short name for reports
 * @param source   where it was read from (file path), for messages
 * @param seed     seed of the input data (the only random choice in a run)
 * @param topology the fabric
 * @param devices  device timing
 * @param workload what the ranks run
 */
public record ScenarioSpec(String name, String source, long seed, TopologySpec topology, DeviceSpec devices,
                           WorkloadSpec workload) {

  public ScenarioSpec withSeed(long newSeed) {
    return new ScenarioSpec(name, source, newSeed, topology, devices, workload);
  }
}
