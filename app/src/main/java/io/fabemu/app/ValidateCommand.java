package io.fabemu.app;

import io.fabemu.app.member.MemberJvmHeap;
import io.fabemu.app.output.ReportFormatter;
import io.fabemu.app.report.Formats;
import io.fabemu.cluster.MemberPlacement;
import io.fabemu.cluster.ScenarioRunner;
import io.fabemu.cluster.scenario.CaseSchedule;
import io.fabemu.cluster.scenario.LoadedScenario;
import io.fabemu.cluster.scenario.MemberHeapEstimate;
import io.fabemu.cluster.scenario.ResourceEstimate;
import io.fabemu.cluster.scenario.ScenarioException;
import io.fabemu.core.ethernet.EthernetSpec;
import io.fabemu.core.fault.FaultEvent;
import io.fabemu.core.fault.FaultPlan;
import io.fabemu.core.placement.PlacementPlan;
import io.fabemu.core.placement.PlacementReport;
import io.fabemu.core.rings.RingEmbedding;
import io.fabemu.core.topology.Topology;
import io.fabemu.fabric.Fabric;
import io.fabemu.fabric.ScenarioSpec;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code fabemu validate SCENARIO [--set KEY=VALUE ...] [--fault EVENT ...]}: checks the scenario (with the
 * {@link SetOverrides} laid over it and the {@link FaultOptions} appended to its fault events) (keys, values,
 * cross-field rules) and builds its topology (the graph of hosts, switches and cables) to describe it; nothing runs
 * but the runs that place fault events in cases (at load) and, with {@code --schedule}, one run of the scenario.
 *
 * <p>Contract: prints {@code OK: <file>: <topology description>, <ranks> ranks, <cases> cases} (a traffic scenario:
 * {@code OK: <file>: <topology description>, <pattern> traffic, <n> offered loads}), then the cases it runs
 * ({@link CaseList#line}: {@code cases: allreduce ring: 8 B, 16 B, ..., 1 MiB (18 sizes, x2 each)}), when it has
 * fault events, the plan's {@link #faultSummary} (and, when events are placed in cases, the
 * {@link CaseSchedule#lines schedule}: each case's start, each such event's time), with {@code --schedule} each
 * case's start and end in a run of the scenario ({@link CaseSchedule#runLines}), when
 * it has I/O nodes their {@link #ethernetSummary}, when it has
 * a pipeline per size {@code pipeline: <size>: the cost model chooses <method and costs>}, with a
 * ring embedding {@code rings: <its summary>} (and each of its warnings on stderr, as
 * {@code fabemu: warning: rings: <warning>}), and then the pre-flight {@link ResourceEstimate} with this JVM's max
 * heap ({@code # Estimate: about 2.3–4.6 GiB of heap, 41 M events (~20–80 s); this JVM has 6.0
 * GiB}; with {@code --members N} also each JVM's share, and when the run does not fit so, on how many members it
 * would: {@link #estimateLine}), with {@code --members N} above 1 what the placement on N members cuts
 * ({@link #placementLines}: where it comes from, {@code cluster.placement} or the automatic plan, a line per member
 * and a total), and exits 0 (a scenario whose {@code cluster.placement} lists several members, validated for one,
 * gets {@link MemberPlacement#oneMemberWarning} on stderr); or prints the one-line error and exits 2
 * (a member count the topology cannot be spread over among them). The estimate is printed even when it is above the
 * heap: validate only reports it, {@code run} refuses.
 */
@Command(name = "validate", mixinStandardHelpOptions = true,
    description = "Check a scenario without running it.")
final class ValidateCommand implements Callable<Integer> {

  @Parameters(index = "0", paramLabel = "SCENARIO", description = "Scenario file (HOCON), see docs/scenario-format.md.")
  Path scenario;

  @Mixin
  SetOverrides sets;

  @Mixin
  FaultOptions faults;

  @Option(names = "--members", paramLabel = "N", defaultValue = "1",
      description = "Check the estimate against the share of one JVM of a run on N members (default 1), as "
          + "'run --members N' does; above 1, also print what placing the devices on N members cuts.")
  int members;

  @Option(names = "--schedule",
      description = "Also run the scenario once, on the plain single-threaded engine, and print each case's start and "
          + "end in virtual time (as long as a run of it takes).")
  boolean schedule;

  @Option(names = "--skip-estimate",
      description = "Accept the scenario even when the pre-flight estimate says it needs more heap than this JVM has.")
  boolean skipEstimate;

  /** Events the summary of a fault plan lists. */
  static final int SUMMARY_EVENTS = 5;

  private final PrintStream stdout;
  private final PrintStream stderr;

  ValidateCommand(PrintStream stdout, PrintStream stderr) {
    this.stdout = stdout;
    this.stderr = stderr;
  }

  @Override
  public Integer call() {
    if (members < 1) throw new BadInputException("--members must be at least 1, not " + members);
    LoadedScenario loaded = sets.load(scenario, faults);
    // As a run would: real data as far as the heap holds it, sizes only beyond (PayloadFit's note says so).
    PayloadFit.Fitted fitted = PayloadFit.fit(loaded.spec(), members, skipEstimate, Runtime.getRuntime().maxMemory());
    ScenarioSpec spec = fitted.spec();
    // Refused as `run --members N` would refuse it (one line, exit 2), before the topology is built; its warnings
    // once the topology is. `traffic` has no such check, so neither has the validation of a traffic scenario.
    List<String> warnings = spec.runsTraffic() ? List.of()
        : RunSupport.checkEstimate(spec, members, skipEstimate, Runtime.getRuntime().maxMemory());
    Topology topology = RunSupport.buildTopology(spec);
    // Refused before anything is printed: a member count the topology cannot be spread over.
    List<String> placement = members > 1 ? placementLines(spec, topology, members) : List.of();
    if (fitted.note() != null) stderr.println(fitted.note());
    warnings.forEach(stderr::println);
    MemberPlacement.oneMemberWarning(spec, members).ifPresent(stderr::println);
    if (spec.runsTraffic()) {
      // A traffic scenario's ranks run nothing: say what 'fabemu traffic' will run.
      stdout.println("OK: " + scenario + ": " + topology.description() + ", " + spec.traffic().pattern().configName()
          + " traffic, " + spec.traffic().loadCount() + " offered loads");
    } else {
      stdout.println("OK: " + scenario + ": " + topology.description() + ", " + ReportFormatter.ranks(spec)
          + " ranks, " + spec.workload().caseCount() + " cases");
      stdout.println(CaseList.line(spec.workload()));
    }
    if (spec.hasFaults()) stdout.println(faultSummary(spec.faults()));
    // Events placed in cases (at = { case = ... }): each case's start and each such event's resolved time.
    if (!loaded.caseSchedule().isEmpty()) loaded.caseSchedule().lines(spec.workload()).forEach(stdout::println);
    if (schedule && !spec.runsTraffic()) {
      // The same run as 'fabemu run' on one member (the engines give identical results), without its baseline.
      CaseSchedule.runLines(Fabric.build(spec, topology).runOnPlainEngine()).forEach(stdout::println);
    }
    if (spec.ethernet() != null) stdout.println(ethernetSummary(spec.ethernet(), topology));
    if (spec.workload().pipeline() != null) {
      // What auto will run, before any emulation: the management device's arithmetic alone.
      for (long size : spec.workload().sizesBytes()) {
        stdout.println("pipeline: " + Formats.sizeLabel(size) + ": the cost model chooses "
            + spec.workload().pipeline().choice(size).summary());
      }
    }
    if (spec.rings() != null) {
      stdout.println("rings: " + spec.rings().summary());
      for (String warning : ringWarnings(spec.rings())) stderr.println(warning);
    }
    long maxHeap = Runtime.getRuntime().maxMemory();
    stdout.println(estimateLine(MemberHeapEstimate.of(spec), members, maxHeap, MemberJvmHeap.fromEnvironment(maxHeap)));
    placement.forEach(stdout::println);
    return ExitCodes.OK;
  }

  /**
   * What the placement of a run on {@code members} members cuts: where the plan comes from ({@link
   * MemberPlacement#sourceLine}: {@code placement: from cluster.placement (x.conf:12)} or {@code placement:
   * automatic}), then ({@link PlacementReport#lines}) a line per member, {@code member M: D devices, C cut links, cut
   * lookahead X ns}, and {@code total: C of L links cut, cut lookahead X ns}. The fabric is not built: its device count
   * and lookahead come from the scenario.
   *
   * @throws BadInputException when the topology cannot be spread over {@code members}
   * @throws ScenarioException       when the scenario's {@code cluster.placement} lists another number of members
   */
  static List<String> placementLines(ScenarioSpec spec, Topology topology, int members) {
    PlacementPlan plan;
    try {
      plan = MemberPlacement.plan(spec, topology, Fabric.deviceCount(spec, topology), members);
    } catch (ScenarioException e) {
      throw e; // the scenario's cluster.placement: its own line names the file, the line and the key
    } catch (IllegalArgumentException e) {
      throw new BadInputException("--members " + members + ": " + e.getMessage());
    }
    List<String> lines = new ArrayList<>();
    lines.add(MemberPlacement.sourceLine(spec, members));
    lines.addAll(ScenarioRunner.placementReport(spec, topology, plan).lines());
    return lines;
  }

  /**
   * The estimate line: {@code # Estimate: <the estimate's summary>; this JVM has <max heap>}, then the figures per
   * member JVM on {@code members} members and, when it does not fit so, on how many it would
   * ({@link RunSupport#memberFigures}).
   */
  static String estimateLine(MemberHeapEstimate perMember, int members, long maxHeapBytes, long memberHeapBytes) {
    return "# Estimate: " + perMember.estimate().summary() + "; this JVM has "
        + ResourceEstimate.formatBytes(maxHeapBytes)
        + RunSupport.memberFigures(perMember, members, maxHeapBytes, memberHeapBytes);
  }

  /**
   * The warnings of a ring embedding (rings that share links, at a share of their bandwidth), one line each as the
   * commands print them on stderr: {@code fabemu: warning: rings: <warning>}.
   */
  static List<String> ringWarnings(RingEmbedding rings) {
    return rings.warnings().stream().map(w -> "fabemu: warning: rings: " + w).toList();
  }

  /**
   * The I/O nodes in one line, e.g. {@code ethernet: I/O nodes host0, host63 (standby host7), 4 external hosts, 20
   * frames in per external host, 2 out per node}.
   */
  static String ethernetSummary(EthernetSpec ethernet, Topology topology) {
    String enabled = ethernet.initiallyEnabled().stream().map(topology::vertexName).collect(Collectors.joining(", "));
    String standby = ethernet.standby().stream().map(topology::vertexName).collect(Collectors.joining(", "));
    return "ethernet: I/O nodes " + enabled + (standby.isEmpty() ? "" : " (standby " + standby + ")") + ", "
        + ethernet.externalHosts() + " external host" + (ethernet.externalHosts() == 1 ? "" : "s") + ", "
        + ethernet.inboundFrames() + " frames in per external host, " + ethernet.outboundFrames() + " out per node";
  }

  /**
   * The fault plan in one line: its event count and its first {@value #SUMMARY_EVENTS} events in time order, e.g.
   * {@code faults: 2 events: 40.000 us switch spine0 down, 90.000 us switch spine0 up}.
   */
  static String faultSummary(FaultPlan plan) {
    int shown = Math.min(plan.eventCount(), SUMMARY_EVENTS);
    String first = plan.events().subList(0, shown).stream().map(FaultEvent::describe)
        .collect(Collectors.joining(", "));
    int more = plan.eventCount() - shown;
    return "faults: " + plan.eventCount() + (plan.eventCount() == 1 ? " event: " : " events: ") + first
        + (more > 0 ? ", ... (" + more + " more)" : "");
  }
}
