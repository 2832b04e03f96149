package io.fabemu.core.fault;

import io.fabemu.core.sim.ReportPart;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * A device's part of a faulted run's results: its tally, and for the management node its record of every detected
 * event and the partition it saw last. {@link #merge} makes the run's report of all devices' parts.
 *
 * @param tally      what the device counted (for the run: every device summed)
 * @param records    the management node's records, by event id (empty for other devices)
 * @param partition  the partition the management node saw when the run ended, one line; null when every live rank
 *                   could reach every other
 * @param gaveUp     messages a NIC stopped retransmitting, one line each (for the run: every NIC's, in time order)
 * @param incFallbacks INC groups a fault broke, one line each saying what broke the tree and what the group did
 *                   instead (for the run: every NIC's, in time order)
 */
public record FaultReport(FaultTally tally, List<FaultRecord> records, String partition, List<String> gaveUp,
                          List<String> incFallbacks) implements ReportPart {

  /** Six longs per fault event of the tally (and one set for what no event caused); a line of text per message. */
  @Override
  public long wireBytesEstimate() {
    return 48L * (tally.eventCount() + 1) + 256L * (records.size() + gaveUp.size() + incFallbacks.size());
  }

  public FaultReport {
    records = List.copyOf(records);
    gaveUp = List.copyOf(gaveUp);
    incFallbacks = List.copyOf(incFallbacks);
  }

  /** A report without INC fallbacks (a device that hosts no INC group's leaders, or a run without INC). */
  public FaultReport(FaultTally tally, List<FaultRecord> records, String partition, List<String> gaveUp) {
    this(tally, records, partition, gaveUp, List.of());
  }

  /** The run's report: tallies summed, records and lines gathered (sorted, so the order of reports is irrelevant). */
  public static FaultReport merge(List<FaultReport> parts, int eventCount) {
    FaultTally tally = new FaultTally(eventCount);
    List<FaultRecord> records = new ArrayList<>();
    List<String> gaveUp = new ArrayList<>();
    List<String> incFallbacks = new ArrayList<>();
    String partition = null;
    for (FaultReport part : parts) {
      tally = tally.plus(part.tally());
      records.addAll(part.records());
      gaveUp.addAll(part.gaveUp());
      incFallbacks.addAll(part.incFallbacks());
      if (part.partition() != null) partition = part.partition();
    }
    records.sort(Comparator.comparingInt(FaultRecord::eventId));
    // In time order (then as text): the first line is the first message given up on.
    gaveUp.sort(Comparator.comparingDouble(FaultReport::microsecondsOf).thenComparing(Comparator.naturalOrder()));
    incFallbacks.sort(Comparator.comparingDouble(FaultReport::microsecondsOf)
        .thenComparing(Comparator.naturalOrder()));
    return new FaultReport(tally, records, partition, gaveUp, incFallbacks);
  }

  /**
   * The time a gave-up or INC fallback line ends with ({@code "..., at 715.800 us"}), in microseconds; 0 when it
   * has none.
   */
  private static double microsecondsOf(String gaveUpLine) {
    int at = gaveUpLine.lastIndexOf(" at ");
    if (at < 0 || !gaveUpLine.endsWith(" us")) return 0;
    try {
      return Double.parseDouble(gaveUpLine.substring(at + 4, gaveUpLine.length() - 3));
    } catch (NumberFormatException e) {
      return 0;
    }
  }

  /** The management node's record of event {@code eventId}, or null when it has none. */
  public FaultRecord recordOf(int eventId) {
    for (FaultRecord r : records) {
      if (r.eventId() == eventId) return r;
    }
    return null;
  }
}
