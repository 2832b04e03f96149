package io.fabemu.fabric.inc;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabemu.core.data.DataBuffer;
import io.fabemu.core.data.DataType;
import io.fabemu.core.data.ReduceOp;
import io.fabemu.core.inc.ControlPayload;
import io.fabemu.core.inc.IncAddresses;
import io.fabemu.core.inc.IncCodes;
import io.fabemu.core.inc.IncDataPlaneMessages;
import io.fabemu.core.inc.IncPacketType;
import io.fabemu.core.inc.IncRequest;
import io.fabemu.core.protocol.Message;
import io.fabemu.core.time.Units;
import io.fabemu.fabric.ScenarioSpec;
import io.fabemu.fabric.inc.IncDataPlaneHarness.Delivery;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * INC Allreduce through real NICs, switches with INC units and links, the control messages and tasks sent as the
 * rank side would: every leader must get the exact reduced result of every request.
 */
class IncDataPlaneTest {
  private static final long GROUP = 0x00C0FFEEL;
  private static final int FRAGMENT_BYTES = 256;
  private static final long TIMEOUT_PS = 100 * Units.PS_PER_US;
  private static final int MAX_DATA_SIZE = 8192;

  /** Small integers, so sums are exact and MAX of floats is exact too. */
  static long value(int rank, int request, int element) {
    return ((rank * 7L + element * 13L + request * 5L) % 101) - 50;
  }

  static DataBuffer contribution(DataType type, int rank, int request, int elements) {
    DataBuffer data = DataBuffer.allocate(type, elements, false);
    for (int e = 0; e < elements; e++) data.set(e, value(rank, request, e));
    return data;
  }

  static DataBuffer expected(DataType type, ReduceOp op, List<Integer> leaders, int request, int elements) {
    DataBuffer result = contribution(type, leaders.get(0), request, elements);
    for (int i = 1; i < leaders.size(); i++) {
      result.reduceFrom(op, 0, contribution(type, leaders.get(i), request, elements));
    }
    return result;
  }

  static IncDataPlaneHarness.TaskFactory realTasks(DataType type, ReduceOp op, int elements) {
    return (rank, successor, request) -> IncDataPlaneMessages.task(rank, successor,
        IncDataPlaneHarness.TAG_BASE + request, GROUP, op, contribution(type, rank, request, elements),
        request & 0xFF);
  }

  /** Runs {@code requests} Allreduces and checks every leader's every result, element by element. */
  static IncDataPlaneHarness runAndCheck(ScenarioSpec scenario, List<Integer> leaders, DataType type, ReduceOp op,
                                         int elements, int requests) {
    return runAndCheck(scenario, leaders, 1, type, op, elements, requests);
  }

  static IncDataPlaneHarness runAndCheck(ScenarioSpec scenario, List<Integer> leaders, int ranksPerHost,
                                         DataType type, ReduceOp op, int elements, int requests) {
    IncDataPlaneHarness harness = new IncDataPlaneHarness(scenario, leaders, ranksPerHost, GROUP, requests,
        MAX_DATA_SIZE, realTasks(type, op, elements));
    harness.runAllreduces();
    for (int leader : leaders) {
      List<Delivery> results = harness.results(leader);
      assertThat(results).as("results of leader %d", leader).hasSize(requests);
      for (int r = 0; r < requests; r++) {
        Message m = results.get(r).message();
        assertThat(IncRequest.of(m).mpi().reqId()).isEqualTo(r & 0xFF);
        // The message is the one the ring predecessor sent to this leader, carrying the reduced data.
        assertThat(m.sourceRank()).isEqualTo(harness.predecessor(leader));
        assertThat(m.destinationRank()).isEqualTo(leader);
        assertThat(m.tag()).isEqualTo(IncDataPlaneHarness.TAG_BASE + r);
        DataBuffer want = expected(type, op, leaders, r, elements);
        assertThat(m.data().count()).isEqualTo(elements);
        assertThat(m.data().countMismatches(0, want, 0, elements))
            .as("wrong elements of leader %d, request %d", leader, r).isZero();
      }
      assertThat(harness.nicInc(harness.hostOf(leader)).pendingTasks()).isZero();
    }
    return harness;
  }

