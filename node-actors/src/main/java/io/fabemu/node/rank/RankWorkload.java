package io.fabemu.node.rank;

import io.fabemu.collectives.Algorithm;
import io.fabemu.collectives.BufferId;
import io.fabemu.collectives.ChannelRingAllreduce;
import io.fabemu.collectives.Collective;
import io.fabemu.collectives.ExpectedAnswers;
import io.fabemu.collectives.IncAllreduce;
import io.fabemu.collectives.IncLayout;
import io.fabemu.collectives.InPlaceAlias;
import io.fabemu.collectives.IncMode;
import io.fabemu.collectives.InputGenerator;
import io.fabemu.collectives.LineProtocol;
import io.fabemu.collectives.PipelineIteration;
import io.fabemu.collectives.RankGrid;
import io.fabemu.collectives.RankLayout;
import io.fabemu.collectives.Schedule;
import io.fabemu.collectives.Schedules;
import io.fabemu.collectives.Tags;
import io.fabemu.collectives.WorkloadSpec;
import io.fabemu.core.data.DataBuffer;
import io.fabemu.core.data.DataType;
import io.fabemu.core.data.ReduceOp;
import io.fabemu.core.inc.IncCodes.FailCause;
import io.fabemu.core.inc.IncPacketType;
import io.fabemu.core.inc.IncRequest;
import io.fabemu.core.protocol.Message;
import io.fabemu.core.sim.DeviceReport.RankResult;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;

/**
 * One rank's whole workload, as osu_allreduce runs it: for each case (algorithms outer, then buffer layouts, sizes
 * inner, see {@link WorkloadSpec}) {@code warmup + iterations} operations; each iteration runs the collective on real
 * data, records its start and latency (completion − start, measured iterations only), counts output elements that
 * differ from {@link ExpectedAnswers} (every iteration, warm-up included), then runs a dissemination barrier over all
 * ranks (not timed); the next iteration starts when the barrier completes. The compute-node device hosts one per local
 * rank and drives it with {@link #start} and {@link #onMessage}; all timing is in {@link ScheduleExecutor}.
 *
 * <p>Each case's schedule and buffers are built once, when the case starts, and the input is filled once from the
 * generator (inputs depend on the size only, and no schedule writes the input buffer); the output buffer is
 * poisoned before every iteration so a result left over from the previous one cannot pass the check.
 *
 * <p>A case run in place ({@link WorkloadSpec#inPlaceOfCase}) runs the same schedule with the rank's
 * {@link InPlaceAlias}: the copies of its own input onto itself cost no time; its buffers stay separate, so its
 * outputs are checked exactly as out of place.
 *
 * <p>With a synthetic payload ({@link WorkloadSpec#syntheticPayload()}) the rank runs the same schedules with
 * messages of the same sizes and the same costs, but allocates no buffers, generates no input, poisons nothing and
 * checks nothing: its results report 0 wrong elements, which then means "not checked". With real data, the cases at
 * and above {@link WorkloadSpec#syntheticFromBytes} (what the heap cannot hold) run the same way, case by case.
 *
 * <p>Every rank runs the same sequence of operations (collective, barrier, collective, ...), numbered from 0; the
 * number is the high half of every tag (see {@link Tags}). Ranks with nothing to do in a collective (the idle rank
 * of an odd ping-pong) still take part in every barrier and record latency 0. Not thread-safe: one device drives it.
 *
 * <p>Past 500 lines: it runs every kind of workload a rank has (cases, warm-up, barriers, INC setup and release, case
 * timing); splitting it by workload kind is the plug-in work.
 */
public final class RankWorkload {
  private static final DataBuffer[] NO_BUFFERS = new DataBuffer[BufferId.values().length];

  private final int rank;
  private final int worldSize;
  private final WorkloadSpec workload;
  /** Null for a synthetic workload, like {@link #inputs}. */
  private final ExpectedAnswers answers;
  private final InputGenerator inputs;
  /** Whether the running case carries sizes only ({@link WorkloadSpec#syntheticOfCase}). */
  private boolean synthetic;
  private final ScheduleExecutor executor;
  private final Schedule barrier;
  private final ReduceOp op;
  private final boolean withLocations;
  private final int elementBytes;
  private final int operationsPerCase;
  private final List<RankResult> results = new ArrayList<>();

