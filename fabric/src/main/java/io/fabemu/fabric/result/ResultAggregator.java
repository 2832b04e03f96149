package io.fabemu.fabric.result;

import io.fabemu.collectives.Algorithm;
import io.fabemu.collectives.Collective;
import io.fabemu.collectives.Schedules;
import io.fabemu.collectives.WorkloadSpec;
import io.fabemu.core.ethernet.AddressTable;
import io.fabemu.core.ethernet.EthernetReport;
import io.fabemu.core.ethernet.MacAddress;
import io.fabemu.core.fault.FaultRecord;
import io.fabemu.core.fault.FaultReport;
import io.fabemu.core.optical.OcsReport;
import io.fabemu.core.fault.FaultTally;
import io.fabemu.core.inc.IncCodes.FailCause;
import io.fabemu.core.sim.DeviceReport.LinkCounters;
import io.fabemu.core.sim.DeviceReport.RankResult;
import io.fabemu.core.sim.DeviceReport;
import io.fabemu.fabric.ScenarioSpec;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.List;

/**
 * Turns the devices' reports into a {@link RunResult}: osu-style per-case figures, sorted link counters, and a
 * SHA-256 digest over everything that virtual time determines (the payload mode, per-rank results, link counters,
 * the end time). Wall-clock figures stay out of the digest, so equal digests mean equal emulations. Cases of a
 * synthetic payload are marked not {@link CaseResult#checked() checked}.
 *
 * <p>The {@code virtualEndPs} of a finished run is the time of the last event any device handled (the engines'
 * {@code lastEventTimePs}), which does not depend on how the engine cut time into windows or over how many members
 * it ran; a run cut short passes the end of the last window every member completed.
 *
 * <p>A case's avg/min/max are taken over the per-rank mean latencies of the ranks that measure the operation:
 * every rank for the collectives (and send/recv over a ring); for {@link Collective#SENDRECV} ping-pong and window
 * only the initiators, the even ranks {@code 2i} that have a partner {@code 2i+1}: like osu_latency and osu_bw, the
 * round trip or the window with its acknowledgement, timed at the initiator. The responders' figures and the idle
 * last rank of an odd world (0) would mix other quantities in. Wrong elements are summed over all ranks.
 */
public final class ResultAggregator {
  private ResultAggregator() {}

  public static RunResult aggregate(ScenarioSpec spec, int worldSize, List<DeviceReport> reports, long virtualEndPs,
                                    long windows, long events, double wallSeconds) {
    return aggregate(spec, worldSize, reports, virtualEndPs, windows, events, wallSeconds, null);
  }

