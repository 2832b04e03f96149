package io.fabemu.fabric.ethernet;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabemu.collectives.Algorithm;
import io.fabemu.collectives.Collective;
import io.fabemu.collectives.WorkloadSpec;
import io.fabemu.core.ethernet.AddressTable;
import io.fabemu.core.ethernet.EthernetReport;
import io.fabemu.core.ethernet.EthernetReport.IoNicCounters;
import io.fabemu.core.ethernet.EthernetSpec;
import io.fabemu.core.ethernet.MacAddress;
import io.fabemu.core.fault.FaultAction;
import io.fabemu.core.fault.FaultEvent;
import io.fabemu.core.fault.FaultPlan;
import io.fabemu.core.fault.FaultSettings;
import io.fabemu.core.link.ForwardingMode;
import io.fabemu.core.router.RouterSpec;
import io.fabemu.core.router.Switching;
import io.fabemu.core.time.Units;
import io.fabemu.core.topology.MeshSpec;
import io.fabemu.core.topology.Topology;
import io.fabemu.fabric.DeviceSpec;
import io.fabemu.fabric.Fabric;
import io.fabemu.fabric.ScenarioSpec;
import io.fabemu.fabric.result.RunResult;
import io.fabemu.nic.NicSpec;
import io.fabemu.node.HostSpec;
import io.fabemu.switching.SwitchSpec;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * I/O nodes and the external Ethernet on a 4 x 4 mesh running an Allreduce, end to end on the plain engine: frames
 * both ways, the address tables, broadcasts of unknown MACs, corrupted frames, detours and the standby I/O node.
 */
class EthernetRunTest {
  private static final FaultSettings SETTINGS = new FaultSettings(1_000_000L, 3, 1_000_000L, 100_000L, 20_000_000L,
      10);
  private static final HostSpec HOST = HostSpec.builder().sendOverheadPs(300_000L).recvOverheadPs(300_000L)
      .reduceBitsPerSecond(80 * Units.GBPS).memoryBitsPerSecond(160 * Units.GBPS).memoryLatencyPs(150_000L)
      .pcieBitsPerSecond(128 * Units.GBPS).pcieLatencyPs(250_000L).build();

  private static ScenarioSpec mesh4x4(EthernetSpec ethernet) {
    RouterSpec router = new RouterSpec(1_000L, 32, 2, 8, 1, 1, 1, 1, 2, 1, Switching.WORMHOLE);
    DeviceSpec devices = new DeviceSpec(HOST, new NicSpec(1024, 32, 100_000L, 120_000L),
        new SwitchSpec(600_000L, ForwardingMode.CUT_THROUGH), null, router, 1_000_000_000L);
    WorkloadSpec workload = WorkloadSpec.builder(Collective.ALLREDUCE, List.of(Algorithm.RECURSIVE_DOUBLING),
        List.of(16L * 1024)).iterations(4).build();
    return ScenarioSpec.builder("ethernet", "test", 27, new MeshSpec(4, 4, 1, router.channel()), devices, workload)
        .ethernet(ethernet).build();
  }

  /** 10 Gb/s cables of 2 us, 2 external hosts, frames of 200 B every 5 us from 0. */
  private static EthernetSpec ethernet(List<Integer> io, List<Integer> standby, double corrupt, int inbound,
                                       int outbound, int unknownEvery) {
    return new EthernetSpec(io, standby, 10 * Units.GBPS, 2_000_000L, 2, corrupt, inbound, outbound, unknownEvery,
        200, 5_000_000L, 0L);
  }

  /** What seed 27 draws for the broadcast test: 7 of 20 frames corrupted, 10 of the 13 good ones for nodes. */
  private static final long EXPECTED_CORRUPTED = 7;
  private static final long EXPECTED_KEPT = 10;

  private static RunResult run(ScenarioSpec spec) {
    return Fabric.build(spec).runOnPlainEngine();
  }

  private static void assertExact(RunResult result) {
    assertThat(result.complete()).as(result.incompleteReason()).isTrue();
    assertThat(result.wrongElements()).isZero();
  }

  private static long sum(EthernetReport r, java.util.function.ToLongFunction<IoNicCounters> f) {
    return r.ioNics().stream().mapToLong(f).sum();
  }