  private boolean started;
  private boolean finished;
  private Stage stage = Stage.COLLECTIVE;
  /** Where INC cases get their rank layout; null when the fabric is not a leaf-spine (INC cases fall back). */
  private final IncEnvironment incEnvironment;
  /** Where the ranks sit: the mesh or torus grid and the ring embedding, each null where the fabric has none. */
  private final RankLayout rankLayout;
  private final RankHost host;
  private final long seed;
  /** The running INC case's control plane; null in other cases. */
  private IncControlPlane control;
  /** A leader's way out of an INC case whose tree a fault broke. */
  private final IncRecovery recovery;
  /** Per finished case, its INC outcome (null for a case that is not in-network). */
  private final List<FailCause> incOutcomes = new ArrayList<>();
  private FailCause incOutcome;

  /** What the rank waits for: its collective, the barrier after it, or an INC case's setup or release. */
  private enum Stage { COLLECTIVE, BARRIER, INC_SETUP, INC_SETUP_BARRIER, INC_RELEASE }
  private int caseIndex;
  /** When this rank began the running case (its INC setup or first warm-up iteration), virtual ps. */
  private long caseStartPs;
  private int iteration;
  private long operationSequence;
  private long completedOperations;

  // The running case.
  private long sizeBytes;
  private int count;
  private Schedule schedule;
  /** The algorithm the running case's schedule runs (AUTO resolved). */
  private Algorithm caseAlgorithm;
  /** What the running case's input shares with its output ({@link InPlaceAlias#NONE} out of place). */
  private InPlaceAlias inPlace = InPlaceAlias.NONE;
  private final DataBuffer[] buffers = new DataBuffer[BufferId.values().length];
  private int measured;
  private long totalLatencyPs;
  private long minLatencyPs;
  private long maxLatencyPs;
  /** The latency of each measured iteration of the current case, in order. */
  private long[] iterationLatenciesPs = new long[0];
  /** When each measured iteration of the current case started, in order. */
  private long[] iterationStartsPs = new long[0];
  private long wrongElements;
  /**
   * Per measured iteration of a pipeline case, per part, the virtual time the part ended on this rank
   * (iteration-major; empty for an operation in one part).
   */
  private long[] partEndsPs = new long[0];
  private int parts;
  /** Elements of a pipeline case's global AllReduce per rank (0 for other collectives). */
  private int globalCount;

  /**
   * @param rank      this rank (world rank)
   * @param worldSize ranks in the run
   * @param workload  what to run; checked here, see the thrown exceptions
   * @param seed      the run's seed; must be the one {@code answers} was built with
   * @param answers   shared expected answers (also the source of the input data); null exactly when the workload
   *                  is synthetic
   * @param host      the node hosting the rank
   * @throws IllegalArgumentException when a size is not a multiple of the element size, the op is not defined on
   *                                  the type, the root is out of range, an algorithm is not valid for the
   *                                  collective, hierarchical mode is asked for a collective other than
   *                                  allreduce, or {@code answers} does not match the workload (missing for real
   *                                  data, given for a synthetic payload)
   */
  public RankWorkload(int rank, int worldSize, WorkloadSpec workload, long seed, ExpectedAnswers answers,
                      RankHost host) {
    this(rank, worldSize, workload, seed, answers, host, null);
  }

  /**
   * @param incEnvironment the fabric facts the in-network algorithms need; null when the fabric is not a
   *                       leaf-spine, where INC cases fall back to the host algorithm
   */
  public RankWorkload(int rank, int worldSize, WorkloadSpec workload, long seed, ExpectedAnswers answers,
                      RankHost host, IncEnvironment incEnvironment) {
    this(rank, worldSize, workload, seed, answers, host, incEnvironment, RankLayout.NONE);
  }

