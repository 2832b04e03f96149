package io.fabemu.node.management;

import io.fabemu.core.ethernet.EthernetReport;
import io.fabemu.core.ethernet.EthernetSpec;
import io.fabemu.core.fault.FaultAction;
import io.fabemu.core.fault.FaultEvent;
import io.fabemu.core.fault.FaultPlan;
import io.fabemu.core.fault.FaultRecord;
import io.fabemu.core.fault.FaultReport;
import io.fabemu.core.fault.FaultTally;
import io.fabemu.core.link.RouteViews;
import io.fabemu.core.protocol.DeviceProtocol.EthernetControl;
import io.fabemu.core.protocol.DeviceProtocol.FailureNotice;
import io.fabemu.core.protocol.DeviceProtocol.RouteUpdate;
import io.fabemu.core.protocol.DirectedLink;
import io.fabemu.core.protocol.ManagementPayload;
import io.fabemu.core.routing.DetourTable;
import io.fabemu.core.routing.RouteView;
import io.fabemu.core.sim.DeviceCore;
import io.fabemu.core.sim.DeviceReport;
import io.fabemu.core.sim.Event;
import io.fabemu.core.sim.Outbox;
import io.fabemu.core.topology.Topology.Tier;
import io.fabemu.core.topology.Topology;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * The management node of a run with faults (the router patent's management node, for every fabric): a device of its
 * own, on a network of its own ({@code managementLatencyPs} from every device). It learns that a failure or repair
 * happened only from the devices' notices ({@link FailureNotice}, sent once their heartbeats say so); the plan only
 * tells it what a noticed event's target is (its links) and when a partition began.
 *
 * <p>On the first notice of an event it updates its view of what is down (a cable can be down for several events
 * at once), computes the routes around it ({@link RouteViews}: on switched and direct fabrics shortest paths with
 * ECMP over the links left; on router networks the NICs' detours through via nodes), finds every device whose
 * routes changed (the devices whose normal paths crossed the failed element, and on a repair
 * those that can take it again) and sends each an update ({@link RouteUpdate}); the updates leave one after another,
 * {@code managementUpdatePs} each, and arrive a management latency later. The last arrival is the event's
 * reroute-complete time ({@link FaultRecord}). It also finds the hosts cut off from one another: the partition line
 * that ends an incomplete run.
 *
 * <p>In a fabric with INC ({@link #notifyHostsOfFailures}), a failure is also told to every host's NIC that is up
 * and got no route update for it: the same update, sent after the routing ones on the same channel (not counted in
 * the event's reroute), so that the NICs can break the INC groups whose tree it cuts.
 */
public final class ManagementCore implements DeviceCore, ManagementPayload.Handler<Outbox> {
  /** Cut-off pairs a partition line names one by one (within one group of hosts). */
  private static final int MAX_CUT_PAIRS_NAMED = 3;

  private final int deviceId;
  private final Topology topology;
  private final FaultPlan plan;
  private final RouteViews routeViews;
  private final int ranksPerHost;
  /** Per directed link, how many noticed events have it down (absent: up). Sorted, as updates list them. */
  private final Map<DirectedLink, Integer> downReasons = new TreeMap<>();
  /** Per vertex, how many noticed events have the device itself down. */
  private final int[] deviceDownReasons;
  private final FaultRecord[] records;
  private RouteView routes;
  private int version;
  /** When the update channel has sent every update so far. */
  private long updatesFreeAtPs;
  /** When the channel of INC failure notices to hosts has sent every notice so far. */
  private long hostNoticesFreeAtPs;
  /** The partition in the current view (one line), or null; and when it began (the causing event's time). */
  private String partition;
  private long partitionSincePs = -1;
  private String partitionCause;
  /** Whether failures are also told to every host (a fabric with INC). */
  private boolean notifyHosts;
  /** The scenario's I/O nodes; null without an {@code ethernet} section. */
  private EthernetSpec ethernet;
  private int ethernetDevice = -1;
  /** The I/O nodes whose Ethernet NIC is enabled now, ascending; and the standby ones not used yet, in order. */
  private final List<Integer> enabledIoNodes = new ArrayList<>();
  private final List<Integer> standbyLeft = new ArrayList<>();
  /** One line per change of the enabled Ethernet NICs. */
  private final List<String> ethernetChanges = new ArrayList<>();

  /**
   * @param deviceId     this device's id (one past the fabric's others)
   * @param ranksPerHost ranks on each host, to name the ranks a partition cuts off
   */
  public ManagementCore(int deviceId, Topology topology, FaultPlan plan, RouteViews routeViews,
                        int ranksPerHost) {
    this.deviceId = deviceId;
    this.topology = topology;
    this.plan = plan;
    this.routeViews = routeViews;
    this.ranksPerHost = ranksPerHost;
    this.deviceDownReasons = new int[topology.vertexCount()];
    this.records = new FaultRecord[plan.eventCount()];
    this.routes = routeViews.built();
  }

  /**
   * Makes every noticed failure (a down event) also reach every host's NIC that is up and whose routes it did not
   * change, with the same {@link RouteUpdate}: INC groups live in the hosts' NICs and the switches, and a tree
   * through a dead element is broken although the hosts' routes stay the same.
   */
  public void notifyHostsOfFailures() {
    this.notifyHosts = true;
  }

  /**
   * Makes the management node manage the Ethernet NICs of {@code spec}'s I/O nodes (the patent's enable/disable
   * register): when a noticed failure cuts an enabled I/O node off (its router, its NIC or the cable between them
   * down), its Ethernet NIC is disabled and the first standby I/O node still up is enabled; every NIC that is up and
   * the external Ethernet ({@code ethernetDevice}) are told, with one {@link EthernetControl} each, after the
   * event's route updates on the same channel ({@code update-time} each; not counted in the event's reroute).
   */
  public void useEthernet(EthernetSpec spec, int ethernetDevice) {
    this.ethernet = spec;
    this.ethernetDevice = ethernetDevice;
    enabledIoNodes.addAll(spec.initiallyEnabled());
    standbyLeft.addAll(spec.standby());
  }

  @Override
  public int deviceId() {
    return deviceId;
  }

  @Override
  public void onEvent(Event event, Outbox outbox) {
    event.payload().handleWith(this, outbox);
  }

  @Override
  public String deviceName() {
    return "management node " + deviceId;
  }

  @Override
  public void onFailureNotice(FailureNotice notice, Outbox outbox) {
    int eventId = notice.eventId();
    if (records[eventId] != null) return; // another neighbour noticed it first
    FaultEvent event = plan.event(eventId);
    int step = event.action() == FaultAction.DOWN ? 1 : -1;
    for (DirectedLink link : event.links()) {
      int reasons = downReasons.getOrDefault(link, 0) + step;
      if (reasons < 0) {
        throw new IllegalStateException("management node: " + event.describe() + " noticed, but link " + link
            + " is not down in its view");
      }
      if (reasons == 0) downReasons.remove(link);
      else downReasons.put(link, reasons);
    }
    if (event.vertex() >= 0) deviceDownReasons[event.vertex()] += step;
    List<DirectedLink> dead = new ArrayList<>(downReasons.keySet());
    RouteView next = routeViews.viewFor(dead);
    List<Integer> changed = changedVertices(routes, next);
    routes = next;
    version++;
    long now = outbox.nowPs();
    long sentPs = Math.max(now, updatesFreeAtPs);
    for (int vertex : changed) {
      sentPs += plan.settings().managementUpdatePs();
      outbox.send(vertex, sentPs + plan.settings().managementLatencyPs(), new RouteUpdate(version, dead, eventId));
    }
    long rerouteCompletePs = changed.isEmpty() ? now : sentPs + plan.settings().managementLatencyPs();
    if (notifyHosts && event.action() == FaultAction.DOWN && touchesSpine(event)) {
      // On a channel of their own, so that they never delay a later event's route updates; only a failure at a
      // SPINE can break a tree (the NICs act on nothing else).
      long noticePs = Math.max(now, hostNoticesFreeAtPs);
      for (int vertex = 0; vertex < topology.vertexCount(); vertex++) {
        if (!topology.isHost(vertex) || deviceDownReasons[vertex] > 0 || changed.contains(vertex)) continue;
        noticePs += plan.settings().managementUpdatePs();
        outbox.send(vertex, noticePs + plan.settings().managementLatencyPs(),
            new RouteUpdate(version, dead, eventId));
      }
      hostNoticesFreeAtPs = noticePs;
    }
    if (ethernet != null && event.action() == FaultAction.DOWN) {
      // On the host-notice channel, so that they never delay a later event's route updates.
      hostNoticesFreeAtPs = switchEthernetNics(event, Math.max(now, hostNoticesFreeAtPs), outbox);
    }
    updatesFreeAtPs = sentPs;
    records[eventId] = new FaultRecord(eventId, notice.detectedPs(), notice.reporterDevice(), rerouteCompletePs,
        changed.size(), detourLines(next));
    updatePartition(event);
  }

  /**
   * Disables the Ethernet NICs of the enabled I/O nodes that event {@code cause} cut off, enables a standby one per
   * each (the first still up), and tells the NICs and the external Ethernet; nothing when no enabled one is cut off.
   *
   * @return when the update channel has sent the last control
   */
  private long switchEthernetNics(FaultEvent cause, long sentPs, Outbox outbox) {
    List<Integer> cut = new ArrayList<>();
    for (int io : enabledIoNodes) {
      if (cutOff(io)) cut.add(io);
    }
    if (cut.isEmpty()) return sentPs;
    for (int io : cut) {
      enabledIoNodes.remove((Integer) io);
      int standby = -1;
      while (standby < 0 && !standbyLeft.isEmpty()) {
        int candidate = standbyLeft.remove(0);
        if (!cutOff(candidate)) standby = candidate;
      }
      if (standby >= 0) {
        enabledIoNodes.add(standby);
        enabledIoNodes.sort(null);
      }
      ethernetChanges.add(String.format(Locale.ROOT, "Ethernet NIC of %s disabled (%s %s at %.3f us), %s",
          topology.vertexName(io), cause.target(), cause.action().configName(), cause.atPs() / 1e6,
          standby >= 0 ? topology.vertexName(standby) + " enabled" : "no standby I/O node left to enable"));
    }
    EthernetControl control = new EthernetControl(enabledIoNodes, cause.id());
    // The I/O nodes first (the standby enabled before any node sends it a frame), then the others, in order.
    List<Integer> order = new ArrayList<>(enabledIoNodes);
    order.addAll(cut);
    for (int vertex = 0; vertex < topology.hostCount(); vertex++) {
      if (!order.contains(vertex)) order.add(vertex);
    }
    for (int vertex : order) {
      if (deviceDownReasons[vertex] > 0) continue;
      sentPs += plan.settings().managementUpdatePs();
      outbox.send(vertex, sentPs + plan.settings().managementLatencyPs(), control);
    }
    sentPs += plan.settings().managementUpdatePs();
    outbox.send(ethernetDevice, sentPs + plan.settings().managementLatencyPs(), control);
    return sentPs;
  }

  /** Whether I/O node {@code io} is cut off in the current view: it, its router or the cable between them is down. */
  private boolean cutOff(int io) {
    int router = topology.ports(io).get(0).to();
    return deviceDownReasons[io] > 0 || deviceDownReasons[router] > 0
        || downReasons.containsKey(new DirectedLink(io, router))
        || downReasons.containsKey(new DirectedLink(router, io));
  }

  /** Whether the event takes down a link with a SPINE at one end (or a SPINE itself). */
  private boolean touchesSpine(FaultEvent event) {
    for (DirectedLink link : event.links()) {
      if (topology.tier(link.from()) == Tier.SPINE || topology.tier(link.to()) == Tier.SPINE) return true;
    }
    return false;
  }

  /**
   * The vertices (NICs, switches) whose routes differ between the two views, except those down in this view
   * (nothing reaches them; they get the routes of the view they come back up in).
   */
  private List<Integer> changedVertices(RouteView before, RouteView after) {
    List<Integer> changed = new ArrayList<>();
    for (int v = 0; v < topology.vertexCount(); v++) {
      if (deviceDownReasons[v] == 0 && !after.sameRoutesAt(v, before)) changed.add(v);
    }
    return changed;
  }

  /** A router network's detours, {@code "host3->host40 via host11"}; none on other fabrics. */
  private List<String> detourLines(RouteView view) {
    if (!(view instanceof DetourTable table)) return List.of();
    List<String> lines = new ArrayList<>(table.detourCount());
    for (int[] detour : table.detours()) {
      lines.add(topology.vertexName(detour[0]) + "->" + topology.vertexName(detour[1]) + " via "
          + topology.vertexName(detour[2]));
    }
    return lines;
  }

  /**
   * Finds the groups of hosts that reach one another in the current view (a host that is down is a group of its
   * own); more than one group is a partition, which keeps the time and event it began with until it heals.
   */
  private void updatePartition(FaultEvent cause) {
    int hosts = topology.hostCount();
    int[] group = new int[hosts];
    Arrays.fill(group, -1);
    List<List<Integer>> groups = new ArrayList<>();
    for (int h = 0; h < hosts; h++) {
      if (group[h] >= 0) continue;
      List<Integer> members = new ArrayList<>();
      for (int other = h; other < hosts; other++) {
        boolean together = other == h
            || (group[other] < 0 && deviceDownReasons[h] == 0 && deviceDownReasons[other] == 0
                && routes.reachable(h, other) && routes.reachable(other, h));
        if (together) {
          group[other] = groups.size();
          members.add(other);
        }
      }
      groups.add(members);
    }
    // One group can still hold pairs that do not reach each other: a router network's detours take one via node
    // per pair, so reaching is neither symmetric nor transitive there.
    List<int[]> cutPairs = groups.size() == 1 && routes instanceof DetourTable ? cutPairsWithin(hosts) : List.of();
    if (groups.size() == 1 && cutPairs.isEmpty()) {
      partition = null;
      partitionSincePs = -1;
      partitionCause = null;
      return;
    }
    if (partition == null) {
      partitionSincePs = cause.atPs();
      partitionCause = cause.target() + " " + cause.action().configName();
    }
    String who;
    if (groups.size() > 1) {
      List<String> parts = new ArrayList<>();
      for (List<Integer> members : groups) parts.add(rankRanges(members));
      who = parts.size() == 2 ? parts.get(0) + " cannot reach " + parts.get(1)
          : String.join(", ", parts.subList(0, parts.size() - 1)) + " and " + parts.get(parts.size() - 1)
              + " cannot reach one another";
    } else {
      List<String> lines = new ArrayList<>();
      for (int i = 0; i < Math.min(MAX_CUT_PAIRS_NAMED, cutPairs.size()); i++) {
        lines.add(rankRanges(List.of(cutPairs.get(i)[0])) + " cannot reach "
            + rankRanges(List.of(cutPairs.get(i)[1])));
      }
      who = String.join(", ", lines) + (cutPairs.size() > MAX_CUT_PAIRS_NAMED ? " and " + (cutPairs.size()
          - MAX_CUT_PAIRS_NAMED) + " more pairs" : "") + " (no single via node joins them)";
    }
    partition = String.format(Locale.ROOT, "partition since %.3f us (%s): %s", partitionSincePs / 1e6,
        partitionCause, who);
  }

  /** The pairs of live hosts, source first, where the source does not reach the destination, in host order. */
  private List<int[]> cutPairsWithin(int hosts) {
    List<int[]> pairs = new ArrayList<>();
    for (int s = 0; s < hosts; s++) {
      if (deviceDownReasons[s] > 0) continue;
      for (int d = 0; d < hosts; d++) {
        if (d != s && deviceDownReasons[d] == 0 && !routes.reachable(s, d)) pairs.add(new int[] {s, d});
      }
    }
    return pairs;
  }

  /** "ranks 0-3,8-11" for hosts {0, 2} with 4 ranks each (hosts in ascending order). */
  private String rankRanges(List<Integer> hosts) {
    StringBuilder out = new StringBuilder(hosts.size() * ranksPerHost == 1 ? "rank " : "ranks ");
    int i = 0;
    while (i < hosts.size()) {
      int j = i;
      while (j + 1 < hosts.size() && hosts.get(j + 1) == hosts.get(j) + 1) j++;
      int first = hosts.get(i) * ranksPerHost;
      int last = (hosts.get(j) + 1) * ranksPerHost - 1;
      if (i > 0) out.append(',');
      out.append(first);
      if (last > first) out.append('-').append(last);
      i = j + 1;
    }
    return out.toString();
  }

  /** The partition in the current view (one line), or null when every host reaches every other. */
  public String partition() {
    return partition;
  }

  @Override
  public DeviceReport report() {
    List<FaultRecord> seen = new ArrayList<>();
    for (FaultRecord r : records) {
      if (r != null) seen.add(r);
    }
    EthernetReport ethernetReport = ethernet == null ? null
        : new EthernetReport(List.of(), List.of(), 0, 0, 0, 0, 0, 0, 0, ethernetChanges);
    return DeviceReport.builder(deviceId)
        .part(new FaultReport(new FaultTally(plan.eventCount()), seen, partition, List.of())).part(ethernetReport)
        .build();
  }
}
