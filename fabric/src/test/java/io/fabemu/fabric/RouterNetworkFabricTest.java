package io.fabemu.fabric;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabemu.collectives.Algorithm;
import io.fabemu.collectives.Collective;
import io.fabemu.collectives.WorkloadSpec;
import io.fabemu.core.data.DataType;
import io.fabemu.core.link.ForwardingMode;
import io.fabemu.core.router.RouterSpec;
import io.fabemu.core.router.Switching;
import io.fabemu.core.sim.DeviceReport.LinkCounters;
import io.fabemu.core.topology.GroupRingSpec;
import io.fabemu.core.topology.MeshSpec;
import io.fabemu.core.topology.TopologySpec;
import io.fabemu.core.topology.TorusSpec;
import io.fabemu.fabric.result.RunResult;
import io.fabemu.nic.NicSpec;
import io.fabemu.switching.SwitchSpec;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Every collective on the router networks (mesh, torus, group-ring) through real NICs, routers and flits, on the plain
 * window engine: exact results whatever the switching, the same digest run after run, and flits on the channels.
 */
class RouterNetworkFabricTest {
  /** 1 GHz, 16 B flits, 2 VCs of 8 flits, 1 cycle per stage and per link and credit. */
  private static final RouterSpec ROUTER = new RouterSpec(1_000L, 16, 2, 8, 1, 1, 1, 1, 1, 1, Switching.WORMHOLE);

  private static ScenarioSpec scenario(TopologySpec topology, RouterSpec router, int ppn, Collective collective,
                                       Algorithm algorithm, List<Long> sizes) {
    // Segments of 64 B plus a 32 B header: 6 flits, which fit a buffer under every switching mode.
    DeviceSpec devices = new DeviceSpec(TestScenarios.SERVER_HOST, new NicSpec(64, 32, 100_000L, 120_000L),
        new SwitchSpec(600_000L, ForwardingMode.CUT_THROUGH), null, router, 1_000_000_000L);
    WorkloadSpec workload = WorkloadSpec.builder(collective, List.of(algorithm), sizes).iterations(2).warmup(1).ppn(ppn)
        .dataType(DataType.INT32).build();
    return ScenarioSpec.builder("router-network", "test", 13, topology, devices, workload).build();
  }

  private static List<TopologySpec> topologies() {
    return List.of(new MeshSpec(3, 2, 1, ROUTER.channel()), new TorusSpec(3, 3, 1, ROUTER.channel()),
        new TorusSpec(2, 2, 2, ROUTER.channel()), new GroupRingSpec(3, 2, ROUTER.channel()));
  }

  private static void assertExact(RunResult result, String what) {
    assertThat(result.complete()).as(what + ": " + result.incompleteReason()).isTrue();
    assertThat(result.cases()).as(what).isNotEmpty()
        .allSatisfy(c -> assertThat(c.wrongElements()).as(what).isZero());
  }

  @ParameterizedTest
  @EnumSource(value = Collective.class, names = "PIPELINE", mode = EnumSource.Mode.EXCLUDE)
  void shouldGiveExactResultsWhenEveryCollectiveRunsOnEveryRouterNetwork(Collective collective) {
    for (TopologySpec topology : topologies()) {
      for (int ppn : new int[] {1, 2}) {
        ScenarioSpec spec = scenario(topology, ROUTER, ppn, collective, Algorithm.AUTO, List.of(4L, 400L, 4000L));
        assertExact(Fabric.build(spec).runOnPlainEngine(), collective + " on " + topology.build() + " ppn " + ppn);
      }
    }
  }

