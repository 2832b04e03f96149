package io.fabemu.cluster;

import io.fabemu.core.placement.PlacementPlan;
import io.fabemu.core.placement.PlacementReport;
import io.fabemu.core.sim.DeviceReport;
import io.fabemu.core.sim.ProgressListener;
import io.fabemu.core.topology.Topology;
import io.fabemu.engine.DeviceActorFactory;
import io.fabemu.engine.EngineMemberLostException;
import io.fabemu.engine.EngineOutcome;
import io.fabemu.engine.MemberAgent;
import io.fabemu.engine.MemberTraffic;
import io.fabemu.engine.PekkoWindowEngine;
import io.fabemu.fabric.Fabric;
import io.fabemu.fabric.ScenarioSpec;
import io.fabemu.fabric.result.FaultImpact;
import io.fabemu.fabric.result.ResultAggregator;
import io.fabemu.fabric.result.RunResult;
import io.fabemu.fabric.result.TrafficResult;
import java.time.Duration;
import java.util.List;
import java.util.function.Consumer;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/**
 * Runs a checked scenario: assembles the fabric, drives one actor per device on the embedded single-member
 * cluster (or spread over several members, {@link #runDistributed}), and turns the devices' reports into a
 * {@link RunResult}.
 *
 * <p>A scenario with faults whose settings keep the baseline ({@link ScenarioSpec#runsBaseline()}) is run twice by
 * the methods that take a scenario, on the same cluster and members: as written, then without its fault plan
 * ({@link ScenarioSpec#baseline()}); the result is the faulted run's, with each event's extra latency of the
 * collectives it touched ({@link FaultImpact#compare}). The baseline is a run of its own because nothing cheaper
 * gives it exactly: a fault changes every later message's timing and the transport's acknowledgements share the
 * links from the start, so no collective's fault-free duration can be read off the faulted run. The methods that
 * take a built {@link Fabric} run it once, as built.
 */
public final class ScenarioRunner {
  private ScenarioRunner() {}

  /**
   * Collective operations the whole run will complete (ranks x cases x (warm-up + iterations), twice with a
   * baseline run), for progress.
   */
  public static long totalOperations(ScenarioSpec spec) {
    return operationsOfOneRun(spec) * (spec.runsBaseline() ? 2 : 1);
  }

  private static long operationsOfOneRun(ScenarioSpec spec) {
    long ranks = (long) spec.topology().hosts() * spec.workload().ppn();
    return ranks * spec.workload().operationsPerRank();
  }

  /** Runs {@code spec} on a fresh embedded cluster, which is shut down afterwards. */
  public static RunResult run(ScenarioSpec spec, ProgressListener listener) {
    return run(spec, spec.topology().build(), listener);
  }

  /**
   * {@link #run(ScenarioSpec, ProgressListener)} over {@code topology}, which the caller built from
   * {@code spec.topology()} already (the CLI checks placement on it first, so a run builds it once).
   */
  public static RunResult run(ScenarioSpec spec, Topology topology, ProgressListener listener) {
    // The member starts (about a second of class loading and joining itself) while this thread builds the fabric
    // (the inputs and exact answers of a large run take as long): neither waits for the other.
    // A thread of its own with the caller's class loader, which finds fabemu's configuration files as this one does.
    ClassLoader loader = Thread.currentThread().getContextClassLoader();
    CompletableFuture<EmbeddedCluster> starting = CompletableFuture.supplyAsync(EmbeddedCluster::startAlone, task -> {
      Thread thread = new Thread(task, "fabemu-member-start");
      thread.setDaemon(true);
      thread.setContextClassLoader(loader);
      thread.start();
    });
    Fabric fabric;
    try {
      fabric = Fabric.build(spec, topology);
    } catch (RuntimeException | Error e) {
      starting.thenAccept(EmbeddedCluster::close);
      throw e;
    }
    EmbeddedCluster started;
    try {
      started = starting.join();
    } catch (CompletionException e) {
      throw e.getCause() instanceof RuntimeException cause ? cause : e;
    }
    try (EmbeddedCluster cluster = started) {
      RunResult result = run(cluster, fabric, listener);
      fabric = null; // its devices are done with: the baseline, if any, builds its own (a large run needs the memory)
      return withBaseline(cluster, result, topology, listener);
    }
  }

