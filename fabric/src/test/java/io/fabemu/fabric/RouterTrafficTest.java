package io.fabemu.fabric;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.fabemu.collectives.Algorithm;
import io.fabemu.collectives.Collective;
import io.fabemu.collectives.WorkloadSpec;
import io.fabemu.core.data.DataType;
import io.fabemu.core.link.ForwardingMode;
import io.fabemu.core.router.RouterSpec;
import io.fabemu.core.router.Switching;
import io.fabemu.core.topology.MeshSpec;
import io.fabemu.core.topology.TopologySpec;
import io.fabemu.core.topology.TorusSpec;
import io.fabemu.core.traffic.LoadPoint;
import io.fabemu.core.traffic.TrafficPattern;
import io.fabemu.core.traffic.TrafficSpec;
import io.fabemu.fabric.result.TrafficResult;
import io.fabemu.nic.NicSpec;
import io.fabemu.switching.SwitchSpec;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Synthetic traffic on router networks, on the plain engine: the zero-load latency is the per-hop formula, accepted
 * equals generated below saturation and falls short above it, and a run is deterministic.
 */
class RouterTrafficTest {
  /** 1 GHz, 16 B flits, 2 VCs of 8 flits, 1 cycle per stage, link and credit: 4 router cycles per hop. */
  private static final RouterSpec ROUTER = new RouterSpec(1_000L, 16, 2, 8, 1, 1, 1, 1, 1, 1, Switching.WORMHOLE);

  private static TrafficResult run(TopologySpec topology, TrafficPattern pattern, double load, int packetFlits) {
    DeviceSpec devices = new DeviceSpec(TestScenarios.SERVER_HOST, new NicSpec(64, 32, 100_000L, 120_000L),
        new SwitchSpec(600_000L, ForwardingMode.CUT_THROUGH), null, ROUTER, 1_000_000_000L);
    WorkloadSpec unused = WorkloadSpec.builder(Collective.ALLREDUCE, List.of(Algorithm.RING), List.of(4L))
        .dataType(DataType.INT32).build();
    TrafficSpec traffic = new TrafficSpec(pattern, null, packetFlits, List.of(load), 500, 4000, 4000);
    ScenarioSpec spec = ScenarioSpec.builder("traffic", "test", 17, topology, devices, unused).traffic(traffic).build();
    return Fabric.build(spec).runTrafficOnPlainEngine();
  }

  @Test
  void shouldTakeTheZeroLoadFormulaPerPacketWhenTheLoadIsTiny() {
    // Per packet: injection link (1) + (hops + 1) routers x 4 cycles + hops links (1 each) + ejection link (1) +
    // the 3 body flits behind the head: 9 + 5 hops. Without contention the averages obey it exactly.
    LoadPoint p = run(new MeshSpec(4, 4, 1, ROUTER.channel()), TrafficPattern.UNIFORM, 0.004, 4).point();
    assertThat(p.measuredPacketsArrived()).isGreaterThan(40);
    assertThat(p.drainCompleted()).isTrue();
    assertThat(p.averageLatencyCycles()).isCloseTo(9 + 5 * p.averageHops(), within(0.02));
    // Uniform on a 4x4 mesh averages 8/3 hops over the pairs; the samples scatter around it.
    assertThat(p.averageHops()).isBetween(2.2, 3.1);
  }

  @Test
  void shouldAcceptWhatIsGeneratedBelowSaturationAndLessAboveIt() {
    TopologySpec mesh = new MeshSpec(4, 4, 1, ROUTER.channel());
    TrafficResult lowRun = run(mesh, TrafficPattern.UNIFORM, 0.1, 4);
    LoadPoint low = lowRun.point();
    assertThat(low.drainCompleted()).isTrue();
    assertThat(low.acceptedFlitsPerNodeCycle()).isCloseTo(low.generatedFlitsPerNodeCycle(), within(0.01));
    // In the measurement window the 48 router-to-router channels carry every accepted flit once per hop:
    // 16 nodes x accepted x hops flits per cycle, spread over them.
    assertThat(lowRun.meanRouterLinkUtilisation())
        .isCloseTo(16 * low.acceptedFlitsPerNodeCycle() * low.averageHops() / 48, within(0.005));
    assertThat(lowRun.maxVcUtilisation()).isGreaterThan(0.0).isLessThanOrEqualTo(1.0);
    LoadPoint high = run(mesh, TrafficPattern.UNIFORM, 0.9, 4).point();
    // A 4x4 mesh's bisection carries at most 4 x 2 flits per cycle each way: uniform traffic saturates near 0.5.
    assertThat(high.acceptedFlitsPerNodeCycle()).isLessThan(0.7);
    assertThat(high.averageLatencyCycles()).isGreaterThan(3 * low.averageLatencyCycles());
  }

  @Test
  void shouldGiveTheSameResultWhenTheSameLoadRunsTwice() {
    TopologySpec torus = new TorusSpec(4, 4, 1, ROUTER.channel());
    TrafficResult first = run(torus, TrafficPattern.TRANSPOSE, 0.2, 2);
    TrafficResult second = run(torus, TrafficPattern.TRANSPOSE, 0.2, 2);
    assertThat(second.point()).isEqualTo(first.point());
    assertThat(second.links()).isEqualTo(first.links());
    assertThat(first.maxRouterLinkUtilisation()).isGreaterThan(0.0).isLessThanOrEqualTo(1.0);
  }
}
