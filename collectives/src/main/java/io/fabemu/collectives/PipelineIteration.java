package io.fabemu.collectives;

import io.fabemu.core.optical.ConnectionPolicy;

/**
 * One rank's schedule for one iteration of pipeline-parallel training on an optical cluster (the optical patent, [0055],
 * [0072]-[0074], table 1), with the transfers between stages carried out by one of the patent's four transmission
 * methods ([0148]-[0166]) on the emulated NPUs and links.
 *
 * <p>The iteration, GPipe's order: a <b>forward</b> pass of every micro-batch in turn, in which stage {@code s}
 * receives the micro-batch's activation from stage {@code s - 1}, runs its {@link StageCollective} among its
 * server's NPUs and sends the result to stage {@code s + 1}; a <b>backward</b> pass, micro-batches in reverse order,
 * gradients from stage {@code s + 1} to {@code s} the same way; then the <b>global</b> data-parallel AllReduce over
 * every NPU. The three communication domains of table 1: the pipeline (one NPU number across servers, here the
 * circuit between consecutive servers), the operator-parallel server, the whole cluster. The three are the
 * schedule's parts ({@link Schedule#partEnd}), so the results report their times.
 *
 * <p>What is not modelled: the computation. A stage's compute takes no time, and its output is made from the
 * rank's own input (a block of the input per micro-batch and direction) rather than from what it received, so every
 * delivered block has an exact answer ({@link ExpectedAnswers#countWrongPipeline}); the order of the steps keeps the
 * pipeline's dependencies (a stage forwards a micro-batch only after receiving it).
 *
 * <p>Buffers, in elements, for an activation of {@code c} per NPU, contributions of {@code k}
 * ({@link StageCollective#contributionCount}), {@code B} micro-batches, a global AllReduce of {@code g}:
 * <pre>
 *   INPUT   [0, g) global | forward contribution m at g + m k | backward contribution m at g + (B + m) k
 *   OUTPUT  [0, g) global | activation received in micro-batch m at g + m c | gradient at g + (B + m) c
 *   TEMP    [0, c) the stage collective's result | source staging [c, c + N c) | target staging [c + N c, c + 2 N c)
 * </pre>
 * Only the NPUs that use a staging area have it (a gateway, and with method 3 every NPU its source staging): on a
 * server of 512 NPUs the others would otherwise hold 1,024 activations' worth each.
 * A stage's first (last) server receives no activation (gradient): those output regions are left alone.
 *
 * <p>The methods, between source server {@code a} and target server {@code b} joined by the circuit of NPU
 * {@code g} ({@link ConnectionPolicy#gatewayNpu}):
 * <ol>
 *   <li>{@link Algorithm#SEND_BROADCAST}: NPU g of a sends its {@code c} elements to NPU g of b, which sends them on
 *       to each other NPU of b (replicated activations only: every NPU of a holds the same).</li>
 *   <li>{@link Algorithm#P2P_BUS}: NPU g of a reads its neighbours' data (a zero-byte request to each, which answers
 *       with its block), sends the spliced {@code N c}, and NPU g of b writes block j into NPU j.</li>
 *   <li>{@link Algorithm#ALLGATHER_SEND_SCATTER}: the NPUs of a all-gather (each sends its block to every other),
 *       NPU g sends the spliced data, NPU g of b scatters block j to NPU j.</li>
 *   <li>{@link Algorithm#SWITCH_SEND}: the NPUs of a send their blocks to NPU g, it sends the spliced data, NPU g of
 *       b sends block j to NPU j.</li>
 * </ol>
 * Block j of the spliced data is NPU j's, so NPU j of b receives what NPU j of a held; with replicated data all
 * blocks are equal and method 1's single copy is the same answer.
 *
 * <p>Tags: phases {@link #PHASE_FORWARD_STAGE} to {@link #PHASE_BACKWARD_TRANSFER}, rounds {@code 8m + step}; the
 * global AllReduce runs in phases {@link #PHASE_GLOBAL} (and the next one for the binomial tree).
 */
