package io.fabemu.app.output;

import io.fabemu.app.PayloadFit;
import io.fabemu.app.nccl.NcclTestsReport;
import io.fabemu.app.osu.OsuFormatter;
import io.fabemu.app.report.FaultCases;
import io.fabemu.app.report.FaultFigures;
import io.fabemu.app.report.OcsFigures;
import io.fabemu.app.report.ProtocolNote;
import io.fabemu.app.report.PipelineTable;
import io.fabemu.app.report.RingComparison;
import io.fabemu.collectives.Algorithm;
import io.fabemu.collectives.BufferLayout;
import io.fabemu.collectives.Collective;
import io.fabemu.collectives.WorkloadSpec;
import io.fabemu.core.ethernet.EthernetReport;
import io.fabemu.core.ethernet.EthernetSpec;
import io.fabemu.core.ethernet.MacAddress;
import io.fabemu.core.fault.FaultPlan;
import io.fabemu.core.fault.FaultReport;
import io.fabemu.core.fault.FaultSettings;
import io.fabemu.core.fault.FaultTally;
import io.fabemu.core.inc.IncCodes.FailCause;
import io.fabemu.core.optical.OcsReport;
import io.fabemu.core.time.Units;
import io.fabemu.fabric.ScenarioSpec;
import io.fabemu.fabric.result.CaseResult;
import io.fabemu.fabric.result.FaultImpact;
import io.fabemu.fabric.result.RunResult;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * Text reports of a run, laid out like the tools HPC people already read: for each algorithm a latency table as
 * {@code osu_allreduce} prints it, then the nccl-tests table of that algorithm ({@link NcclTestsReport}: the column
 * header, 13-field rows with out-of-place and in-place halves, and both footer lines); in a run with faults, a table of
 * what they did ({@link #faults}); then one summary line.
 *
 * <p>Contract: pure functions of their arguments (no clock, no I/O), so the same result always gives the same text;
 * every line ends with {@code \n}; numbers use {@link Locale#ROOT}. Bandwidths follow nccl-tests
 * (doc/PERFORMANCE.md and its {@code *GetBw} functions): {@code algbw = size / time} in GB/s (10^9 bytes/s) and
 * {@code busbw = algbw x factor}, where the factor is {@code 2(n-1)/n} for allreduce, {@code (n-1)/n} for allgather,
 * reduce-scatter, alltoall, gather and scatter, and 1 for broadcast, reduce and sendrecv; {@code time} is the mean
 * over ranks, as nccl-tests' default {@code -a 1} reports it. nccl-tests' {@code size} is the whole buffer for the
 * collectives whose workload size is one block per rank (allgather, reduce-scatter, alltoall, gather, scatter),
 * block x ranks; the osu table keeps the per-rank size, as osu_allgather does. The osu table shows the cases of the
 * workload's first buffer layout ({@code out-of-place} unless the workload lists {@code in-place} first). A
 * synthetic payload (sizes only) is announced in the header, and its unchecked cases show {@code N/A} as their
 * number of wrong elements.
 */
public final class ReportFormatter {

  /** The header's line for a synthetic payload: nothing was checked, and the tables must not suggest it was. */
  public static final String SYNTHETIC_HEADER_LINE = "# Payload: synthetic (sizes only; outputs not checked)\n";

  /** The most messages given up on that {@link #faults} names one by one. */
  public static final int MAX_GAVE_UP_LINES = 5;
  /** Detours the fault table names per event (results.json has them all). */
  static final int MAX_DETOURS_SHOWN = 3;

  private ReportFormatter() {}

  /**
   * The lines printed before the run starts: scenario, topology, ranks and seed, workload, and for a synthetic
   * payload {@value #SYNTHETIC_HEADER_LINE}.
   */
  public static String header(ScenarioSpec spec, String topologyDescription) {
    WorkloadSpec w = spec.workload();
    int ranks = ranks(spec);
    StringBuilder sb = new StringBuilder();
    sb.append("# fabemu run: ").append(spec.name()).append(" (").append(spec.source()).append(")\n");
    sb.append("# Topology: ").append(topologyDescription).append('\n');
    sb.append("# Ranks: ").append(ranks).append(" (").append(spec.topology().hosts()).append(" hosts x ")
        .append(w.ppn()).append(" per host), seed ").append(spec.seed()).append('\n');
    sb.append("# Workload: ").append(w.collective().configName()).append(' ').append(w.dataType().configName());
    if (w.collective().reduces()) sb.append(' ').append(w.op().configName());
    if (w.collective().rooted()) sb.append(", root ").append(w.root());
    if (w.hierarchical()) sb.append(", hierarchical");
    sb.append(", ").append(plural(w.algorithms().size(), "algorithm")).append(" x ");
    if (!w.buffers().equals(WorkloadSpec.DEFAULT_BUFFERS)) {
      sb.append(w.buffers().stream().map(BufferLayout::configName).collect(Collectors.joining("/"))).append(" x ");
    }
    sb.append(plural(w.sizesBytes().size(), "size")).append(", ").append(plural(w.iterations(), "iteration"))
        .append(" + ").append(w.warmup()).append(" warm-up\n");
    if (w.syntheticPayload()) {
      sb.append(SYNTHETIC_HEADER_LINE);
    }
    sb.append(PayloadFit.headerLine(w));
    return sb.toString();
  }

  /**
   * Everything after the run: for each algorithm a latency table and its nccl-tests table (titled
   * {@code # fabemu COLLECTIVE nccl-tests table (PROGRAM), algorithm A}; none for a barrier, which nccl-tests does
   * not measure), then when it runs two or more embedded-ring algorithms their comparison ({@link RingComparison}),
   * for a pipeline its iterations, their parts and the cost model's choice against the measured
   * ({@link PipelineTable}), then in a run with faults the fault table ({@link #faults}), then the summary.
   */
  public static String report(RunResult result) {
    WorkloadSpec w = result.scenario().workload();
    String program = NcclTestsReport.program(w.collective());
    StringBuilder sb = new StringBuilder();
    for (int a = 0; a < w.algorithms().size(); a++) {
      List<CaseResult> cases = casesOfAlgorithm(result, a);
      sb.append('\n').append(latencyTable(w, a, cases));
      if (program != null) {
        sb.append('\n').append(bandwidthTable(result, a));
      }
    }
    RingComparison rings = RingComparison.of(w, ResultsWriter.caseFigures(result, null));
    if (rings != null) sb.append('\n').append(rings.text());
    PipelineTable pipeline = PipelineTable.of(result);
    if (pipeline != null) sb.append('\n').append(pipeline.text());
    String faults = faults(result);
    if (!faults.isEmpty()) sb.append('\n').append(faults);
    String ethernet = ethernet(result);
    if (!ethernet.isEmpty()) sb.append('\n').append(ethernet);
    sb.append('\n').append(summary(result));
    return sb.toString();
  }

  /**
   * What the run's faults did, empty when the scenario has no fault plan: a title with the plan's settings, one row
   * per event (id, injection time, target, action, detection delay and reroute time after the injection in
   * microseconds, packets lost and corrupted and messages resent because of it, the collectives it touched and
   * their extra latency against the run without faults, summed and largest ({@link FaultImpact}); {@code -} where a
   * figure does not apply or was not reported, or no baseline ran), two lines saying how to read them, one line of
   * totals, the partition the management node saw last if any, and the messages given up on (at most
   * {@value #MAX_GAVE_UP_LINES} lines, then how many more).
   */
  public static String faults(RunResult result) {
    FaultPlan plan = result.scenario().faults();
    if (plan.isEmpty()) return "";
    FaultReport report = result.faults();
    List<FaultFigures> events = FaultFigures.of(plan, report);
    FaultSettings s = plan.settings();
    StringBuilder sb = new StringBuilder();
    sb.append("# fabemu faults: ").append(plural(plan.eventCount(), "event")).append(" (heartbeat ")
        .append(Units.format(s.heartbeatPeriodPs())).append(" x ").append(s.heartbeatMisses()).append(" missed, ")
        .append("management ").append(Units.format(s.managementLatencyPs())).append(" + ")
        .append(Units.format(s.managementUpdatePs())).append(" per update, retransmit timeout ")
        .append(s.retransmitTimeout().describe()).append(", at most ").append(s.maxRetransmissions())
        .append(" times)\n");
    int targetWidth = "Target".length();
    for (FaultFigures f : events) targetWidth = Math.max(targetWidth, f.event().target().length());
    targetWidth += 2;
    sb.append(CNumbers.padRight("# Id", 6)).append(CNumbers.padLeft("At(us)", 12)).append("  ")
        .append(CNumbers.padRight("Target", targetWidth)).append(CNumbers.padRight("Action", 11))
        .append(CNumbers.padLeft("Detected(us)", 14)).append(CNumbers.padLeft("Rerouted(us)", 14))
        .append(CNumbers.padLeft("Lost", 12)).append(CNumbers.padLeft("Corrupted", 12))
        .append(CNumbers.padLeft("Resent", 12)).append(CNumbers.padLeft("Spurious", 10))
        .append(CNumbers.padLeft("Touched", 10))
        .append(CNumbers.padLeft("Extra(us)", 14)).append(CNumbers.padLeft("MaxExtra(us)", 14)).append('\n');
    for (FaultFigures f : events) {
      FaultImpact impact = result.impactOf(f.event().id());
      sb.append(CNumbers.padRight(Integer.toString(f.event().id()), 6))
          .append(CNumbers.padLeft(FaultFigures.us(f.event().atPs()), 12)).append("  ")
          .append(CNumbers.padRight(f.event().target(), targetWidth))
          .append(CNumbers.padRight(f.event().action().configName(), 11))
          .append(CNumbers.padLeft(FaultFigures.us(f.detectionDelayPs()), 14))
          .append(CNumbers.padLeft(FaultFigures.us(f.rerouteTimePs()), 14))
          .append(CNumbers.padLeft(FaultFigures.count(f.lostPackets()), 12))
          .append(CNumbers.padLeft(FaultFigures.count(f.corruptedPackets()), 12))
          .append(CNumbers.padLeft(FaultFigures.count(f.lossDrivenResends()), 12))
          .append(CNumbers.padLeft(FaultFigures.count(f.spuriousResends()), 10))
          .append(CNumbers.padLeft(impact == null ? "-" : Integer.toString(impact.collectivesTouched()), 10))
          .append(CNumbers.padLeft(impact == null ? "-" : FaultFigures.signedUs(impact.extraLatencyTotalPs()), 14))
          .append(CNumbers.padLeft(impact == null ? "-" : FaultFigures.signedUs(impact.extraLatencyMaxPs()), 14))
          .append('\n');
    }
    sb.append("# Detected, Rerouted: after the injection, until a neighbour noticed it and until the network routed "
        + "around it (-: not at all)\n");
    sb.append("# Resent: messages sent again because a copy or its acknowledgement was lost; Spurious: sent again "
        + "although the copy before had arrived (the retransmit timeout was too short)\n");
    sb.append("# Touched: collectives (measured iterations) running while the event acted; Extra, MaxExtra: their "
        + "time minus the run without faults, summed and largest (-: that run was skipped)\n");
    sb.append(FaultCases.of(result).textLine());
    if (report == null) {
      sb.append("# Fault totals: not reported\n");
      return sb.toString();
    }
    FaultTally t = report.tally();
    sb.append("# Fault totals: ").append(plural(t.totalLostPackets(), "packet")).append(" lost, ")
        .append(t.totalCorruptedPackets()).append(" corrupted, ")
        .append(plural(t.totalLossDrivenResends(), "message")).append(" resent after a loss, ")
        .append(t.totalSpuriousResends()).append(" resent spuriously, ")
        .append(plural(t.duplicatesDiscarded(), "duplicate")).append(" discarded");
    long unexplainedLost = t.lostPackets(-1);
    long unexplainedCorrupted = t.corruptedPackets(-1);
    long unexplainedResent = t.resentMessages(-1);
    if (unexplainedLost + unexplainedCorrupted + unexplainedResent > 0) {
      sb.append(" (no event: ").append(unexplainedLost).append(" lost, ").append(unexplainedCorrupted)
          .append(" corrupted, ").append(t.lossDrivenResends(-1)).append(" resent after a loss, ")
          .append(t.spuriousResends(-1)).append(" spuriously)");
    }
    sb.append('\n');
    detourLines(sb, events, t);
    if (report.partition() != null) sb.append("# Partition: ").append(report.partition()).append('\n');
    for (String line : report.incFallbacks()) sb.append("# INC fallback: ").append(line).append('\n');
    if (result.ethernet() != null) {
      for (String line : result.ethernet().changes()) sb.append("# Ethernet: ").append(line).append('\n');
    }
    List<String> gaveUp = report.gaveUp();
    for (int i = 0; i < Math.min(MAX_GAVE_UP_LINES, gaveUp.size()); i++) {
      sb.append("# Gave up: ").append(gaveUp.get(i)).append('\n');
    }
    if (gaveUp.size() > MAX_GAVE_UP_LINES) {
      sb.append("# ... and ").append(gaveUp.size() - MAX_GAVE_UP_LINES).append(" more given up\n");
    }
    return sb.toString();
  }

  /**
   * What the I/O nodes and the external Ethernet did, empty without an {@code ethernet} section: a title, one row per
   * I/O node's Ethernet NIC (enabled at the end or not, frames in from its cable, dropped for a bad FCS, sent to the
   * node its table names, broadcast, frames out on its cable, frames dropped while disabled, table entries and how
   * many of them go through a via node), one line per external host (sent, received, wrong payloads), one line for
   * the nodes (kept, discarded, wrong) and the frames lost. The management node's changes are in the fault table
   * ({@link #faults}).
   */
  public static String ethernet(RunResult result) {
    EthernetReport e = result.ethernet();
    if (e == null) return "";
    EthernetSpec spec = result.scenario().ethernet();
    StringBuilder sb = new StringBuilder();
    sb.append("# fabemu ethernet: ").append(plural(spec.ioNodes().size(), "I/O node")).append(", ")
        .append(plural(spec.externalHosts(), "external host")).append(" (cables ")
        .append(formatG(spec.rateBitsPerSecond() / 1e9)).append(" Gb/s + ").append(Units.format(spec.latencyPs()))
        .append(", frames of ").append(spec.frameBytes()).append(" B every ").append(Units.format(spec.intervalPs()))
        .append(")\n");
    sb.append(CNumbers.padRight("# I/O NIC", 12)).append(CNumbers.padRight("State", 10))
        .append(CNumbers.padLeft("In", 8)).append(CNumbers.padLeft("FcsDrop", 9)).append(CNumbers.padLeft("Hits", 8))
        .append(CNumbers.padLeft("Bcast", 8)).append(CNumbers.padLeft("Out", 8))
        .append(CNumbers.padLeft("Disabled", 10)).append(CNumbers.padLeft("Table", 8))
        .append(CNumbers.padLeft("Detoured", 10)).append('\n');
    for (EthernetReport.IoNicCounters n : e.ioNics()) {
      long detoured = n.table().stream().filter(x -> x.via() >= 0).count();
      sb.append(CNumbers.padRight("host" + n.host(), 12))
          .append(CNumbers.padRight(n.enabled() ? "enabled" : "disabled", 10))
          .append(CNumbers.padLeft(Long.toString(n.framesIn()), 8))
          .append(CNumbers.padLeft(Long.toString(n.fcsDrops()), 9))
          .append(CNumbers.padLeft(Long.toString(n.tableHits()), 8))
          .append(CNumbers.padLeft(Long.toString(n.broadcasts()), 8))
          .append(CNumbers.padLeft(Long.toString(n.framesOut()), 8))
          .append(CNumbers.padLeft(Long.toString(n.disabledDrops()), 10))
          .append(CNumbers.padLeft(Integer.toString(n.table().size()), 8))
          .append(CNumbers.padLeft(Long.toString(detoured), 10)).append('\n');
    }
    for (EthernetReport.ExternalHostCounters h : e.externalHosts()) {
      sb.append("# External host ").append(h.index()).append(" (")
          .append(MacAddress.format(MacAddress.ofExternalHost(h.index()))).append("): ").append(h.sent())
          .append(" sent, ").append(h.received()).append(" received, ").append(h.wrong()).append(" wrong\n");
    }
    sb.append("# Nodes: ").append(plural(e.framesKept(), "frame")).append(" kept, ").append(e.framesDiscarded())
        .append(" discarded (not their MAC), ").append(e.framesWrong()).append(" wrong; ")
        .append(e.corruptedSent()).append(" corrupted on the cables, ").append(plural(e.framesLost(), "frame"))
        .append(" lost in the router network");
    if (e.noCableDrops() > 0) sb.append(", ").append(e.noCableDrops()).append(" with no Ethernet NIC enabled");
    sb.append('\n');
    return sb.toString();
  }

  /**
   * A router network's detours, one line per event that changed them or whose detours carried packets: how many
   * (source, destination) pairs go through a via node once it was routed around, the first few, and the packets
   * sent on them.
   */
  private static void detourLines(StringBuilder sb, List<FaultFigures> events, FaultTally t) {
    for (FaultFigures f : events) {
      int id = f.event().id();
      List<String> detours = f.record() == null ? List.of() : f.record().detours();
      long detoured = id < t.eventCount() ? t.detouredPackets(id) : 0;
      if (detours.isEmpty() && detoured == 0) continue;
      sb.append("# Detours after event ").append(id).append(" (").append(f.event().target()).append(' ')
          .append(f.event().action().configName()).append("): ").append(plural(detours.size(), "pair"))
          .append(" through a via node");
      if (!detours.isEmpty()) {
        sb.append(" (").append(String.join(", ", detours.subList(0, Math.min(MAX_DETOURS_SHOWN, detours.size()))));
        if (detours.size() > MAX_DETOURS_SHOWN) sb.append(", ...");
        sb.append(')');
      }
      sb.append(", ").append(plural(detoured, "packet")).append(" sent on them\n");
    }
  }

  /**
   * The cases of the workload's {@code algorithmIndex}-th algorithm and primary buffer layout
   * ({@link WorkloadSpec#primaryBufferIndex}), in size order (what the osu table and the latency plot show).
   */
  public static List<CaseResult> casesOfAlgorithm(RunResult result, int algorithmIndex) {
    WorkloadSpec w = result.scenario().workload();
    return result.cases().stream().filter(c -> w.algorithmIndexOfCase(c.caseIndex()) == algorithmIndex
        && w.bufferIndexOfCase(c.caseIndex()) == w.primaryBufferIndex()).toList();
  }

  /** An osu_allreduce-style table: size, avg/min/max latency over ranks in microseconds, iterations. */
  public static String latencyTable(WorkloadSpec workload, int algorithmIndex, List<CaseResult> cases) {
    StringBuilder sb = new StringBuilder();
    sb.append("# fabemu ").append(workload.collective().configName()).append(" latency, algorithm ")
        .append(algorithmTitle(workload, algorithmIndex, cases)).append('\n');
    sb.append(String.format(Locale.ROOT, "%-10s%18s%18s%18s%12s", "# Size", "Avg Latency(us)",
        "Min Latency(us)", "Max Latency(us)", "Iterations")).append('\n');
    for (CaseResult c : cases) {
      // Rounded as C's printf rounds (OsuFormatter.fixed), so these figures equal the OSU file's digit for digit.
      sb.append(CNumbers.padRight(Long.toString(c.sizeBytes()), 10))
          .append(OsuFormatter.fixed(c.avgLatencyPs() / Units.PS_PER_US, 18))
          .append(OsuFormatter.fixed(c.minLatencyPs() / Units.PS_PER_US, 18))
          .append(OsuFormatter.fixed(c.maxLatencyPs() / Units.PS_PER_US, 18))
          .append(CNumbers.padLeft(Integer.toString(c.iterations()), 12)).append('\n');
    }
    sb.append(incNotes(cases));
    return sb.toString();
  }

  /**
   * For in-network cases that fell back: one comment line per size saying why and what ran instead (under the osu,
   * text and nccl-tests tables alike).
   */
  public static String incNotes(List<CaseResult> cases) {
    StringBuilder sb = new StringBuilder();
    for (CaseResult c : cases) {
      if (c.incOutcome() == null || c.incOutcome() == FailCause.NONE) continue;
      sb.append("# ").append(c.sizeBytes()).append(" B: no INC, ran the host algorithm: ")
          .append(c.incOutcome().description()).append('\n');
    }
    return sb.toString();
  }

  /**
   * The nccl-tests table of the workload's {@code algorithmIndex}-th algorithm, under a title line: the column header,
   * one 13-field row per size (the in-place half when the workload measures {@code in-place} too) and the two footer
   * lines ({@link NcclTestsReport}).
   */
  public static String bandwidthTable(RunResult result, int algorithmIndex) {
    WorkloadSpec w = result.scenario().workload();
    NcclTestsReport.Table table = NcclTestsReport.table(result, algorithmIndex);
    return "# fabemu " + w.collective().configName() + " nccl-tests table ("
        + NcclTestsReport.program(w.collective()) + "), algorithm "
        + algorithmTitle(w, algorithmIndex, casesOfAlgorithm(result, algorithmIndex)) + "\n"
        + NcclTestsReport.columnHeader() + NcclTestsReport.rows(table) + NcclTestsReport.footer(table)
        + incNotes(casesOfAlgorithm(result, algorithmIndex)) + protocolLine(result.scenario(), algorithmIndex);
  }

  /** {@code # protocol ...} and a newline when the cases do not all run Simple at no cost ({@link ProtocolNote}). */
  static String protocolLine(ScenarioSpec spec, int algorithmIndex) {
    // In nccl-tests' sizes, as the table's rows above it.
    String note = ProtocolNote.of(spec, algorithmIndex, ncclBlocks(spec.workload().collective(), ranks(spec)));
    return note.isEmpty() ? "" : "# " + note + "\n";
  }

  /**
   * The OCS controller's lines (docs/optical.md, "The OCS controller"): circuits set up at the start, when the last
   * came up, and how long traffic waited at the optical ports for them (packets held, waits summed, the worst); then
   * one line per policy change: its time and new formula, the circuits torn down and set up, when the last new one
   * came up, and what waited for them ({@link OcsFigures}).
   */
  static String ocsLine(RunResult r) {
    StringBuilder sb = new StringBuilder("# OCS: " + OcsFigures.setUp(r.ocs()));
    for (OcsReport.ChangeCost c : r.ocs().changes()) sb.append("\n# OCS: ").append(OcsFigures.change(r, c));
    return sb.toString();
  }

  /** One line: virtual end, windows, events, event rate in wall time, digest; then a line per problem. */
  public static String summary(RunResult r) {
    String rate = r.wallSeconds() > 0
        ? String.format(Locale.ROOT, "%.0f", r.events() / r.wallSeconds()) : "n/a";
    StringBuilder sb = new StringBuilder();
    sb.append(String.format(Locale.ROOT, "# Run: virtual end %s, %d windows, %d events, %s events/s (wall %.3f s), "
        + "digest %s", Units.format(r.virtualEndPs()), r.windows(), r.events(), rate, r.wallSeconds(),
        r.digest()));
    if (r.faults() != null) {
      // A run with faults: its resends, split, on the line a reader looks at first.
      FaultTally t = r.faults().tally();
      sb.append(", ").append(plural(t.totalLossDrivenResends(), "resend")).append(" after a loss, ")
          .append(t.totalSpuriousResends()).append(" spurious");
    }
    sb.append('\n');
    if (!r.complete()) {
      sb.append("# INCOMPLETE: ").append(r.incompleteReason() == null ? "no reason given" : r.incompleteReason())
          .append('\n');
    }
    if (r.ocs() != null) sb.append(ocsLine(r)).append('\n');
    if (r.checked() && r.wrongElements() > 0) {
      sb.append("# WRONG: ").append(r.wrongElements()).append(" output elements differ from the exact answer\n");
    }
    return sb.toString();
  }

  /** nccl-tests' bus bandwidth factor for {@code ranks} ranks. */
  public static double busBandwidthFactor(Collective collective, int ranks) {
    double n = ranks;
    if (collective == Collective.ALLREDUCE) return 2 * (n - 1) / n;
    if (collective.oneBlockPerRank()) return (n - 1) / n;
    return 1; // reduce, broadcast, sendrecv, barrier
  }

  /**
   * How many workload sizes make nccl-tests' size: {@code ranks} for the collectives whose workload size is one
   * block per rank ({@link Collective#oneBlockPerRank()}: nccl-tests counts the whole buffer), else 1.
   */
  public static int ncclBlocks(Collective collective, int ranks) {
    return collective.oneBlockPerRank() ? ranks : 1;
  }

  /**
   * The bytes one operation of {@code c} moves as nccl-tests counts them: the size times {@link #ncclBlocks}, and for
   * send/recv's {@code window} (osu_bw's stream) times the window, since one timed operation sends that many messages.
   */
  public static long algorithmBytes(WorkloadSpec workload, CaseResult c, int ranks) {
    long bytes = c.sizeBytes() * ncclBlocks(workload.collective(), ranks);
    return c.algorithm() == Algorithm.WINDOW ? bytes * workload.window() : bytes;
  }

  /** {@code size / time} in GB/s (10^9 bytes per second); 0 when the time is 0. */
  public static double algBandwidthGBps(long sizeBytes, double timePs) {
    // bytes / (ps * 1e-12 s) / 1e9 = bytes * 1000 / ps
    return timePs > 0 ? sizeBytes * 1000.0 / timePs : 0;
  }

  /** Ranks of the scenario: hosts x processes per host. */
  public static int ranks(ScenarioSpec spec) {
    return spec.topology().hosts() * spec.workload().ppn();
  }

  /** C's {@code %g}: 6 significant digits, trailing zeros dropped, exponent form below 1e-4 or from 1e6. */
  static String formatG(double v) {
    return CNumbers.g(v);
  }

  private static String algorithmTitle(WorkloadSpec workload, int algorithmIndex, List<CaseResult> cases) {
    Algorithm asked = workload.algorithms().get(algorithmIndex);
    String title = asked.configName();
    if (asked == Algorithm.AUTO) {
      String resolved = cases.stream().map(c -> c.algorithm().configName()).distinct()
          .collect(Collectors.joining(", "));
      if (!resolved.isEmpty()) title += " (" + resolved + ")";
    }
    return workload.hierarchical() ? title + ", hierarchical" : title;
  }

  private static String plural(long n, String noun) {
    return n + " " + noun + (n == 1 ? "" : "s");
  }
}
