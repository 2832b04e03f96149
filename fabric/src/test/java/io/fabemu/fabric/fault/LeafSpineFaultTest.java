package io.fabemu.fabric.fault;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabemu.collectives.Algorithm;
import io.fabemu.collectives.Collective;
import io.fabemu.collectives.WorkloadSpec;
import io.fabemu.core.fault.FaultAction;
import io.fabemu.core.fault.FaultEvent;
import io.fabemu.core.fault.FaultPlan;
import io.fabemu.core.fault.FaultRecord;
import io.fabemu.core.fault.FaultSettings;
import io.fabemu.core.fault.FaultTally;
import io.fabemu.core.link.ForwardingMode;
import io.fabemu.core.protocol.DirectedLink;
import io.fabemu.core.time.Units;
import io.fabemu.core.topology.LeafSpineSpec;
import io.fabemu.core.topology.LinkSpec;
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

/** Faults on a leaf-spine fabric, end to end on the plain engine. */
class LeafSpineFaultTest {
  static final FaultSettings SETTINGS = new FaultSettings(5_000_000L, 3, 1_000_000L, 100_000L, 30_000_000L, 10);

  static ScenarioSpec scenario(int iterations) {
    LeafSpineSpec topology = new LeafSpineSpec(16, 4, 2, new LinkSpec(100 * Units.GBPS, 500_000L),
        new LinkSpec(100 * Units.GBPS, 500_000L));
    DeviceSpec devices = new DeviceSpec(
        HostSpec.builder().sendOverheadPs(300_000L).recvOverheadPs(300_000L).reduceBitsPerSecond(80 * Units.GBPS)
            .memoryBitsPerSecond(160 * Units.GBPS).memoryLatencyPs(150_000L).pcieBitsPerSecond(128 * Units.GBPS)
            .pcieLatencyPs(250_000L).build(),
        new NicSpec(4096, 64, 100_000L, 100_000L), new SwitchSpec(500_000L, ForwardingMode.CUT_THROUGH));
    WorkloadSpec workload = WorkloadSpec.builder(Collective.ALLREDUCE, List.of(Algorithm.RING), List.of(1L << 20))
        .iterations(iterations).build();
    return ScenarioSpec.builder("leafspine-faults", "test", 11, topology, devices, workload).build();
  }

  static int vertex(Topology topology, String name) {
    return topology.vertices().stream().filter(v -> v.name().equals(name)).findFirst().orElseThrow().id();
  }

  static ScenarioSpec withFaults(ScenarioSpec base, FaultEvent... events) {
    return base.withFaults(new FaultPlan(SETTINGS, List.of(events)));
  }

  private static RunResult run(ScenarioSpec spec) {
    return Fabric.build(spec).runOnPlainEngine();
  }

  private static void assertExact(RunResult result) {
    assertThat(result.complete()).as(result.incompleteReason()).isTrue();
    assertThat(result.checked()).isTrue();
    assertThat(result.wrongElements()).isZero();
  }

  /** The spine the ring's flow from host 3 (under tor0) to host 4 (under tor1) crosses. */
  private static int spineOfFlow3To4(ScenarioSpec base, Topology topology) {
    return base.topology().routing(topology).path(3, 4).get(2);
  }

  @Test
  void spineFailsMidAllreduceAndTheRingCompletesExactlyOverTheOtherSpine() {
    ScenarioSpec base = scenario(3);
    RunResult clean = run(base);
    Topology topology = base.topology().build();
    int spine = spineOfFlow3To4(base, topology);
    // Mid first iteration (the start barrier takes about 17 us), while the flow sends.
    ScenarioSpec faulted = withFaults(base, FaultEvent.device(150_000_000L, FaultAction.DOWN, "switch spine",
        spine, topology));
    RunResult result = run(faulted);

    assertExact(result);
    FaultRecord record = result.faults().recordOf(0);
    // Three missed 5 us heartbeats, by the first TOR (vertices 16..19 are the TORs, 16 is tor0).
    assertThat(record.detectedPs()).isEqualTo(165_000_000L);
    assertThat(record.reporterDevice()).isEqualTo(16);
    // The four TORs' routes change (the dead spine gets none): 1 us to the management node, four updates of 100 ns
    // one after another, 1 us to the last TOR.
    assertThat(record.devicesUpdated()).isEqualTo(4);
    assertThat(record.rerouteCompletePs()).isEqualTo(165_000_000L + 1_000_000L + 4 * 100_000L + 1_000_000L);
    FaultTally tally = result.faults().tally();
    assertThat(tally.lostPackets(0)).isPositive();
    assertThat(tally.resentMessages(0)).isPositive();
    assertThat(result.faults().partition()).isNull();
    // The iteration the spine failed in waited for a retransmission timeout (30 us); the others run as before.
    double[] perIteration = result.cases().get(0).iterationLatenciesPs();
    double cleanIteration = clean.cases().get(0).iterationLatenciesPs()[0];
    assertThat(perIteration[0] - cleanIteration).isGreaterThan(30e6);
    assertThat(perIteration[2] - cleanIteration).isLessThan(1e6);
    // No packet crosses the dead spine after the failure, and its links carried nothing after it died.
    assertThat(run(faulted).digest()).isEqualTo(result.digest());
    assertThat(result.digest()).isNotEqualTo(clean.digest());
  }