  /** Runs {@code spec} on an existing cluster (tests and benchmarks reuse one), with its baseline if it has one. */
  public static RunResult run(EmbeddedCluster cluster, ScenarioSpec spec, ProgressListener listener) {
    Fabric fabric = Fabric.build(spec);
    Topology topology = fabric.topology();
    return withBaseline(cluster, run(cluster, fabric, listener), topology, listener);
  }

  /**
   * {@code result} compared with its scenario's baseline, run now on {@code cluster} over {@code topology}; the
   * result itself when the scenario runs no baseline. Progress goes on from where the faulted run's total ends.
   */
  private static RunResult withBaseline(EmbeddedCluster cluster, RunResult result, Topology topology,
                                        ProgressListener listener) {
    ScenarioSpec spec = result.scenario();
    // A run that finished no case has nothing to compare (a partition from the start, say): no baseline then.
    if (!spec.runsBaseline() || result.cases().isEmpty()) return result;
    long firstRun = operationsOfOneRun(spec);
    RunResult baseline = run(cluster, Fabric.build(spec.baseline(), topology),
        (done, virtualTimePs) -> listener.onProgress(firstRun + done, virtualTimePs));
    return FaultImpact.compare(result, baseline);
  }

  /**
   * Runs {@code fabric}, built already, on an existing cluster (benchmarks time the build apart from the run). The
   * result's wall time is the emulation's, actors spawned included; building the fabric is not in it. Run a fabric
   * once: its device cores keep their state.
   */
  public static RunResult run(EmbeddedCluster cluster, Fabric fabric, ProgressListener listener) {
    ScenarioSpec spec = fabric.scenario();
    // Wall time is only reported (emulator speed); it never feeds the emulation.
    long wallStartNs = System.nanoTime();
    EngineOutcome outcome = runEngine(cluster, fabric, listener);
    double wallSeconds = (System.nanoTime() - wallStartNs) / 1e9;
    return ResultAggregator.aggregate(spec, fabric.worldSize(), outcome.reports(), outcome.lastEventTimePs(),
        outcome.windows(), outcome.events(), wallSeconds);
  }

  /**
   * Runs {@code fabric}, a synthetic-traffic fabric of one offered load ({@link ScenarioSpec#runsTraffic}), on an
   * existing cluster's member; a sweep of loads starts one cluster and runs each load's fabric on it. Run a fabric
   * once.
   */
  public static TrafficResult runTraffic(EmbeddedCluster cluster, Fabric fabric, ProgressListener listener) {
    ScenarioSpec spec = fabric.scenario();
    if (!spec.runsTraffic()) {
      throw new IllegalArgumentException("scenario " + spec.name() + " runs no synthetic traffic");
    }
    // Wall time is only reported (emulator speed); it never feeds the emulation.
    long wallStartNs = System.nanoTime();
    EngineOutcome outcome = runEngine(cluster, fabric, listener);
    double wallSeconds = (System.nanoTime() - wallStartNs) / 1e9;
    return TrafficResult.aggregate(spec, fabric.trafficSendingNodes(), fabric.topology().hostCount(),
        outcome.reports(), outcome.lastEventTimePs(), outcome.windows(), outcome.events(), wallSeconds);
  }

  /**
   * Runs {@code fabric}'s devices on this member. On a router network, whose routers are all in this process, a run
   * that ends with flits held in the routers fails naming the cycle of channels they wait on
   * ({@link Fabric#requireRoutersDrained}).
   */
  private static EngineOutcome runEngine(EmbeddedCluster cluster, Fabric fabric, ProgressListener listener) {
    EngineOutcome outcome = PekkoWindowEngine.run(cluster.system(), fabric.devices(), DeviceActorFactory.GENERIC,
        fabric.lookaheadPs(), fabric.startEvents(), listener);
    // A deadlocked router network schedules nothing: its run ends with flits held, which names the cycle. (Read once
    // the run is over: every device's last window happened before the outcome came back. A failed run is not read,
    // as its other devices may still be finishing their window.)
    fabric.requireRoutersDrained();
    return outcome;
  }

