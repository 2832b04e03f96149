package io.fabemu.node.rank;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabemu.collectives.Algorithm;
import io.fabemu.collectives.InputGenerator;
import io.fabemu.collectives.Collective;
import io.fabemu.collectives.PipelineSpec;
import io.fabemu.collectives.RankLayout;
import io.fabemu.collectives.StageCollective;
import io.fabemu.collectives.WorkloadSpec;
import io.fabemu.core.data.DataBuffer;
import io.fabemu.core.data.DataType;
import io.fabemu.core.data.ReduceOp;
import io.fabemu.core.optical.ConnectionPolicy;
import io.fabemu.core.optical.TransmissionCosts;
import io.fabemu.core.protocol.Message;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A pipeline iteration ({@link io.fabemu.collectives.PipelineIteration}) on an ideal network: every transmission
 * method and stage collective on clusters of 2 to 5 servers, every delivered activation, gradient and the global
 * AllReduce checked element by element against a reference computed here from the input generator alone (not with
 * {@code ExpectedAnswers}, which is checked to agree).
 */
class PipelineCorrectnessTest {
  private static final long SEED = 4004;
  private static final TransmissionCosts COSTS = new TransmissionCosts(400_000_000_000L, 100_000_000_000L, 1_000_000,
      1_000_000, true);

  static Stream<Arguments> cases() {
    List<Arguments> cases = new ArrayList<>();
    int[][] clusters = {{2, 1}, {2, 2}, {3, 3}, {4, 3}, {4, 4}, {5, 5}};
    for (int[] cluster : clusters) {
      for (StageCollective stage : StageCollective.values()) {
        for (Algorithm method : Algorithm.TRANSMISSION_METHODS) {
          if (method == Algorithm.SEND_BROADCAST && !stage.replicated()) continue;
          // Counts that do not divide by N (except for allgather, which needs it), and 1 and 3 micro-batches.
          int count = stage == StageCollective.ALLGATHER ? 3 * cluster[1] : 7;
          cases.add(Arguments.of(cluster[0], cluster[1], stage, method, count, 1 + 2 * (cases.size() % 2)));
        }
      }
    }
    return cases.stream();
  }

  @ParameterizedTest(name = "M={0} N={1} {2} {3} count={4} micro-batches={5}")
  @MethodSource("cases")
  void everyDeliveredBlockIsExact(int servers, int npus, StageCollective stage, Algorithm method, int count,
                                  int microBatches) {
    run(servers, npus, stage, method, count, microBatches, 5, DataType.INT64, ReduceOp.SUM);
  }

  @Test
  void maxOnFloatsAndAGlobalAllreduceOfAnotherSize() {
    run(4, 3, StageCollective.REDUCE_SCATTER, Algorithm.SWITCH_SEND, 10, 2, 33, DataType.FLOAT64, ReduceOp.MAX);
    run(3, 3, StageCollective.ALLREDUCE, Algorithm.SEND_BROADCAST, 4, 2, 0, DataType.FLOAT32, ReduceOp.SUM);
  }

  @Test
  void locationsTravelWithTheValues() {
    // MAXLOC reduces (value, location) pairs: the stage collectives and the global AllReduce carry both.
    ConnectionPolicy policy = ConnectionPolicy.byDefaultFormula(3, 3);
    for (StageCollective stage : StageCollective.values()) {
      PipelineSpec spec = new PipelineSpec(3, 3, 2, stage, 9L * 8, COSTS);
      WorkloadSpec w = WorkloadSpec.builder(Collective.PIPELINE, List.of(Algorithm.SWITCH_SEND, Algorithm.P2P_BUS),
          List.of(6L * 8)).warmup(1).dataType(DataType.INT32).op(ReduceOp.MAXLOC).pipeline(spec).build();
      IdealNetwork net = new IdealNetwork(1_000, 1).jitter((m, seq) -> (seq * 7919) % 30_000);
      RankWorkload[] ranks = net.createRanks(w, 9, SEED, new RankLayout(null, null, policy));
      net.run();
      for (RankWorkload rank : ranks) {
        assertThat(rank.results()).as(stage + " rank %d", rank.rank()).allSatisfy(r -> assertThat(r.wrongElements())
            .isZero());
      }
    }
  }

