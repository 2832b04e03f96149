package io.fabemu.fabric;

import io.fabemu.collectives.WorkloadSpec;
import io.fabemu.core.ethernet.EthernetSpec;
import io.fabemu.core.fault.FaultPlan;
import io.fabemu.core.link.PacketDropSpec;
import io.fabemu.core.placement.PlacementOverride;
import io.fabemu.core.rings.RingEmbedding;
import io.fabemu.core.sim.RunBlueprint;
import io.fabemu.core.topology.TopologySpec;
import io.fabemu.core.traffic.TrafficSpec;
import java.util.List;

/**
 * A whole scenario, checked and immutable. Built with {@link #builder} (the six parts every scenario has) and the
 * optional parts by name; {@link #toBuilder()} copies one with changes.
 *
 * @param name     short name for reports
 * @param source   where it was read from (file path), for messages
 * @param seed     seed of the input data (the only random choice in a run)
 * @param topology the fabric
 * @param devices  device timing
 * @param workload what the ranks run
 * @param packetDrops injected loss on links (INC packets only); empty by default
 * @param traffic  synthetic traffic on a router network (the NICs inject it, the ranks run nothing); null when the
 *                 scenario runs its collective workload
 * @param faults   the fault plan ({@code faults.events}) with its detection, repair and retransmission settings;
 *                 {@link FaultPlan#NONE} when nothing fails
 * @param ethernet the I/O nodes and the external Ethernet (router networks only); null when the scenario has no
 *                 {@code ethernet} section
 * @param rings    the directed rings of the embedded-ring algorithms; null when the workload runs none of them and
 *                 the scenario has no {@code rings} section
 * @param placement the placement groups each member of a run on several members hosts ({@code cluster.placement});
 *                 null for the automatic plan. It never changes a result, only which member hosts which devices
 */
public record ScenarioSpec(String name, String source, long seed, TopologySpec topology, DeviceSpec devices,
                           WorkloadSpec workload, List<PacketDropSpec> packetDrops, TrafficSpec traffic,
                           FaultPlan faults, EthernetSpec ethernet, RingEmbedding rings,
                           PlacementOverride placement) implements RunBlueprint {

  /** The canonical constructor, for the builder (and wire decoding): use {@link #builder}. */
  public ScenarioSpec {
    packetDrops = List.copyOf(packetDrops);
    faults = faults == null ? FaultPlan.NONE : faults;
  }

  /**
   * A builder of a scenario with these parts and no optional one: no injected loss, no traffic, no faults, no I/O
   * nodes, no rings, the automatic placement.
   */
  public static Builder builder(String name, String source, long seed, TopologySpec topology, DeviceSpec devices,
                                WorkloadSpec workload) {
    return new Builder(name, source, seed, topology, devices, workload);
  }

  /** A builder holding every part of this scenario. */
  public Builder toBuilder() {
    return new Builder(name, source, seed, topology, devices, workload).packetDrops(packetDrops).traffic(traffic)
        .faults(faults).ethernet(ethernet).rings(rings).placement(placement);
  }

  /** Builds a {@link ScenarioSpec} part by part; each setter replaces that part. */
  public static final class Builder {
    private String name;
    private String source;
    private long seed;
    private TopologySpec topology;
    private DeviceSpec devices;
    private WorkloadSpec workload;
    private List<PacketDropSpec> packetDrops = List.of();
    private TrafficSpec traffic;
    private FaultPlan faults = FaultPlan.NONE;
    private EthernetSpec ethernet;
    private RingEmbedding rings;
    private PlacementOverride placement;

    private Builder(String name, String source, long seed, TopologySpec topology, DeviceSpec devices,
                    WorkloadSpec workload) {
      this.name = name;
      this.source = source;
      this.seed = seed;
      this.topology = topology;
      this.devices = devices;
      this.workload = workload;
    }

    public Builder name(String name) {
      this.name = name;
      return this;
    }

    public Builder source(String source) {
      this.source = source;
      return this;
    }

    public Builder seed(long seed) {
      this.seed = seed;
      return this;
    }

    public Builder topology(TopologySpec topology) {
      this.topology = topology;
      return this;
    }

    public Builder devices(DeviceSpec devices) {
      this.devices = devices;
      return this;
    }

    public Builder workload(WorkloadSpec workload) {
      this.workload = workload;
      return this;
    }

    public Builder packetDrops(List<PacketDropSpec> packetDrops) {
      this.packetDrops = packetDrops;
      return this;
    }

    /** Synthetic traffic instead of the collective workload; null for the workload. */
    public Builder traffic(TrafficSpec traffic) {
      this.traffic = traffic;
      return this;
    }

    /** The fault plan; null or {@link FaultPlan#NONE} when nothing fails. */
    public Builder faults(FaultPlan faults) {
      this.faults = faults;
      return this;
    }

    /** The I/O nodes; null for none. */
    public Builder ethernet(EthernetSpec ethernet) {
      this.ethernet = ethernet;
      return this;
    }

    /** The ring embedding; null for none. */
    public Builder rings(RingEmbedding rings) {
      this.rings = rings;
      return this;
    }

    /** The scenario's {@code cluster.placement}; null for the automatic plan. */
    public Builder placement(PlacementOverride placement) {
      this.placement = placement;
      return this;
    }

    public ScenarioSpec build() {
      return new ScenarioSpec(name, source, seed, topology, devices, workload, packetDrops, traffic, faults,
          ethernet, rings, placement);
    }
  }

  public ScenarioSpec withSeed(long newSeed) {
    return toBuilder().seed(newSeed).build();
  }

  /** The same scenario running synthetic traffic {@code newTraffic} instead of its collective workload. */
  public ScenarioSpec withTraffic(TrafficSpec newTraffic) {
    return toBuilder().traffic(newTraffic).build();
  }

  /** The same scenario running {@code newWorkload} (e.g. on sizes only from the size the heap cannot hold). */
  public ScenarioSpec withWorkload(WorkloadSpec newWorkload) {
    return toBuilder().workload(newWorkload).build();
  }

  /** The same scenario with fault plan {@code newFaults}. */
  public ScenarioSpec withFaults(FaultPlan newFaults) {
    return toBuilder().faults(newFaults).build();
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