  @Test
  void framesGoBothWaysBesideTheAllreduceAndTheTablesLearnEveryNode() {
    RunResult result = run(mesh4x4(ethernet(List.of(0, 15), List.of(), 0.0, 10, 2, 5)));
    assertExact(result);
    EthernetReport e = result.ethernet();
    // Every node sent 2 frames to the external hosts, through its nearest I/O node; all arrived, all exact.
    assertThat(e.externalHosts()).extracting(EthernetReport.ExternalHostCounters::received).containsExactly(16L, 16L);
    assertThat(e.externalHosts()).extracting(EthernetReport.ExternalHostCounters::wrong).containsExactly(0L, 0L);
    assertThat(e.externalHosts()).extracting(EthernetReport.ExternalHostCounters::sent).containsExactly(10L, 10L);
    assertThat(sum(e, IoNicCounters::framesOut)).isEqualTo(32);
    // host0's NIC serves the nodes nearer to it (ties to the lower id), host15's the others.
    IoNicCounters nic0 = e.ioNics().get(0);
    IoNicCounters nic15 = e.ioNics().get(1);
    assertThat(nic0.table()).extracting(AddressTable.Entry::node).containsExactly(0, 1, 2, 3, 4, 5, 6, 8, 9, 12);
    assertThat(nic15.table()).extracting(AddressTable.Entry::node).containsExactly(7, 10, 11, 13, 14, 15);
    assertThat(nic0.table()).allMatch(x -> x.via() == -1 && x.mac() == MacAddress.ofNode(x.node()));
    // Every inbound frame came in on an enabled cable: each either hit the table or was broadcast.
    assertThat(sum(e, IoNicCounters::framesIn)).isEqualTo(20);
    assertThat(sum(e, IoNicCounters::tableHits) + sum(e, IoNicCounters::broadcasts)).isEqualTo(20);
    // Every 5th frame of a host goes to an unknown MAC: 4 broadcasts nobody keeps; 16 frames for nodes.
    assertThat(e.framesKept()).isEqualTo(16);
    assertThat(e.framesWrong()).isZero();
    assertThat(e.framesKept() + e.framesDiscarded())
        .isEqualTo(sum(e, IoNicCounters::tableHits) + 16 * sum(e, IoNicCounters::broadcasts));
    assertThat(e.framesLost()).isZero();
    assertThat(e.changes()).isEmpty();
    assertThat(run(mesh4x4(ethernet(List.of(0, 15), List.of(), 0.0, 10, 2, 5))).digest())
        .isEqualTo(result.digest());
  }

  @Test
  void withEmptyTablesEveryFrameIsBroadcastToEveryNodeOnceAndOnlyItsOwnerKeepsIt() {
    // No outbound frames: the table stays empty, so every good inbound frame is broadcast; a fifth of them go to
    // unknown MACs; one frame in five arrives with a bad FCS.
    RunResult result = run(mesh4x4(ethernet(List.of(0), List.of(), 0.2, 10, 0, 5)));
    assertExact(result);
    EthernetReport e = result.ethernet();
    IoNicCounters nic = e.ioNics().get(0);
    assertThat(nic.table()).isEmpty();
    assertThat(nic.framesIn()).isEqualTo(20);
    assertThat(e.corruptedSent()).isEqualTo(EXPECTED_CORRUPTED);
    assertThat(nic.fcsDrops()).isEqualTo(e.corruptedSent());
    assertThat(nic.tableHits()).isZero();
    assertThat(nic.broadcasts()).isEqualTo(20 - e.corruptedSent());
    // Each broadcast is one packet per node, every one of which arrived: 16 copies per frame.
    assertThat(e.routedSent()).isEqualTo(16 * nic.broadcasts());
    assertThat(e.routedArrived()).isEqualTo(e.routedSent());
    // A frame for a node is kept by that node alone (15 discard it), one for an unknown MAC by none (16 discard it).
    long unknown = nic.broadcasts() - e.framesKept();
    assertThat(e.framesDiscarded()).isEqualTo(15 * e.framesKept() + 16 * unknown);
    assertThat(e.framesKept()).isEqualTo(EXPECTED_KEPT);
    assertThat(e.framesWrong()).isZero();
    assertThat(e.externalHosts()).extracting(EthernetReport.ExternalHostCounters::received).containsExactly(0L, 0L);
  }