public final class PipelineIteration {
  /** The forward stage collectives. */
  public static final int PHASE_FORWARD_STAGE = 1;
  /** The forward transfers between stages. */
  public static final int PHASE_FORWARD_TRANSFER = 2;
  /** The backward stage collectives. */
  public static final int PHASE_BACKWARD_STAGE = 3;
  /** The backward transfers between stages. */
  public static final int PHASE_BACKWARD_TRANSFER = 4;
  /** The global AllReduce (binomial: this phase and the next). */
  public static final int PHASE_GLOBAL = 5;

  /** Parts of an iteration, as the schedule marks them: forward, backward (the global AllReduce runs to the end). */
  public static final int PARTS = 2;

  // Rounds inside one micro-batch (8 per micro-batch).
  private static final int ROUND_REDUCE = 0;
  private static final int ROUND_GATHER = 1;
  private static final int ROUND_READ_REQUEST = 2;
  private static final int ROUND_TO_GATEWAY = 3;
  private static final int ROUND_CIRCUIT = 4;
  private static final int ROUND_SPREAD = 5;

  private PipelineIteration() {}

  /**
   * Rank {@code rank}'s schedule for one iteration.
   *
   * @param spec            the pipeline
   * @param policy          the cluster's connection policy (its servers and NPUs per server must be the spec's)
   * @param method          a concrete transmission method (one of the four pipeline algorithms)
   * @param globalAlgorithm a concrete allreduce algorithm for the global AllReduce
   * @param rank            this rank: NPU {@code rank mod N} of server {@code rank / N}
   * @param count           elements of an activation per NPU ({@code c})
   * @param globalCount     elements of the global AllReduce per NPU ({@code g}, 0 for none)
   * @throws IllegalArgumentException when the method is not a transmission method, method 1 is asked for data that
   *     is not replicated, an allgather stage's count does not divide by N, the policy does not match the spec, or a
   *     buffer would not fit a Java array
   */
  public static Schedule build(PipelineSpec spec, ConnectionPolicy policy, Algorithm method,
                               Algorithm globalAlgorithm, int rank, int count, int globalCount) {
    int n = spec.npusPerServer();
    if (policy.servers() != spec.servers() || policy.npusPerServer() != n) {
      throw new IllegalArgumentException("the pipeline has " + spec.servers() + " servers of " + n
          + " NPUs, the connection policy " + policy.servers() + " of " + policy.npusPerServer());
    }
    if (method.transmissionMethod() == null) {
      throw new IllegalArgumentException(method.configName() + " is not a transmission method");
    }
    if (method == Algorithm.SEND_BROADCAST && !spec.stageCollective().replicated()) {
      throw new IllegalArgumentException("send-broadcast sends one copy, so it needs replicated activations (stage "
          + "collective allreduce or allgather), not " + spec.stageCollective().configName());
    }
    if (spec.stageCollective() == StageCollective.ALLGATHER && count % n != 0) {
      throw new IllegalArgumentException("an allgather stage needs an activation of a multiple of " + n
          + " elements (one slice per NPU), got " + count);
    }
    if (rank < 0 || rank >= spec.worldSize()) {
      throw new IllegalArgumentException("rank " + rank + " is outside a pipeline of " + spec.worldSize());
    }
    Regions regions = new Regions(spec, count, globalCount);
    ScheduleBuilder b = new ScheduleBuilder(rank);
    Stage stage = new Stage(b, spec, policy, method, regions, rank);
    b.buffers(regions.inputCount, regions.outputCount).temp(stage.tempCount());
    int servers = spec.servers();
    int microBatches = spec.microBatches();
    for (int m = 0; m < microBatches; m++) {
      if (stage.server > 0) {
        stage.receive(stage.server - 1, m, PHASE_FORWARD_TRANSFER, regions.forwardOutput(m));
      }
      Region activation = stage.collective(m, PHASE_FORWARD_STAGE, regions.forwardInput(m));
      if (stage.server < servers - 1) {
        stage.send(stage.server + 1, m, PHASE_FORWARD_TRANSFER, activation);
      }
    }
    b.endPart();
    for (int m = microBatches - 1; m >= 0; m--) {
      if (stage.server < servers - 1) {
        stage.receive(stage.server + 1, m, PHASE_BACKWARD_TRANSFER, regions.backwardOutput(m));
      }
      Region gradient = stage.collective(m, PHASE_BACKWARD_STAGE, regions.backwardInput(m));
      if (stage.server > 0) {
        stage.send(stage.server - 1, m, PHASE_BACKWARD_TRANSFER, gradient);
      }
    }
    b.endPart();
    if (globalCount > 0) {
      Schedules.allreduceFromInput(b, globalAlgorithm, RankGroup.ofWorld(spec.worldSize()), rank, globalCount,
          PHASE_GLOBAL);
    }
    return b.build();
  }