  /**
   * @param grid the world's ranks laid out on the fabric's mesh or torus, which the dimension-wise algorithms need;
   *             null on other fabrics
   */
  public RankWorkload(int rank, int worldSize, WorkloadSpec workload, long seed, ExpectedAnswers answers,
                      RankHost host, IncEnvironment incEnvironment, RankGrid grid) {
    this(rank, worldSize, workload, seed, answers, host, incEnvironment, RankLayout.ofGrid(grid));
  }

  /**
   * @param layout where the world's ranks sit on the fabric: the mesh or torus grid the dimension-wise algorithms
   *               need and the ring embedding of the embedded-ring algorithms
   */
  public RankWorkload(int rank, int worldSize, WorkloadSpec workload, long seed, ExpectedAnswers answers,
                      RankHost host, IncEnvironment incEnvironment, RankLayout layout) {
    checkArguments(rank, worldSize, workload, seed, answers, host);
    this.incEnvironment = incEnvironment;
    this.rankLayout = layout;
    this.seed = seed;
    this.host = host;
    this.rank = rank;
    this.worldSize = worldSize;
    this.workload = workload;
    this.answers = answers;
    this.synthetic = workload.syntheticPayload();
    this.inputs = answers == null ? null : answers.inputs();
    this.recovery = new IncRecovery(rank, host);
    this.executor = new ScheduleExecutor(rank, new TaskDivertingHost(host));
    this.barrier = Schedules.build(Collective.BARRIER, Algorithm.DISSEMINATION, rank, worldSize, 0, 0, false, 1);
    this.op = workload.collective().reduces() ? workload.op() : null;
    this.withLocations = Schedules.carriesLocation(workload.collective(), workload.op());
    this.elementBytes = Schedules.elementBytes(workload.collective(), workload.dataType(), workload.op());
    this.operationsPerCase = workload.warmup() + workload.iterations();
  }

  /** Begins case 0, iteration 0 at {@code nowPs}. Messages that arrived before are kept and matched later. */
  public void start(long nowPs) {
    if (started) {
      throw new IllegalStateException("rank " + rank + " already started");
    }
    started = true;
    caseIndex = 0;
    iteration = 0;
    startCase(nowPs);
    drive();
  }

  /** A message for this rank arrived at {@code nowPs}. */
  public void onMessage(long nowPs, Message message) {
    boolean recoveryMessage = Tags.phase(message.tag()) == IncRecovery.PHASE && IncRequest.of(message) == null;
    if (finished) {
      // Late copies of a broken INC group's recovery or release, and its NIC's notices, are nothing to act on.
      if (recoveryMessage || isBreakNotice(message) || IncRequest.of(message) != null && recovery.everBroken()) return;
      throw new IllegalStateException("rank " + rank + " finished its workload but got a message from rank "
          + message.sourceRank() + " with " + Tags.describe(message.tag()));
    }
    if (recoveryMessage) {
      recovery.onMessage(message, nowPs);
    } else if (isBreakNotice(message)) {
      recovery.onBreakNotice(IncRequest.of(message).control().trueCommId(), nowPs);
      if (stage == Stage.INC_RELEASE && recovery.broken()) control.abandonRelease(nowPs);
    } else if (Tags.phase(message.tag()) == IncControlPlane.PHASE && IncRequest.of(message) == null
        || IncRequest.of(message) != null && IncRequest.of(message).type() != IncPacketType.TASK_DOWN) {
      controlPlane().onMessage(nowPs, message);
    } else if (IncRequest.of(message) == null || recovery.onIncResult(message, nowPs)) {
      executor.onMessage(nowPs, message);
    }
    if (started) {
      drive();
    }
  }

  /** True once the last barrier of the last case has completed. */
  public boolean finished() {
    return finished;
  }

  /** Collective operations completed, warm-up included, barriers between iterations not. */
  public long completedOperations() {
    return completedOperations;
  }

  /** One result per completed case, in case order (all of them once {@link #finished()}). */
  public List<RankResult> results() {
    return Collections.unmodifiableList(new ArrayList<>(results));
  }