  @Test
  void autoRunsTheCostModelsChoice() {
    ConnectionPolicy policy = ConnectionPolicy.byDefaultFormula(4, 3);
    PipelineSpec spec = new PipelineSpec(4, 3, 2, StageCollective.ALLREDUCE, 0, COSTS);
    assertThat(spec.choice(64).chosen().configName()).isEqualTo("send-broadcast");
    WorkloadSpec w = WorkloadSpec.builder(Collective.PIPELINE, List.of(Algorithm.AUTO), List.of(64L))
        .dataType(DataType.INT64).pipeline(spec).build();
    IdealNetwork net = new IdealNetwork(1_000, 1);
    RankWorkload[] ranks = net.createRanks(w, 12, SEED, new RankLayout(null, null, policy));
    net.run();
    for (RankWorkload rank : ranks) {
      assertThat(rank.finished()).isTrue();
      assertThat(rank.results().get(0).wrongElements()).isZero();
    }
    // Method 1 sends one copy over each circuit: 8 elements x 8 bytes, per micro-batch and direction and pair.
    assertThat(net.bytes()).isEqualTo(expectedSendBroadcastBytes(4, 3, 2, 64));
  }

  @Test
  void theChecksSeeACorruptedActivation() {
    ConnectionPolicy policy = ConnectionPolicy.byDefaultFormula(2, 2);
    PipelineSpec spec = new PipelineSpec(2, 2, 1, StageCollective.NONE, 0, COSTS);
    WorkloadSpec w = WorkloadSpec.builder(Collective.PIPELINE, List.of(Algorithm.SWITCH_SEND), List.of(64L))
        .dataType(DataType.INT64).pipeline(spec).build();
    IdealNetwork net = new IdealNetwork(1_000, 1).tamper(m -> corruptCircuitMessages(m, 2));
    RankWorkload[] ranks = net.createRanks(w, 4, SEED, new RankLayout(null, null, policy));
    net.run();
    long wrong = 0;
    for (RankWorkload rank : ranks) wrong += rank.results().get(0).wrongElements();
    // Each server's gateway sends the other's two blocks of 8 elements over the circuit; element 0 of each is hit.
    assertThat(wrong).isEqualTo(2);
  }

  @Test
  void partsEndInOrderAndTheForwardPassWaitsForTheStages() {
    ConnectionPolicy policy = ConnectionPolicy.byDefaultFormula(4, 3);
    PipelineSpec spec = new PipelineSpec(4, 3, 3, StageCollective.ALLREDUCE, 0, COSTS);
    WorkloadSpec w = WorkloadSpec.builder(Collective.PIPELINE, List.of(Algorithm.SWITCH_SEND), List.of(800L))
        .dataType(DataType.INT64).pipeline(spec).build();
    IdealNetwork net = new IdealNetwork(1_000_000, 0);
    RankWorkload[] ranks = net.createRanks(w, 12, SEED, new RankLayout(null, null, policy));
    net.run();
    long[] first = ranks[0].results().get(0).partEndsPs();
    long[] last = ranks[11].results().get(0).partEndsPs();
    assertThat(first).hasSize(2);
    // The first stage's forward pass ends with its last send, the last stage's only once the last micro-batch
    // crossed every stage.
    assertThat(first[0]).isLessThan(last[0]);
    assertThat(first[1]).isGreaterThan(first[0]);
    long iteration = ranks[0].results().get(0).totalLatencyPs();
    assertThat(iteration).isEqualTo(first[1]);  // no global AllReduce: the backward pass ends the iteration
  }

