package io.fabemu.app.report;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabemu.core.sim.BusyProfile;
import io.fabemu.core.sim.DeviceReport.LinkCounters;
import io.fabemu.core.topology.Topology;
import io.fabemu.fabric.result.CaseResult;
import io.fabemu.fabric.result.RunResult;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * How busy the links were within one case of a run: per pair of tiers (host → tor, tor → spine, ...) the mean busy
 * share of its links over the case's interval in virtual time ({@link CaseResult#startPs()} to
 * {@link CaseResult#endPs()}, warm-up and barriers included) and its busiest link, and the case's busiest link. The
 * busy time comes from each port's {@link BusyProfile}; where a port merged busy periods and a merged period straddles
 * an edge of the case, its busy time is shared in proportion (an estimate: {@link #estimatedLinks} counts those
 * links). What the report's per-case section and {@code results.json} show, so they agree.
 *
 * @param caseIndex      the case, numbered from 0
 * @param label          its name ({@code 1 (allreduce ring, 4 KiB)})
 * @param intervalPs     the length of its interval
 * @param tiers          per pair of tiers, in the order the link section shows them
 * @param busiest        its busiest link (most busy time; ties to the first in the order of the tiers' pairs, then
 *                       (from, to))
 * @param estimatedLinks links whose busy time in the case is an estimate
 */
public record CaseLinkLoad(int caseIndex, String label, long intervalPs, List<TierLoad> tiers, LinkLoad busiest,
                           int estimatedLinks) {

  public CaseLinkLoad {
    tiers = List.copyOf(tiers);
  }

  /** One link within a case: its ends' names, its busy time and that as a share of the case's interval. */
  public record LinkLoad(String from, String to, long busyPs, double share) {}

  /**
   * The links between two tiers within a case.
   *
   * @param links     directed links between them
   * @param meanShare mean busy share over those links (idle ones included)
   * @param busiest   the busiest of them
   */
  public record TierLoad(String from, String to, int links, double meanShare, LinkLoad busiest) {}

  /**
   * The load of every case of {@code result} that has an interval of some length, in case order; empty when the run
   * has no such case, no link counters, or a link whose counters do not say when it was busy.
   */
  public static List<CaseLinkLoad> of(RunResult result, Topology topology) {
    List<LinkCounters> links = result.links();
    if (links.isEmpty() || links.stream().anyMatch(l -> !l.busy().timed())) return List.of();
    LinkTiers names = new LinkTiers(topology);
    List<LinkCounters> ordered = links.stream().sorted(Comparator
        .comparingInt((LinkCounters l) -> LinkTiers.order(names.tier(l.fromDevice())))
        .thenComparingInt(l -> LinkTiers.order(names.tier(l.toDevice())))
        .thenComparingInt(LinkCounters::fromDevice).thenComparingInt(LinkCounters::toDevice)).toList();
    List<CaseLinkLoad> loads = new ArrayList<>();
    for (CaseResult c : result.cases()) {
      if (!c.caseTimed() || c.endPs() <= c.startPs()) continue;
      loads.add(of(c, result, ordered, names));
    }
    return List.copyOf(loads);
  }

  private static CaseLinkLoad of(CaseResult c, RunResult result, List<LinkCounters> ordered, LinkTiers names) {
    long intervalPs = c.endPs() - c.startPs();
    Map<String, TierLoad> pairs = new LinkedHashMap<>();
    LinkLoad busiest = null;
    int estimated = 0;
    for (LinkCounters l : ordered) {
      BusyProfile busy = l.busy();
      long busyPs = busy.busyWithinPs(c.startPs(), c.endPs());
      if (!busy.exactWithin(c.startPs(), c.endPs())) estimated++;
      LinkLoad load = new LinkLoad(names.name(l.fromDevice()), names.name(l.toDevice()), busyPs,
          busyPs / (double) intervalPs);
      if (busiest == null || load.busyPs() > busiest.busyPs()) busiest = load;
      String from = names.tier(l.fromDevice());
      String to = names.tier(l.toDevice());
      TierLoad before = pairs.get(from + "\u0000" + to);
      if (before == null) {
        pairs.put(from + "\u0000" + to, new TierLoad(from, to, 1, load.share(), load));
      } else {
        int n = before.links() + 1;
        pairs.put(from + "\u0000" + to, new TierLoad(from, to, n, before.meanShare() + (load.share()
            - before.meanShare()) / n, load.busyPs() > before.busiest().busyPs() ? load : before.busiest()));
      }
    }
    String label = CaseLabels.of(result.scenario().workload(), c.caseIndex());
    return new CaseLinkLoad(c.caseIndex(), label, intervalPs, new ArrayList<>(pairs.values()), busiest, estimated);
  }

  /**
   * Writes the load into {@code n} (a case's {@code links} object in {@code results.json}): the interval, the links
   * whose figure is an estimate, the busiest link, and per tier pair its links, mean busy share and busiest link.
   */
  public void json(ObjectNode n) {
    n.put("intervalPs", intervalPs);
    n.put("estimatedLinks", estimatedLinks);
    link(n.putObject("busiest"), busiest);
    ArrayNode pairs = n.putArray("tiers");
    for (TierLoad t : tiers) {
      ObjectNode p = pairs.addObject();
      p.put("from", t.from());
      p.put("to", t.to());
      p.put("links", t.links());
      p.put("meanUtilization", t.meanShare());
      link(p.putObject("busiest"), t.busiest());
    }
  }

  private static void link(ObjectNode n, LinkLoad l) {
    n.put("from", l.from());
    n.put("to", l.to());
    n.put("busyPs", l.busyPs());
    n.put("utilization", l.share());
  }
}
