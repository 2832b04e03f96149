package io.fabemu.fabric;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.fabemu.collectives.Algorithm;
import io.fabemu.collectives.Collective;
import io.fabemu.core.data.DataType;
import io.fabemu.core.data.ReduceOp;
import io.fabemu.core.link.ForwardingMode;
import io.fabemu.core.protocol.DeviceProtocol.EthernetTimer;
import io.fabemu.core.protocol.DeviceProtocol.FaultCommand;
import io.fabemu.core.sim.DeviceCore;
import io.fabemu.core.sim.Event;
import io.fabemu.core.topology.FullMeshSpec;
import io.fabemu.core.topology.LineSpec;
import io.fabemu.core.topology.RingSpec;
import io.fabemu.core.topology.TopologySpec;
import io.fabemu.fabric.result.CaseResult;
import io.fabemu.fabric.result.RunResult;
import io.fabemu.nic.ExternalEthernetCore;
import io.fabemu.nic.NicCore;
import io.fabemu.node.ComputeNodeCore;
import io.fabemu.node.management.ManagementCore;
import io.fabemu.switching.router.RouterCore;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/** Collectives through real NICs, switches and links, on the plain window engine. */
class FabricTest {

  static RunResult run(ScenarioSpec spec) {
    return Fabric.build(spec).runOnPlainEngine();
  }

  /** The operation's time: the slowest rank's (in trees and ping-pong, ranks finish at different times). */
  private static double latencyPs(ScenarioSpec spec) {
    RunResult result = run(spec);
    assertThat(result.complete()).as(result.incompleteReason()).isTrue();
    CaseResult c = result.cases().get(0);
    assertThat(c.wrongElements()).isZero();
    return c.maxLatencyPs();
  }

  @Test
  void shouldTakeAlphaPlusNBetaForOneMessageWhenFabricIsUncontended() {
    long n = 256 * 1024;
    double measured = latencyPs(TestScenarios.star(2, Collective.SENDRECV, Algorithm.PING_PONG, n));
    double oneWay = TestScenarios.starAlphaPs() + n * TestScenarios.starBetaPsPerByte();
    assertThat(measured).isCloseTo(2 * oneWay, within(2 * oneWay * 0.02));
  }

  @ParameterizedTest
  @ValueSource(ints = {1, 16, 64})
  void shouldSerializeTheWholeWindowOnTheLinkWhenWindowedSendRecvRunsOnAStar(int window) {
    // osu_bw's stream: the window's messages queue on the host link, then one zero-byte acknowledgement returns.
    long n = 64 * 1024;
    ScenarioSpec star = TestScenarios.star(2, Collective.SENDRECV, Algorithm.WINDOW, n);
    ScenarioSpec spec = star.toBuilder().workload(star.workload().withWindow(window)).build();
    double expected = 2 * TestScenarios.starAlphaPs() + window * n * TestScenarios.starBetaPsPerByte();
    assertThat(latencyPs(spec)).isCloseTo(expected, within(expected * 0.02));
  }

  @ParameterizedTest
  @ValueSource(ints = {4, 8, 16})
  void shouldMatchRingFormulaWhenRingAllreduceRunsOnAStar(int p) {
    long n = 1024 * 1024;
    double alpha = TestScenarios.starAlphaPs();
    double beta = TestScenarios.starBetaPsPerByte();
    double expected = 2.0 * (p - 1) * alpha + 2.0 * (p - 1) / p * n * beta;
    double measured = latencyPs(TestScenarios.star(p, Collective.ALLREDUCE, Algorithm.RING, n));
    assertThat(measured).isCloseTo(expected, within(expected * 0.02));
  }

