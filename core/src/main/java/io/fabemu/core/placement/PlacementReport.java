package io.fabemu.core.placement;

import io.fabemu.core.topology.Topology;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.OptionalLong;

/**
 * What a {@link PlacementPlan} cuts, per member: its devices, its cut links (directed links of the topology with one
 * end on the member and the other on another member; a cable between two members is two such links for each of
 * them) and the cut's lookahead, the least delay over those links between an event and the one it causes across
 * the cut. Plain, immutable, computed once.
 *
 * <p>The delay over a cut link is the one {@link PlacementPlan#crossLookaheadPs} takes: the link's latency plus its
 * sender's minimum processing delay (a switch's pipeline latency, nothing for a NIC) on a switched or direct
 * fabric ({@link #of}); on a router network the fabric's lookahead, whatever the link ({@link #ofRouterNetwork}),
 * since a flit or credit may follow the evaluation that sent it by that much on any channel.
 */
public final class PlacementReport {

  private final int[] devices;
  private final long[] cutLinks;
  private final long[] cutLookaheadPs;
  private final long totalCutLinks;
  private final long totalLinks;

  private interface CutDelay {
    long delayPs(Topology.Link link);
  }

  private PlacementReport(Topology topology, PlacementPlan plan, CutDelay delay) {
    if (topology.deviceCount() > plan.deviceCount()) {
      throw new IllegalArgumentException("placement report: " + topology.description() + " has "
          + topology.deviceCount() + " devices, the plan places " + plan.deviceCount());
    }
    int members = plan.memberCount();
    devices = new int[members];
    for (int m = 0; m < members; m++) {
      devices[m] = plan.devicesOf(m).length;
    }
    cutLinks = new long[members];
    cutLookaheadPs = new long[members];
    Arrays.fill(cutLookaheadPs, Long.MAX_VALUE);
    long cut = 0;
    for (Topology.Link link : topology.links()) {
      int from = plan.memberOf(link.from());
      int to = plan.memberOf(link.to());
      if (from == to) continue;
      cut++;
      long delayPs = delay.delayPs(link);
      countCut(from, delayPs);
      countCut(to, delayPs);
    }
    totalCutLinks = cut;
    totalLinks = topology.links().size();
  }

  private void countCut(int member, long delayPs) {
    cutLinks[member]++;
    cutLookaheadPs[member] = Math.min(cutLookaheadPs[member], delayPs);
  }

  /**
   * The report of {@code plan} on a switched or direct fabric: a cut link's delay is its latency plus, when a switch
   * sends on it, {@code switchPipelineLatencyPs}.
   *
   * @throws IllegalArgumentException when the plan places fewer devices than the topology has, or the pipeline
   *                                  latency is negative
   */
  public static PlacementReport of(Topology topology, PlacementPlan plan, long switchPipelineLatencyPs) {
    if (switchPipelineLatencyPs < 0) {
      throw new IllegalArgumentException("placement report: the pipeline latency must not be negative, got "
          + switchPipelineLatencyPs + " ps");
    }
    return new PlacementReport(topology, plan,
        link -> link.spec().latencyPs() + (topology.isHost(link.from()) ? 0L : switchPipelineLatencyPs));
  }

  /**
   * The report of {@code plan} on a router network: every cut link's delay is {@code fabricLookaheadPs}.
   *
   * @throws IllegalArgumentException when the plan places fewer devices than the topology has, or the lookahead is
   *                                  not positive
   */
  public static PlacementReport ofRouterNetwork(Topology topology, PlacementPlan plan, long fabricLookaheadPs) {
    if (fabricLookaheadPs <= 0) {
      throw new IllegalArgumentException("placement report: the fabric's lookahead must be positive, got "
          + fabricLookaheadPs + " ps");
    }
    return new PlacementReport(topology, plan, link -> fabricLookaheadPs);
  }

  public int memberCount() {
    return devices.length;
  }

  /** The devices {@code member} hosts. */
  public int devices(int member) {
    return devices[member];
  }

  /** The directed links with one end on {@code member} and the other on another member. */
  public long cutLinks(int member) {
    return cutLinks[member];
  }

  /** The least delay over {@code member}'s cut links; empty when it has none. */
  public OptionalLong cutLookaheadPs(int member) {
    return cutLinks[member] == 0 ? OptionalLong.empty() : OptionalLong.of(cutLookaheadPs[member]);
  }

  /** The directed links whose ends are on different members. */
  public long cutLinks() {
    return totalCutLinks;
  }

  /** Every directed link of the topology. */
  public long links() {
    return totalLinks;
  }

  /** The least delay over every cut link (the plan's cross-member lookahead over links); empty when none is cut. */
  public OptionalLong cutLookaheadPs() {
    long least = Long.MAX_VALUE;
    for (int m = 0; m < devices.length; m++) {
      if (cutLinks[m] > 0) least = Math.min(least, cutLookaheadPs[m]);
    }
    return least == Long.MAX_VALUE ? OptionalLong.empty() : OptionalLong.of(least);
  }

  /**
   * One line per member, {@code member M: D devices, C cut links, cut lookahead X ns} ({@code cut lookahead none}
   * when it cuts nothing), then {@code total: C of L links cut, cut lookahead X ns}.
   */
  public List<String> lines() {
    List<String> lines = new ArrayList<>(devices.length + 1);
    for (int m = 0; m < devices.length; m++) {
      lines.add("member " + m + ": " + devices[m] + " devices, " + cutLinks[m] + " cut links, cut lookahead "
          + nanoseconds(cutLookaheadPs(m)));
    }
    lines.add("total: " + totalCutLinks + " of " + totalLinks + " links cut, cut lookahead "
        + nanoseconds(cutLookaheadPs()));
    return lines;
  }

  /** Picoseconds as nanoseconds without trailing zeros ({@code 1100000} as {@code 1100 ns}), or {@code none}. */
  static String nanoseconds(OptionalLong ps) {
    return ps.isEmpty() ? "none" : BigDecimal.valueOf(ps.getAsLong(), 3).stripTrailingZeros().toPlainString() + " ns";
  }
}