  /**
   * Like {@link #aggregate(ScenarioSpec, int, List, long, long, long, double)}, for a run that was cut short:
   * when {@code cutShortReason} is not null the result is never complete, whatever the reports hold, and its
   * {@code incompleteReason} starts with {@code cutShortReason} (then says how many cases every rank finished).
   * Only the cases every rank finished are reported, as always.
   */
  public static RunResult aggregate(ScenarioSpec spec, int worldSize, List<DeviceReport> reports, long virtualEndPs,
                                    long windows, long events, double wallSeconds, String cutShortReason) {
    WorkloadSpec workload = spec.workload();
    List<RankResult> rankResults = new ArrayList<>();
    List<LinkCounters> links = new ArrayList<>();
    List<FaultReport> faultParts = new ArrayList<>();
    List<EthernetReport> ethernetParts = new ArrayList<>();
    List<OcsReport> ocsParts = new ArrayList<>();
    for (DeviceReport report : reports) {
      rankResults.addAll(report.ranks());
      links.addAll(report.links());
      FaultReport faultPart = report.part(FaultReport.class);
      if (faultPart != null) faultParts.add(faultPart);
      EthernetReport ethernetPart = report.part(EthernetReport.class);
      if (ethernetPart != null) ethernetParts.add(ethernetPart);
      OcsReport ocsPart = report.part(OcsReport.class);
      if (ocsPart != null) ocsParts.add(ocsPart);
    }
    // Only the OCS controller's runs have a part (a delay of 0 leaves the result as it was).
    OcsReport ocs = ocsParts.isEmpty() ? null : OcsReport.merge(ocsParts);
    // A fault plan's baseline (active, no events) reports its transport's counts too: what it resent, and gave up on.
    FaultReport faults = spec.faults().isActive() ? FaultReport.merge(faultParts, spec.faults().eventCount()) : null;
    EthernetReport ethernet = spec.ethernet() == null ? null : EthernetReport.merge(ethernetParts);
    rankResults.sort(Comparator.comparingInt(RankResult::caseIndex).thenComparingInt(RankResult::rank));
    links.sort(Comparator.comparingInt(LinkCounters::fromDevice).thenComparingInt(LinkCounters::toDevice));

    List<CaseResult> cases = new ArrayList<>();
    String incompleteReason = null;
    int index = 0;
    for (int c = 0; c < workload.caseCount(); c++) {
      int start = index;
      while (index < rankResults.size() && rankResults.get(index).caseIndex() == c) index++;
      List<RankResult> ofCase = rankResults.subList(start, index);
      if (ofCase.size() < worldSize) {
        if (incompleteReason == null) {
          incompleteReason = (worldSize - ofCase.size()) + " of " + worldSize + " ranks did not finish case " + c
              + " (" + workload.algorithmOfCase(c).configName() + (workload.inPlaceOfCase(c) ? ", in-place" : "")
              + ", " + workload.sizeOfCase(c) + " B): the emulation stalled at virtual time " + virtualEndPs + " ps";
        }
        continue;
      }
      cases.add(caseResult(spec, worldSize, c, ofCase));
    }
    if (incompleteReason != null && faults != null) {
      // A run that faults left unfinished: what cut it short says more than which ranks waited.
      if (faults.partition() != null) {
        incompleteReason = faults.partition();
      } else if (!faults.gaveUp().isEmpty()) {
        incompleteReason = faults.gaveUp().get(0) + (faults.gaveUp().size() > 1
            ? " (and " + (faults.gaveUp().size() - 1) + " more messages)" : "");
      } else if (spec.devices().inc() != null
          && spec.workload().algorithms().stream().anyMatch(a -> a.inNetwork())) {
        incompleteReason += " (a failure that hits an INC case's setup or release, whose control packets are not "
            + "resent, or the tree of a pipelined INC case of 64 KiB or more, is not recovered yet)";
      }
    }
    if (cutShortReason != null) {
      incompleteReason = cutShortReason + "; " + cases.size() + " of " + workload.caseCount()
          + " case(s) were finished by every rank";
    }
    String digest = digest(spec, rankResults, links, virtualEndPs, faults, ethernet);
    return RunResult.builder(spec).cases(cases).links(links).complete(incompleteReason == null)
        .incompleteReason(incompleteReason).virtualEndPs(virtualEndPs).windows(windows).events(events)
        .wallSeconds(wallSeconds).digest(digest).part(faults).part(ethernet).part(ocs).build();
  }

  /**
   * One case's figures: avg/min/max over the per-rank mean latencies of the measuring ranks (for sendrecv the
   * ping-pong initiators only, whose figure is the round trip, as osu_latency measures it; see the class comment),
   * wrong elements over all ranks.
   */
  private static CaseResult caseResult(ScenarioSpec spec, int worldSize, int caseIndex, List<RankResult> ofCase) {
    WorkloadSpec workload = spec.workload();
    long sizeBytes = workload.sizeOfCase(caseIndex);
    int count = (int) (sizeBytes / Schedules.elementBytes(workload.collective(), workload.dataType(), workload.op()));
    Algorithm algorithm = Schedules.resolveForCase(workload, caseIndex, worldSize);
    double sum = 0;
    double min = Double.MAX_VALUE;
    double max = 0;
    long wrong = 0;
    int measuring = 0;
    double[] rankMeans = new double[ofCase.size()];
    int iterations = ofCase.get(0).iterationLatenciesPs().length;
    double[] iterationSums = new double[iterations];
    int incOutcome = ofCase.get(0).incOutcome();
    // Ping-pong and the window pair rank 2j with 2j+1, and the even rank times the operation (osu_latency's and
    // osu_bw's initiator); the ring's ranks all measure their own exchange.
    boolean pairwise = workload.collective() == Collective.SENDRECV
        && (algorithm == Algorithm.PING_PONG || algorithm == Algorithm.WINDOW) && worldSize >= 2;
    for (RankResult r : ofCase) {
      wrong += r.wrongElements();
      if (r.incOutcome() != incOutcome) {
        throw new IllegalStateException("case " + caseIndex + ": rank " + r.rank() + " ended its INC setup with "
            + r.incOutcome() + ", rank " + ofCase.get(0).rank() + " with " + incOutcome);
      }
      if (pairwise && !isPingPongInitiator(r.rank(), worldSize)) {
        continue;
      }
      double mean = r.iterations() == 0 ? 0 : r.totalLatencyPs() / (double) r.iterations();
      sum += mean;
      min = Math.min(min, mean);
      max = Math.max(max, mean);
      rankMeans[measuring] = mean;
      long[] perIteration = r.iterationLatenciesPs();
      if (perIteration.length != iterations) iterations = -1; // some rank did not report them: none are shown
      for (int i = 0; i < iterations; i++) iterationSums[i] += perIteration[i];
      measuring++;
    }
    double[] iterationMeans = new double[Math.max(0, iterations)];
    for (int i = 0; i < iterationMeans.length; i++) iterationMeans[i] = iterationSums[i] / measuring;
    long[][] intervals = iterationIntervals(ofCase);
    long[] partEnds = partEnds(ofCase, intervals[0]);
    long[] caseInterval = caseInterval(ofCase);
    return CaseResult.builder(caseIndex, algorithm, sizeBytes, count, workload.iterations())
        .avgLatencyPs(sum / measuring).minLatencyPs(min).maxLatencyPs(max).wrongElements(wrong)
        .checked(!workload.syntheticOfCase(caseIndex)).incOutcome(incOutcome < 0 ? null : FailCause.ofCode(incOutcome))
        .rankLatenciesPs(Arrays.copyOf(rankMeans, measuring)).iterationLatenciesPs(iterationMeans)
        .iterationStartsPs(intervals[0]).iterationEndsPs(intervals[1]).partEndsPs(partEnds).startPs(caseInterval[0])
        .endPs(caseInterval[1]).build();
  }

