package io.fabemu.fabric;

import io.fabemu.collectives.WorkloadSpec;
import io.fabemu.core.ethernet.EthernetSpec;
import io.fabemu.core.fault.FaultPlan;
import io.fabemu.core.link.PacketDropSpec;
import io.fabemu.core.rings.RingEmbedding;
import io.fabemu.core.topology.TopologySpec;
import io.fabemu.core.traffic.TrafficSpec;

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
 * @param traffic  synthetic traffic on a router network (the NICs inject it, the ranks run nothing); null when the
 *                 scenario runs its collective workload
 * @param faults   the fault plan ({@code faults.events}) with its detection, repair and retransmission settings;
 *                 {@link FaultPlan#NONE} when nothing fails
 * @param ethernet the I/O nodes and the external Ethernet (router networks only); null when the scenario has no
 *                 {@code ethernet} section
 * @param rings    the directed rings of the embedded-ring algorithms; null when the workload runs none of them and
 *                 the scenario has no {@code rings} section
 */
public record ScenarioSpec(String name, String source, long seed, TopologySpec topology, DeviceSpec devices,
                           WorkloadSpec workload, java.util.List<PacketDropSpec> packetDrops, TrafficSpec traffic,
                           FaultPlan faults, EthernetSpec ethernet, RingEmbedding rings) {

  public ScenarioSpec {
    packetDrops = java.util.List.copyOf(packetDrops);
    faults = faults == null ? FaultPlan.NONE : faults;
  }

  /** A scenario without a ring embedding. */
  public ScenarioSpec(String name, String source, long seed, TopologySpec topology, DeviceSpec devices,
                      WorkloadSpec workload, java.util.List<PacketDropSpec> packetDrops, TrafficSpec traffic,
                      FaultPlan faults, EthernetSpec ethernet) {
    this(name, source, seed, topology, devices, workload, packetDrops, traffic, faults, ethernet, null);
  }

  /** A scenario without I/O nodes. */
  public ScenarioSpec(String name, String source, long seed, TopologySpec topology, DeviceSpec devices,
                      WorkloadSpec workload, java.util.List<PacketDropSpec> packetDrops, TrafficSpec traffic,
                      FaultPlan faults) {
    this(name, source, seed, topology, devices, workload, packetDrops, traffic, faults, null);
  }

  /** A scenario without a fault plan. */
  public ScenarioSpec(String name, String source, long seed, TopologySpec topology, DeviceSpec devices,
                      WorkloadSpec workload, java.util.List<PacketDropSpec> packetDrops, TrafficSpec traffic) {
    this(name, source, seed, topology, devices, workload, packetDrops, traffic, FaultPlan.NONE);
  }

  /** A scenario that runs its collective workload. */
  public ScenarioSpec(String name, String source, long seed, TopologySpec topology, DeviceSpec devices,
                      WorkloadSpec workload, java.util.List<PacketDropSpec> packetDrops) {
    this(name, source, seed, topology, devices, workload, packetDrops, null);
  }

  /** A scenario without injected loss. */
  public ScenarioSpec(String name, String source, long seed, TopologySpec topology, DeviceSpec devices,
                      WorkloadSpec workload) {
    this(name, source, seed, topology, devices, workload, java.util.List.of());
  }

  public ScenarioSpec withSeed(long newSeed) {
    return new ScenarioSpec(name, source, newSeed, topology, devices, workload, packetDrops, traffic, faults,
        ethernet, rings);
  }

  /** The same scenario running synthetic traffic {@code newTraffic} instead of its collective workload. */
  public ScenarioSpec withTraffic(TrafficSpec newTraffic) {
    return new ScenarioSpec(name, source, seed, topology, devices, workload, packetDrops, newTraffic, faults,
        ethernet, rings);
  }

  /** The same scenario running {@code newWorkload} (e.g. on sizes only from the size the heap cannot hold). */
  public ScenarioSpec withWorkload(WorkloadSpec newWorkload) {
    return new ScenarioSpec(name, source, seed, topology, devices, newWorkload, packetDrops, traffic, faults,
        ethernet, rings);
  }

  /** The same scenario with fault plan {@code newFaults}. */
  public ScenarioSpec withFaults(FaultPlan newFaults) {
    return new ScenarioSpec(name, source, seed, topology, devices, workload, packetDrops, traffic, newFaults,
        ethernet, rings);
  }

  /** Whether anything fails in the run (a fault plan with events). */
  public boolean hasFaults() {
    return !faults.isEmpty();
  }

  /**
   * Whether a run of this scenario also runs its {@link #baseline()}: it has faults, and its settings do not turn
   * the baseline off ({@code faults.baseline = false}).
   */
  public boolean runsBaseline() {
    return hasFaults() && faults.settings().baseline();
  }

  /**
   * The same scenario without its fault events, its transport and management node still on
   * ({@link FaultPlan#withoutEvents}): the run the faulted one's collectives are compared with.
   */
  public ScenarioSpec baseline() {
    return withFaults(faults.withoutEvents());
  }

  /** Whether the NICs run synthetic traffic (and the ranks nothing). */
  public boolean runsTraffic() {
    return traffic != null;
  }
}