  /**
   * Elements of the largest buffer one NPU needs for an iteration of activations of {@code count} elements and a
   * global AllReduce of {@code globalCount}: its input, its output, or a gateway's staging (see the class comment);
   * above {@link Schedules#MAX_BUFFER_ELEMENTS} the iteration cannot be built.
   */
  public static long largestBufferElements(PipelineSpec spec, long count, long globalCount) {
    long blocks = 2L * spec.microBatches();
    long contribution = spec.stageCollective().contributionCount((int) Math.min(count, Integer.MAX_VALUE),
        spec.npusPerServer());
    long input = globalCount + blocks * contribution;
    long output = globalCount + blocks * count;
    long staging = count * (1 + 2L * spec.npusPerServer());
    return Math.max(input, Math.max(output, staging));
  }

  /** A slice of one buffer. */
  record Region(BufferId buffer, int offset) {}

  /** Where everything sits in the three buffers (see the class comment). */
  static final class Regions {
    final int count;
    final int contribution;
    final int global;
    final int microBatches;
    final int inputCount;
    final int outputCount;
    final int sourceStaging;
    final int targetStaging;

    Regions(PipelineSpec spec, int count, int globalCount) {
      if (count < 0 || globalCount < 0) {
        throw new IllegalArgumentException("negative count: activation " + count + ", global " + globalCount);
      }
      long largest = largestBufferElements(spec, count, globalCount);
      if (largest > Schedules.MAX_BUFFER_ELEMENTS) {
        throw new IllegalArgumentException("a pipeline iteration needs a buffer of " + largest + " elements on one "
            + "NPU, more than a Java array holds");
      }
      int n = spec.npusPerServer();
      this.count = count;
      this.contribution = (int) spec.stageCollective().contributionCount(count, n);
      this.global = globalCount;
      this.microBatches = spec.microBatches();
      this.inputCount = globalCount + 2 * microBatches * contribution;
      this.outputCount = globalCount + 2 * microBatches * count;
      this.sourceStaging = count;
      this.targetStaging = count + n * count;
    }

    Region forwardInput(int m) {
      return new Region(BufferId.INPUT, global + m * contribution);
    }

    Region backwardInput(int m) {
      return new Region(BufferId.INPUT, global + (microBatches + m) * contribution);
    }

    Region forwardOutput(int m) {
      return new Region(BufferId.OUTPUT, global + m * count);
    }

    Region backwardOutput(int m) {
      return new Region(BufferId.OUTPUT, global + (microBatches + m) * count);
    }
  }

  /** One rank's view: its server and NPU, and how it takes part in collectives and transfers. */
  private static final class Stage {
    final ScheduleBuilder b;
    final PipelineSpec spec;
    final ConnectionPolicy policy;
    final Algorithm method;
    final Regions regions;
    final int n;
    final int server;
    final int npu;
    final int count;

    Stage(ScheduleBuilder b, PipelineSpec spec, ConnectionPolicy policy, Algorithm method, Regions regions,
          int rank) {
      this.b = b;
      this.spec = spec;
      this.policy = policy;
      this.method = method;
      this.regions = regions;
      this.n = spec.npusPerServer();
      this.server = rank / n;
      this.npu = rank % n;
      this.count = regions.count;
    }

