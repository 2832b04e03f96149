package io.fabemu.fabric;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabemu.collectives.Algorithm;
import io.fabemu.collectives.Collective;
import io.fabemu.collectives.WorkloadSpec;
import io.fabemu.core.data.DataType;
import io.fabemu.core.data.ReduceOp;
import io.fabemu.core.link.ForwardingMode;
import io.fabemu.core.sim.DeviceReport.LinkCounters;
import io.fabemu.core.time.Units;
import io.fabemu.core.topology.LeafSpineSpec;
import io.fabemu.core.topology.LinkSpec;
import io.fabemu.core.topology.Topology.Tier;
import io.fabemu.core.topology.Topology;
import io.fabemu.core.topology.TopologySpec;
import io.fabemu.fabric.result.CaseResult;
import io.fabemu.fabric.result.RunResult;
import io.fabemu.nic.NicSpec;
import io.fabemu.node.HostSpec;
import io.fabemu.switching.SwitchSpec;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Resources that several messages share: the host-NIC PCIe DMA engines (one FIFO per direction), and the busy
 * time of links that cut-through feeds from a slower ingress.
 */
class HostLinkSharingTest {
  private static final long MIB = 1 << 20;
  private static final long PCIE_BPS = 10 * Units.GBPS;

  /** 4 hosts on one switch, 25 Gbps links, a 10 Gbps PCIe: the root's PCIe is the bottleneck. */
  private static ScenarioSpec slowPcieStar(Collective collective) {
    LinkSpec link = new LinkSpec(25 * Units.GBPS, 500_000L);
    TopologySpec topology = new LeafSpineSpec(4, 4, 0, link, link);
    DeviceSpec devices = new DeviceSpec(
        HostSpec.builder().sendOverheadPs(300_000L).recvOverheadPs(300_000L).memoryLatencyPs(100_000L)
            .pcieBitsPerSecond(PCIE_BPS).pcieLatencyPs(250_000L).build(),
        new NicSpec(4096, 64, 150_000L, 100_000L),
        new SwitchSpec(500_000L, ForwardingMode.CUT_THROUGH));
    WorkloadSpec workload = WorkloadSpec.builder(collective, List.of(Algorithm.LINEAR), List.of(MIB)).build();
    return ScenarioSpec.builder("slow-pcie", "test", 3, topology, devices, workload).build();
  }

  private static CaseResult runCase(ScenarioSpec spec) {
    RunResult result = FabricTest.run(spec);
    assertThat(result.complete()).as(result.incompleteReason()).isTrue();
    CaseResult c = result.cases().get(0);
    assertThat(c.wrongElements()).isZero();
    return c;
  }

  @Test
  void shouldWriteEveryGatheredByteOverTheRootsPcieWhenLinearGatherConverges() {
    // Three 1 MiB messages arrive at once at 25 Gbps; the root's DMA write engine takes them at 10 Gbps.
    CaseResult gather = runCase(slowPcieStar(Collective.GATHER));

    long pcieBound = Units.transferPs(3 * MIB, PCIE_BPS);
    // The root finishes last: the slowest rank's figure is the root's.
    assertThat(gather.maxLatencyPs()).isGreaterThanOrEqualTo(pcieBound).isLessThan(pcieBound * 1.05);
  }

  @Test
  void shouldReadEveryScatteredByteOverTheRootsPcieWhenLinearScatterFansOut() {
    // The root posts three 1 MiB sends at once; its DMA read engine feeds them one after another at 10 Gbps.
    CaseResult scatter = runCase(slowPcieStar(Collective.SCATTER));

    long pcieBound = Units.transferPs(3 * MIB, PCIE_BPS);
    // The last rank served finishes last.
    assertThat(scatter.maxLatencyPs()).isGreaterThanOrEqualTo(pcieBound).isLessThan(pcieBound * 1.05);
  }

  @Test
  void shouldCountOnlySerializationAsBusyWhenCutThroughFeedsAFasterLink() {
    // Host links 25 Gbps, TOR-spine links 100 Gbps, cut-through: packets crossing TORs leave a TOR for a spine
    // as fast as their tail comes in at 25 Gbps, but the 100 Gbps link is busy for a quarter of that.
    ScenarioSpec spec = TestScenarios.leafSpine(8, 4, 2, 1, Collective.ALLREDUCE, Algorithm.RING, DataType.FLOAT32,
        ReduceOp.SUM, false, List.of(65_536L), ForwardingMode.CUT_THROUGH);
    Topology topology = Fabric.build(spec).topology();
    RunResult result = FabricTest.run(spec);

    List<LinkCounters> towardSpines = result.links().stream()
        .filter(l -> topology.tier(l.fromDevice()) == Tier.TOR && topology.tier(l.toDevice()) == Tier.SPINE)
        .toList();
    assertThat(towardSpines).isNotEmpty();
    assertThat(towardSpines.stream().mapToLong(LinkCounters::bytes).sum()).isPositive();
    for (LinkCounters l : towardSpines) {
      long rate = topology.links().stream().filter(k -> k.from() == l.fromDevice() && k.to() == l.toDevice())
          .findFirst().orElseThrow().spec().bandwidthBitsPerSecond();
      assertThat(rate).isEqualTo(100 * Units.GBPS);
      // 100 Gbps: 80 ps per byte, exact for every packet.
      assertThat(l.busyPs()).as("busy time of %d->%d", l.fromDevice(), l.toDevice())
          .isEqualTo(l.bytes() * 8 * Units.PS_PER_S / rate);
    }
  }
}