  @Test
  void shouldDeliverTheExactSumToEveryLeaderWhenAllLeadersShareOneTor() {
    ScenarioSpec scenario = IncDataPlaneHarness.scenario(4, 4, 1, FRAGMENT_BYTES, TIMEOUT_PS, 3, List.of(), 1L);
    IncDataPlaneHarness h = runAndCheck(scenario, List.of(0, 1, 2, 3), DataType.INT32, ReduceOp.SUM, 40, 3);

    // The TOR is the root: the SPINE never sees a task.
    assertThat(h.switchAt(5).incUnit().groupsHeld()).isZero();
    assertThat(h.switchAt(4).incUnit().groupsHeld()).isEqualTo(1);
    assertThat(h.nicInc(0).fragmentsResent()).isZero();
  }

  @ParameterizedTest
  @ValueSource(ints = {4, 2})
  void shouldDeliverTheExactSumWhenLeadersSpreadOverSeveralTorsAndTasksOverSeveralFragments(int hostsPerTor) {
    ScenarioSpec scenario = IncDataPlaneHarness.scenario(8, hostsPerTor, 2, FRAGMENT_BYTES, TIMEOUT_PS, 3,
        List.of(), 2L);
    List<Integer> leaders = IntStream.range(0, 8).boxed().toList();

    // 300 int32 = 1200 B: fragments of 256, 256, 256, 256, 176 B.
    IncDataPlaneHarness h = runAndCheck(scenario, leaders, DataType.INT32, ReduceOp.SUM, 300, 4);

    assertThat(h.switchAt(h.chosenSpine()).incUnit().groupsHeld()).isEqualTo(1);
    assertThat(h.switchAt(h.chosenSpine() + 1).incUnit().groupsHeld()).isZero();
    for (int leader : leaders) assertThat(h.nicInc(leader).fragmentsResent()).isZero();
  }

  @Test
  void shouldDeliverTheExactFloatMaximumToLeadersUnderFourTorsInUnevenNumbers() {
    ScenarioSpec scenario = IncDataPlaneHarness.scenario(8, 2, 2, FRAGMENT_BYTES, TIMEOUT_PS, 3, List.of(), 3L);
    // TOR 0: leader 0 (the MRR, alone); TOR 1: leaders 2 and 3; TOR 2: leader 5; TOR 3: leader 6.
    runAndCheck(scenario, List.of(0, 2, 3, 5, 6), DataType.FLOAT32, ReduceOp.MAX, 200, 3);
  }

  @Test
  void shouldAggregateSeveralLeadersPerHostInOneGroupWhenInSocketMode() {
    ScenarioSpec scenario = IncDataPlaneHarness.scenario(4, 2, 2, FRAGMENT_BYTES, TIMEOUT_PS, 3, List.of(), 7L);
    // Two leaders per host (one per socket): ranks 2h and 2h + 1 on host h; socket rings under each TOR.
    List<Integer> leaders = IntStream.range(0, 8).boxed().toList();

    IncDataPlaneHarness h = runAndCheck(scenario, leaders, 2, DataType.INT32, ReduceOp.SUM, 100, 3);

    assertThat(h.predecessor(5)).isEqualTo(7); // socket 1's ring under the second TOR: 5 -> 7 -> 5
  }

  @Test
  void shouldGiveSyntheticTasksTheRealOnesSizesAndTimes() {
    ScenarioSpec scenario = IncDataPlaneHarness.scenario(8, 4, 2, FRAGMENT_BYTES, TIMEOUT_PS, 3, List.of(), 4L);
    List<Integer> leaders = IntStream.range(0, 8).boxed().toList();
    int elements = 300;
    IncDataPlaneHarness real = runAndCheck(scenario, leaders, DataType.INT32, ReduceOp.SUM, elements, 3);
    IncDataPlaneHarness synthetic = new IncDataPlaneHarness(scenario, leaders, GROUP, 3, MAX_DATA_SIZE,
        (rank, successor, request) -> IncDataPlaneMessages.syntheticTask(rank, successor,
            IncDataPlaneHarness.TAG_BASE + request, GROUP, ReduceOp.SUM, DataType.INT32, 4L * elements, request));
    synthetic.runAllreduces();

    for (int leader : leaders) {
      List<Delivery> s = synthetic.results(leader);
      List<Delivery> r = real.results(leader);
      assertThat(s).hasSameSizeAs(r);
      for (int i = 0; i < s.size(); i++) {
        assertThat(s.get(i).message().data()).isNull();
        assertThat(s.get(i).message().sizeBytes()).isEqualTo(4L * elements);
        assertThat(s.get(i).timePs()).isEqualTo(r.get(i).timePs());
      }
    }
    assertThat(synthetic.links()).isEqualTo(real.links());
  }

