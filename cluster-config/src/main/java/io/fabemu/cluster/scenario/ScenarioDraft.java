package io.fabemu.cluster.scenario;

import com.typesafe.config.Config;
import io.fabemu.collectives.WorkloadSpec;
import io.fabemu.core.ethernet.EthernetSpec;
import io.fabemu.core.fault.FaultPlan;
import io.fabemu.core.link.PacketDropSpec;
import io.fabemu.core.placement.PlacementOverride;
import io.fabemu.core.rings.RingEmbedding;
import io.fabemu.core.router.RouterSpec;
import io.fabemu.core.traffic.TrafficSpec;
import io.fabemu.fabric.DeviceSpec;
import io.fabemu.fabric.IncSpec;
import io.fabemu.fabric.ScenarioSpec;
import io.fabemu.nic.NicSpec;
import io.fabemu.node.HostSpec;
import io.fabemu.switching.SwitchSpec;
import java.util.List;

/**
 * The parts of a scenario the sections have read so far, and its echo.
 *
 * <p>Contract: each part is set by one section and read by the sections after it ({@link ScenarioSection}); a part
 * not read yet is null. The echo starts as the merged scenario; sections adjust it so that it holds what the run uses
 * and loads again to an equal spec.
 */
final class ScenarioDraft {
  private String name;
  private long seed;
  private CheckedTopology topology;
  private HostSpec host;
  private NicSpec nic;
  private SwitchSpec switchSpec;
  private RouterSpec router;
  private long routerStallLimitPs;
  private IncSpec inc;
  private WorkloadSpec workload;
  private List<PacketDropSpec> packetDrops;
  private TrafficSpec traffic;
  private FaultPlan faults = FaultPlan.NONE;
  private EthernetSpec ethernet;
  private RingEmbedding rings;
  /** The scenario's {@code cluster.placement}; null for the automatic plan. */
  private PlacementOverride placement;
  /** A fault plan with events placed in cases, until {@link CaseTimedFaultsSection} resolves it; else null. */
  private CaseTimedFaultsSection.Pending caseFaults;
  private CaseSchedule caseSchedule = CaseSchedule.NONE;
  private Config echo;

  ScenarioDraft(Config merged) {
    this.echo = merged;
  }

  void name(String name) {
    this.name = name;
  }

  void seed(long seed) {
    this.seed = seed;
  }

  CheckedTopology topology() {
    return topology;
  }

  void topology(CheckedTopology topology) {
    this.topology = topology;
  }

  HostSpec host() {
    return host;
  }

  void host(HostSpec host) {
    this.host = host;
  }

  NicSpec nic() {
    return nic;
  }

  void nic(NicSpec nic) {
    this.nic = nic;
  }

  void switchSpec(SwitchSpec switchSpec) {
    this.switchSpec = switchSpec;
  }

  RouterSpec router() {
    return router;
  }

  void router(RouterSpec router, long routerStallLimitPs) {
    this.router = router;
    this.routerStallLimitPs = routerStallLimitPs;
  }

  /** The INC settings; null when INC is off. */
  IncSpec inc() {
    return inc;
  }

  void inc(IncSpec inc) {
    this.inc = inc;
  }

  WorkloadSpec workload() {
    return workload;
  }

  void workload(WorkloadSpec workload) {
    this.workload = workload;
  }

  void packetDrops(List<PacketDropSpec> packetDrops) {
    this.packetDrops = packetDrops;
  }

  /** The synthetic traffic; null when the scenario runs its workload (no {@code traffic} section written). */
  TrafficSpec traffic() {
    return traffic;
  }

  void traffic(TrafficSpec traffic) {
    this.traffic = traffic;
  }

  void faults(FaultPlan faults) {
    this.faults = faults;
  }

  CaseTimedFaultsSection.Pending caseFaults() {
    return caseFaults;
  }

  void caseFaults(CaseTimedFaultsSection.Pending caseFaults) {
    this.caseFaults = caseFaults;
  }

  void caseSchedule(CaseSchedule caseSchedule) {
    this.caseSchedule = caseSchedule;
  }

  /** The I/O nodes and external Ethernet; null without an {@code ethernet} section. */
  void ethernet(EthernetSpec ethernet) {
    this.ethernet = ethernet;
  }

  /** The ring embedding; null when nothing needs one. */
  void rings(RingEmbedding rings) {
    this.rings = rings;
  }

  /** The placement groups of each member; null for the automatic plan. */
  void placement(PlacementOverride placement) {
    this.placement = placement;
  }

  Config echo() {
    return echo;
  }

  void echo(Config echo) {
    this.echo = echo;
  }

  /** The scenario once every section has read its part. */
  LoadedScenario toLoadedScenario(String source) {
    ScenarioSpec spec = ScenarioSpec.builder(name, source, seed, topology.spec(),
            new DeviceSpec(host, nic, switchSpec, inc, router, routerStallLimitPs), workload)
        .packetDrops(packetDrops).traffic(traffic).faults(faults).ethernet(ethernet).rings(rings).placement(placement)
        .build();
    return new LoadedScenario(spec, echo, caseSchedule);
  }
}