    /** TEMP elements this rank uses: the stage result, and the staging areas up to the last it uses. */
    int tempCount() {
      boolean spliced = method != Algorithm.SEND_BROADCAST;
      int servers = spec.servers();
      boolean gatewayOut = (server + 1 < servers && policy.gatewayNpu(server, server + 1) == npu)
          || (server > 0 && policy.gatewayNpu(server, server - 1) == npu);
      if (spliced && gatewayOut) return regions.targetStaging + n * count;
      if (method == Algorithm.ALLGATHER_SEND_SCATTER) return regions.targetStaging;
      return count;
    }

    int rankOf(int serverIndex, int npuIndex) {
      return serverIndex * n + npuIndex;
    }

    /** The stage collective on the contribution at {@code input}; returns where the NPU's result is. */
    Region collective(int m, int phase, Region input) {
      b.phase(phase);
      int round = 8 * m;
      int in = input.offset();
      switch (spec.stageCollective()) {
        case NONE -> {
          return input;
        }
        case ALLGATHER -> {
          int slice = count / n;
          b.copy(BufferId.INPUT, in, BufferId.TEMP, npu * slice, slice);
          for (int j = 0; j < n; j++) {
            if (j == npu || slice == 0) continue;
            b.send(rankOf(server, j), BufferId.INPUT, in, slice, round + ROUND_GATHER);
            b.receive(rankOf(server, j), BufferId.TEMP, j * slice, slice, false, round + ROUND_GATHER);
          }
          b.endStep();
        }
        case REDUCE_SCATTER -> {
          b.copy(BufferId.INPUT, in + npu * count, BufferId.TEMP, 0, count);
          for (int j = 0; j < n; j++) {
            if (j == npu || count == 0) continue;
            b.send(rankOf(server, j), BufferId.INPUT, in + j * count, count, round + ROUND_REDUCE);
            b.receive(rankOf(server, j), BufferId.TEMP, 0, count, true, round + ROUND_REDUCE);
          }
          b.endStep();
        }
        case ALLREDUCE -> {
          // Direct reduce-scatter, then direct all-gather: two steps, every pair of NPUs once each way (on a full
          // mesh all at once).
          int mine = ScheduleBuilder.chunkStart(count, n, npu);
          int mineCount = ScheduleBuilder.chunkCount(count, n, npu);
          b.copy(BufferId.INPUT, in, BufferId.TEMP, 0, count);
          for (int j = 0; j < n; j++) {
            if (j == npu) continue;
            int theirs = ScheduleBuilder.chunkStart(count, n, j);
            int theirsCount = ScheduleBuilder.chunkCount(count, n, j);
            if (theirsCount > 0) b.send(rankOf(server, j), BufferId.INPUT, in + theirs, theirsCount, round);
            if (mineCount > 0) b.receive(rankOf(server, j), BufferId.TEMP, mine, mineCount, true, round);
          }
          b.endStep();
          for (int j = 0; j < n; j++) {
            if (j == npu) continue;
            int theirs = ScheduleBuilder.chunkStart(count, n, j);
            int theirsCount = ScheduleBuilder.chunkCount(count, n, j);
            if (mineCount > 0) b.send(rankOf(server, j), BufferId.TEMP, mine, mineCount, round + ROUND_GATHER);
            if (theirsCount > 0) {
              b.receive(rankOf(server, j), BufferId.TEMP, theirs, theirsCount, false, round + ROUND_GATHER);
            }
          }
          b.endStep();
        }
        default -> throw new IllegalStateException("unknown stage collective " + spec.stageCollective());
      }
      return new Region(BufferId.TEMP, 0);
    }