  @Test
  void aFlappingLinkCostsRetransmissionsButNoData() {
    ScenarioSpec base = scenario(2);
    Topology topology = base.topology().build();
    int spine = spineOfFlow3To4(base, topology);
    int tor0 = vertex(topology, "tor0");
    FaultEvent down = FaultEvent.link(100_000_000L, FaultAction.DOWN, "link tor0-spine", tor0, spine);
    FaultEvent up = FaultEvent.link(0, FaultAction.UP, "link tor0-spine", tor0, spine);
    // Down for 30 us every 200 us, three times: detected after 15 us each time, back after the next heartbeat.
    RunResult result = run(base.withFaults(new FaultPlan(SETTINGS,
        FaultPlan.flap(down, up, 200_000_000L, 30_000_000L, 3))));

    assertExact(result);
    assertThat(result.scenario().faults().eventCount()).isEqualTo(6);
    for (int e = 0; e < 6; e++) {
      FaultEvent event = result.scenario().faults().event(e);
      FaultRecord record = result.faults().recordOf(e);
      long delay = event.action() == FaultAction.DOWN ? 15_000_000L : 5_000_000L;
      assertThat(record.detectedPs()).as("event %d", e).isEqualTo(event.atPs() + delay);
    }
    assertThat(result.faults().tally().totalLostPackets()).isPositive();
    assertThat(result.faults().tally().totalResentMessages()).isPositive();
  }

  @Test
  void aFlapShorterThanTheDetectionDelayGoesUnnoticed() {
    ScenarioSpec base = scenario(1);
    Topology topology = base.topology().build();
    int spine = spineOfFlow3To4(base, topology);
    int tor0 = vertex(topology, "tor0");
    RunResult result = run(withFaults(base,
        FaultEvent.link(100_000_000L, FaultAction.DOWN, "link tor0-spine", tor0, spine),
        FaultEvent.link(110_000_000L, FaultAction.UP, "link tor0-spine", tor0, spine)));
    assertExact(result);
    // Back up after 10 us, before the third missed heartbeat (15 us): nobody reports either change.
    assertThat(result.faults().records()).isEmpty();
  }

  @Test
  void aHostCutOffEndsTheRunWithThePartitionLine() {
    ScenarioSpec base = scenario(1);
    Topology topology = base.topology().build();
    int tor1 = vertex(topology, "tor1");
    RunResult result = run(withFaults(base,
        FaultEvent.link(100_000_000L, FaultAction.DOWN, "link host5-tor1", 5, tor1)));
    assertThat(result.complete()).isFalse();
    assertThat(result.incompleteReason()).isEqualTo(
        "partition since 100.000 us (link host5-tor1 down): ranks 0-4,6-15 cannot reach rank 5");
    // Every message to or from host 5 was given up on after the set retransmissions: the run ended, no hang.
    assertThat(result.faults().gaveUp()).isNotEmpty().allMatch(line -> line.contains("after 10 retransmissions"));
  }

  @Test
  void aHostThatComesBackInTimeLetsTheCollectiveFinishExactly() {
    ScenarioSpec base = scenario(1);
    Topology topology = base.topology().build();
    int host5 = 5;
    RunResult result = run(withFaults(base,
        FaultEvent.device(100_000_000L, FaultAction.DOWN, "node host5", host5, topology),
        FaultEvent.device(200_000_000L, FaultAction.UP, "node host5", host5, topology)));
    assertExact(result);
    assertThat(result.faults().recordOf(0).detectedPs()).isEqualTo(115_000_000L);
    assertThat(result.faults().recordOf(1).detectedPs()).isEqualTo(205_000_000L);
    assertThat(result.faults().partition()).isNull();
  }

