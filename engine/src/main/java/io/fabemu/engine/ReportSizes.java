package io.fabemu.engine;

import io.fabemu.core.sim.DeviceReport;
import io.fabemu.core.sim.DeviceReport.LinkCounters;
import io.fabemu.core.sim.DeviceReport.RankResult;
import io.fabemu.core.sim.ReportPart;
import java.util.ArrayList;
import java.util.List;

/**
 * A cheap upper estimate of a device report's serialized size, to cut a member's reports into messages below
 * Artery's frame size ({@link MemberScheduler#MAX_BATCH_BYTES}), as {@link EventSizes} does for events. What grows
 * with a run or its scenario is counted: the links' busy periods (three longs each), the ranks' per-iteration arrays,
 * and what each feature's part says grows in it ({@link ReportPart#wireBytesEstimate}: the fault tally's per-event
 * counters and records, the traffic latencies, the Ethernet and OCS lists); everything else is a generous constant.
 */
final class ReportSizes {
  /** The report's own fields, the fixed fields of its parts and Kryo's framing: generous. */
  private static final long FIXED_BYTES = 4_096L;
  private static final long PER_LINK_BYTES = 64L;
  private static final long PER_RANK_BYTES = 128L;

  private ReportSizes() {}

  static long estimate(DeviceReport report) {
    long bytes = FIXED_BYTES + 32L * report.virtualChannels().size();
    // each feature's part counts what grows in it (a fault tally's per-event counters, traffic latencies, lists)
    for (ReportPart part : report.parts()) bytes += part.wireBytesEstimate();
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