  /**
   * The global window of a run of {@code fabric} placed by {@code plan}: the cross-member lookahead (the link
   * latency plus the switch pipeline latency of the fastest link between members; the fabric's lookahead with one
   * member). See {@link PlacementPlan#crossLookaheadPs}.
   */
  public static long crossLookaheadPs(Fabric fabric, PlacementPlan plan) {
    if (fabric.routerNetwork()) {
      // A router sends a flit or credit half a cycle after the evaluation that decides it, whatever the member:
      // the fabric's lookahead is already the least delay between any two devices (and at most the management
      // network's latency in a run with faults).
      return fabric.lookaheadPs();
    }
    if (fabric.scenario().faults().isActive()) {
      // Notices and route updates cross members on the management network, whose latency the fabric's lookahead
      // already takes in; the links between members may be slower still.
      return Math.min(fabric.scenario().faults().settings().managementLatencyPs(),
          plan.crossLookaheadPs(fabric.topology(), fabric.scenario().devices().switchSpec().pipelineLatencyPs(),
              fabric.lookaheadPs()));
    }
    // The OCS controller (on member 0) tells NICs on every member that their circuits are up, a reconfiguration
    // delay after it starts: that delay may be shorter than every link between members.
    return Math.min(fabric.ocsReconfigurationDelayPs(), plan.crossLookaheadPs(fabric.topology(),
        fabric.scenario().devices().switchSpec().pipelineLatencyPs(), fabric.lookaheadPs()));
  }

  /**
   * What {@code plan} cuts on a fabric of {@code spec} built on {@code topology}, per member, with the delays
   * {@link #crossLookaheadPs} takes over links: the link latency plus a switch sender's pipeline latency, or on a
   * router network the fabric's lookahead. Builds nothing but the report.
   */
  public static PlacementReport placementReport(ScenarioSpec spec, Topology topology, PlacementPlan plan) {
    if (spec.topology().networkShape().isPresent()) {
      return PlacementReport.ofRouterNetwork(topology, plan, Fabric.lookaheadPs(spec, topology));
    }
    return PlacementReport.of(topology, plan, spec.devices().switchSpec().pipelineLatencyPs());
  }

  /**
   * Makes {@code cluster}'s member serve distributed runs: starts its {@link MemberAgent}, which builds the
   * scenario's fabric and hosts the devices the placement plan gives it. Call once per member.
   */
  public static void serveAsMember(EmbeddedCluster cluster) {
    MemberAgent.start(cluster.system(), scenario -> Fabric.build((ScenarioSpec) scenario).devices(),
        DeviceActorFactory.GENERIC);
  }

  /**
   * Runs {@code spec} over {@code members} members of {@code cluster}'s Pekko cluster, each serving runs
   * ({@link #serveAsMember}); the coordinator runs on {@code cluster}. Devices are placed by
   * {@link MemberPlacement} (the scenario's {@code cluster.placement}, else the automatic {@link PlacementPlan});
   * members synchronize once per global window of the cross-member lookahead ({@link #crossLookaheadPs}) and run
   * local sub-windows in between. The result (digest included) equals the
   * one-member run's; only the number of windows (the global ones) differs.
   *
   * <p>A member lost mid-run (its scheduler stopped, its node left, or the cluster's failure detector finds it
   * unreachable, e.g. its process was killed) stops the run within a few seconds with a
   * {@link MemberLostException} whose message names the member and the virtual time of the last window every
   * member reported complete (members report every 16 global windows), and whose
   * {@link MemberLostException#partialResult()} holds the cases every rank finished before (streamed up with the
   * windows), with {@code complete() == false}.
   *
   * @throws MemberLostException when a member hosting part of the run is lost mid-run
   * @throws io.fabemu.engine.EngineFailedException when fewer than {@code members} members show up within
   *                                                {@code startTimeout}, or a member or device fails
   * @throws IllegalArgumentException when the topology cannot be spread over {@code members}
   * @throws io.fabemu.cluster.scenario.ScenarioException when the scenario's {@code cluster.placement} lists
   *                                                      another number of members
   */
  public static RunResult runDistributed(EmbeddedCluster cluster, ScenarioSpec spec, int members,
                                         Duration startTimeout, ProgressListener listener) {
    return runDistributed(cluster, spec, spec.topology().build(), members, startTimeout, listener);
  }

