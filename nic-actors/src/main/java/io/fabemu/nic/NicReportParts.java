package io.fabemu.nic;

import io.fabemu.core.ethernet.EthernetReport;
import io.fabemu.core.fault.FaultReport;
import io.fabemu.core.fault.FaultTally;
import io.fabemu.core.traffic.TrafficStats;
import java.util.ArrayList;
import java.util.List;

/**
 * The parts of a NIC's device report that its extensions add ({@link NicExtension#report}), gathered once at the end
 * of a run: the reliable transport's fault tally and given-up messages, INC's given-up tasks and broken groups, the
 * Ethernet counters and the synthetic traffic's measurements. A part nobody adds is absent from the report.
 */
public final class NicReportParts {
  private FaultTally faultTally;
  private final List<String> transportGaveUp = new ArrayList<>();
  private final List<String> incGaveUp = new ArrayList<>();
  private final List<String> incFallbacks = new ArrayList<>();
  private TrafficStats traffic;
  private EthernetReport ethernet;

  /** A run with faults: what the NIC's links counted and the messages the transport gave up on. */
  public void faults(FaultTally tally, List<String> gaveUp) {
    this.faultTally = tally;
    transportGaveUp.addAll(gaveUp);
  }

  /** INC tasks given up on and groups broken, reported with the faults (if the run has any). */
  public void inc(List<String> gaveUp, List<String> fallbacks) {
    incGaveUp.addAll(gaveUp);
    incFallbacks.addAll(fallbacks);
  }

  public void traffic(TrafficStats stats) {
    this.traffic = stats;
  }

  public void ethernet(EthernetReport report) {
    this.ethernet = report;
  }

  /** The fault report: null in a run without faults. */
  public FaultReport faultReport() {
    if (faultTally == null) return null;
    List<String> gaveUp = new ArrayList<>(transportGaveUp);
    gaveUp.addAll(incGaveUp);
    return new FaultReport(faultTally, List.of(), null, gaveUp, List.copyOf(incFallbacks));
  }

  public TrafficStats traffic() {
    return traffic;
  }

  public EthernetReport ethernet() {
    return ethernet;
  }
}
