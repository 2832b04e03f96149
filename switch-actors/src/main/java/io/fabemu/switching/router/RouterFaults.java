package io.fabemu.switching.router;

import io.fabemu.core.fault.FaultEvent;
import io.fabemu.core.fault.FaultPlan;
import io.fabemu.core.fault.FaultReport;
import io.fabemu.core.fault.FaultTally;
import io.fabemu.core.link.LinkFaults;
import io.fabemu.core.protocol.DeviceProtocol.FailureNotice;
import io.fabemu.core.protocol.DeviceProtocol.FaultCommand;
import io.fabemu.core.protocol.DeviceProtocol.FaultDetected;
import io.fabemu.core.protocol.DeviceProtocol.Flit;
import io.fabemu.core.router.RouterSpec;
import io.fabemu.core.sim.Outbox;
import java.util.List;

/**
 * The fault handling of a {@link RouterCore} in a run with a fault plan (see the router's class comment, "Detours and
 * faults"): which ports are dead, the worms cut where a port dies, the packets lost at a dead port or in a router
 * that goes down, the cut flits a router adds (which took no credit and return none, so the credits stay exact
 * across failures), the router's {@link LinkFaults} with its noticing and reporting, and its {@link FaultTally}.
 *
 * <p>A router without a fault plan holds {@link #NONE}, which has no state: every port lives, nothing is lost, no
 * slot is unpaid, and it refuses fault payloads (the router does). The router's state it reaches only through the
 * narrow {@link Buffers}. The flit path calls only final methods of this class, each one field test when faults are
 * off; nothing here allocates per flit except the cut flit a dying port needs.
 */
final class RouterFaults {
  /** The router state fault handling touches: its input buffers, output channels and credits. */
  interface Buffers {
    int deviceId();

    int portCount();

    /** Virtual channels per port (input channel {@code iv = port * vcCount + vc}, output alike). */
    int vcCount();

    /** Slots per input virtual channel's ring buffer (buffer slot {@code iv * ringSize + position}). */
    int ringSize();

    /** The device at the other end of port {@code port}. */
    int neighbour(int port);

    /** Whether the device at the other end of port {@code port} is a router. */
    boolean toRouter(int port);

    /** Flits buffered in input virtual channel {@code iv}. */
    int bufferedFlits(int iv);

    /** The buffer slot of the {@code k}-th flit (from the front) of input virtual channel {@code iv}. */
    int slotOf(int iv, int k);

    Flit flitAt(int slot);

    void setFlitAt(int slot, Flit flit);

    /** The index the next flit arriving on {@code iv} must have; 0 when no worm is arriving on it. */
    int nextArrivingIndex(int iv);

    /** Puts {@code flit} behind the buffered ones of {@code iv} (a held flit more) and returns its slot. */
    int append(int iv, Flit flit, long cycle);

    /** The worm arriving on {@code iv} ended (its tail, or a cut flit, is buffered). */
    void endArrivingWorm(int iv);

    /** The input virtual channel holding output virtual channel {@code ov}, or -1. */
    int outputVcOwner(int ov);

    /** Returns upstream the credit of a flit of input channel {@code iv} that left or was lost at {@code cycle}. */
    void returnCredit(int iv, boolean tail, long cycle, Outbox outbox);

    /** Empties every buffer and frees every channel (the router went down). */
    void emptyAll();

    /** Asks for an evaluation when the router holds flits. */
    void wake(Outbox outbox);
  }

  /** A router's fault handling in a run without faults: no state, nothing dead, nothing lost. */
  static final RouterFaults NONE = new RouterFaults();

  private final boolean active;
  private final Buffers router;
  private final FaultPlan plan;
  private final LinkFaults links;
  private final int managementDevice;
  private final int vcCount;
  private final long cyclePs;
  /** Virtual time a flit takes from leaving a router's buffer, or a NIC, to arriving here. */
  private final long routerFlightPs;
  private final long nicFlightPs;
  /** Per port: whether it is dead (its cable down, or this router down). */
  private final boolean[] portDead;
  /** Per output virtual channel: whether its packet's flits are being lost (its head went to a dead port). */
  private final boolean[] discarding;
  /** Per buffer slot: whether its flit is a cut flit this router added, which took no credit and returns none. */
  private final boolean[] unpaidSlot;
  /** Per input virtual channel: added cut flits it holds (at most one: see {@link Buffers#ringSize}). */
  private final int[] unpaidHeld;
  /** Per input virtual channel: the last flit that arrived (to close its worm if the port dies). */
  private final Flit[] lastArrived;

