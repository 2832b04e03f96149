package io.fabemu.core.ethernet;

import io.fabemu.core.sim.ReportPart;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * A device's part of what the I/O nodes and the external Ethernet did (and, merged, the run's): the I/O NICs'
 * counters and final tables, the external hosts', the nodes' and the management node's changes.
 *
 * @param ioNics          per I/O NIC (its host's NIC reports it), by host
 * @param externalHosts   per external host (the external device reports them), by index
 * @param framesKept      frames nodes kept (their own MAC, payload checked)
 * @param framesDiscarded frames nodes discarded (another node's MAC: broadcasts)
 * @param framesWrong     frames a node kept whose payload was not what was sent
 * @param routedSent      frames put into the router network (to an I/O node, or from one to a node; each broadcast
 *                        copy counts), cut-off ones included
 * @param routedArrived   of those, the ones that came out at their destination NIC
 * @param corruptedSent   frames the external device corrupted (a bad FCS) before sending them
 * @param noCableDrops    inbound frames the external device could not send: no Ethernet NIC was enabled
 * @param changes         the management node's changes of enabled Ethernet NICs, one line each, in time order
 */
public record EthernetReport(List<IoNicCounters> ioNics, List<ExternalHostCounters> externalHosts, long framesKept,
                             long framesDiscarded, long framesWrong, long routedSent, long routedArrived,
                             long corruptedSent, long noCableDrops, List<String> changes) implements ReportPart {

  /** Its lists of counters and of change lines, generously. */
  @Override
  public long wireBytesEstimate() {
    return 256L * (ioNics.size() + externalHosts.size() + changes.size());
  }

  public EthernetReport {
    ioNics = List.copyOf(ioNics);
    externalHosts = List.copyOf(externalHosts);
    changes = List.copyOf(changes);
  }

  /** A report of nothing. */
  public static EthernetReport empty() {
    return new EthernetReport(List.of(), List.of(), 0, 0, 0, 0, 0, 0, 0, List.of());
  }

  /**
   * An I/O node's Ethernet NIC.
   *
   * @param framesIn      frames that came in on its cable
   * @param fcsDrops      of those, dropped for a bad FCS
   * @param tableHits     inbound frames whose destination MAC was in the table (sent to one node)
   * @param broadcasts    inbound frames broadcast to every node (unknown MAC)
   * @param framesOut     frames it sent on its cable (outbound)
   * @param disabledDrops frames it dropped while disabled (either way)
   * @param table         its final address table
   */
  public record IoNicCounters(int host, boolean enabled, long framesIn, long fcsDrops, long tableHits,
                              long broadcasts, long framesOut, long disabledDrops, List<AddressTable.Entry> table) {
    public IoNicCounters {
      table = List.copyOf(table);
    }
  }

  /** An external host: frames it sent, frames it received, and received frames whose payload was wrong. */
  public record ExternalHostCounters(int index, long sent, long received, long wrong) {}

  /** Frames put into the router network that never came out (a failure lost them, or none reached the node). */
  public long framesLost() {
    return routedSent - routedArrived;
  }

  /** The run's report: counters summed, lists gathered and sorted. */
  public static EthernetReport merge(List<EthernetReport> parts) {
    List<IoNicCounters> nics = new ArrayList<>();
    List<ExternalHostCounters> hosts = new ArrayList<>();
    List<String> changes = new ArrayList<>();
    long kept = 0;
    long discarded = 0;
    long wrong = 0;
    long sent = 0;
    long arrived = 0;
    long corrupted = 0;
    long noCable = 0;
    for (EthernetReport p : parts) {
      nics.addAll(p.ioNics());
      hosts.addAll(p.externalHosts());
      changes.addAll(p.changes());
      kept += p.framesKept();
      discarded += p.framesDiscarded();
      wrong += p.framesWrong();
      sent += p.routedSent();
      arrived += p.routedArrived();
      corrupted += p.corruptedSent();
      noCable += p.noCableDrops();
    }
    nics.sort(Comparator.comparingInt(IoNicCounters::host));
    hosts.sort(Comparator.comparingInt(ExternalHostCounters::index));
    return new EthernetReport(nics, hosts, kept, discarded, wrong, sent, arrived, corrupted, noCable, changes);
  }
}