  @Test
  void onlyTheNpusThatStageDataHoldStagingAreas() {
    ConnectionPolicy policy = ConnectionPolicy.byDefaultFormula(4, 4);
    PipelineSpec spec = new PipelineSpec(4, 4, 1, StageCollective.NONE, 0, COSTS);
    int count = 10;
    for (int rank = 0; rank < 16; rank++) {
      int server = rank / 4;
      int npu = rank % 4;
      boolean gateway = server > 0 && policy.gatewayNpu(server, server - 1) == npu
          || server < 3 && policy.gatewayNpu(server, server + 1) == npu;
      int switchSend = io.fabemu.collectives.PipelineIteration.build(spec, policy, Algorithm.SWITCH_SEND,
          Algorithm.RING, rank, count, 0).tempCount();
      int allgather = io.fabemu.collectives.PipelineIteration.build(spec, policy,
          Algorithm.ALLGATHER_SEND_SCATTER, Algorithm.RING, rank, count, 0).tempCount();
      // A gateway: its result, the source staging (N blocks) and the target staging (N blocks).
      assertThat(switchSend).as("rank %d", rank).isEqualTo(gateway ? count + 2 * 4 * count : count);
      // Method 3's all-gather gives every NPU the source staging.
      assertThat(allgather).as("rank %d", rank).isEqualTo(gateway ? count + 2 * 4 * count : count + 4 * count);
    }
  }

  @Test
  void refusals() {
    ConnectionPolicy policy = ConnectionPolicy.byDefaultFormula(2, 2);
    PipelineSpec distinct = new PipelineSpec(2, 2, 1, StageCollective.NONE, 0, COSTS);
    assertThatThrownBy(() -> io.fabemu.collectives.PipelineIteration.build(distinct, policy, Algorithm.SEND_BROADCAST,
        Algorithm.RING, 0, 4, 0)).hasMessageContaining("send-broadcast sends one copy");
    PipelineSpec gather = new PipelineSpec(2, 2, 1, StageCollective.ALLGATHER, 0, COSTS);
    assertThatThrownBy(() -> io.fabemu.collectives.PipelineIteration.build(gather, policy, Algorithm.SWITCH_SEND,
        Algorithm.RING, 0, 3, 0)).hasMessageContaining("multiple of 2");
    WorkloadSpec w = WorkloadSpec.builder(Collective.PIPELINE, List.of(Algorithm.SWITCH_SEND), List.of(64L))
        .dataType(DataType.INT64).pipeline(distinct).build();
    IdealNetwork net = new IdealNetwork(1_000, 1);
    assertThatThrownBy(() -> net.createRanks(w, 4, SEED, RankLayout.NONE)[0].start(0))
        .hasMessageContaining("optical cluster");
  }

  private static long expectedSendBroadcastBytes(int servers, int npus, int microBatches, long sizeBytes) {
    // Per micro-batch, per direction, per pair of consecutive servers: the circuit copy and N - 1 copies inside.
    long transfers = 2L * microBatches * (servers - 1) * npus * sizeBytes;
    // Each stage's direct allreduce: NPU i sends the N - 1 other chunks, then its own chunk N - 1 times, which over
    // the server adds up to 2 (N - 1) activations. The barriers' messages carry no bytes.
    long allreduces = 2L * microBatches * servers * 2 * (npus - 1) * sizeBytes;
    return transfers + allreduces;
  }

  /** Adds 1 to element 0 of messages of {@code blocks} blocks of 8 (the spliced data over a circuit). */
  private static Message corruptCircuitMessages(Message m, int blocks) {
    if (m.data() == null || m.data().count() != 8 * blocks) return m;
    DataBuffer copy = m.data().slice(0, m.data().count());
    copy.set(0, (long) copy.get(0) + 1);
    return new Message(m.sourceRank(), m.destinationRank(), m.tag(), copy);
  }