  @Test
  void shouldCollectEverySwitchesCapabilitiesInTheQueries() {
    ScenarioSpec scenario = IncDataPlaneHarness.scenario(8, 4, 2, FRAGMENT_BYTES, TIMEOUT_PS, 3, List.of(), 5L);
    List<Integer> leaders = IntStream.range(0, 8).boxed().toList();
    IncDataPlaneHarness h = new IncDataPlaneHarness(scenario, leaders, GROUP, 1, MAX_DATA_SIZE,
        realTasks(DataType.INT32, ReduceOp.SUM, 4));

    h.runQueries();

    List<Delivery> queries = h.deliveries(0);
    assertThat(queries).hasSize(7);
    int ops = (1 << IncCodes.opCode(ReduceOp.SUM)) | (1 << IncCodes.opCode(ReduceOp.MAX))
        | (1 << IncCodes.opCode(ReduceOp.MIN));
    int types = (1 << IncCodes.typeCode(DataType.INT32)) | (1 << IncCodes.typeCode(DataType.FLOAT32));
    for (Delivery d : queries) {
      assertThat(IncRequest.of(d.message()).type()).isEqualTo(IncPacketType.TREE_UP);
      ControlPayload c = IncRequest.of(d.message()).control();
      int sender = d.message().sourceRank();
      assertThat(c.supAllreduceOp()).isEqualTo(ops);
      assertThat(c.supDataType()).isEqualTo(types);
      assertThat(c.supMaxDataSize()).isEqualTo(8192);
      assertThat(c.failCause()).isZero();
      assertThat(c.tor1Ip()).isEqualTo(IncAddresses.ofVertex(h.torOf(sender)));
      if (sender < 4) {
        assertThat(c.hops()).isEqualTo(1);
        assertThat(c.spineIp()).isZero();
        assertThat(c.tor2Ip()).isZero();
      } else {
        assertThat(c.hops()).isEqualTo(3);
        assertThat(IncAddresses.vertexOf(c.spineIp())).isIn(10, 11);
        assertThat(c.avaGrpNum()).isEqualTo(8);
        assertThat(c.tor2Ip()).isEqualTo(IncAddresses.ofVertex(h.torOf(0)));
      }
    }
  }

  @Test
  void shouldFreeEverySwitchesGroupOnRelease() {
    ScenarioSpec scenario = IncDataPlaneHarness.scenario(8, 4, 2, FRAGMENT_BYTES, TIMEOUT_PS, 3, List.of(), 6L);
    List<Integer> leaders = IntStream.range(0, 8).boxed().toList();
    IncDataPlaneHarness h = runAndCheck(scenario, leaders, DataType.INT32, ReduceOp.SUM, 10, 2);
    int spine = h.chosenSpine();
    assertThat(h.switchAt(spine).incUnit().freeGroups()).isEqualTo(7);

    h.runReleases();

    for (int sw : new int[] {8, 9, spine}) {
      assertThat(h.switchAt(sw).incUnit().freeGroups()).isEqualTo(8);
      assertThat(h.switchAt(sw).incUnit().groupsHeld()).isZero();
    }
    assertThat(h.switchAt(8).incUnit().freeSlots()).isEqualTo(256);
    // Every NMRR got its release.
    for (int l = 1; l < 8; l++) {
      assertThat(h.deliveries(l)).extracting(d -> IncRequest.of(d.message()).type()).contains(IncPacketType.RELEASE);
    }
  }
}