  /**
   * The case's interval over every rank, warm-up included: the first rank's start and the last rank's end
   * ({@code [start, end]}); {@code [-1, -1]} when a rank did not report its own.
   */
  private static long[] caseInterval(List<RankResult> ofCase) {
    long start = Long.MAX_VALUE;
    long end = Long.MIN_VALUE;
    for (RankResult r : ofCase) {
      if (!r.caseTimed()) return new long[] {-1, -1};
      start = Math.min(start, r.caseStartPs());
      end = Math.max(end, r.caseEndPs());
    }
    return new long[] {start, end};
  }

  /**
   * Per measured iteration, the collective's interval over every rank (not only the measuring ones): the first
   * start and the last completion ({@code [starts, ends]}); both empty when a rank did not report its starts.
   */
  private static long[][] iterationIntervals(List<RankResult> ofCase) {
    int iterations = ofCase.get(0).iterationStartsPs().length;
    long[] starts = new long[iterations];
    long[] ends = new long[iterations];
    Arrays.fill(starts, Long.MAX_VALUE);
    for (RankResult r : ofCase) {
      long[] rankStarts = r.iterationStartsPs();
      long[] latencies = r.iterationLatenciesPs();
      if (rankStarts.length != iterations || latencies.length != iterations) return new long[][] {null, null};
      for (int i = 0; i < iterations; i++) {
        starts[i] = Math.min(starts[i], rankStarts[i]);
        ends[i] = Math.max(ends[i], rankStarts[i] + latencies[i]);
      }
    }
    return new long[][] {starts, ends};
  }

  /**
   * For an operation cut into parts (a pipeline iteration), per part its mean end over the measured iterations, after
   * the iteration's start: per iteration, from the first rank's start to the last rank's end of the part, so that
   * every part has the iteration's one origin. Empty for the collectives, or when the ranks did not report it.
   */
  private static long[] partEnds(List<RankResult> ofCase, long[] iterationStarts) {
    if (iterationStarts == null || iterationStarts.length == 0) return new long[0];
    int iterations = iterationStarts.length;
    int parts = ofCase.get(0).partEndsPs().length / iterations;
    long[] sums = new long[parts];
    for (int i = 0; i < iterations; i++) {
      for (int part = 0; part < parts; part++) {
        long end = Long.MIN_VALUE;
        for (RankResult r : ofCase) {
          if (r.partEndsPs().length != iterations * parts) return new long[0];
          end = Math.max(end, r.partEndsPs()[i * parts + part]);
        }
        sums[part] += end - iterationStarts[i];
      }
    }
    long[] means = new long[parts];
    for (int part = 0; part < parts; part++) means[part] = sums[part] / iterations;
    return means;
  }

  /** True for a ping-pong initiator: an even rank with a partner (the last rank of an odd world idles). */
  private static boolean isPingPongInitiator(int rank, int worldSize) {
    return (rank & 1) == 0 && rank + 1 < worldSize;
  }