  private RouterFaults() {
    this.active = false;
    this.router = null;
    this.plan = null;
    this.links = null;
    this.managementDevice = -1;
    this.vcCount = 0;
    this.cyclePs = 0;
    this.routerFlightPs = 0;
    this.nicFlightPs = 0;
    this.portDead = null;
    this.discarding = null;
    this.unpaidSlot = null;
    this.unpaidHeld = null;
    this.lastArrived = null;
  }

  /**
   * The fault handling of the router {@code router} under {@code plan}, reporting what it notices to
   * {@code managementDevice}; {@code spec} gives the router's clock and pipeline.
   */
  RouterFaults(Buffers router, FaultPlan plan, int managementDevice, RouterSpec spec) {
    this.active = true;
    this.router = router;
    this.plan = plan;
    this.links = new LinkFaults(router.deviceId(), plan, new FaultTally(plan.eventCount()));
    this.managementDevice = managementDevice;
    this.vcCount = router.vcCount();
    this.cyclePs = spec.cyclePs();
    int grantToArrivalCycles = spec.switchAllocationCycles() + spec.traversalCycles() + spec.linkLatencyCycles();
    this.routerFlightPs = grantToArrivalCycles * cyclePs - cyclePs / 2;
    this.nicFlightPs = spec.linkLatencyCycles() * cyclePs - cyclePs / 2;
    int inputVcs = router.portCount() * vcCount;
    this.portDead = new boolean[router.portCount()];
    this.discarding = new boolean[inputVcs];
    this.unpaidSlot = new boolean[inputVcs * router.ringSize()];
    this.unpaidHeld = new int[inputVcs];
    this.lastArrived = new Flit[inputVcs];
  }

  /** Whether this is a run with faults (false for {@link #NONE}). */
  boolean active() {
    return active;
  }

  // ---------------------------------------------------------------- the flit path

  /**
   * Flit {@code flit} arrives on input channel {@code iv} at {@code cycle}: when it is lost (its port dead, or it
   * was on the wire while the cable was down) its credit goes back, its packet is counted lost if it is the head, and
   * this answers true; else the flit is remembered as the last that arrived there.
   */
  boolean dropsOnArrival(Flit flit, int iv, long cycle, Outbox outbox) {
    int port = iv / vcCount;
    int neighbour = router.neighbour(port);
    int lostTo = links.lossEventOnArrival(neighbour, outbox.nowPs(),
        router.toRouter(port) ? routerFlightPs : nicFlightPs);
    if (lostTo == LinkFaults.ARRIVES && portDead[port]) lostTo = links.lossEventAt(neighbour);
    if (lostTo == LinkFaults.ARRIVES) {
      lastArrived[iv] = flit;
      return false;
    }
    router.returnCredit(iv, flit.isTail(), cycle, outbox);
    if (flit.isHead()) links.tally().packetLost(flit.isCut() ? flit.cutByEvent() : lostTo);
    return true;
  }

  /** Whether port {@code port} is dead (what it is given is lost, needing no credit). */
  boolean isPortDead(int port) {
    return active && portDead[port];
  }

  /** Whether what output virtual channel {@code ov} sends is lost: its port is dead, or its packet's head was. */
  boolean losesAt(int ov) {
    return active && (portDead[ov / vcCount] || discarding[ov]);
  }

  /** Added cut flits input channel {@code iv} holds (they took no credited slot). */
  int unpaidHeld(int iv) {
    return active ? unpaidHeld[iv] : 0;
  }

  /** The flit in buffer slot {@code slot} of {@code iv} leaves: whether it took a credit (so returns one). */
  boolean leavesPaid(int slot, int iv) {
    if (!active || !unpaidSlot[slot]) return true;
    unpaidSlot[slot] = false;
    unpaidHeld[iv]--;
    return false;
  }

  /**
   * Flit {@code flit} is lost at output virtual channel {@code ov} of port {@code port} (see {@link #losesAt}): its
   * packet is counted lost once, where the head goes, and the channel goes on losing until the tail.
   */
  void loseAt(Flit flit, int ov, int port) {
    if (flit.isHead()) {
      links.tally().packetLost(flit.isCut() ? flit.cutByEvent() : links.lossEventAt(router.neighbour(port)));
    }
    discarding[ov] = !flit.isTail();
  }

