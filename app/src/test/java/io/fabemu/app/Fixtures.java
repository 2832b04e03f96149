package io.fabemu.app;

import io.fabemu.app.nccl.NcclTestsReport;
import io.fabemu.collectives.Algorithm;
import io.fabemu.collectives.BufferLayout;
import io.fabemu.collectives.Collective;
import io.fabemu.collectives.WorkloadSpec;
import io.fabemu.core.fault.FaultAction;
import io.fabemu.core.fault.FaultEvent;
import io.fabemu.core.fault.FaultPlan;
import io.fabemu.core.fault.FaultRecord;
import io.fabemu.core.fault.FaultReport;
import io.fabemu.core.fault.FaultSettings;
import io.fabemu.core.fault.FaultTally;
import io.fabemu.core.link.ForwardingMode;
import io.fabemu.core.optical.ConnectionFormula;
import io.fabemu.core.optical.OcsReport;
import io.fabemu.core.optical.OcsSpec;
import io.fabemu.core.protocol.DirectedLink;
import io.fabemu.core.sim.DeviceReport.LinkCounters;
import io.fabemu.core.sim.ProgressListener;
import io.fabemu.core.topology.LeafSpineSpec;
import io.fabemu.core.topology.LinkSpec;
import io.fabemu.core.topology.OpticalSpec;
import io.fabemu.core.topology.Topology;
import io.fabemu.fabric.DeviceSpec;
import io.fabemu.fabric.ScenarioSpec;
import io.fabemu.fabric.result.CaseResult;
import io.fabemu.fabric.result.FaultImpact;
import io.fabemu.fabric.result.RunResult;
import io.fabemu.nic.NicSpec;
import io.fabemu.node.HostSpec;
import io.fabemu.switching.SwitchSpec;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/** Hand-made specs and results for the app tests, and a fake scenario executor. */
public final class Fixtures {
  private Fixtures() {}

  /** nccl-tests' column header, as {@link NcclTestsReport#columnHeader()} must print it (lines end in a blank). */
  public static final String NCCL_COLUMN_HEADER = "#\n"
      + "#                                                              out-of-place                       "
      + "in-place          \n"
      + "#       size         count      type   redop    root     time   algbw   busbw  #wrong     time   algbw"
      + "   busbw  #wrong \n"
      + "#        (B)    (elements)                               (us)  (GB/s)  (GB/s)             (us)  (GB/s)"
      + "  (GB/s)         \n";

  public static final String TINY_SCENARIO = """
      name = tiny
      topology { kind = leaf-spine, hosts = 2, hosts-per-tor = 2, spines = 0 }
      workload { algorithms = [ring, recursive-doubling], sizes = [4 B, 64 B], iterations = 2, warmup = 1 }
      """;

  /**
   * A hardware profile for {@code fabemu osu-allreduce}: leaf-spine, 2 hosts per TOR, one spine; the command sets
   * the host count and the workload.
   */
  public static final String TINY_PROFILE = """
      name = tiny-profile
      topology { kind = leaf-spine, hosts-per-tor = 2, spines = 1 }
      """;

  /** 4 hosts on one TOR, allreduce ring, sizes 4 B and 1 MiB. */
  public static ScenarioSpec spec() {
    return ScenarioSpec.builder("golden", "golden.conf", 42,
        new LeafSpineSpec(4, 4, 0, new LinkSpec(25_000_000_000L, 500_000L),
            new LinkSpec(100_000_000_000L, 500_000L)),
        new DeviceSpec(HostSpec.builder().sendOverheadPs(300_000).recvOverheadPs(300_000)
            .reduceBitsPerSecond(80_000_000_000L).memoryBitsPerSecond(160_000_000_000L).memoryLatencyPs(150_000)
            .pcieBitsPerSecond(128_000_000_000L).pcieLatencyPs(250_000).build(),
            new NicSpec(4096, 64, 100_000, 100_000), new SwitchSpec(600_000, ForwardingMode.CUT_THROUGH)),
        WorkloadSpec.builder(Collective.ALLREDUCE, List.of(Algorithm.RING), List.of(4L, 1_048_576L)).iterations(10)
            .warmup(2).build()).build();
  }

  public static RunResult result() {
    return result(spec(), true);
  }

  /** {@link #result()} with a synthetic payload: the same figures, no case checked. */
  public static RunResult syntheticResult() {
    ScenarioSpec real = spec();
    return result(real.toBuilder().workload(real.workload().withSyntheticPayload(true)).build(), false);
  }

