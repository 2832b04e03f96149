package io.fabemu.core.fault;

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
 * @param gaveUp     messages a NIC stopped retransmitting, one line each (for the run: every NIC's, sorted)
 */
public record FaultReport(FaultTally tally, List<FaultRecord> records, String partition, List<String> gaveUp) {

  public FaultReport {
    records = List.copyOf(records);
    gaveUp = List.copyOf(gaveUp);
  }

  /** The run's report: tallies summed, records and lines gathered (sorted, so the order of reports is irrelevant). */
  public static FaultReport merge(List<FaultReport> parts, int eventCount) {
    FaultTally tally = new FaultTally(eventCount);
    List<FaultRecord> records = new ArrayList<>();
    List<String> gaveUp = new ArrayList<>();
    String partition = null;
    for (FaultReport part : parts) {
      tally = tally.plus(part.tally());
      records.addAll(part.records());
      gaveUp.addAll(part.gaveUp());
      if (part.partition() != null) partition = part.partition();
    }
    records.sort(Comparator.comparingInt(FaultRecord::eventId));
    gaveUp.sort(null);
    return new FaultReport(tally, records, partition, gaveUp);
  }

  /** The management node's record of event {@code eventId}, or null when it has none. */
  public FaultRecord recordOf(int eventId) {
    for (FaultRecord r : records) {
      if (r.eventId() == eventId) return r;
    }
    return null;
  }
}