    /** This rank's part in sending its server's data at {@code data} to {@code target}'s server. */
    void send(int target, int m, int phase, Region data) {
      b.phase(phase);
      int round = 8 * m;
      int gateway = policy.gatewayNpu(server, target);
      int staging = regions.sourceStaging;
      boolean isGateway = npu == gateway;
      switch (method) {
        case SEND_BROADCAST -> {
          if (isGateway) {
            b.send(rankOf(target, gateway), data.buffer(), data.offset(), count, round + ROUND_CIRCUIT);
            b.endStep();
          }
          return;
        }
        case P2P_BUS -> {
          if (!isGateway) {
            // The gateway's read of this NPU's memory: its request, then the data it reads.
            b.receive(rankOf(server, gateway), BufferId.TEMP, 0, 0, false, round + ROUND_READ_REQUEST);
            b.endStep();
            b.send(rankOf(server, gateway), data.buffer(), data.offset(), count, round + ROUND_TO_GATEWAY);
            b.endStep();
            return;
          }
          // The requests go first, in a step of their own, so the neighbours answer while the gateway copies its
          // own block (a step runs its copies before its sends).
          for (int j = 0; j < n; j++) {
            if (j != npu) b.send(rankOf(server, j), BufferId.TEMP, 0, 0, round + ROUND_READ_REQUEST);
          }
          b.endStep();
          b.copy(data.buffer(), data.offset(), BufferId.TEMP, staging + npu * count, count);
          for (int j = 0; j < n; j++) {
            if (j == npu) continue;
            b.receive(rankOf(server, j), BufferId.TEMP, staging + j * count, count, false, round + ROUND_TO_GATEWAY);
          }
          b.endStep();
        }
        case ALLGATHER_SEND_SCATTER -> {
          b.copy(data.buffer(), data.offset(), BufferId.TEMP, staging + npu * count, count);
          for (int j = 0; j < n; j++) {
            if (j == npu) continue;
            b.send(rankOf(server, j), data.buffer(), data.offset(), count, round + ROUND_TO_GATEWAY);
            b.receive(rankOf(server, j), BufferId.TEMP, staging + j * count, count, false, round + ROUND_TO_GATEWAY);
          }
          b.endStep();
          if (!isGateway) return;
        }
        case SWITCH_SEND -> {
          if (!isGateway) {
            b.send(rankOf(server, gateway), data.buffer(), data.offset(), count, round + ROUND_TO_GATEWAY);
            b.endStep();
            return;
          }
          b.copy(data.buffer(), data.offset(), BufferId.TEMP, staging + npu * count, count);
          for (int j = 0; j < n; j++) {
            if (j == npu) continue;
            b.receive(rankOf(server, j), BufferId.TEMP, staging + j * count, count, false, round + ROUND_TO_GATEWAY);
          }
          b.endStep();
        }
        default -> throw new IllegalArgumentException(method.configName() + " is not a transmission method");
      }
      b.send(rankOf(target, gateway), BufferId.TEMP, staging, n * count, round + ROUND_CIRCUIT);
      b.endStep();
    }

    /** This rank's part in receiving {@code source}'s server's data into {@code into}. */
    void receive(int source, int m, int phase, Region into) {
      b.phase(phase);
      int round = 8 * m;
      int gateway = policy.gatewayNpu(source, server);
      if (npu != gateway) {
        b.receive(rankOf(server, gateway), into.buffer(), into.offset(), count, false, round + ROUND_SPREAD);
        b.endStep();
        return;
      }
      if (method == Algorithm.SEND_BROADCAST) {
        b.receive(rankOf(source, gateway), into.buffer(), into.offset(), count, false, round + ROUND_CIRCUIT);
        b.endStep();
        for (int j = 0; j < n; j++) {
          if (j != npu) b.send(rankOf(server, j), into.buffer(), into.offset(), count, round + ROUND_SPREAD);
        }
        b.endStep();
        return;
      }
      int staging = regions.targetStaging;
      b.receive(rankOf(source, gateway), BufferId.TEMP, staging, n * count, false, round + ROUND_CIRCUIT);
      b.endStep();
      b.copy(BufferId.TEMP, staging + npu * count, into.buffer(), into.offset(), count);
      for (int j = 0; j < n; j++) {
        if (j != npu) b.send(rankOf(server, j), BufferId.TEMP, staging + j * count, count, round + ROUND_SPREAD);
      }
      b.endStep();
    }
  }
}