  @ParameterizedTest
  @EnumSource(value = Algorithm.class, names = {"RING", "RECURSIVE_DOUBLING", "RABENSEIFNER", "BINOMIAL",
      "DIMENSION_RING"})
  void shouldGiveExactResultsWhenAnyAllreduceRunsUnderAnySwitching(Algorithm algorithm) {
    for (Switching switching : Switching.values()) {
      RouterSpec router = new RouterSpec(1_000L, 16, 4, 8, 1, 0, 1, 0, 2, 1, switching);
      for (TopologySpec topology : List.of(new MeshSpec(2, 3, 1, router.channel()),
          new TorusSpec(4, 2, 1, router.channel()), new TorusSpec(2, 2, 3, router.channel()))) {
        ScenarioSpec spec = scenario(topology, router, 1, Collective.ALLREDUCE, algorithm, List.of(8L, 3000L));
        assertExact(Fabric.build(spec).runOnPlainEngine(), algorithm + " " + switching + " on " + topology.build());
      }
    }
  }

  @Test
  void shouldGiveTheSameDigestWhenTheSameScenarioRunsTwice() {
    ScenarioSpec spec = scenario(new TorusSpec(3, 2, 2, ROUTER.channel()), ROUTER, 1, Collective.ALLREDUCE,
        Algorithm.DIMENSION_RING, List.of(4L, 2000L));
    Fabric fabric = Fabric.build(spec);
    // The counts a placement needs, without building the fabric: the router's lookahead, not a link's latency.
    assertThat(Fabric.deviceCount(spec, fabric.topology())).isEqualTo(fabric.devices().length);
    assertThat(Fabric.lookaheadPs(spec, fabric.topology())).isEqualTo(fabric.lookaheadPs())
        .isLessThan(fabric.topology().minLatencyPs());
    RunResult first = fabric.runOnPlainEngine();
    RunResult second = Fabric.build(spec).runOnPlainEngine();
    assertExact(first, "torus");
    assertThat(first.digest()).isEqualTo(second.digest()).hasSize(64);
  }

  @Test
  void shouldCountFlitsOnTheChannelsOfTheRouteWhenOneMessageCrossesAMesh() {
    // Ping-pong of 4000 B on a 3x2 mesh (hosts 0-2 on row y = 0, 3-5 on y = 1; routers are devices 6-11): host 0
    // sends to host 1 and back, over router0 -> router1 (+X).
    ScenarioSpec spec = ScenarioSpec.builder("mesh", "test", 3, new MeshSpec(3, 2, 1, ROUTER.channel()),
        scenario(new MeshSpec(3, 2, 1, ROUTER.channel()), ROUTER, 1, Collective.SENDRECV, Algorithm.PING_PONG,
            List.of(4000L)).devices(),
        WorkloadSpec.builder(Collective.SENDRECV, List.of(Algorithm.PING_PONG), List.of(4000L)).dataType(DataType.INT32)
            .build()).build();
    RunResult result = Fabric.build(spec).runOnPlainEngine();
    assertExact(result, "ping-pong on a mesh");
    // 1000 int32 elements in segments of 16: 62 segments of 64 B + 32 B header (96 B: 6 flits) and one of 32 B + 32 B
    // (4 flits). The case's dissemination barrier adds host 0's three header-only messages (2 flits each) to hosts
    // 1, 2 and 4, all of which leave router0 by +X (dimension order: X first).
    long flits = 62 * 6 + 4 + 3 * 2;
    LinkCounters router0to1 = link(result, 6, 7);
    assertThat(router0to1.bytes()).isEqualTo(flits * 16);
    assertThat(router0to1.packets()).isEqualTo(63 + 3);
    assertThat(router0to1.busyPs()).isEqualTo(flits * 1_000L);
    // X before Y: router1 -> router4 (+Y at x = 1) carries only the barrier messages that end at host 4 (x = 1,
    // y = 1) from row 0: from host 0 and host 2, 2 flits each. The data pairs never climb there: 2 -> 3 climbs at
    // x = 0 after two -X hops, 3 -> 2 descends at x = 2, and 4-5 stay on row 1.
    assertThat(link(result, 7, 10).bytes()).isEqualTo(2 * 2 * 16);
  }

  private static LinkCounters link(RunResult result, int from, int to) {
    return result.links().stream().filter(l -> l.fromDevice() == from && l.toDevice() == to).findFirst()
        .orElseThrow(() -> new AssertionError("no link " + from + " -> " + to));
  }
}