  /** How many cases this rank has finished so far (the size of {@link #results()}, without copying it). */
  public int resultCount() {
    return results.size();
  }

  /** The result of finished case {@code index} (0 .. {@link #resultCount()} - 1). */
  public RankResult result(int index) {
    return results.get(index);
  }

  public int rank() {
    return rank;
  }

  /** When this rank's CPU is next free (after finishing: when its last barrier completed). */
  public long cpuFreePs() {
    return executor.cpuFreePs();
  }

  /** Messages that arrived before their receive was posted and still wait for it. */
  public int unexpectedMessages() {
    return executor.unexpectedMessages();
  }

  /** The buffer holding this rank's result of the latest collective (for tests; null with a synthetic payload). */
  DataBuffer resultBuffer() {
    return buffers[schedule.resultBuffer().ordinal()];
  }

  /** The schedule of the running (or last) case (for tests). */
  Schedule schedule() {
    return schedule;
  }

  /** What the NIC hands a leader when a fault broke its INC group: a notify with fail cause FAULT. */
  private static boolean isBreakNotice(Message message) {
    IncRequest request = IncRequest.of(message);
    return request != null && request.type() == IncPacketType.TREE_DOWN
        && request.control() != null && request.control().failCause() == FailCause.FAULT.code();
  }

  /** Hands the executor the result of an in-network step done on the host, once the recovery has it. */
  private void takeRecovered() {
    Message recovered = recovery.takeReady();
    if (recovered != null) executor.onMessage(recovery.readyPs(), recovered);
  }

  /** Runs completed operations' follow-ups until the rank waits for a message or has finished. */
  private void drive() {
    takeRecovered();
    while (!finished && !executor.active() && (control == null || !control.active())) {
      switch (stage) {
        case COLLECTIVE -> {
          onCollectiveComplete();
          stage = Stage.BARRIER;
          executor.begin(barrier, NO_BUFFERS, null, operationSequence++, executor.cpuFreePs());
        }
        case BARRIER -> {
          iteration++;
          nextIteration(executor.cpuFreePs());
        }
        case INC_SETUP -> {
          incOutcome = control.outcome();
          if (incOutcome == FailCause.NONE) {
            executor.setIncGroup(control.groupId(), workload.dataType(), workload.op());
            recovery.beginCase(incLayout(workload.algorithmOfCase(caseIndex)), control.groupId(), workload.op(),
                operationSequence);
          } else {
            useHostAlgorithm();
          }
          // As osu_allreduce does after setting up: a barrier, so that every rank starts the first iteration
          // together (leaders learn the outcome at very different times on a large group).
          stage = Stage.INC_SETUP_BARRIER;
          executor.begin(barrier, NO_BUFFERS, null, operationSequence++, control.cpuFreePs());
        }
        case INC_SETUP_BARRIER -> beginCollective(executor.cpuFreePs());
        case INC_RELEASE -> {
          recovery.endCase();
          nextCase(control.cpuFreePs());
        }
      }
      takeRecovered();
    }
  }

  /** After a barrier: the next iteration, or the end of the case (with the release of its INC tree). */
  private void nextIteration(long nowPs) {
    if (iteration < operationsPerCase) {
      beginCollective(nowPs);
      return;
    }
    finishCase(nowPs);
    if (incOutcome == FailCause.NONE) {
      long releaseSequence = operationSequence++;
      if (recovery.broken()) {
        // The tree is broken: no release through it (the switches dropped the group); the NMRRs stop waiting.
        recovery.endCase();
        nextCase(nowPs);
        return;
      }
      stage = Stage.INC_RELEASE;
      control.beginRelease(releaseSequence, nowPs);
      return;
    }
    nextCase(nowPs);
  }

  private void nextCase(long nowPs) {
    caseIndex++;
    iteration = 0;
    if (caseIndex >= workload.caseCount()) {
      finished = true;
      return;
    }
    startCase(nowPs);
  }