  private static void run(int servers, int npus, StageCollective stage, Algorithm method, int count,
                          int microBatches, int globalCount, DataType type, ReduceOp op) {
    ConnectionPolicy policy = ConnectionPolicy.byDefaultFormula(servers, npus);
    int elementBytes = type.sizeBytes();
    long sizeBytes = (long) count * elementBytes;
    PipelineSpec spec = new PipelineSpec(servers, npus, microBatches, stage, (long) globalCount * elementBytes,
        COSTS);
    WorkloadSpec w = WorkloadSpec.builder(Collective.PIPELINE, List.of(method), List.of(sizeBytes)).iterations(2)
        .warmup(1).dataType(type).op(op).pipeline(spec).build();
    IdealNetwork net = new IdealNetwork(1_000_000, 10).overheads(50_000, 70_000, 3, 1)
        .jitter((m, seq) -> (seq * 7919) % 3_000_000);
    int p = servers * npus;
    RankWorkload[] ranks = net.createRanks(w, p, SEED, new RankLayout(null, null, policy));
    net.run();
    InputGenerator gen = new InputGenerator(SEED, type, op);
    String what = "M=" + servers + " N=" + npus + " " + stage.configName() + " " + method.configName();
    for (RankWorkload rank : ranks) {
      assertThat(rank.finished()).as(what + ": rank %d finished", rank.rank()).isTrue();
      assertThat(rank.unexpectedMessages()).as(what + ": leftover messages").isZero();
      assertThat(rank.results().get(0).wrongElements()).as(what + ": rank %d wrong", rank.rank()).isZero();
      DataBuffer out = rank.resultBuffer();
      int s = rank.rank() / npus;
      int i = rank.rank() % npus;
      long k = stage.contributionCount(count, npus);
      for (int e = 0; e < globalCount; e++) {
        assertThat(out.get(e)).as(what + ": rank %d global %d", rank.rank(), e)
            .isEqualTo(reduce(gen, sizeBytes, op, 0, p, e));
      }
      for (int m = 0; m < microBatches; m++) {
        if (s > 0) {
          check(out, globalCount + m * count, gen, sizeBytes, op, stage, s - 1, npus, i, globalCount + m * k, count,
              what + " rank " + rank.rank() + " forward " + m);
        }
        if (s < servers - 1) {
          check(out, globalCount + (microBatches + m) * count, gen, sizeBytes, op, stage, s + 1, npus, i,
              globalCount + (microBatches + m) * k, count, what + " rank " + rank.rank() + " backward " + m);
        }
      }
    }
  }

  /** Checks out[at..at+count) against what NPU {@code npu} of {@code server}'s stage collective gives. */
  private static void check(DataBuffer out, int at, InputGenerator gen, long sizeBytes, ReduceOp op,
                            StageCollective stage, int server, int npus, int npu, long inputOffset, int count,
                            String what) {
    int first = server * npus;
    for (int e = 0; e < count; e++) {
      double expected = switch (stage) {
        case NONE -> gen.value(sizeBytes, first + npu, inputOffset + e);
        case ALLGATHER -> {
          int slice = count / npus;
          yield gen.value(sizeBytes, first + e / slice, inputOffset + e % slice);
        }
        case ALLREDUCE -> reduce(gen, sizeBytes, op, first, npus, inputOffset + e);
        case REDUCE_SCATTER -> reduce(gen, sizeBytes, op, first, npus, inputOffset + (long) npu * count + e);
      };
      assertThat(out.get(at + e)).as(what + " element " + e).isEqualTo(expected);
    }
  }

  private static double reduce(InputGenerator gen, long sizeBytes, ReduceOp op, int first, int n, long index) {
    double acc = gen.value(sizeBytes, first, index);
    for (int r = first + 1; r < first + n; r++) {
      double v = gen.value(sizeBytes, r, index);
      acc = op == ReduceOp.MAX ? Math.max(acc, v) : acc + v;
    }
    return acc;
  }
}
