package io.fabemu.core.link;

import io.fabemu.core.fault.FaultAction;
import io.fabemu.core.fault.FaultEvent;
import io.fabemu.core.fault.FaultPlan;
import io.fabemu.core.fault.FaultTally;
import io.fabemu.core.protocol.DirectedLink;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The faults of one device's links, as the device sees them: which of its cables are down and since when (and were,
 * for packets that were on the wire then), whether the device itself is down, and when it notices what happened
 * next to it. Owned by the device's {@link PacketForwarder}, or by a router network's router.
 *
 * <p>A cable can be down for several reasons at once (its own down event, either end's device down): it works again
 * only when every one of them is up again, and what it loses meanwhile is put down to the latest failure still
 * holding it. A packet is lost on arrival when its receiver is down, or when its cable
 * was down at any time between its head leaving the sender and arriving (a packet whose head arrived before a
 * failure is delivered whole).
 */
public final class LinkFaults {
  /** {@link #lossOnArrival}'s answer for a packet that arrives. */
  public static final int ARRIVES = -2;

  private final int vertex;
  private final FaultPlan plan;
  private final FaultTally tally;
  private boolean down;
  private int downEventId = -1;
  /** The cables to neighbours that have had a fault, by neighbour vertex (in vertex order, for reports). */
  private final Map<Integer, Cable> cables = new TreeMap<>();

  /** The faults of device {@code vertex}'s links; losses are counted in {@code tally}. */
  public LinkFaults(int vertex, FaultPlan plan, FaultTally tally) {
    this.vertex = vertex;
    this.plan = plan;
    this.tally = tally;
  }

  public FaultTally tally() {
    return tally;
  }

  /** Whether this device itself is down. */
  public boolean isDown() {
    return down;
  }

  /** Whether the cable to {@code neighbour} is down now (for any reason; this device being down is not one). */
  public boolean cableDown(int neighbour) {
    Cable cable = cables.get(neighbour);
    return cable != null && !cable.active.isEmpty();
  }

  /**
   * The event a loss at this device is put down to now, when it happens at the port to {@code neighbour}: this
   * device's own failure, else the latest failure still holding the cable down; -1 when both are up.
   */
  public int lossEventAt(int neighbour) {
    if (down) return downEventId;
    Cable cable = cables.get(neighbour);
    if (cable == null) return -1;
    int latest = -1;
    for (int id : cable.active.values()) latest = Math.max(latest, id);
    return latest;
  }


  /**
   * Applies a down, up, degrade or lossy event to this device's ports (by neighbour: {@code portsTo}) and returns
   * when this device notices it (a neighbour of what went down or up, or an end of the cable, itself up), or -1 when
   * it does not.
   */
  public long apply(FaultEvent event, long nowPs, PortsTo portsTo) {
    FaultAction action = event.action();
    for (DirectedLink link : event.links()) {
      if (link.from() != vertex) continue;
      List<EgressPort> ports = portsTo.portsTo(link.to());
      switch (action) {
        case DOWN -> {
          Cable cable = cables.computeIfAbsent(link.to(), n -> new Cable());
          if (cable.active.isEmpty()) cable.downSincePs = nowPs;
          cable.active.put(reasonKey(event), event.id());
          int attributed = cable.downEventId();
          for (EgressPort port : ports) port.setDown(attributed, nowPs);
        }
        case UP -> {
          Cable cable = cables.get(link.to());
          if (cable == null || cable.active.remove(reasonKey(event)) == null) {
            throw new IllegalStateException("vertex " + vertex + ": " + event.describe() + ", but its cable to "
                + link.to() + " is not down for it");
          }
          cable.lastRepair.put(reasonKey(event), event.id());
          if (cable.active.isEmpty()) {
            cable.intervals.add(new long[] {cable.downSincePs, nowPs, cable.lastDownEventId});
            for (EgressPort port : ports) port.setUp();
          } else {
            int attributed = cable.downEventId();
            for (EgressPort port : ports) port.setDown(attributed, nowPs);
          }
        }
        case DEGRADE -> {
          for (EgressPort port : ports) port.degrade(event.bandwidthBitsPerSecond(), event.extraLatencyPs());
        }
        case LOSSY -> {
          for (EgressPort port : ports) port.setLoss(event.dropProbability(), event.corruptProbability(), event.id());
        }
        case STRAGGLER -> throw new IllegalArgumentException("a straggler is a host's, not a link's: " + event);
      }
    }
    if (!action.detectable()) return -1;
    if (event.vertex() == vertex) {
      down = action == FaultAction.DOWN;
      downEventId = down ? event.id() : -1;
      // A device does not report itself (its neighbours do), but back up it reports the repairs next to it that it
      // could not see while it was down, after the next heartbeat.
      return down ? -1 : nowPs + plan.settings().recoveryDetectionDelayPs();
    }
    if (down) return -1;
    return nowPs + (action == FaultAction.DOWN ? plan.settings().detectionDelayPs()
        : plan.settings().recoveryDetectionDelayPs());
  }

  /**
   * The events this device reports now that {@code event}'s detection is due (each becomes a notice to the
   * management node). A failure is reported if it still holds (one repaired before enough heartbeats were missed
   * goes unnoticed). A repair is reported only if this device reported the failure it undoes and it still holds (a
   * repair undone before the next heartbeat goes unnoticed); while the cable is still down for another reason its
   * heartbeats cannot show it, so it is kept and reported with the repair that brings the cable back.
   */
  public List<Integer> reports(FaultEvent event) {
    if (down) return List.of();
    if (event.vertex() == vertex) return repairsMissedWhileDown();
    Cable cable = cables.get(otherEnd(event));
    if (cable == null) return List.of();
    String key = reasonKey(event);
    Integer holding = cable.active.get(key);
    if (event.action() == FaultAction.DOWN) {
      if (holding == null || holding != event.id()) return List.of();
      cable.reported.put(key, event.id());
      return List.of(event.id());
    }
    if (holding == null && cable.reported.remove(key) != null) cable.maskedRepairs.add(event.id());
    // Any repair's heartbeat shows the cable working again, with every repair behind it.
    if (!cable.active.isEmpty()) return List.of();
    List<Integer> repairs = List.copyOf(cable.maskedRepairs);
    cable.maskedRepairs.clear();
    return repairs;
  }

  /**
   * Back up, this device reports every failure it reported whose repair it missed while it was down: the last
   * repair of each such reason, on every cable that works again.
   */
  private List<Integer> repairsMissedWhileDown() {
    List<Integer> repairs = new ArrayList<>();
    for (Cable cable : cables.values()) {
      for (String key : List.copyOf(cable.reported.keySet())) {
        if (!cable.active.containsKey(key) && cable.lastRepair.containsKey(key)) {
          cable.reported.remove(key);
          cable.maskedRepairs.add(cable.lastRepair.get(key));
        }
      }
      if (cable.active.isEmpty()) {
        repairs.addAll(cable.maskedRepairs);
        cable.maskedRepairs.clear();
      }
    }
    repairs.sort(null);
    return repairs.stream().distinct().toList();
  }

  /**
   * What an event takes down or brings up, as one reason a cable can be down for: the device, or the cable (either
   * way round), so that an up undoes exactly the down of the same target.
   */
  private static String reasonKey(FaultEvent event) {
    if (event.vertex() >= 0) return "device " + event.vertex();
    DirectedLink link = event.links().get(0);
    return "cable " + Math.min(link.from(), link.to()) + "-" + Math.max(link.from(), link.to());
  }

  /** The neighbour whose cable the event changed: the device that went down or up, else the cable's other end. */
  private int otherEnd(FaultEvent event) {
    if (event.vertex() >= 0) return event.vertex();
    for (DirectedLink link : event.links()) {
      if (link.from() == vertex) return link.to();
    }
    throw new IllegalArgumentException("event " + event.describe() + " does not touch vertex " + vertex);
  }

  /**
   * The fault event that loses a packet arriving now from {@code fromVertex} over a cable of latency
   * {@code latencyPs}, or {@link #ARRIVES}. Counts the loss.
   */
  public int lossOnArrival(int fromVertex, long nowPs, long latencyPs) {
    int eventId = lossEventOnArrival(fromVertex, nowPs, latencyPs);
    if (eventId != ARRIVES) tally.packetLost(eventId);
    return eventId;
  }

  /**
   * As {@link #lossOnArrival}, without counting: for a flit, whose packet is counted lost once, where it ends (a
   * router network's flits take {@code latencyPs} from leaving their sender's buffer to arriving).
   */
  public int lossEventOnArrival(int fromVertex, long nowPs, long latencyPs) {
    if (down) return downEventId;
    Cable cable = cables.get(fromVertex);
    return cable == null ? ARRIVES : cable.lossOf(nowPs - latencyPs, nowPs);
  }

  /** The ports of this device that lead to a neighbour. */
  public interface PortsTo {
    List<EgressPort> portsTo(int neighbour);
  }

  /** One cable's faults as its end sees them. */
  private static final class Cable {
    /** The reasons it is down for now (see {@link #reasonKey}), each with the event that made it so. */
    final Map<String, Integer> active = new TreeMap<>();
    /** The reasons whose failure this device reported and whose repair it has not, with the failure's event. */
    final Map<String, Integer> reported = new TreeMap<>();
    /** Repairs detected while the cable was still down for another reason, in detection order, to report later. */
    final List<Integer> maskedRepairs = new ArrayList<>();
    /** The last repair of each reason, by reason. */
    final Map<String, Integer> lastRepair = new TreeMap<>();
    long downSincePs;
    /** The event losses were last put down to, for the interval the cable's last repair closes. */
    int lastDownEventId = -1;
    /** Past down intervals: {start, end, event id}, in time order. */
    final List<long[]> intervals = new ArrayList<>();

    /** The event a loss is put down to while the cable is down: the latest failure still holding it down. */
    int downEventId() {
      int latest = -1;
      for (int id : active.values()) latest = Math.max(latest, id);
      lastDownEventId = latest;
      return latest;
    }

    /** The event that had the cable down at some time in [fromPs, toPs], or ARRIVES. */
    int lossOf(long fromPs, long toPs) {
      if (!active.isEmpty() && downSincePs <= toPs) return downEventId();
      for (int i = intervals.size() - 1; i >= 0; i--) {
        long[] interval = intervals.get(i);
        if (interval[1] <= fromPs) break; // it was up again when the head left, and older ones ended earlier
        if (interval[0] <= toPs) return (int) interval[2];
      }
      return ARRIVES;
    }
  }
}