  /**
   * {@link #result()} measured out of place and in place: cases 0 and 1 as there, cases 2 and 3 in place, 5 us and
   * 240 us.
   */
  public static RunResult bothLayoutsResult() {
    ScenarioSpec real = spec();
    ScenarioSpec spec = real.toBuilder()
        .workload(real.workload().withBuffers(List.of(BufferLayout.OUT_OF_PLACE, BufferLayout.IN_PLACE))).build();
    RunResult base = result(real, true);
    List<CaseResult> cases = new ArrayList<>(base.cases());
    cases.add(CaseResult.builder(2, Algorithm.RING, 4, 1, 10).avgLatencyPs(5_000_000.0).minLatencyPs(4_900_000.0)
        .maxLatencyPs(5_200_000.0).build());
    cases.add(CaseResult.builder(3, Algorithm.RING, 1_048_576, 262_144, 10).avgLatencyPs(240_000_000.0)
        .minLatencyPs(239_000_000.0).maxLatencyPs(241_000_000.0).build());
    return RunResult.builder(spec).cases(cases).links(base.links()).complete(true).virtualEndPs(base.virtualEndPs())
        .windows(base.windows()).events(base.events()).wallSeconds(base.wallSeconds()).digest(base.digest()).build();
  }

  /** A result of {@link #spec()}'s hardware running {@code workload}, with {@code cases}. */
  public static RunResult result(WorkloadSpec workload, List<CaseResult> cases) {
    ScenarioSpec real = spec();
    return RunResult.builder(real.toBuilder().workload(workload).build()).cases(cases).links(List.of())
        .complete(true).virtualEndPs(1_000_000).windows(1).events(1).wallSeconds(0.1).digest("00").build();
  }

  private static RunResult result(ScenarioSpec spec, boolean checked) {
    return RunResult.builder(spec)
        .cases(List.of(CaseResult.builder(0, Algorithm.RING, 4, 1, 10).avgLatencyPs(5_430_000.0)
            .minLatencyPs(5_100_000.0).maxLatencyPs(5_900_000.0).checked(checked).build(),
            CaseResult.builder(1, Algorithm.RING, 1_048_576, 262_144, 10).avgLatencyPs(250_000_000.0)
                .minLatencyPs(249_000_000.0).maxLatencyPs(251_500_000.0).checked(checked).build()))
        .links(List.of(new LinkCounters(0, 4, 1_000_000, 300, 320_000_000L),
            new LinkCounters(4, 0, 1_000_000, 300, 320_000_000L)))
        .complete(true).virtualEndPs(2_600_000_000L).windows(1234).events(56_789).wallSeconds(0.5).digest("ab12")
        .build();
  }

  /**
   * {@link #result()}'s figures on an optical cluster of 4 servers of 4 NPUs whose OCS controller (10 us) sets up
   * formula 3's 6 circuits, then turns to formula 1 at 20 us: 6 circuits torn down, 6 set up, the last up at 30.5 us
   * (a drain held one back), 12 packets waited 85.072 us in all, 9.29952 us at worst.
   */
  public static RunResult ocsResult() {
    ScenarioSpec real = spec();
    OpticalSpec optical = new OpticalSpec(4, 4, OpticalSpec.IntraServer.FULL_MESH,
        new LinkSpec(400_000_000_000L, 200_000L), new LinkSpec(100_000_000_000L, 1_000_000L),
        ConnectionFormula.FORMULA_3, new OcsSpec(10_000_000L,
        List.of(new OcsSpec.PolicyChange(20_000_000L, ConnectionFormula.FORMULA_1))));
    RunResult r = result();
    return RunResult.builder(real.toBuilder().topology(optical).build()).cases(r.cases()).links(r.links())
        .complete(true).virtualEndPs(r.virtualEndPs()).windows(r.windows()).events(r.events())
        .wallSeconds(r.wallSeconds()).digest(r.digest())
        .part(new OcsReport(6, 10_000_000L, 16L, 100_880_480L, 6_545_030L,
            List.of(new OcsReport.ChangeCost(20_000_000L, 6, 6, 30_500_000L, 12L, 85_072_000L, 9_299_520L))))
        .build();
  }