  @ParameterizedTest
  @ValueSource(ints = {2, 4, 8, 16})
  void shouldMatchRecursiveDoublingFormulaWhenPIsAPowerOfTwo(int p) {
    long n = 64 * 1024;
    double steps = Math.ceil(Math.log(p) / Math.log(2));
    double expected = steps * (TestScenarios.starAlphaPs() + n * TestScenarios.starBetaPsPerByte());
    double measured = latencyPs(TestScenarios.star(p, Collective.ALLREDUCE, Algorithm.RECURSIVE_DOUBLING, n));
    assertThat(measured).isCloseTo(expected, within(expected * 0.02));
  }

  @ParameterizedTest
  @ValueSource(ints = {4, 8, 16})
  void shouldMatchRabenseifnerFormulaWhenPIsAPowerOfTwo(int p) {
    long n = 1024 * 1024;
    double log2p = Math.log(p) / Math.log(2);
    double expected = 2 * log2p * TestScenarios.starAlphaPs()
        + 2.0 * (p - 1) / p * n * TestScenarios.starBetaPsPerByte();
    double measured = latencyPs(TestScenarios.star(p, Collective.ALLREDUCE, Algorithm.RABENSEIFNER, n));
    assertThat(measured).isCloseTo(expected, within(expected * 0.02));
  }

  @ParameterizedTest
  @ValueSource(ints = {4, 8, 16})
  void shouldMatchBinomialReduceBroadcastFormulaWhenPIsAPowerOfTwo(int p) {
    long n = 64 * 1024;
    double log2p = Math.log(p) / Math.log(2);
    double expected = 2 * log2p * (TestScenarios.starAlphaPs() + n * TestScenarios.starBetaPsPerByte());
    double measured = latencyPs(TestScenarios.star(p, Collective.ALLREDUCE, Algorithm.BINOMIAL, n));
    assertThat(measured).isCloseTo(expected, within(expected * 0.02));
  }

  @ParameterizedTest
  @EnumSource(value = Collective.class, names = "PIPELINE", mode = EnumSource.Mode.EXCLUDE)
  void shouldGiveExactResultsWhenEveryCollectiveCrossesALeafSpine(Collective collective) {
    for (int ppn : new int[] {1, 3}) {
      ScenarioSpec spec = TestScenarios.leafSpine(6, 4, 2, ppn, collective, Algorithm.AUTO, DataType.INT32,
          ReduceOp.SUM, false, List.of(4L, 4000L, 40_000L), ForwardingMode.STORE_AND_FORWARD);
      RunResult result = run(spec);
      assertThat(result.complete()).as(result.incompleteReason()).isTrue();
      assertThat(result.cases()).hasSize(3).allSatisfy(c -> assertThat(c.wrongElements()).isZero());
    }
  }

  @ParameterizedTest
  @EnumSource(value = Algorithm.class, names = {"RING", "RECURSIVE_DOUBLING", "RABENSEIFNER", "BINOMIAL"})
  void shouldGiveExactResultsWhenAllreduceIsHierarchicalOverManyTors(Algorithm algorithm) {
    ScenarioSpec spec = TestScenarios.leafSpine(7, 3, 2, 4, Collective.ALLREDUCE, algorithm, DataType.FLOAT64,
        ReduceOp.MAX, true, List.of(8L, 8192L, 100_000L), ForwardingMode.CUT_THROUGH);
    RunResult result = run(spec);
    assertThat(result.complete()).isTrue();
    assertThat(result.cases()).allSatisfy(c -> assertThat(c.wrongElements()).isZero());
  }

  @ParameterizedTest
  @MethodSource("directTopologies")
  void shouldRelayTransitPacketsWhenTopologyIsDirect(TopologySpec topology) {
    RunResult result = run(TestScenarios.direct(topology, Collective.ALLREDUCE, Algorithm.RING, 20_000));
    assertThat(result.complete()).isTrue();
    assertThat(result.cases().get(0).wrongElements()).isZero();
  }

  static List<TopologySpec> directTopologies() {
    return List.of(new LineSpec(5, TestScenarios.DIRECT_LINK), new RingSpec(5, TestScenarios.DIRECT_LINK),
        new FullMeshSpec(5, TestScenarios.DIRECT_LINK));
  }