  @Test
  void aRepairSeenWhileTheCableIsDownForAnotherReasonIsReportedWhenTheCableWorksAgain() {
    ScenarioSpec base = scenario(1);
    Topology topology = base.topology().build();
    int tor1 = vertex(topology, "tor1");
    // The cable's repair (detected at 125 us) is hidden by host 5 being down; host 5's own short outage goes
    // unnoticed, and its repair's heartbeat (133 us) shows the cable working: both repairs are reported then.
    RunResult result = run(withFaults(base,
        FaultEvent.link(100_000_000L, FaultAction.DOWN, "link host5-tor1", 5, tor1),
        FaultEvent.link(120_000_000L, FaultAction.UP, "link host5-tor1", 5, tor1),
        FaultEvent.device(124_000_000L, FaultAction.DOWN, "node host5", 5, topology),
        FaultEvent.device(128_000_000L, FaultAction.UP, "node host5", 5, topology)));
    assertExact(result);
    assertThat(result.faults().partition()).isNull();
    assertThat(result.faults().recordOf(1).detectedPs()).isEqualTo(133_000_000L);
  }

  @Test
  void aDeviceBackUpReportsTheRepairsItMissedWhileDown() {
    ScenarioSpec base = scenario(1);
    Topology topology = base.topology().build();
    int tor1 = vertex(topology, "tor1");
    // Host 5 comes back while its only neighbour, tor1, is down: tor1 reports it once it is back itself.
    RunResult result = run(withFaults(base,
        FaultEvent.device(100_000_000L, FaultAction.DOWN, "node host5", 5, topology),
        FaultEvent.device(150_000_000L, FaultAction.DOWN, "switch tor1", tor1, topology),
        FaultEvent.device(200_000_000L, FaultAction.UP, "node host5", 5, topology),
        FaultEvent.device(250_000_000L, FaultAction.UP, "switch tor1", tor1, topology)));
    assertExact(result);
    assertThat(result.faults().recordOf(2).detectedPs()).isEqualTo(255_000_000L);
    assertThat(result.faults().recordOf(2).reporterDevice()).isEqualTo(tor1);
  }

  @Test
  void lossyAndCorruptingLinksLoseNoData() {
    ScenarioSpec base = scenario(2);
    Topology topology = base.topology().build();
    List<DirectedLink> torSpine = new java.util.ArrayList<>();
    for (Topology.Link link : topology.links()) {
      if (!topology.isHost(link.from()) && !topology.isHost(link.to())) {
        torSpine.add(new DirectedLink(link.from(), link.to()));
      }
    }
    RunResult result = run(withFaults(base, FaultEvent.lossy(0, "links of tor", torSpine, 0.02, 0.02)));
    assertExact(result);
    FaultTally tally = result.faults().tally();
    assertThat(tally.lostPackets(0)).isPositive();
    assertThat(tally.corruptedPackets(0)).isPositive();
    assertThat(tally.resentMessages(0)).isPositive();
    assertThat(run(result.scenario()).digest()).isEqualTo(result.digest());
    assertThat(run(result.scenario().withSeed(12)).digest()).isNotEqualTo(result.digest());
  }

  @Test
  void aStragglerAndADegradedLinkSlowTheCollectiveDown() {
    ScenarioSpec base = scenario(1);
    Topology topology = base.topology().build();
    double clean = run(base.withFaults(new FaultPlan(SETTINGS, List.of(FaultEvent.straggler(0, "node host2", 2,
        1.0))))).cases().get(0).avgLatencyPs();
    double straggler = run(withFaults(base, FaultEvent.straggler(0, "node host2", 2, 4.0))).cases().get(0)
        .avgLatencyPs();
    int tor0 = vertex(topology, "tor0");
    RunResult degraded = run(withFaults(base, FaultEvent.degrade(0, "link host1-tor0",
        List.of(new DirectedLink(1, tor0), new DirectedLink(tor0, 1)), 10 * Units.GBPS, 2_000_000L)));
    assertExact(degraded);
    // Host 2 reduces four times slower (its overheads grow too): every ring step waits for it.
    assertThat(straggler).isGreaterThan(clean * 1.3);
    // One host link at a tenth of its rate carries every ring step's chunk.
    assertThat(degraded.cases().get(0).avgLatencyPs()).isGreaterThan(clean * 3);
  }
}