  @Test
  void aCableCutOnTheIoPathGivesTheTableItsDetoursAndTheFramesStillArrive() {
    ScenarioSpec base = mesh4x4(ethernet(List.of(0), List.of(), 0.0, 20, 1, 0));
    Topology topology = base.topology().build();
    int a = topology.hostCount() + 1;
    int b = topology.hostCount() + 5;
    RunResult result = run(base.withFaults(new FaultPlan(SETTINGS, List.of(
        FaultEvent.link(30_000_000L, FaultAction.DOWN, "link router1-router5", a, b)))));
    assertExact(result);
    EthernetReport e = result.ethernet();
    IoNicCounters nic = e.ioNics().get(0);
    // host0 (0,0) reached host5 (1,1), host9 (1,2) and host13 (1,3) along x to (1,0), then up y across the cable:
    // they now go up y to host4 (0,1) first, then along x, as many hops as before (the lowest of equals).
    for (AddressTable.Entry entry : nic.table()) {
      int expected = entry.node() == 5 || entry.node() == 9 || entry.node() == 13 ? 4 : -1;
      assertThat(entry.via()).as("via toward host" + entry.node()).isEqualTo(expected);
    }
    assertThat(nic.table()).hasSize(16);
    // Every frame was for a known node: all hit the table. The one on its way across the cable when it died (sent
    // at 30 us, to host5) is lost (a datagram: resending is TCP's business); the others arrived, detoured or not.
    assertThat(nic.tableHits()).isEqualTo(40);
    assertThat(result.faults().tally().detouredPackets(0)).isPositive();
    assertThat(e.framesLost()).isEqualTo(1);
    assertThat(e.framesKept()).isEqualTo(39);
    assertThat(e.changes()).isEmpty();
  }

  @Test
  void aNodeWhoseOwnRoutesStayButWhoseWayBackFromTheIoNodeChangesKeepsItsDetourInTheTable() {
    // Cable router1-router2 dies: host0 (0,0) reaches host6 (2,1) along x through it, so host0's table gets a via
    // node for host6; host6's own route to host0 (along x on row 1, then down y) does not cross it, so its NIC gets
    // no update, and its frames must not put the direct way back into the table.
    ScenarioSpec base = mesh4x4(ethernet(List.of(0), List.of(), 0.0, 40, 10, 0));
    Topology topology = base.topology().build();
    int a = topology.hostCount() + 1;
    int b = topology.hostCount() + 2;
    RunResult result = run(base.withFaults(new FaultPlan(SETTINGS, List.of(
        FaultEvent.link(12_000_000L, FaultAction.DOWN, "link router1-router2", a, b)))));
    assertExact(result);
    IoNicCounters nic = result.ethernet().ioNics().get(0);
    for (AddressTable.Entry entry : nic.table()) {
      boolean crossed = result.faults().recordOf(0).detours().stream()
          .anyMatch(d -> d.startsWith("host0->host" + entry.node() + " via "));
      assertThat(entry.via() >= 0).as("a via node toward host" + entry.node()).isEqualTo(crossed);
    }
    // Every node at x >= 2 (eight of them) was reached across the cable.
    assertThat(nic.table().stream().filter(entry -> entry.via() >= 0)).hasSize(8);
    // Every one of the 80 inbound frames reached its node (with the direct way back registered, those sent to the
    // nodes behind the cable after their own frames went out were lost).
    assertThat(result.ethernet().framesKept()).isEqualTo(80);
  }

  @Test
  void anIoNodeWhoseRouterIsDownNeitherTakesNorSendsFramesBeforeItIsDisabled() {
    ScenarioSpec base = mesh4x4(ethernet(List.of(0), List.of(), 0.0, 20, 2, 0));
    Topology topology = base.topology().build();
    RunResult result = run(base.withFaults(new FaultPlan(SETTINGS, List.of(
        FaultEvent.device(0L, FaultAction.DOWN, "node host0", topology.hostCount(), topology)))));
    IoNicCounters nic = result.ethernet().ioNics().get(0);
    assertThat(nic.framesIn()).isZero();
    assertThat(nic.framesOut()).isZero();
    assertThat(result.ethernet().framesKept()).isZero();
  }