  /**
   * Six faults on {@link #spec()}'s fabric (hosts 0 to 3, TOR 4), default settings: 0 the cable host0-tor0 down at
   * 40 us, 1 the TOR's links to host0 and host1 lossy at 50 us (1 % dropped, 0.1 % corrupted), 2 the cable up again
   * at 60 us, 3 the TOR down at 100 us (never up), 4 the hosts' links degraded at 120 us (10 Gb/s, 200 ns more),
   * 5 host3 a straggler at 130 us (2x).
   */
  public static FaultPlan faultPlan() {
    List<DirectedLink> torLinks = List.of(new DirectedLink(4, 0), new DirectedLink(4, 1));
    List<DirectedLink> hostLinks = List.of(new DirectedLink(0, 4), new DirectedLink(1, 4));
    List<DirectedLink> torAll = new ArrayList<>();
    for (int h = 0; h < 4; h++) {
      torAll.add(new DirectedLink(4, h));
      torAll.add(new DirectedLink(h, 4));
    }
    return new FaultPlan(FaultSettings.DEFAULTS, List.of(
        FaultEvent.link(40_000_000L, FaultAction.DOWN, "link host0-tor0", 0, 4),
        FaultEvent.lossy(50_000_000L, "tor links", torLinks, 0.01, 0.001),
        FaultEvent.link(60_000_000L, FaultAction.UP, "link host0-tor0", 0, 4),
        new FaultEvent(-1, 100_000_000L, FaultAction.DOWN, "switch tor0", 4, torAll, 0, 0, 0, 0, 1),
        FaultEvent.degrade(120_000_000L, "host links", hostLinks, 10_000_000_000L, 200_000L),
        FaultEvent.straggler(130_000_000L, "host host3", 3, 2.0)));
  }

  /**
   * {@link #result()} of {@link #faultPlan()}: event 0 noticed 3 us after it by tor0 and routed around 4.2 us after
   * it (3 devices updated), event 2 noticed 1 us after by host0 and rerouted 2.3 us after (2 updated), event 3 not
   * noticed; 12 and 5 packets lost by events 0 and 1, 2 corrupted by 1, 3 and 4 messages resent by 0 and 1 and one
   * by no event, 2 duplicates discarded; a partition and {@code gaveUp} messages given up on; compared with a
   * baseline, event 0 touched 2 collectives (35.25 us extra, 30.1 at most), event 1 three (-1.5 ns in all, 2 ns at
   * most), event 2 one (5.15 us), event 3 none, events 4 and 5 four each.
   */
  public static RunResult faultedResult(int gaveUp) {
    FaultPlan plan = faultPlan();
    FaultTally tally = new FaultTally(plan.eventCount());
    for (int i = 0; i < 12; i++) tally.packetLost(0);
    for (int i = 0; i < 5; i++) tally.packetLost(1);
    for (int i = 0; i < 2; i++) tally.packetCorrupted(1);
    for (int i = 0; i < 3; i++) tally.messageResent(0);
    for (int i = 0; i < 4; i++) tally.messageResent(1);
    tally.resendSpurious(1);
    tally.messageResent(-1);
    tally.duplicateDiscarded();
    tally.duplicateDiscarded();
    List<String> lines = new ArrayList<>();
    for (int i = 0; i < gaveUp; i++) lines.add("rank 3 -> rank " + i + ": message " + i + " after 10 tries");
    FaultReport report = new FaultReport(tally, List.of(
        new FaultRecord(0, 43_000_000L, 4, 44_200_000L, 3),
        new FaultRecord(2, 61_000_000L, 0, 62_300_000L, 2),
        new FaultRecord(3, -1, -1, -1, 0)), "rank 3 cut off from ranks 0-2", lines);
    RunResult r = withFaults(result(), plan, report);
    return RunResult.builder(r.scenario()).cases(r.cases()).links(r.links()).complete(r.complete())
        .incompleteReason(r.incompleteReason()).virtualEndPs(r.virtualEndPs()).windows(r.windows())
        .events(r.events()).wallSeconds(r.wallSeconds()).digest(r.digest()).part(report)
        .faultImpacts(List.of(new FaultImpact(0, 60_000_000L, 2, 35_250_000L, 30_100_000L),
            new FaultImpact(1, 2_600_000_000L, 3, -1_500L, 2_000L),
            new FaultImpact(2, 62_300_000L, 1, 5_150_000L, 5_150_000L), new FaultImpact(3, 2_600_000_000L, 0, 0, 0),
            new FaultImpact(4, 2_600_000_000L, 4, 12_000_400L, 4_000_100L),
            new FaultImpact(5, 2_600_000_000L, 4, 8_000_000L, 2_500_000L)))
        .build();
  }

