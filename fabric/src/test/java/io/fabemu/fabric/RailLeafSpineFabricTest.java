package io.fabemu.fabric;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabemu.collectives.Algorithm;
import io.fabemu.collectives.ChannelRingAllreduce;
import io.fabemu.collectives.Collective;
import io.fabemu.collectives.WorkloadSpec;
import io.fabemu.core.data.DataType;
import io.fabemu.core.data.ReduceOp;
import io.fabemu.core.fault.FaultAction;
import io.fabemu.core.fault.FaultEvent;
import io.fabemu.core.fault.FaultPlan;
import io.fabemu.core.fault.FaultSettings;
import io.fabemu.core.link.ForwardingMode;
import io.fabemu.core.time.Units;
import io.fabemu.core.topology.LinkSpec;
import io.fabemu.core.topology.RailLeafSpineSpec;
import io.fabemu.core.topology.Topology;
import io.fabemu.core.topology.Topology.Tier;
import io.fabemu.fabric.result.RunResult;
import io.fabemu.nic.NicSpec;
import io.fabemu.node.HostSpec;
import io.fabemu.switching.SwitchSpec;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Every collective on the rail-optimized leaf-spine, with and without server switches and without spines (the rails
 * then meet only in the servers' switches): exact results on element counts no rank count divides (1, 1001, 10001);
 * and a spine that fails mid-allreduce, after which the ring completes exactly over the other spine.
 */
class RailLeafSpineFabricTest {

  private static final LinkSpec RAIL = new LinkSpec(400 * Units.GBPS, 500_000L);
  private static final LinkSpec SPINE = new LinkSpec(400 * Units.GBPS, 600_000L);
  private static final LinkSpec NVLINK = new LinkSpec(3_600 * Units.GBPS, 100_000L);
  private static final List<Long> SIZES = List.of(4L, 4_004L, 40_004L);

  /**
   * 4 servers of 4 GPUs, 2 per leaf, 2 spines, server switches; 3 of 4, one leaf per rail, no server switch; 2 of 3
   * without spines, server switches.
   */
  private static final List<RailLeafSpineSpec> FABRICS = List.of(
      RailLeafSpineSpec.builder(4, 4, RAIL).serversPerLeaf(2).spines(2, SPINE).serverSwitch(NVLINK).build(),
      RailLeafSpineSpec.builder(3, 4, RAIL).spines(2, SPINE).build(),
      RailLeafSpineSpec.builder(2, 3, RAIL).serverSwitch(NVLINK).build());

  private static ScenarioSpec scenario(RailLeafSpineSpec topology, int ppn, Collective collective,
                                       Algorithm algorithm, List<Long> sizes, int iterations, int warmUps) {
    DeviceSpec devices = new DeviceSpec(TestScenarios.SERVER_HOST, new NicSpec(2048, 64, 100_000L, 120_000L),
        new SwitchSpec(300_000L, ForwardingMode.CUT_THROUGH));
    WorkloadSpec workload = WorkloadSpec.builder(collective, List.of(algorithm), sizes).iterations(iterations)
        .warmup(warmUps).ppn(ppn).dataType(DataType.INT32).op(ReduceOp.SUM).build();
    return ScenarioSpec.builder("rail", "test", 23, topology, devices, workload).build();
  }

  private static void assertExact(RunResult result, int cases, String what) {
    assertThat(result.complete()).as(what + ": " + result.incompleteReason()).isTrue();
    assertThat(result.cases()).as(what).hasSize(cases)
        .allSatisfy(c -> assertThat(c.wrongElements()).as(what).isZero())
        .allSatisfy(c -> assertThat(c.maxLatencyPs()).as(what).isPositive());
  }

  /** The host algorithms of {@code collective}: not in the network, on embedded rings or on a mesh's dimensions. */
  private static List<Algorithm> hostAlgorithms(Collective collective) {
    return Algorithm.validFor(collective).stream().filter(a -> !a.inNetwork() && !a.onEmbeddedRings()
        && a != Algorithm.DIMENSION_RING).toList();
  }

  @ParameterizedTest
  @EnumSource(value = Collective.class, names = "PIPELINE", mode = EnumSource.Mode.EXCLUDE)
  void shouldGiveExactResultsWhenEveryAlgorithmOfEveryCollectiveRunsOnARailFabric(Collective collective) {
    for (RailLeafSpineSpec topology : FABRICS) {
      for (Algorithm algorithm : hostAlgorithms(collective)) {
        String what = collective + " " + algorithm + " on " + topology.build();
        assertExact(FabricTest.run(scenario(topology, 1, collective, algorithm, SIZES, 2, 1)), SIZES.size(), what);
      }
      // Two ranks per GPU: the ranks of a host share its NIC.
      assertExact(FabricTest.run(scenario(topology, 2, collective, Algorithm.AUTO, SIZES, 2, 1)), SIZES.size(),
          collective + " ppn 2 on " + topology.build());
    }
  }

  @ParameterizedTest
  @ValueSource(booleans = {false, true})
  void shouldCompleteExactlyWhenASpineFailsMidAllreduce(boolean serverSwitch) {
    RailLeafSpineSpec topology = RailLeafSpineSpec.builder(4, 2, RAIL).serversPerLeaf(2).spines(2, SPINE)
        .serverSwitch(serverSwitch ? NVLINK : null).build();
    ScenarioSpec base = scenario(topology, 1, Collective.ALLREDUCE, Algorithm.RING, List.of(1L << 20), 3, 0);
    RunResult clean = FabricTest.run(base);
    assertExact(clean, 1, "clean");
    Topology built = topology.build();
    // The spine that GPU 1 of server 0 (rail 1) takes to GPU 0 of server 1 (rail 0), its ring neighbour.
    int spine = topology.routing(built).path(1, 2).get(2);
    assertThat(built.tier(spine)).isEqualTo(Tier.SPINE);
    // Mid first iteration: the clean run's first iteration takes about as long again as the start.
    long atPs = (long) clean.cases().get(0).iterationLatenciesPs()[0];
    FaultSettings settings = new FaultSettings(5_000_000L, 3, 1_000_000L, 100_000L, 30_000_000L, 10);
    ScenarioSpec faulted = base.withFaults(new FaultPlan(settings,
        List.of(FaultEvent.device(atPs, FaultAction.DOWN, "switch spine", spine, built))));

    RunResult result = FabricTest.run(faulted);

    assertExact(result, 1, "spine " + built.vertexName(spine) + " down");
    // Noticed by the missed heartbeats (the fault comes between two of them).
    assertThat(result.faults().recordOf(0).detectedPs()).isBetween(atPs + settings.detectionDelayPs(),
        atPs + settings.detectionDelayPs() + settings.heartbeatPeriodPs());
    assertThat(result.faults().partition()).isNull();
    assertThat(result.digest()).isNotEqualTo(clean.digest());
    assertThat(FabricTest.run(faulted).digest()).isEqualTo(result.digest());
  }

  /**
   * PCIe bounds a ring through NICs from below: each GPU sends and receives 2(n-1)/n of the vector over its
   * interface. Within a server with a server switch the bytes go over NVLink (3.6 Tb/s here), not the 128 Gb/s PCIe,
   * so the ring takes less than that bound; across servers without one (one GPU each) it takes more. The GPUs reduce
   * and copy at HBM-like rates, so that PCIe is what bounds a ring through NICs.
   */
  @ParameterizedTest
  @ValueSource(booleans = {false, true})
  void shouldCarryTrafficBetweenAServersGpusOverNvlinkAndTheRestOverPcie(boolean withinAServer) {
    long sizeBytes = 4L << 20;
    int gpus = 4;
    RailLeafSpineSpec topology = withinAServer
        ? RailLeafSpineSpec.builder(1, gpus, RAIL).serverSwitch(NVLINK).build()
        : RailLeafSpineSpec.builder(gpus, 1, RAIL).build();
    ScenarioSpec base = scenario(topology, 1, Collective.ALLREDUCE, Algorithm.RING, List.of(sizeBytes), 1, 0);
    HostSpec gpu = TestScenarios.SERVER_HOST.toBuilder().reduceBitsPerSecond(8_000 * Units.GBPS)
        .memoryBitsPerSecond(8_000 * Units.GBPS).build();
    RunResult result = FabricTest.run(base.toBuilder().devices(new DeviceSpec(gpu, base.devices().nic(),
        base.devices().switchSpec())).build());

    assertExact(result, 1, withinAServer ? "one server" : "one GPU per server");
    long pcieBoundPs = Units.transferPs(2 * (gpus - 1) * sizeBytes / gpus, TestScenarios.SERVER_HOST.pcieBitsPerSecond());
    double latencyPs = result.cases().get(0).maxLatencyPs();
    if (withinAServer) {
      assertThat(latencyPs).isLessThan(pcieBoundPs / 4.0);
    } else {
      assertThat(latencyPs).isGreaterThan(pcieBoundPs);
    }
  }

  /**
   * The ring on channels on GPU servers: 3 servers (an odd count, so one hop changes rail) of 4 GPUs, 4 channels on
   * 4 engines, exact on every rank; every channel runs (3 MiB gives each 64 KiB per rank); the same digest twice; and
   * faster than one ring, whose hops between servers cross one NIC at a time.
   */
  @Test
  void shouldRunTheRingOnChannelsExactlyAndFasterThanOneRing() {
    RailLeafSpineSpec topology = RailLeafSpineSpec.builder(3, 4, RAIL).spines(2, SPINE).serverSwitch(NVLINK).build();
    long sizeBytes = 3L << 20;
    assertThat(ChannelRingAllreduce.channelsFor(sizeBytes, (int) (sizeBytes / 4), 12, 4)).isEqualTo(4);
    ScenarioSpec base = scenario(topology, 1, Collective.ALLREDUCE, Algorithm.RING, List.of(sizeBytes), 1, 0);
    HostSpec gpu = TestScenarios.SERVER_HOST.toBuilder().engines(4).build();
    ScenarioSpec channels = base.toBuilder().devices(new DeviceSpec(gpu, base.devices().nic(),
        base.devices().switchSpec())).workload(base.workload().toBuilder().channels(4).build()).build();

    RunResult onChannels = FabricTest.run(channels);
    RunResult oneRing = FabricTest.run(base);

    assertExact(onChannels, 1, "4 channels");
    assertExact(oneRing, 1, "one ring");
    assertThat(FabricTest.run(channels).digest()).isEqualTo(onChannels.digest());
    assertThat(onChannels.cases().get(0).maxLatencyPs()).isLessThan(oneRing.cases().get(0).maxLatencyPs());
  }
}