  private static String digest(ScenarioSpec spec, List<RankResult> ranks, List<LinkCounters> links, long endPs,
                               FaultReport faults, EthernetReport ethernet) {
    MessageDigest sha;
    try {
      sha = MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is missing from this JVM", e);
    }
    StringBuilder line = new StringBuilder(128);
    // The payload mode is part of what was emulated: a synthetic run never has the digest of a real one.
    // v3: "end" is the time of the last event handled (v2 had the start of the engine's last window, which
    // depends on how the run was cut into windows, so differed between member counts once members sub-window).
    line.append("fabemu-digest-v3 seed=").append(spec.seed()).append(" payload=")
        .append(spec.workload().payloadName()).append(" end=").append(endPs).append('\n');
    update(sha, line);
    for (RankResult r : ranks) {
      line.append("rank ").append(r.rank()).append(' ').append(r.caseIndex()).append(' ').append(r.iterations())
          .append(' ').append(r.totalLatencyPs()).append(' ').append(r.minLatencyPs()).append(' ')
          .append(r.maxLatencyPs()).append(' ').append(r.wrongElements());
      // Only in-network cases add their outcome, so the digests of every other run stay what they were.
      if (r.incOutcome() >= 0) line.append(" inc ").append(r.incOutcome());
      line.append('\n');
      update(sha, line);
    }
    for (LinkCounters l : links) {
      line.append("link ").append(l.fromDevice()).append(' ').append(l.toDevice()).append(' ').append(l.bytes())
          .append(' ').append(l.packets()).append(' ').append(l.busyPs());
      if (l.droppedPackets() > 0) line.append(" dropped ").append(l.droppedPackets());
      line.append('\n');
      update(sha, line);
    }
    if (faults != null) {
      // Only runs with faults add these lines, so the digests of every other run stay what they were.
      FaultTally tally = faults.tally();
      for (int e = -1; e < tally.eventCount(); e++) {
        FaultRecord r = e < 0 ? null : faults.recordOf(e);
        line.append("fault ").append(e).append(" lost ").append(tally.lostPackets(e)).append(" corrupted ")
            .append(tally.corruptedPackets(e)).append(" resent ").append(tally.resentMessages(e));
        // Only when some were, so the digests of runs without spurious resends keep their form.
        if (tally.spuriousResends(e) > 0) line.append(" spurious ").append(tally.spuriousResends(e));
        if (r != null) {
          line.append(" detected ").append(r.detectedPs()).append(" by ").append(r.reporterDevice())
              .append(" rerouted ").append(r.rerouteCompletePs()).append(" updates ").append(r.devicesUpdated());
          // Router networks only, so the digests of faulted switched runs stay what they were.
          if (!r.detours().isEmpty()) line.append(" detours ").append(String.join(",", r.detours()));
        }
        if (tally.detouredPackets(e) > 0) line.append(" detoured ").append(tally.detouredPackets(e));
        line.append('\n');
        update(sha, line);
      }
      line.append("faults duplicates ").append(tally.duplicatesDiscarded()).append(" partition ")
          .append(faults.partition()).append('\n');
      update(sha, line);
      for (String gaveUp : faults.gaveUp()) {
        line.append("gave up ").append(gaveUp).append('\n');
        update(sha, line);
      }
      // Only runs whose INC groups a fault broke add these, so other faulted runs keep their digests too.
      for (String fallback : faults.incFallbacks()) {
        line.append("inc fallback ").append(fallback).append('\n');
        update(sha, line);
      }
    }
    if (ethernet != null) {
      // Only scenarios with I/O nodes add these lines, so the digests of every other run stay what they were.
      for (EthernetReport.IoNicCounters n : ethernet.ioNics()) {
        line.append("ethernet nic ").append(n.host()).append(n.enabled() ? " enabled" : " disabled").append(" in ")
            .append(n.framesIn()).append(" fcs ").append(n.fcsDrops()).append(" hits ").append(n.tableHits())
            .append(" broadcasts ").append(n.broadcasts()).append(" out ").append(n.framesOut()).append(" disabled ")
            .append(n.disabledDrops()).append(" table");
        for (AddressTable.Entry e : n.table()) {
          line.append(' ').append(MacAddress.format(e.mac())).append('=').append(e.node()).append('/')
              .append(e.via());
        }
        line.append('\n');
        update(sha, line);
      }
      for (EthernetReport.ExternalHostCounters h : ethernet.externalHosts()) {
        line.append("ethernet host ").append(h.index()).append(" sent ").append(h.sent()).append(" received ")
            .append(h.received()).append(" wrong ").append(h.wrong()).append('\n');
        update(sha, line);
      }
      line.append("ethernet nodes kept ").append(ethernet.framesKept()).append(" discarded ")
          .append(ethernet.framesDiscarded()).append(" wrong ").append(ethernet.framesWrong()).append(" routed ")
          .append(ethernet.routedSent()).append(" arrived ").append(ethernet.routedArrived()).append(" corrupted ")
          .append(ethernet.corruptedSent()).append(" no-cable ").append(ethernet.noCableDrops()).append('\n');
      update(sha, line);
      for (String change : ethernet.changes()) {
        line.append("ethernet change ").append(change).append('\n');
        update(sha, line);
      }
    }
    return HexFormat.of().formatHex(sha.digest());
  }

  private static void update(MessageDigest sha, StringBuilder line) {
    sha.update(line.toString().getBytes(StandardCharsets.US_ASCII));
    line.setLength(0);
  }
}
