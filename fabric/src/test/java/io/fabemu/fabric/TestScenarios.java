package io.fabemu.fabric;

import io.fabemu.collectives.Algorithm;
import io.fabemu.collectives.Collective;
import io.fabemu.collectives.WorkloadSpec;
import io.fabemu.core.data.DataType;
import io.fabemu.core.data.ReduceOp;
import io.fabemu.core.link.ForwardingMode;
import io.fabemu.core.time.Units;
import io.fabemu.core.topology.LeafSpineSpec;
import io.fabemu.core.topology.LinkSpec;
import io.fabemu.core.topology.OpticalSpec;
import io.fabemu.core.topology.TopologySpec;
import io.fabemu.nic.NicSpec;
import io.fabemu.node.HostSpec;
import io.fabemu.switching.SwitchSpec;
import java.util.List;

/** Scenarios built in code for tests, with every delay spelled out. */
final class TestScenarios {
  static final long HOST_LINK_BPS = 100 * Units.GBPS;
  static final long LINK_LATENCY_PS = 1_000_000L;
  static final long PIPELINE_PS = 500_000L;
  static final long SEND_OVERHEAD_PS = 300_000L;
  static final long RECV_OVERHEAD_PS = 200_000L;
  static final long NIC_OVERHEAD_PS = 150_000L;
  static final long PCIE_LATENCY_PS = 250_000L;
  /** A server-class host: 80 Gb/s reduce, 160 Gb/s memory copy, 128 Gb/s PCIe. */
  static final HostSpec SERVER_HOST = HostSpec.builder().sendOverheadPs(300_000L).recvOverheadPs(300_000L)
      .reduceBitsPerSecond(80 * Units.GBPS).memoryBitsPerSecond(160 * Units.GBPS).memoryLatencyPs(150_000L)
      .pcieBitsPerSecond(128 * Units.GBPS).pcieLatencyPs(250_000L).build();

  private TestScenarios() {}

  /**
   * An optical cluster ({@code topology}) of server hosts, NICs of 2,048 B segments and 64 B headers, 300 ns
   * cut-through switches, running {@code collective} with the automatic algorithm on int32 at {@code sizes}.
   */
  static ScenarioSpec optical(String name, OpticalSpec topology, Collective collective, List<Long> sizes,
                              int iterations, int warmup) {
    DeviceSpec devices = new DeviceSpec(SERVER_HOST, new NicSpec(2048, 64, 100_000L, 120_000L),
        new SwitchSpec(300_000L, ForwardingMode.CUT_THROUGH));
    WorkloadSpec workload = WorkloadSpec.builder(collective, List.of(Algorithm.AUTO), sizes).iterations(iterations)
        .warmup(warmup).dataType(DataType.INT32).build();
    return ScenarioSpec.builder(name, "test", 17, topology, devices, workload).build();
  }

  /**
   * Hosts on one switch (a star), zero-size headers and free PCIe/reduce: the alpha-beta model holds exactly. One
   * measured iteration, no warm-up: every rank starts at time 0, as the formulas assume (after a barrier, ranks
   * of an asymmetric collective such as a binomial tree start up to log2(p) alphas apart).
   */
  static ScenarioSpec star(int hosts, Collective collective, Algorithm algorithm, long sizeBytes) {
    TopologySpec topology = new LeafSpineSpec(hosts, hosts, 0,
        new LinkSpec(HOST_LINK_BPS, LINK_LATENCY_PS), new LinkSpec(HOST_LINK_BPS, LINK_LATENCY_PS));
    DeviceSpec devices = new DeviceSpec(
        HostSpec.builder().sendOverheadPs(SEND_OVERHEAD_PS).recvOverheadPs(RECV_OVERHEAD_PS)
            .memoryLatencyPs(100_000L).pcieLatencyPs(PCIE_LATENCY_PS).build(),
        new NicSpec(4096, 0, NIC_OVERHEAD_PS, 100_000L),
        new SwitchSpec(PIPELINE_PS, ForwardingMode.CUT_THROUGH));
    WorkloadSpec workload = WorkloadSpec.builder(collective, List.of(algorithm), List.of(sizeBytes)).build();
    return ScenarioSpec.builder("star", "test", 7, topology, devices, workload).build();
  }

  /** Alpha of the star: every fixed cost of one message from a rank's send to the peer's completion. */
  static long starAlphaPs() {
    return SEND_OVERHEAD_PS + PCIE_LATENCY_PS + NIC_OVERHEAD_PS + LINK_LATENCY_PS + PIPELINE_PS + LINK_LATENCY_PS
        + PCIE_LATENCY_PS + RECV_OVERHEAD_PS;
  }

  /** Beta of the star: picoseconds per byte on a host link. */
  static double starBetaPsPerByte() {
    return 8.0 * Units.PS_PER_S / HOST_LINK_BPS;
  }

  /** A realistic leaf-spine with every cost switched on. */
  static ScenarioSpec leafSpine(int hosts, int hostsPerTor, int spines, int ppn, Collective collective,
                                Algorithm algorithm, DataType type, ReduceOp op, boolean hierarchical,
                                List<Long> sizes, ForwardingMode mode) {
    TopologySpec topology = new LeafSpineSpec(hosts, hostsPerTor, spines,
        new LinkSpec(25 * Units.GBPS, 500_000L), new LinkSpec(100 * Units.GBPS, 600_000L));
    DeviceSpec devices = new DeviceSpec(
        SERVER_HOST,
        new NicSpec(1024, 64, 100_000L, 100_000L),
        new SwitchSpec(600_000L, mode));
    WorkloadSpec workload = WorkloadSpec.builder(collective, List.of(algorithm), sizes).iterations(2).warmup(1).ppn(ppn)
        .dataType(type).op(op).hierarchical(hierarchical).build();
    return ScenarioSpec.builder("leaf-spine", "test", 11, topology, devices, workload).build();
  }

  /** The link of {@link #direct}'s networks. */
  static final LinkSpec DIRECT_LINK = new LinkSpec(50 * Units.GBPS, 400_000L);

  /** A direct network (line, ring or full mesh, linked by {@link #DIRECT_LINK}) where NICs relay transit packets. */
  static ScenarioSpec direct(TopologySpec topology, Collective collective, Algorithm algorithm, long sizeBytes) {
    DeviceSpec devices = new DeviceSpec(
        SERVER_HOST,
        new NicSpec(2048, 64, 100_000L, 120_000L),
        new SwitchSpec(600_000L, ForwardingMode.CUT_THROUGH));
    WorkloadSpec workload = WorkloadSpec.builder(collective, List.of(algorithm), List.of(sizeBytes)).iterations(2)
        .warmup(1).dataType(DataType.INT32).build();
    return ScenarioSpec.builder("direct", "test", 5, topology, devices, workload).build();
  }
}