  // ---------------------------------------------------------------- fault payloads

  /** Applies a fault event of the plan to the router's ports at its scenario time. */
  void onFaultCommand(FaultCommand command, Outbox outbox) {
    boolean wasDown = links.isDown();
    FaultEvent event = FaultEvent.of(command);
    long noticePs = links.apply(event, outbox.nowPs(), n -> List.of());
    if (noticePs >= 0) outbox.send(router.deviceId(), noticePs, new FaultDetected(event.id()));
    // A fault comes at its scenario time, seldom a cycle edge: what it frees is credited from the next edge on.
    long cycle = Math.floorDiv(outbox.nowPs() + cyclePs - 1, cyclePs);
    if (!wasDown && links.isDown()) loseEverything(links.lossEventAt(-1), cycle, outbox);
    for (int port = 0; port < portDead.length; port++) {
      boolean dead = links.isDown() || links.cableDown(router.neighbour(port));
      if (dead && !portDead[port]) {
        cutArrivingWorms(port, links.lossEventAt(router.neighbour(port)), cycle);
        loseLeavingWorms(port);
      }
      portDead[port] = dead;
    }
    // A dead port takes what waited for it; a cut worm's last flit may leave.
    router.wake(outbox);
  }

  /** The router noticed a fault (or repair) of the plan: tells the management node what it reports. */
  void onFaultDetected(FaultDetected detected, Outbox outbox) {
    for (int eventId : links.reports(plan.event(detected.eventId()))) {
      outbox.send(managementDevice, outbox.nowPs() + plan.settings().managementLatencyPs(),
          new FailureNotice(eventId, router.deviceId(), outbox.nowPs()));
    }
  }

  /** What faults did at this router, for its report; null without faults. */
  FaultReport report() {
    return active ? new FaultReport(links.tally().copy(), List.of(), null, List.of()) : null;
  }

  /**
   * Port {@code port} died: each worm arriving on it (head in, tail not) is closed by a cut flit, its last buffered
   * flit or, when all of them have left, one added for the purpose (which took no credit).
   */
  private void cutArrivingWorms(int port, int eventId, long cycle) {
    for (int vc = 0; vc < vcCount; vc++) {
      int iv = port * vcCount + vc;
      int next = router.nextArrivingIndex(iv);
      if (next == 0) continue;
      int buffered = router.bufferedFlits(iv);
      if (buffered > 0) {
        int last = router.slotOf(iv, buffered - 1);
        router.setFlitAt(last, router.flitAt(last).cutBy(eventId));
      } else {
        Flit previous = lastArrived[iv];
        Flit cut = new Flit(previous.packet(), next, previous.inputPort(), previous.vc(), previous.hops(), eventId);
        unpaidSlot[router.append(iv, cut, cycle)] = true;
        unpaidHeld[iv]++;
      }
      router.endArrivingWorm(iv);
    }
  }

  /**
   * Port {@code port} died: each worm leaving by it (its head gone, its tail not) loses its remaining flits, even
   * those that leave after the port is back, since the device downstream closed the worm when the port died.
   */
  private void loseLeavingWorms(int port) {
    for (int vc = 0; vc < vcCount; vc++) {
      int ov = port * vcCount + vc;
      int iv = router.outputVcOwner(ov);
      if (iv >= 0 && (router.bufferedFlits(iv) == 0 || !router.flitAt(router.slotOf(iv, 0)).isHead())) {
        discarding[ov] = true;
      }
    }
  }

  /** This router went down: every flit it holds is lost (their credits go back), every channel is free. */
  private void loseEverything(int eventId, long cycle, Outbox outbox) {
    for (int iv = 0; iv < unpaidHeld.length; iv++) {
      for (int k = 0; k < router.bufferedFlits(iv); k++) {
        int slot = router.slotOf(iv, k);
        Flit flit = router.flitAt(slot);
        if (unpaidSlot[slot]) {
          unpaidSlot[slot] = false;
          unpaidHeld[iv]--;
        } else {
          router.returnCredit(iv, flit.isTail(), cycle, outbox);
        }
        if (flit.isHead()) links.tally().packetLost(flit.isCut() ? flit.cutByEvent() : eventId);
      }
      discarding[iv] = false;
    }
    router.emptyAll();
  }
}