  @Test
  void aNodeFailingOnTheIoPathGivesTheTableItsDetoursAndFramesToTheNodesBehindItArrive() {
    ScenarioSpec base = mesh4x4(ethernet(List.of(0), List.of(), 0.0, 20, 1, 0));
    Topology topology = base.topology().build();
    // host5 (1,1) dies for good at 30 us: its ranks are cut off (a partition), the frames go on.
    RunResult result = run(base.withFaults(new FaultPlan(SETTINGS, List.of(
        FaultEvent.device(30_000_000L, FaultAction.DOWN, "node host5", topology.hostCount() + 5, topology)))));
    assertThat(result.faults().partition()).startsWith("partition since 30.000 us (node host5 down)");
    EthernetReport e = result.ethernet();
    IoNicCounters nic = e.ioNics().get(0);
    // host0 reached host9 (1,2) and host13 (1,3) along x to (1,0), then up y through (1,1): now up y to host8 (0,2)
    // first, then along x, as many hops as before; nothing reaches host5 itself.
    for (AddressTable.Entry entry : nic.table()) {
      int expected = entry.node() == 5 ? -2 : entry.node() == 9 || entry.node() == 13 ? 8 : -1;
      assertThat(entry.via()).as("via toward host" + entry.node()).isEqualTo(expected);
    }
    assertThat(nic.tableHits()).isEqualTo(40);
    // 40 frames for nodes, round-robin over the 16 (frame g, sent at 5 us x (g / 2), goes to host g mod 16). Lost:
    // frame 13, sent at 30 us and crossing (1,1) before the reroute, and frames 21 and 37, to host5 itself; the other
    // 37 were kept, those to host9 and host13 after the reroute through host8.
    assertThat(e.framesLost()).isEqualTo(3);
    assertThat(e.framesKept()).isEqualTo(37);
    assertThat(e.framesWrong()).isZero();
    assertThat(result.faults().tally().detouredPackets(0)).isPositive();
  }

  @Test
  void anIoNodeThatFailsIsDisabledAndTheStandbyTakesOver() {
    ScenarioSpec base = mesh4x4(ethernet(List.of(0, 15), List.of(15), 0.0, 20, 20, 0));
    Topology topology = base.topology().build();
    int router0 = topology.hostCount();
    ScenarioSpec faulted = base.withFaults(new FaultPlan(SETTINGS, List.of(
        FaultEvent.device(30_000_000L, FaultAction.DOWN, "node host0", router0, topology),
        FaultEvent.device(120_000_000L, FaultAction.UP, "node host0", router0, topology))));
    RunResult result = run(faulted);
    assertExact(result);
    EthernetReport e = result.ethernet();
    assertThat(e.changes()).containsExactly("Ethernet NIC of host0 disabled (node host0 down at 30.000 us), host15 "
        + "enabled");
    IoNicCounters nic0 = e.ioNics().get(0);
    IoNicCounters nic15 = e.ioNics().get(1);
    assertThat(nic0.enabled()).isFalse();
    assertThat(nic15.enabled()).isTrue();
    // Before the failure every node's frames went through host0; after the switch through host15, which learned
    // every node but host0 (cut off) from them.
    assertThat(nic0.table()).hasSize(16);
    assertThat(nic15.table()).extracting(AddressTable.Entry::node).doesNotContain(0).hasSize(15);
    assertThat(nic15.framesIn()).isPositive();
    assertThat(nic15.framesOut()).isPositive();
    // Every frame is accounted for: kept, or lost in the failure, or dropped at the disabled NIC.
    long inboundForNodes = 2 * 20;
    assertThat(e.externalHosts()).extracting(EthernetReport.ExternalHostCounters::wrong).containsExactly(0L, 0L);
    assertThat(e.framesWrong()).isZero();
    assertThat(e.framesKept()).isLessThan(inboundForNodes).isPositive();
    assertThat(e.framesLost() + nic0.disabledDrops()).isPositive();
    assertThat(run(faulted).digest()).isEqualTo(result.digest());
  }
}
