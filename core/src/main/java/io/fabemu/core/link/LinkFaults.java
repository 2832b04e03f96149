package io.fabemu.core.link;

import io.fabemu.core.fault.DirectedLink;
import io.fabemu.core.fault.FaultAction;
import io.fabemu.core.fault.FaultEvent;
import io.fabemu.core.fault.FaultPlan;
import io.fabemu.core.fault.FaultTally;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The faults of one device's links, as the device sees them: which of its cables are down and since when (and were,
 * for packets that were on the wire then), whether the device itself is down, and when it notices what happened
 * next to it. Owned by the device's {@link PacketForwarder}.
 *
 * <p>A cable can be down for several reasons at once (its own down event, either end's device down): it works again
 * only when every one of them is up again. A packet is lost on arrival when its receiver is down, or when its cable
 * was down at any time between its head leaving the sender and arriving (a packet whose head arrived before a
 * failure is delivered whole).
 */
final class LinkFaults {
  /** {@link #lossOnArrival}'s answer for a packet that arrives. */
  static final int ARRIVES = -2;

  private final int vertex;
  private final FaultPlan plan;
  private final FaultTally tally;
  private boolean down;
  private int downEventId = -1;
  /** The cables to neighbours that have had a fault, by neighbour vertex. */
  private final Map<Integer, Cable> cables = new HashMap<>();

  LinkFaults(int vertex, FaultPlan plan, FaultTally tally) {
    this.vertex = vertex;
    this.plan = plan;
    this.tally = tally;
  }

  FaultTally tally() {
    return tally;
  }

  boolean deviceDown() {
    return down;
  }

  /**
   * Applies a down, up, degrade or lossy event to this device's ports (by neighbour: {@code portsTo}) and returns
   * when this device notices it (a neighbour of what went down or up, or an end of the cable, itself up), or -1 when
   * it does not.
   */
  long apply(FaultEvent event, long nowPs, PortsTo portsTo) {
    FaultAction action = event.action();
    for (DirectedLink link : event.links()) {
      if (link.from() != vertex) continue;
      List<EgressPort> ports = portsTo.portsTo(link.to());
      switch (action) {
        case DOWN -> {
          Cable cable = cables.computeIfAbsent(link.to(), n -> new Cable());
          if (cable.reasons++ == 0) {
            cable.downSincePs = nowPs;
            cable.downEventId = event.id();
            for (EgressPort port : ports) port.setDown(event.id());
          }
        }
        case UP -> {
          Cable cable = cables.get(link.to());
          if (cable == null || cable.reasons == 0) {
            throw new IllegalStateException("vertex " + vertex + ": " + event.describe() + ", but its cable to "
                + link.to() + " is not down");
          }
          if (--cable.reasons == 0) {
            cable.intervals.add(new long[] {cable.downSincePs, nowPs, cable.downEventId});
            cable.downEventId = -1;
            for (EgressPort port : ports) port.setUp();
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
      return -1; // a device does not report itself; its neighbours do
    }
    if (down) return -1;
    return nowPs + (action == FaultAction.DOWN ? plan.settings().detectionDelayPs()
        : plan.settings().recoveryDetectionDelayPs());
  }

  /**
   * Whether this device reports what {@code event} changed next to it, now that its detection is due: a failure
   * that still holds (one repaired before enough heartbeats were missed goes unnoticed), or the repair of a failure
   * it reported, which still holds (a repair undone before the next heartbeat goes unnoticed, and one of a failure
   * nobody noticed has nothing to report).
   */
  boolean reports(FaultEvent event) {
    if (down) return false;
    Cable cable = cables.get(otherEnd(event));
    boolean cableDown = cable != null && cable.reasons > 0;
    if (event.action() == FaultAction.DOWN) {
      if (cableDown) cable.reported = true;
      return cableDown;
    }
    if (cableDown || cable == null || !cable.reported) return false;
    cable.reported = false;
    return true;
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
  int lossOnArrival(int fromVertex, long nowPs, long latencyPs) {
    int eventId = ARRIVES;
    if (down) {
      eventId = downEventId;
    } else {
      Cable cable = cables.get(fromVertex);
      if (cable != null) eventId = cable.lossOf(nowPs - latencyPs, nowPs);
    }
    if (eventId != ARRIVES) tally.packetLost(eventId);
    return eventId;
  }

  /** The ports of this device that lead to a neighbour. */
  interface PortsTo {
    List<EgressPort> portsTo(int neighbour);
  }

  /** One cable's faults as its end sees them. */
  private static final class Cable {
    int reasons;
    long downSincePs;
    int downEventId = -1;
    /** This device reported the cable down and not yet up again. */
    boolean reported;
    /** Past down intervals: {start, end, event id}, in time order. */
    final List<long[]> intervals = new ArrayList<>();

    /** The event that had the cable down at some time in [fromPs, toPs], or ARRIVES. */
    int lossOf(long fromPs, long toPs) {
      if (reasons > 0 && downSincePs <= toPs) return downEventId;
      for (int i = intervals.size() - 1; i >= 0; i--) {
        long[] interval = intervals.get(i);
        if (interval[1] <= fromPs) break; // it was up again when the head left, and older ones ended earlier
        if (interval[0] <= toPs) return (int) interval[2];
      }
      return ARRIVES;
    }
  }
}