  /** Prepares case {@code caseIndex} and starts it: its INC setup, or its first iteration. */
  private void startCase(long nowPs) {
    caseStartPs = nowPs;
    if (operationsPerCase == 0) {
      // Nothing to run (unit tests use empty cases): report the case and go on.
      prepareCase();
      incOutcome = null;
      finishCase(nowPs);
      nextCase(nowPs);
      return;
    }
    prepareCase();
    Algorithm algorithm = workload.algorithmOfCase(caseIndex);
    incOutcome = null;
    if (algorithm.inNetwork()) {
      if (incEnvironment == null) {
        // No TOR/SPINE fabric: prepareCase already chose the host algorithm.
        incOutcome = FailCause.TOPOLOGY;
      } else if (layoutOrNull(algorithm) == null) {
        // The ranks break the mode's placement rules (a scenario file is refused for it; one built in code is not).
        incOutcome = FailCause.LAYOUT;
      } else if (!incEnvironment.incEnabled()) {
        incOutcome = FailCause.INC_DISABLED;
        useHostAlgorithm();
      } else {
        stage = Stage.INC_SETUP;
        controlPlane().beginSetup(incLayout(algorithm), operationSequence++, caseIndex, sizeBytes,
            workload.dataType(), workload.op(), Math.max(nowPs, executor.cpuFreePs()));
        return;
      }
    }
    beginCollective(nowPs);
  }

  /** The INC control plane (created at the first message or case that needs it; it keeps messages that come early). */
  private IncControlPlane controlPlane() {
    if (control == null) {
      control = new IncControlPlane(rank, host,
          incEnvironment == null ? -1 : incEnvironment.torVertexOfRank(rank), seed);
    }
    return control;
  }

  /** Starts iteration {@code iteration} of the prepared case. */
  private void beginCollective(long nowPs) {
    stage = Stage.COLLECTIVE;
    if (synthetic) {
      executor.beginSynthetic(schedule, elementBytes, operationSequence++, nowPs, inPlace);
      return;
    }
    if (schedule.resultBuffer() == BufferId.OUTPUT) {
      buffers[BufferId.OUTPUT.ordinal()].poison();
    }
    executor.begin(schedule, buffers, op, operationSequence++, nowPs, inPlace);
  }

  private void onCollectiveComplete() {
    long latency = executor.cpuFreePs() - executor.operationStartPs();
    if (iteration >= workload.warmup()) {
      iterationStartsPs[measured] = executor.operationStartPs();
      iterationLatenciesPs[measured++] = latency;
      totalLatencyPs += latency;
      minLatencyPs = Math.min(minLatencyPs, latency);
      maxLatencyPs = Math.max(maxLatencyPs, latency);
    }
    if (iteration >= workload.warmup() && parts > 0) {
      long[] partEnds = executor.partEndsPs();
      int row = (measured - 1) * parts;
      for (int part = 0; part < parts; part++) {
        partEndsPs[row + part] = executor.operationStartPs() + partEnds[part];
      }
    }
    if (!synthetic) {
      if (workload.collective() == Collective.PIPELINE) {
        wrongElements += answers.countWrongPipeline(workload.pipeline(), sizeBytes, count, globalCount, rank,
            buffers[BufferId.OUTPUT.ordinal()]);
      } else {
        wrongElements += answers.countWrong(workload.collective(), caseAlgorithm, workload.root(), sizeBytes, count,
            rank, resultBuffer());
      }
    }
    completedOperations++;
  }

