package io.fabemu.app.report;

import io.fabemu.core.ethernet.AddressTable;
import io.fabemu.core.ethernet.EthernetReport;
import io.fabemu.core.ethernet.MacAddress;
import io.fabemu.core.routing.DetourTable;
import io.fabemu.core.topology.Topology;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * What the I/O nodes and the external Ethernet did (only in the report of a scenario with an {@code ethernet}
 * section): a row per I/O node's Ethernet NIC (the table {@code fabemu run} prints), a row per external host, the
 * nodes' frames and the frames lost, the management node's changes, and each NIC's final address table with its via
 * nodes.
 */
final class EthernetSection implements ReportSection {
  private final EthernetReport report;
  private final Topology topology;

  /**
   * @param report   what the I/O nodes and the external Ethernet did
   * @param topology the fabric, for the nodes' names; may be null (nodes then named by id)
   */
  EthernetSection(EthernetReport report, Topology topology) {
    this.report = report;
    this.topology = topology;
  }

  @Override
  public String id() {
    return "ethernet";
  }

  @Override
  public String title() {
    return "I/O nodes and the external Ethernet";
  }

  @Override
  public void render(Markup out) {
    out.element("h3", "Ethernet NICs").newline();
    List<List<String>> rows = new ArrayList<>();
    for (EthernetReport.IoNicCounters n : report.ioNics()) {
      rows.add(List.of(name(n.host()), n.enabled() ? "enabled" : "disabled", Long.toString(n.framesIn()),
          Long.toString(n.fcsDrops()), Long.toString(n.tableHits()), Long.toString(n.broadcasts()),
          Long.toString(n.framesOut()), Long.toString(n.disabledDrops()), Integer.toString(n.table().size())));
    }
    Tables.table(out, List.of("I/O node", "State", "Frames in", "FCS drops", "Table hits", "Broadcasts",
        "Frames out", "Disabled drops", "Table entries"), rows, Set.of(2, 3, 4, 5, 6, 7, 8));
    out.element("h3", "External hosts").newline();
    List<List<String>> hosts = new ArrayList<>();
    for (EthernetReport.ExternalHostCounters h : report.externalHosts()) {
      hosts.add(List.of(MacAddress.format(MacAddress.ofExternalHost(h.index())), Long.toString(h.sent()),
          Long.toString(h.received()), Long.toString(h.wrong())));
    }
    Tables.table(out, List.of("MAC", "Sent", "Received", "Wrong"), hosts, Set.of(1, 2, 3));
    Tables.startFacts(out);
    Tables.fact(out, "Frames kept by their node", Long.toString(report.framesKept()));
    Tables.fact(out, "Frames discarded (another node's MAC)", Long.toString(report.framesDiscarded()));
    Tables.fact(out, "Frames kept with a wrong payload", Long.toString(report.framesWrong()));
    Tables.fact(out, "Frames corrupted on the cables", Long.toString(report.corruptedSent()));
    Tables.fact(out, "Frames lost in the router network", Long.toString(report.framesLost()));
    Tables.fact(out, "Frames with no Ethernet NIC enabled", Long.toString(report.noCableDrops()));
    out.end("table").newline();
    if (!report.changes().isEmpty()) {
      out.element("h3", "Changes").newline();
      for (String line : report.changes()) out.element("p", line).newline();
    }
    out.element("h3", "Address tables").newline();
    List<List<String>> entries = new ArrayList<>();
    for (EthernetReport.IoNicCounters n : report.ioNics()) {
      for (AddressTable.Entry e : n.table()) {
        entries.add(List.of(name(n.host()), MacAddress.format(e.mac()), name(e.node()), via(e.via())));
      }
    }
    Tables.table(out, List.of("I/O node", "MAC", "Node", "Via"), entries, Set.of());
  }

  private String via(int via) {
    if (via == DetourTable.DIRECT) return "direct";
    if (via == DetourTable.CUT_OFF) return "cut off";
    return name(via);
  }

  private String name(int vertex) {
    return topology == null ? "host" + vertex : topology.vertexName(vertex);
  }
}