  /** {@code r} with fault plan {@code plan} and fault report {@code report} (may be null). */
  public static RunResult withFaults(RunResult r, FaultPlan plan, FaultReport report) {
    return RunResult.builder(r.scenario().withFaults(plan)).cases(r.cases()).links(r.links()).complete(r.complete())
        .incompleteReason(r.incompleteReason()).virtualEndPs(r.virtualEndPs()).windows(r.windows())
        .events(r.events()).wallSeconds(r.wallSeconds()).digest(r.digest()).part(report).build();
  }

  /**
   * A stand-in for ScenarioRunner.run: one case per (algorithm, buffer layout, size), latency 1 us per KiB plus 2 us
   * (1 us in place; iteration k of n: plus (k - (n-1)/2) x 10 ns); cases are checked unless the payload is synthetic.
   */
  public static final class FakeExecutor implements ScenarioExecutor {
    public ScenarioSpec ranSpec;
    public long wrongElements;
    public boolean complete = true;
    RuntimeException failure;
    /** When set, the run has this fault plan (the scenario loader's part) and reports {@link #faultReport}. */
    FaultPlan faults;
    FaultReport faultReport;

    @Override
    public RunResult run(ScenarioSpec spec, Topology topology, ProgressListener listener) {
      if (failure != null) throw failure;
      if (faults != null) spec = spec.withFaults(faults);
      ranSpec = spec;
      WorkloadSpec w = spec.workload();
      List<CaseResult> cases = new ArrayList<>();
      for (int i = 0; i < w.caseCount(); i++) {
        long size = w.sizeOfCase(i);
        // In place, 1 us less: the fake skips a copy as the real executor does.
        double latencyPs = 2_000_000.0 + size * 1_000_000.0 / 1024 - (w.inPlaceOfCase(i) ? 1_000_000.0 : 0);
        // Iteration k takes (k - (n-1)/2) x 10 ns more than the mean, so the tail percentiles differ from it.
        double[] iterationsPs = new double[w.iterations()];
        for (int k = 0; k < iterationsPs.length; k++) {
          iterationsPs[k] = latencyPs + (k - (iterationsPs.length - 1) / 2.0) * 10_000;
        }
        cases.add(CaseResult.builder(i, w.algorithmOfCase(i), size, size / w.dataType().sizeBytes(), w.iterations())
            .avgLatencyPs(latencyPs).minLatencyPs(latencyPs).maxLatencyPs(latencyPs)
            .wrongElements(i == 0 ? wrongElements : 0).checked(!w.syntheticPayload())
            .rankLatenciesPs(new double[] {latencyPs}).iterationLatenciesPs(iterationsPs).build());
        listener.onProgress(i, (long) latencyPs);
      }
      return RunResult.builder(spec).cases(cases).links(List.of(new LinkCounters(0, 2, 640, 10, 204_800)))
          .complete(complete).incompleteReason(complete ? null : "rank 1 never finished").virtualEndPs(10_000_000L)
          .windows(7).events(99).wallSeconds(0.25).digest("feedbeef").part(faultReport).build();
    }
  }

  /** What one command line printed and returned. */
  record CliRun(int code, String stdout, String stderr) {}

  /** Runs the command line with {@code executor} (null: the real scenario runner), capturing both streams. */
  static CliRun cli(ScenarioExecutor executor, String... args) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    PrintStream stdout = new PrintStream(out, true, StandardCharsets.UTF_8);
    PrintStream stderr = new PrintStream(err, true, StandardCharsets.UTF_8);
    int code = executor == null ? Main.execute(args, stdout, stderr)
        : Main.execute(args, stdout, stderr, executor, System::nanoTime);
    return new CliRun(code, out.toString(StandardCharsets.UTF_8),
        err.toString(StandardCharsets.UTF_8));
  }

  /** A finished run of {@code r}'s scenario without its faults, of {@code cases}: a faulted run's baseline. */
  static RunResult baselineOf(RunResult r, List<CaseResult> cases) {
    return RunResult.builder(r.scenario()).cases(cases).links(r.links()).complete(true)
        .virtualEndPs(r.virtualEndPs()).windows(r.windows()).events(r.events()).wallSeconds(r.wallSeconds())
        .digest(r.digest()).build();
  }
}
