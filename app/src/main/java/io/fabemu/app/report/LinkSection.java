package io.fabemu.app.report;

import io.fabemu.core.sim.DeviceReport.LinkCounters;
import io.fabemu.core.time.Units;
import io.fabemu.core.topology.Topology;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Per-link utilisation: how busy each directed link was (busy time as a share of the run's virtual end) and how
 * many bytes it carried. Heat maps of the fabric, devices named from the topology: a from x to matrix of every
 * device when there are at most {@value #MAX_MATRIX_DEVICES} (one for busy share, one for bytes), and always a
 * tier x tier matrix (host, tor, spine, ...) of the mean busy share, with a table per tier pair and the busiest
 * links. A run cut short has no link counters: one line says so.
 */
final class LinkSection implements ReportSection {

  /** The most devices a from x to matrix shows; a larger fabric gets the per-tier layout only. */
  static final int MAX_MATRIX_DEVICES = 64;
  /** Rows of the busiest-links table. */
  static final int BUSIEST_LINKS = 10;

  private final List<LinkCounters> links;
  private final LinkTiers tiers;
  private final long virtualEndPs;
  private final boolean complete;

  LinkSection(List<LinkCounters> links, Topology topology, long virtualEndPs, boolean complete) {
    this.links = List.copyOf(links);
    this.tiers = new LinkTiers(topology);
    this.virtualEndPs = virtualEndPs;
    this.complete = complete;
  }

  @Override
  public String id() {
    return "links";
  }

  @Override
  public String title() {
    return "Link utilisation";
  }

  @Override
  public void render(Markup out) {
    if (links.isEmpty()) {
      Tables.note(out, complete ? "No link carried anything." : "No link counters: the run was cut short, and "
          + "only finished cases are kept (link counters are collected at the end of a run).");
      return;
    }
    Tables.note(out, "Busy share: the time a link was sending, as a share of the virtual end ("
        + Units.format(virtualEndPs) + "). Rows send, columns receive; hover a cell for its figures.");
    Tables.note(out, "These figures cover the whole run, all cases together; with two cases or more, "
        + "\"Link utilisation per case\" below cuts them by case.");
    TreeSet<Integer> devices = new TreeSet<>();
    for (LinkCounters l : links) {
      devices.add(l.fromDevice());
      devices.add(l.toDevice());
    }
    out.start("div", "class", "charts").newline();
    if (devices.size() <= MAX_MATRIX_DEVICES) {
      deviceMatrix(out, new ArrayList<>(devices), true);
      out.newline();
      deviceMatrix(out, new ArrayList<>(devices), false);
      out.newline();
    }
    tierMatrix(out);
    out.newline().end("div").newline();
    if (devices.size() > MAX_MATRIX_DEVICES) {
      Tables.note(out, "The fabric has " + devices.size() + " devices on links, too many for a from x to matrix "
          + "(at most " + MAX_MATRIX_DEVICES + "): the tiers above, the busiest links below.");
    }
    out.element("h3", "Per tier").newline();
    tierTable(out);
    out.element("h3", "Busiest links").newline();
    busiestTable(out);
  }

  private void deviceMatrix(Markup out, List<Integer> devices, boolean busy) {
    Map<Integer, Integer> index = new LinkedHashMap<>();
    for (int i = 0; i < devices.size(); i++) index.put(devices.get(i), i);
    List<String> names = devices.stream().map(this::name).toList();
    double[][] values = new double[devices.size()][devices.size()];
    String[][] tips = new String[devices.size()][devices.size()];
    for (double[] row : values) java.util.Arrays.fill(row, Double.NaN);
    for (LinkCounters l : links) {
      int r = index.get(l.fromDevice());
      int c = index.get(l.toDevice());
      values[r][c] = busy ? share(l) : l.bytes();
      tips[r][c] = tooltip(l);
    }
    HeatMap.render(out, busy ? "Busy share per link (from x to)" : "Bytes per link (from x to)", names, names,
        values, tips, busy ? Formats::percent : v -> Formats.bytes((long) v));
  }

  private void tierMatrix(Markup out) {
    Map<String, TierPair> pairs = tierPairs();
    List<String> tiers = new ArrayList<>();
    for (TierPair p : pairs.values()) {
      if (!tiers.contains(p.from)) tiers.add(p.from);
      if (!tiers.contains(p.to)) tiers.add(p.to);
    }
    tiers.sort(Comparator.comparingInt(LinkSection::tierOrder));
    double[][] values = new double[tiers.size()][tiers.size()];
    String[][] tips = new String[tiers.size()][tiers.size()];
    for (double[] row : values) java.util.Arrays.fill(row, Double.NaN);
    for (TierPair p : pairs.values()) {
      int r = tiers.indexOf(p.from);
      int c = tiers.indexOf(p.to);
      values[r][c] = p.meanShare();
      tips[r][c] = p.from + " → " + p.to + ": " + p.links + " links, mean busy " + Formats.percent(p.meanShare())
          + ", busiest " + Formats.percent(p.maxShare) + ", " + Formats.bytes(p.bytes) + " in all";
    }
    HeatMap.render(out, "Mean busy share per tier pair", tiers, tiers, values, tips, Formats::percent);
  }

  private void tierTable(Markup out) {
    List<List<String>> rows = new ArrayList<>();
    for (TierPair p : tierPairs().values()) {
      rows.add(List.of(p.from + " → " + p.to, Integer.toString(p.links), Formats.bytes(p.bytes),
          Long.toString(p.packets), Formats.percent(p.meanShare()), Formats.percent(p.maxShare), p.busiest));
    }
    Tables.table(out, List.of("tiers", "links", "bytes", "packets", "mean busy share", "max busy share",
        "busiest link"), rows, Set.of(1, 2, 3, 4, 5));
  }

  /** The {@code n} busiest links: most busy time first, then most bytes, then by their ends. */
  List<LinkCounters> busiest(int n) {
    return links.stream().sorted(Comparator.comparingLong(LinkCounters::busyPs).reversed()
        .thenComparing(Comparator.comparingLong(LinkCounters::bytes).reversed())
        .thenComparingInt(LinkCounters::fromDevice).thenComparingInt(LinkCounters::toDevice))
        .limit(n).toList();
  }

  private void busiestTable(Markup out) {
    List<LinkCounters> sorted = busiest(BUSIEST_LINKS);
    List<List<String>> rows = new ArrayList<>();
    for (LinkCounters l : sorted) {
      rows.add(List.of(name(l.fromDevice()), name(l.toDevice()), Formats.bytes(l.bytes()), Long.toString(l.packets()),
          Units.format(l.busyPs()), Formats.percent(share(l)), Long.toString(l.droppedPackets())));
    }
    Tables.table(out, List.of("from", "to", "bytes", "packets", "busy", "busy share", "dropped packets"), rows,
        Set.of(2, 3, 4, 5, 6));
  }

  /** Links grouped by the tiers of their ends, in the order the pairs first appear. */
  Map<String, TierPair> tierPairs() {
    Map<String, TierPair> pairs = new LinkedHashMap<>();
    List<LinkCounters> ordered = links.stream().sorted(Comparator.comparingInt((LinkCounters l) ->
        tierOrder(tier(l.fromDevice()))).thenComparingInt(l -> tierOrder(tier(l.toDevice())))).toList();
    for (LinkCounters l : ordered) {
      String from = tier(l.fromDevice());
      String to = tier(l.toDevice());
      TierPair p = pairs.computeIfAbsent(from + "\u0000" + to, k -> new TierPair(from, to));
      p.links++;
      p.bytes += l.bytes();
      p.packets += l.packets();
      double share = share(l);
      p.shareSum += share;
      if (p.busiest == null || share > p.maxShare) {
        p.maxShare = share;
        p.busiest = name(l.fromDevice()) + " → " + name(l.toDevice());
      }
    }
    return pairs;
  }

  /** Running totals of the links between two tiers. */
  static final class TierPair {
    final String from;
    final String to;
    int links;
    long bytes;
    long packets;
    double shareSum;
    double maxShare;
    String busiest;

    TierPair(String from, String to) {
      this.from = from;
      this.to = to;
    }

    double meanShare() {
      return links == 0 ? 0 : shareSum / links;
    }
  }

  private String tooltip(LinkCounters l) {
    String dropped = l.droppedPackets() > 0 ? ", " + l.droppedPackets() + " dropped" : "";
    return String.format(Locale.ROOT, "%s → %s: %s in %d packets, busy %s (%s of the run)%s", name(l.fromDevice()),
        name(l.toDevice()), Formats.bytes(l.bytes()), l.packets(), Units.format(l.busyPs()), Formats.percent(share(l)),
        dropped);
  }

  double share(LinkCounters l) {
    return virtualEndPs > 0 ? l.busyPs() / (double) virtualEndPs : 0;
  }

  String name(int device) {
    return tiers.name(device);
  }

  private String tier(int device) {
    return tiers.tier(device);
  }

  private static int tierOrder(String tier) {
    return LinkTiers.order(tier);
  }
}