  private void prepareCase() {
    sizeBytes = workload.sizeOfCase(caseIndex);
    count = (int) (sizeBytes / elementBytes);
    inPlace = workload.inPlaceOfCase(caseIndex)
        ? InPlaceAlias.of(workload.collective(), rank, worldSize, count) : InPlaceAlias.NONE;
    Algorithm algorithm = Schedules.resolveForCase(workload, caseIndex, worldSize);
    IncLayout layout = algorithm.inNetwork() ? layoutOrNull(algorithm) : null;
    globalCount = 0;
    parts = 0;
    if (workload.collective() == Collective.PIPELINE) {
      schedule = pipelineSchedule(algorithm);
      parts = schedule.partCount();
    } else if (layout != null) {
      schedule = IncAllreduce.build(layout, rank, count, elementBytes);
    } else {
      if (algorithm.inNetwork()) {
        algorithm = Schedules.resolve(workload.collective(), Algorithm.AUTO, sizeBytes, count, worldSize);
      }
      int channels = ChannelRingAllreduce.channelsFor(sizeBytes, count, worldSize, workload.channels());
      schedule = Schedules.build(workload.collective(), algorithm, rank, worldSize, count, workload.root(),
          workload.hierarchical(), workload.ppn(), workload.window(), rankLayout, channels);
    }
    caseAlgorithm = algorithm;
    LineProtocol protocol = workload.protocolOfCase(caseIndex, worldSize, rankLayout.ranksPerServer(workload.ppn()));
    executor.setProtocol(protocol, workload.protocols().cost(protocol));
    synthetic = workload.syntheticOfCase(caseIndex);
    if (!synthetic) {
      allocateBuffers();
    } else {
      // A case on sizes only after cases on real data: the smaller cases' buffers are not kept.
      Arrays.fill(buffers, null);
    }
    measured = 0;
    iterationLatenciesPs = new long[workload.iterations()];
    partEndsPs = new long[workload.iterations() * parts];
    iterationStartsPs = new long[workload.iterations()];
    totalLatencyPs = 0;
    minLatencyPs = Long.MAX_VALUE;
    maxLatencyPs = 0;
    wrongElements = 0;
  }

  /** The case's pipeline iteration with {@code method}; its global AllReduce runs the algorithm AUTO picks. */
  private Schedule pipelineSchedule(Algorithm method) {
    if (rankLayout.optical() == null) {
      throw new IllegalArgumentException("a pipeline runs on an optical cluster (topology kind optical): this fabric "
          + "has no connection policy");
    }
    long globalBytes = workload.pipeline().globalBytes(sizeBytes);
    globalCount = (int) (globalBytes / elementBytes);
    Algorithm globalAlgorithm = Schedules.resolve(Collective.ALLREDUCE, Algorithm.AUTO, globalBytes, globalCount,
        worldSize);
    return PipelineIteration.build(workload.pipeline(), rankLayout.optical(), method, globalAlgorithm, rank, count,
        globalCount);
  }

  /** The group cannot use INC: the case runs the host algorithm AUTO picks instead. */
  private void useHostAlgorithm() {
    // As prepareCase builds a host algorithm: on the fabric's layout, the ring on its channels.
    schedule = Schedules.build(workload.collective(), Schedules.resolve(workload.collective(), Algorithm.AUTO,
        sizeBytes, count, worldSize), rank, worldSize, count, workload.root(), false, workload.ppn(),
        workload.window(), rankLayout, ChannelRingAllreduce.channelsFor(sizeBytes, count, worldSize,
            workload.channels()));
    if (!synthetic) allocateBuffers();
  }

  /** Buffers for the case's schedule, the input filled from the generator. */
  private void allocateBuffers() {
    DataType type = workload.dataType();
    buffers[BufferId.INPUT.ordinal()] = DataBuffer.allocate(type, schedule.inputCount(), withLocations);
    buffers[BufferId.OUTPUT.ordinal()] = DataBuffer.allocate(type, schedule.outputCount(), withLocations);
    buffers[BufferId.TEMP.ordinal()] = DataBuffer.allocate(type, schedule.tempCount(), withLocations);
    inputs.fill(sizeBytes, rank, 0, buffers[BufferId.INPUT.ordinal()], 0, schedule.inputCount());
  }

  private IncLayout incLayout(Algorithm algorithm) {
    return incEnvironment.layout(algorithm == Algorithm.INC_SOCKET ? IncMode.SOCKET : IncMode.NODE);
  }