  @Test
  void shouldGiveTheSameDigestWhenTheSameScenarioRunsTwice() {
    ScenarioSpec spec = TestScenarios.leafSpine(12, 4, 2, 2, Collective.ALLREDUCE, Algorithm.RING, DataType.FLOAT32,
        ReduceOp.SUM, false, List.of(4L, 65_536L), ForwardingMode.CUT_THROUGH);
    RunResult first = run(spec);
    RunResult second = run(spec);
    assertThat(first.digest()).isEqualTo(second.digest()).hasSize(64);
  }

  @Test
  void shouldCountBytesOnEveryLinkWhenRingAllreduceCrossesSpines() {
    ScenarioSpec spec = TestScenarios.leafSpine(8, 4, 2, 1, Collective.ALLREDUCE, Algorithm.RING, DataType.FLOAT32,
        ReduceOp.SUM, false, List.of(8192L), ForwardingMode.CUT_THROUGH);
    RunResult result = run(spec);
    long hostUplinkBytes = result.links().stream().filter(l -> l.fromDevice() < 8).mapToLong(l -> l.bytes()).sum();
    long spineBytes = result.links().stream().filter(l -> l.fromDevice() >= 10).mapToLong(l -> l.bytes()).sum();
    assertThat(hostUplinkBytes).isPositive();
    // Two ring neighbours cross TORs (3->4, 7->0): their traffic, and only theirs, goes through the spines.
    assertThat(spineBytes).isPositive().isLessThan(hostUplinkBytes);
  }

  @Test
  void shouldFillEveryIdFromTheInstallersAndNumberTheStartEventsInTheirOrder() {
    Fabric fabric = Fabric.build(InstallerScenarios.meshWithEthernetAndNodeDown());
    DeviceCore[] devices = fabric.devices();
    // 4 x 4 mesh: NICs 0..15, routers 16..31, compute nodes 32..47, then the management node and the Ethernet.
    assertThat(fabric.ids()).isEqualTo(new DeviceIdPlan(48, 48, 49, -1, 50));
    assertThat(devices).hasSize(50).doesNotContainNull();
    for (int id = 0; id < devices.length; id++) assertThat(devices[id].deviceId()).isEqualTo(id);
    assertThat(devices[0]).isInstanceOf(NicCore.class);
    assertThat(devices[16]).isInstanceOf(RouterCore.class);
    assertThat(devices[32]).isInstanceOf(ComputeNodeCore.class);
    assertThat(devices[fabric.managementDevice()]).isInstanceOf(ManagementCore.class);
    assertThat(devices[fabric.ethernetDevice()]).isInstanceOf(ExternalEthernetCore.class);
    assertThat(fabric.ocsDevice()).isEqualTo(-1);

    List<Event> events = fabric.startEvents();
    for (int i = 0; i < events.size(); i++) {
      assertThat(events.get(i).sourceSequence()).isEqualTo(i);
      assertThat(events.get(i).sourceDevice()).isEqualTo(Event.EXTERNAL_SOURCE);
    }
    // The compute nodes' starts, the fault's deliveries, then the Ethernet sources: 16 NICs and the external hosts.
    assertThat(events.subList(0, 16)).extracting(Event::targetDevice).containsExactlyElementsOf(
        IntStream.range(32, 48).boxed().toList());
    int faults = events.size() - 16 - 17;
    assertThat(faults).isPositive();
    assertThat(events.subList(16, 16 + faults)).allSatisfy(e -> assertThat(e.payload()).isInstanceOf(
        FaultCommand.class));
    assertThat(events.subList(16 + faults, events.size())).allSatisfy(e -> assertThat(e.payload()).isInstanceOf(
        EthernetTimer.class));
    assertThat(events.get(events.size() - 1).targetDevice()).isEqualTo(49);
    // A new list per call.
    events.clear();
    assertThat(fabric.startEvents()).hasSize(16 + faults + 17);
  }
}