  /**
   * {@link #runDistributed(EmbeddedCluster, ScenarioSpec, int, Duration, ProgressListener)} over {@code topology},
   * which the caller built from {@code spec.topology()} already (and placed over {@code members} to check them).
   */
  public static RunResult runDistributed(EmbeddedCluster cluster, ScenarioSpec spec, Topology topology, int members,
                                         Duration startTimeout, ProgressListener listener) {
    return runDistributed(cluster, spec, topology, members, startTimeout, listener, traffic -> { });
  }

  /**
   * As {@link #runDistributed(EmbeddedCluster, ScenarioSpec, Topology, int, Duration, ProgressListener)}, telling
   * {@code trafficListener} what each member sent to the others in the run as written (not its baseline), once it
   * ended.
   */
  public static RunResult runDistributed(EmbeddedCluster cluster, ScenarioSpec spec, Topology topology, int members,
                                         Duration startTimeout, ProgressListener listener,
                                         Consumer<List<MemberTraffic>> trafficListener) {
    RunResult result = runDistributedOnce(cluster, spec, topology, members, startTimeout, listener,
        trafficListener);
    if (!spec.runsBaseline() || result.cases().isEmpty()) return result;
    long firstRun = operationsOfOneRun(spec);
    RunResult baseline;
    try {
      baseline = runDistributedOnce(cluster, spec.baseline(), topology, members, startTimeout,
          (done, virtualTimePs) -> listener.onProgress(firstRun + done, virtualTimePs), traffic -> { });
    } catch (MemberLostException lost) {
      // The faulted run is whole: it is what the caller keeps, without the comparison the baseline would have given.
      throw new MemberLostException(lost.getMessage() + " (in the run without faults, after the faulted run ended)",
          result, lost.getCause());
    }
    return FaultImpact.compare(result, baseline);
  }

  /** One run of {@code spec} as written (see {@link #runDistributed}), without a baseline. */
  private static RunResult runDistributedOnce(EmbeddedCluster cluster, ScenarioSpec spec, Topology topology,
                                              int members, Duration startTimeout, ProgressListener listener,
                                              Consumer<List<MemberTraffic>> trafficListener) {
    Fabric fabric = Fabric.build(spec, topology);
    PlacementPlan plan = MemberPlacement.plan(spec, fabric.topology(), fabric.devices().length, members);
    long wallStartNs = System.nanoTime();
    EngineOutcome outcome;
    try {
      outcome = PekkoWindowEngine.runDistributed(cluster.system(), members, spec, plan.memberOfDevices(),
          fabric.lookaheadPs(), crossLookaheadPs(fabric, plan), fabric.startEvents(), listener, startTimeout,
          ReachabilityWatcher.CLUSTER);
    } catch (EngineMemberLostException lost) {
      // Setup included here (the exception does not carry it): a run cut short is not a speed figure.
      double wallSeconds = (System.nanoTime() - wallStartNs) / 1e9;
      throw memberLost(spec, fabric.worldSize(), lost, wallSeconds);
    }
    // The emulation's wall time, from the first window on, as for one member (whose fabric is built before the
    // engine starts): finding the members and each building its devices are left out.
    double wallSeconds = (System.nanoTime() - wallStartNs) / 1e9 - outcome.setupSeconds();
    trafficListener.accept(outcome.traffic());
    return ResultAggregator.aggregate(spec, fabric.worldSize(), outcome.reports(), outcome.lastEventTimePs(),
        outcome.windows(), outcome.events(), wallSeconds);
  }

  /** The caller-facing error of a lost member, with the partial result of what every rank finished. */
  static MemberLostException memberLost(ScenarioSpec spec, int worldSize, EngineMemberLostException lost,
                                        double wallSeconds) {
    String name = "member " + lost.memberId() + " (" + lost.memberAddress() + ")";
    String message = "lost " + name + " at virtual time " + lost.completedThroughPs()
        + " ps (last completed window); the run is incomplete";
    List<DeviceReport> finished = List.of(new DeviceReport(-1, List.of(), lost.finishedResults()));
    RunResult partial = ResultAggregator.aggregate(spec, worldSize, finished, lost.completedThroughPs(),
        lost.windows(), lost.events(), wallSeconds, "lost " + name + " at virtual time "
            + lost.completedThroughPs() + " ps (last completed window)");
    return new MemberLostException(message, partial, lost);
  }
}