  /** The mode's layout, or null when the fabric is no leaf-spine or the ranks break the mode's rules. */
  private IncLayout layoutOrNull(Algorithm algorithm) {
    if (incEnvironment == null) return null;
    try {
      return incLayout(algorithm);
    } catch (IllegalArgumentException e) {
      return null;
    }
  }

  /** Per finished case, how its INC setup ended (null for a case that is not in-network). */
  public FailCause incOutcome(int caseIndex) {
    return incOutcomes.get(caseIndex);
  }

  /** Reports the running case, which ends at {@code nowPs} (its last barrier completed). */
  private void finishCase(long nowPs) {
    executor.releaseKeptBuffers();
    incOutcomes.add(incOutcome);
    results.add(RankResult.builder(rank, caseIndex, measured).totalLatencyPs(totalLatencyPs)
        .minLatencyPs(measured == 0 ? 0 : minLatencyPs).maxLatencyPs(maxLatencyPs).wrongElements(wrongElements)
        .incOutcome(incOutcome == null ? -1 : incOutcome.code())
        .iterationLatenciesPs(Arrays.copyOf(iterationLatenciesPs, measured))
        .iterationStartsPs(Arrays.copyOf(iterationStartsPs, measured))
        .partEndsPs(Arrays.copyOf(partEndsPs, measured * parts)).caseStartPs(caseStartPs)
        .caseEndPs(Math.max(caseStartPs, nowPs)).build());
  }

  /**
   * The host the executor sends through: an in-network task goes to the recovery first, which keeps it and, when
   * the group is broken, does it on the host instead of sending it to the NIC.
   */
  private final class TaskDivertingHost implements RankHost {
    private final RankHost host;

    TaskDivertingHost(RankHost host) {
      this.host = host;
    }

    @Override
    public void send(Message message, long atPs) {
      if (IncRequest.of(message) != null && IncRequest.of(message).type() == IncPacketType.TASK_UP
          && !recovery.onTaskSent(message, atPs)) {
        return;
      }
      host.send(message, atPs);
    }

    @Override
    public long sendOverheadPs() {
      return host.sendOverheadPs();
    }

    @Override
    public long recvOverheadPs() {
      return host.recvOverheadPs();
    }

    @Override
    public long reducePs(long bytes) {
      return host.reducePs(bytes);
    }

    @Override
    public long localCopyPs(long bytes) {
      return host.localCopyPs(bytes);
    }

    @Override
    public int engines() {
      return host.engines();
    }
  }

  /**
   * Checks this rank's arguments against each other: the rank is in the world, and the expected answers are given
   * exactly on real data, built for this world, datatype, seed and op. The workload's own rules were checked where it
   * was built ({@link WorkloadSpec}'s constructor), and its rules against the world by the scenario loader: a rank
   * checks neither again.
   */
  private static void checkArguments(int rank, int worldSize, WorkloadSpec w, long seed, ExpectedAnswers answers,
                                     RankHost host) {
    if (w == null || host == null) {
      throw new IllegalArgumentException("workload and host are required");
    }
    if (w.syntheticPayload() != (answers == null)) {
      throw new IllegalArgumentException(w.syntheticPayload()
          ? "a synthetic payload checks nothing: expected answers must not be given"
          : "a workload on real data needs expected answers");
    }
    if (worldSize < 1) {
      throw new IllegalArgumentException("world size must be at least 1, got " + worldSize);
    }
    if (rank < 0 || rank >= worldSize) {
      throw new IllegalArgumentException("rank " + rank + " is outside a world of " + worldSize);
    }
    if (answers == null) {
      return;
    }
    if (answers.worldSize() != worldSize || answers.type() != w.dataType() || answers.seed() != seed) {
      throw new IllegalArgumentException("expected answers were built for " + answers.worldSize() + " ranks of "
          + answers.type().configName() + " with seed " + answers.seed() + ", the workload runs " + worldSize
          + " ranks of " + w.dataType().configName() + " with seed " + seed);
    }
    if (w.collective().reduces() && answers.op() != w.op()) {
      throw new IllegalArgumentException("expected answers reduce with " + answers.op() + ", the workload with "
          + w.op());
    }
  }
}
