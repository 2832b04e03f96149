package io.fabemu.engine;

import io.fabemu.core.sim.DeviceReport;
import io.fabemu.core.sim.DeviceReport.LinkCounters;
import io.fabemu.core.sim.DeviceReport.RankResult;
import java.util.ArrayList;
import java.util.List;

/**
 * A cheap upper estimate of a device report's serialized size, to cut a member's reports into messages below
 * Artery's frame size ({@link MemberScheduler#MAX_BATCH_BYTES}), as {@link EventSizes} does for events. What grows
 * with a run or its scenario is counted: the links' busy periods (three longs each), the ranks' per-iteration arrays,
 * the fault tally's per-event counters and records, the traffic latencies, the Ethernet and OCS lists; everything
 * else is a generous constant.
 */
final class ReportSizes {
  /** The report's own fields, its faults, Ethernet and traffic parts and Kryo's framing: generous. */
  private static final long FIXED_BYTES = 4_096L;
  private static final long PER_LINK_BYTES = 64L;
  private static final long PER_RANK_BYTES = 128L;

  private ReportSizes() {}

  static long estimate(DeviceReport report) {
    long bytes = FIXED_BYTES + 32L * report.virtualChannels().size();
    // a fault tally keeps six longs per fault event (and one for what no event caused); its records and messages
    // are lines of text
    if (report.faults() != null) {
      bytes += 48L * (report.faults().tally().eventCount() + 1) + 256L * (report.faults().records().size()
          + report.faults().gaveUp().size() + report.faults().incFallbacks().size());
    }
    // the latency of every measured packet (its array may hold up to twice as many slots)
    if (report.traffic() != null) bytes += 16L * report.traffic().measuredPacketsArrived();
    if (report.ethernet() != null) {
      bytes += 256L * (report.ethernet().ioNics().size() + report.ethernet().externalHosts().size()
          + report.ethernet().changes().size());
    }
    if (report.ocs() != null) bytes += 128L * report.ocs().changes().size();
    for (LinkCounters l : report.links()) bytes += PER_LINK_BYTES + 24L * l.busy().periods();
    for (RankResult r : report.ranks()) {
      bytes += PER_RANK_BYTES + 8L * (r.iterationLatenciesPs().length + r.iterationStartsPs().length
          + r.partEndsPs().length);
    }
    return bytes;
  }

  /**
   * Cuts {@code reports} into consecutive chunks of about {@code maxBytes} estimated bytes each (a larger report gets
   * a chunk of its own); at least one chunk, empty when there are no reports.
   */
  static List<ArrayList<DeviceReport>> chunks(List<DeviceReport> reports, long maxBytes) {
    List<ArrayList<DeviceReport>> chunks = MemberScheduler.chunks(reports, Integer.MAX_VALUE, maxBytes,
        ReportSizes::estimate);
    if (chunks.isEmpty()) chunks.add(new ArrayList<>());
    return chunks;
  }
}
